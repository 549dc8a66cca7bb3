/**
 * A model read from a FileSystem (an archive or a game folder, archive-input.ts) as glTF export takes it: a model
 * file, an md5mesh with its md5anims, or a Quake 3 player folder — every failure attributed to the member it comes
 * from (`pak0.pk3:models/x.md3:byte 84: BAD_COUNT: …`), every warning too. Shared by `convert ARCHIVE:INNER` and
 * each job of `convert --all` (batch-worker.ts), so both read the same bytes the same way.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { Md2Model, Md3Model, Md5Mesh } from '../base/model.js';
import type { GltfModel, NamedMd5Anim } from '../export/gltf.js';
import { kindFromName } from '../formats/detect.js';
import type { CatalogKind } from '../load/catalog.js';
import { folderChildren, isPlayerFolder, loadFromVfs, loadPlayerFrom, playerOrigin, requireFile } from '../load/vfs-models.js';
import { assertAnimMatchesMesh } from '../pose/md5-poser.js';
import type { FileSystem } from '../vfs/file-system.js';
import { badInput, InputError, load, READABLE } from './input.js';
import { baseName } from './md5-inputs.js';
import { exportWarnings, parseWarnings, type FileWarning } from './warnings.js';

export interface FsModelRequest {
  kind: CatalogKind;
  /** The model file, or the player folder. */
  path: string;
  /** md5mesh: the md5anims to play on it. */
  anims: readonly string[];
}

export interface FsModel {
  model: GltfModel;
  /** Where it comes from, for messages: the model file's origin, or the player folder's. */
  origin: string;
  anims: NamedMd5Anim[];
  warnings: FileWarning[];
}

/**
 * What `inner` names in `fs`: a model file (by extension) or a player folder. `label` names the input in messages
 * (`pak0.pk3:models/x`).
 */
export async function requestFor(fs: FileSystem, inner: string, label: string): Promise<FsModelRequest> {
  const file = inner ? await fs.file(inner) : null;
  if (file) {
    const kind = kindFromName(file.path);
    if (kind === 'md5anim') throw badInput(label, 'an .md5anim plays on its .md5mesh: convert the .md5mesh with --anim (an inner path of the same archive)');
    if (kind !== 'md2' && kind !== 'md3' && kind !== 'md5mesh') throw badInput(label, `not a model file this tool reads (${READABLE})`);
    return { kind, path: file.path, anims: [] };
  }
  if (isPlayerFolder(await folderChildren(fs, inner))) return { kind: 'player', path: inner, anims: [] };
  throw badInput(label, 'no such model file or Quake 3 player folder in the archive');
}

/**
 * Loads what `req` names. An md5anim whose joints differ from the mesh's fails the load (`onMismatch: 'fail'`, as
 * `convert MESH --anim ANIM` does) or is left out with an ANIM_MESH_MISMATCH warning (`'skip'`: a batch plays the
 * anims lying beside a mesh, and a folder may hold two meshes' anims).
 */
export async function loadFsModel(fs: FileSystem, req: FsModelRequest, onMismatch: 'fail' | 'skip'): Promise<FsModel> {
  if (req.kind === 'player') {
    const p = await load(req.path, () => loadPlayerFrom(fs, req.path, (f, read) => load(f.origin, read)));
    return { model: { models: p.models, animations: p.animations }, origin: playerOrigin(p.files[0]), anims: [], warnings: p.warnings.flatMap((w) => parseWarnings(w.file, w.warnings)) };
  }
  const file = await load(req.path, () => requireFile(fs, req.path));
  const kind = req.kind;
  const model: Md2Model | Md3Model | Md5Mesh = await load<Md2Model | Md3Model | Md5Mesh>(file.origin, () => (kind === 'md2' ? loadFromVfs.md2(file) : kind === 'md3' ? loadFromVfs.md3(file) : loadFromVfs.md5mesh(file)));
  const warnings = parseWarnings(file.origin, model.warnings ?? []);
  const anims: NamedMd5Anim[] = [];
  if (model.format !== 'md5mesh') return { model, origin: file.origin, anims, warnings };
  for (const path of req.anims) {
    const f = await load(path, () => requireFile(fs, path));
    const anim = await load(f.origin, () => loadFromVfs.md5anim(f));
    try {
      assertAnimMatchesMesh(model, anim);
    } catch (e) {
      if (onMismatch === 'fail' || !(e instanceof ModelParseError)) throw new InputError(f.origin, e, `played on ${file.origin}`);
      warnings.push(...exportWarnings(f.origin, [{ code: ErrorCode.AnimMeshMismatch, message: `${e.detail}: not played on ${file.path}`, offset: 0 }]));
      continue;
    }
    anims.push({ name: baseName(f.path), anim });
  }
  return { model, origin: file.origin, anims, warnings };
}
