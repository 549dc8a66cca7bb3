/**
 * What a file of ../shared/models is, from its MANIFEST row and its own bytes — never from its extension alone: `.mdl`
 * is both Quake's model (`IDPO`; Hexen II's `RAPO`; `MD16`) and Half-Life's studio model (`IDST`, sequence groups
 * `IDSQ`, read by formats/goldsrc and told apart by those first bytes), and the corpus also holds model formats this
 * build does not read (RTCW/ET MDC, MDS, MDM/MDX).
 * Tests select what they exercise here, so a corpus that grows adds files to the right tests and only to them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { manifest, read, type ManifestRow } from './models.js';

/** The file's first four bytes as Latin-1 text (a binary format's ident). */
export function magicOf(row: ManifestRow): string {
  const fd = openSync(row.absPath, 'r');
  try {
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    return head.subarray(0, n).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/** Idents of Quake's MDL that formats/mdl reads. */
export const QUAKE_MDL_MAGICS = ['IDPO', 'RAPO', 'MD16'];
/** Half-Life's studio model and its sequence-group files (MANIFEST format `hl1mdl`). */
export const GOLDSRC_MDL_MAGICS = ['IDST', 'IDSQ'];

/** A Quake MDL: MANIFEST says `mdl` and the bytes agree (a disagreement is the corpus' mistake, and stops the test). */
export function quakeMdl(row: ManifestRow): boolean {
  if (row.format !== 'mdl') return false;
  const m = magicOf(row);
  if (!QUAKE_MDL_MAGICS.includes(m)) throw new Error(`MANIFEST calls ${row.path} a Quake mdl; its ident is ${JSON.stringify(m)}`);
  return true;
}

/** A Half-Life (GoldSrc) studio model or sequence group: `.mdl` too, `IDST`/`IDSQ`. */
export function goldsrcMdl(row: ManifestRow): boolean {
  if (row.format !== 'hl1mdl') return false;
  const m = magicOf(row);
  if (!GOLDSRC_MDL_MAGICS.includes(m)) throw new Error(`MANIFEST calls ${row.path} a GoldSrc mdl; its ident is ${JSON.stringify(m)}`);
  return true;
}

/**
 * A GoldSrc file that is no model of its own: a sequence group (`IDSQ`) or a texture file (`<name>T.mdl`: `IDST` with
 * no bones and no body parts) — read with the model beside it, never listed on its own. From the header, by hand.
 */
export function goldsrcCompanionOnly(row: ManifestRow): boolean {
  if (!goldsrcMdl(row)) return false;
  if (magicOf(row) === 'IDSQ') return true;
  const b = read(row.absPath);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return v.getInt32(140, true) === 0 && v.getInt32(204, true) === 0;
}

/**
 * MANIFEST formats of the corpus: model files (id formats and their descendants) and everything else (side files a
 * model uses, licences, reference values, glTF samples). A format neither lists stops the tests that ask: a corpus
 * that grows with a new kind of file is sorted here by hand, once.
 */
const MODEL_FORMATS = ['md2', 'md3', 'md5mesh', 'md5anim', 'md5camera', 'mdl', 'iqm', 'hl1mdl', 'mdc', 'mds', 'mdm', 'mdx'];
const OTHER_FORMATS = ['cfg', 'image', 'json', 'licence', 'mtr', 'palette', 'shader', 'skin', 'gltf'];

export function isModelFile(row: ManifestRow): boolean {
  if (MODEL_FORMATS.includes(row.format)) return true;
  if (OTHER_FORMATS.includes(row.format)) return false;
  throw new Error(`MANIFEST format "${row.format}" (${row.path}) is sorted neither as a model nor as a side file (helpers/corpus-kinds.ts)`);
}

/** A model format a registration of this build claims by its id (md2, md3, md5mesh, md5anim, md5camera, mdl, iqm, hl1mdl). */
export const registered = (format: string) => DEFAULT_FORMATS.some((f) => f.id === format);

/** Model files of formats this build does not read (RTCW/ET MDS, MDM/MDX): each one's MANIFEST row. */
export const unreadModelFiles = (rows: ManifestRow[] = manifest()): ManifestRow[] => rows.filter((r) => isModelFile(r) && !registered(r.format));

/**
 * The unread model files a catalog of this build lists anyway because their extension is one a registration claims:
 * each would be listed as that format and refused by its parser (none since GoldSrc's `.mdl` is read: `.mdc`, `.mds`,
 * `.mdm`, `.mdx` are no model to this build, never listed).
 */
export function unreadButListed(rows: ManifestRow[] = manifest()): ManifestRow[] {
  const claimed = DEFAULT_FORMATS.flatMap((f) => (f.role === 'model' ? f.extensions : [])).map((e) => e.toLowerCase());
  return unreadModelFiles(rows).filter((r) => claimed.some((e) => r.path.toLowerCase().endsWith(e)));
}

/** An md5 file's header value (`numFrames 501`, `frameRate 60` …), read from its text (no parser of this project). */
export function md5Header(row: ManifestRow, key: string): number {
  const m = new RegExp(`^\\s*${key}\\s+(\\d+)\\s*$`, 'm').exec(new TextDecoder('latin1').decode(read(row.absPath).subarray(0, 4096)));
  if (!m) throw new Error(`${row.path} has no ${key} line in its header`);
  return Number(m[1]);
}
