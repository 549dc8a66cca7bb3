/**
 * The files a studio model reads beside it, found as the engines find them:
 * - `<name>T.mdl` when the model has no textures of its own (studiomdl's `$externaltextures`): Xash3D-FWGS
 *   Mod_LoadStudioModel strips the model's extension and appends `T.mdl`, as GoldSrc does;
 * - `<name>NN.mdl` for sequence group NN ≥ 1 (`IDSQ`), loaded when a sequence of that group plays: Xash3D-FWGS
 *   R_StudioGetAnim builds the name from the model's own path and the group's number (`%s/%s%i%i.mdl`, "because
 *   stupid user may rename model without recompile"), not from the path stored in the group record.
 * Names are looked up through the FileSystem, whose keys fold case as the engines' file systems do (real folders
 * ship `namet.mdl`). A group file that is missing is a warning naming it; its sequences are left out.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { CompanionSearch } from '../../load/format.js';
import { fileHead, type FileSystem } from '../../vfs/file-system.js';
import { SIZE } from './limits.js';
import type { GoldsrcModel } from './model.js';

const stemOf = (path: string) => path.replace(/\.[^./\\]*$/, '');

/** `<name>T.mdl`'s path, and group g's `<name>NN.mdl`. */
export const textureFilePath = (path: string) => `${stemOf(path)}T.mdl`;
export const seqGroupPath = (path: string, group: number) => `${stemOf(path)}${Math.floor(group / 10) % 10}${group % 10}.mdl`;

/** The companions of the model at `path`, from its header: the texture file (when it has no textures), each group file found. */
export async function goldsrcCompanionsBeside(fs: FileSystem, path: string, options: CompanionSearch = {}): Promise<string[]> {
  const file = await fs.file(path);
  if (!file) return [];
  const head = await fileHead(file, SIZE.header, options.signal);
  if (head.length < SIZE.header) return [];
  const v = new DataView(head.buffer, head.byteOffset, head.length);
  if (v.getInt32(0, true) !== 0x54534449) return [];
  const out: string[] = [];
  if (v.getInt32(180, true) === 0) {
    const t = await fs.file(textureFilePath(path));
    if (t) out.push(t.path);
    else options.onWarning?.(file.origin, { code: 'MISSING_FILE', message: `no textures in the model and no ${textureFilePath(path).split('/').pop()} beside it: drawn untextured`, offset: 180 });
  }
  const groups = Math.min(v.getInt32(172, true), 100);
  for (let g = 1; g < groups; g++) {
    const p = seqGroupPath(path, g);
    const f = await fs.file(p);
    if (f) out.push(f.path);
    else options.onWarning?.(file.origin, { code: 'MISSING_FILE', message: `sequence group ${g} is in ${p.split('/').pop()}, which is not beside the model: its sequences are not played`, offset: 172 });
  }
  return out;
}

/** Whether a parsed companion fits: a group file (`IDSQ`) or a texture file (textures, no bones or body parts). */
export function goldsrcAcceptsCompanion(_model: GoldsrcModel, companion: unknown, format: string, _warnings: ParseWarning[]): string | null {
  if (format !== 'hl1mdl') return `a ${format} file does not play on a Half-Life studio model`;
  const c = companion as GoldsrcModel;
  if (c.kind === 'seqgroup') return null;
  if (c.textures.length > 0 && c.bones.length === 0 && c.bodyParts.length === 0) return null;
  return 'a studio model with bones or body parts of its own is neither a texture file nor a sequence group';
}

/** A model set's companions sorted out: its texture file, and its group files by group number (by their names). */
export function goldsrcParts(model: GoldsrcModel, companions: readonly { path: string; data: unknown }[], path: string): { textures: GoldsrcModel | null; groups: Map<number, GoldsrcModel> } {
  let textures: GoldsrcModel | null = null;
  const groups = new Map<number, GoldsrcModel>();
  for (const c of companions) {
    const d = c.data as GoldsrcModel;
    if (d.kind === 'studio') textures ??= d;
    else {
      for (let g = 1; g < model.seqGroups.length; g++) if (seqGroupPath(path, g).toLowerCase().split('/').pop() === c.path.toLowerCase().split('/').pop()) groups.set(g, d);
    }
  }
  return { textures, groups };
}
