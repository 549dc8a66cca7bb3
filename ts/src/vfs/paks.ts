/**
 * Which numbered .pak files of a game folder the engines mount (docs/archives.md, "Mounting"):
 *
 * - Quake (common.c COM_AddGameDirectory; QuakeSpasm the same): `pak0.pak`, `pak1.pak` … while each exists —
 *   the first missing number ends the list, so `pak3.pak` after a missing `pak2.pak` is never read;
 * - Quake 2 (qcommon/files.c FS_AddGameDirectory): `pak0.pak` … `pak9.pak`, skipping missing ones.
 *
 * The engines open `<dir>/pak%i.pak` by that exact name; a folder listing here matches it ignoring case (a Windows
 * file system does). Other `.pak` files are not mounted; a numbered one left out is reported (PAK_NOT_MOUNTED).
 */
import type { ParseWarning } from '../base/errors.js';
import { pathKey, type VfsFile } from './file-system.js';

export type PakNumbering = 'quake' | 'quake2';

const NUMBERED = /^pak(0|[1-9][0-9]*)\.pak$/;

/** The paks `files` (a folder's top-level files) mount, in mount order (pak0 first: each later one overrides it). */
export function mountedPaks(files: readonly VfsFile[], numbering: PakNumbering): { files: VfsFile[]; warnings: ParseWarning[] } {
  const byNumber = new Map<number, VfsFile>();
  for (const f of files) {
    const m = NUMBERED.exec(pathKey(f.path));
    if (m) byNumber.set(Number(m[1]), f);
  }
  const out: VfsFile[] = [];
  if (numbering === 'quake2') {
    for (let i = 0; i < 10; i++) if (byNumber.has(i)) out.push(byNumber.get(i)!);
  } else {
    for (let i = 0; byNumber.has(i); i++) out.push(byNumber.get(i)!);
  }
  const warnings: ParseWarning[] = [];
  for (const [n, f] of [...byNumber].sort((a, b) => a[0] - b[0])) {
    if (out.includes(f)) continue;
    const why = numbering === 'quake2' ? 'Quake 2 mounts pak0.pak to pak9.pak' : `Quake stops at the first missing number (pak${out.length}.pak); Quake 2 mounts pak0–pak9 with gaps: { paks: 'quake2' }`;
    warnings.push({ code: 'PAK_NOT_MOUNTED', message: `${f.origin}: pak${n}.pak is not mounted: ${why}`, offset: 0 });
  }
  return { files: out, warnings };
}
