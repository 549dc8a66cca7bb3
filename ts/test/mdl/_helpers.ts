/** Shared helpers of the MDL tests (not a test file itself). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MdlModel } from '../../src/base/model.js';
import { MdlParser } from '../../src/formats/mdl/index.js';
import { quakeMdl } from '../helpers/corpus-kinds.js';
import { SHARED_MODELS, manifest, read, type ManifestRow } from '../helpers/models.js';

export { catchParse, diff, splitAt } from '../md5/_helpers.js';
export { catchParseAsync, typedBytes } from '../md2/_helpers.js';

/** LibreQuake's folder in the corpus (lq1: gfx/palette.lmp, progs/*.mdl). */
export const LQ1 = join(SHARED_MODELS, 'LibreQuake', 'lq1');
export const PALETTE_PATH = join(LQ1, 'gfx', 'palette.lmp');

/**
 * Every Quake MDL the MANIFEST lists (LibreQuake's 82), its ident checked (helpers/corpus-kinds.ts: Half-Life's
 * `.mdl` files are not these); throws when one is missing.
 */
export function mdlRows(): ManifestRow[] {
  const rows = manifest().filter((r) => existsSync(r.absPath) ? quakeMdl(r) : r.format === 'mdl');
  for (const r of rows) if (!existsSync(r.absPath)) throw new Error(`MANIFEST lists ${r.path}, not found`);
  if (rows.length === 0) throw new Error('MANIFEST lists no mdl');
  return rows;
}

export const readRow = (r: ManifestRow) => read(r.absPath);

/** A note of the MANIFEST row (`skins=3 verts=141 …`). */
export function note(row: ManifestRow, key: string): number {
  const m = new RegExp(`\\b${key}=(\\d+)`).exec(row.notes);
  if (!m) throw new Error(`MANIFEST note of ${row.path} has no ${key}`);
  return Number(m[1]);
}

export function fromChunks(chunks: readonly Uint8Array[]): MdlModel {
  const p = new MdlParser();
  for (const c of chunks) p.write(c);
  return p.end();
}
