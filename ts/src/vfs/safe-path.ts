/**
 * Where an output for an inner archive path may be written: always strictly inside the output folder. Pure string
 * work (no file system), the same in Node and the browser, for the CLI's `convert … --all -o OUTDIR`, which mirrors
 * inner paths. Refused (UNSAFE_PATH), whatever the platform the archive was made on or the output is written on:
 * absolute paths ('/x', '\x', UNC '\\host\x'), drive letters ('C:x'), '..' segments, NUL and control characters
 * (C0, DEL and C1: U+0000–U+001F, U+007F–U+009F), the invisible bidirectional formatting characters (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C: a .glb named 'a\u202Egnp.glb' is listed as 'ablg.png', its name lying about
 * its type), ':' anywhere (a drive or an NTFS alternate stream), Windows device names (CON, NUL, COM1 … with any
 * extension),
 * and segments ending in '.' or ' ' (Windows silently drops them, so 'a.' would become 'a'). '.' and empty segments
 * are dropped, '\' is a separator. It cannot see symbolic links already inside the output folder: the caller
 * creates folders itself and does not follow links it did not make.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';

const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/** Refused in a name: C0, DEL, C1, and the bidirectional formatting characters (marks, embeddings, overrides, isolates). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The name in quotes, as JSON writes it, with the characters JSON leaves raw (DEL, C1, bidi) escaped too. */
const quoted = (inner: string) => JSON.stringify(inner).replace(new RegExp(CONTROL.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function unsafe(inner: string, why: string): ModelParseError {
  return new ModelParseError(ErrorCode.UnsafePath, `${quoted(inner)}: ${why}`, { offset: 0 });
}

/** The inner path's safe relative form ('/'-separated, no '.' or empty segments), or UNSAFE_PATH. */
export function safeRelativePath(inner: string): string {
  if (CONTROL.test(inner)) throw unsafe(inner, 'a control character, NUL or bidirectional formatting character');
  const p = inner.replace(/\\/g, '/');
  if (p.startsWith('/')) throw unsafe(inner, 'an absolute path');
  if (p.includes(':')) throw unsafe(inner, 'a drive letter or a colon');
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) throw unsafe(inner, 'no file name');
  for (const s of segments) {
    if (s === '..') throw unsafe(inner, "a '..' segment");
    if (DEVICE.test(s)) throw unsafe(inner, `a Windows device name (${s})`);
    if (/[. ]$/.test(s)) throw unsafe(inner, `a segment ending in '.' or ' ' (${s})`);
  }
  return segments.join('/');
}

/**
 * `outputDir` joined with the inner path's safe form, with `outputDir`'s own separator style: the place to write
 * the output for `inner`, or UNSAFE_PATH. `outputDir` itself is trusted (the user chose it).
 */
export function safeOutputPath(outputDir: string, inner: string): string {
  const rel = safeRelativePath(inner);
  if (outputDir === '') return rel;
  const sep = outputDir.includes('\\') && !outputDir.includes('/') ? '\\' : '/';
  return `${outputDir.replace(/[\\/]+$/, '')}${sep}${sep === '\\' ? rel.replace(/\//g, '\\') : rel}`;
}

/**
 * Paths a script names inside a game (a Tesseract `iqm.cfg`'s `exec`, `iqmload`, `iqmanim`, `iqmdir`, textures): why
 * one may be followed nowhere, or null. A control character or NUL, an absolute path ('/x', '\x', '\\host\x') or a
 * drive letter ('C:x') — the engine looks them up from its data folders only; a game file's name never is one.
 */
export function scriptPathProblem(path: string): string | null {
  if (/[\x00-\x1f]/.test(path)) return 'a control character or NUL';
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(p)) return 'a drive letter';
  return null;
}

/** A path's segments ('\' a separator, '.' and empty ones dropped, '..' taking one back, a leading '..' kept) and whether it is absolute. */
function segmentsOf(path: string): { absolute: boolean; segments: string[] } {
  const p = path.replace(/\\/g, '/');
  const segments: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..' && segments.length && segments[segments.length - 1] !== '..') segments.pop();
    else segments.push(s);
  }
  return { absolute: p.startsWith('/'), segments };
}

/**
 * Whether `path` is `root` or lies under it, once both are normalised ('..' taken back, case ignored, as the game
 * file systems look names up): a path that climbs out of `root` by `..`, or an absolute path under a relative root,
 * is not. `root` '' is a file system's root: every relative path that does not start by climbing.
 */
export function isUnderRoot(root: string, path: string): boolean {
  const r = segmentsOf(root);
  const p = segmentsOf(path);
  if (r.absolute !== p.absolute || p.segments.length < r.segments.length) return false;
  for (let i = 0; i < r.segments.length; i++) if (r.segments[i].toLowerCase() !== p.segments[i].toLowerCase()) return false;
  return !p.segments.slice(r.segments.length).includes('..');
}

/**
 * The root a model's side files are confined to when its caller names none: the file system's root for a relative
 * path (an archive, a mounted game folder), else — a path from the disk's root, or one climbing above the working
 * folder — the model's own folder.
 */
export function defaultModelRoot(modelPath: string): string {
  const { absolute, segments } = segmentsOf(modelPath);
  if (!absolute && segments[0] !== '..') return '';
  const folder = segments.slice(0, -1).join('/');
  return absolute ? `/${folder}` : folder;
}
