/**
 * An md5mesh and the md5anims to play on it, loaded and checked against it, each failure blamed on its own file:
 * an anim whose joints differ from the mesh's is the anim's fault (`anim.md5anim: ANIM_MESH_MISMATCH: …`), since
 * the mesh is fine on its own and with its own anims. Used by `convert` (OBJ and glTF) and `bench`.
 */
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { loadMd5Anim, loadMd5Mesh } from '../load/node.js';
import { assertAnimMatchesMesh } from '../pose/md5-poser.js';
import { UsageError } from './args.js';
import { InputError, kindOf, load } from './input.js';

export interface NamedAnim {
  path: string;
  /** The file's name without folder and extension (`idle` for `drone/idle.md5anim`): the clip's name. */
  name: string;
  anim: Md5Anim;
}

export const baseName = (p: string): string => (p.split(/[\\/]/).pop() ?? p).replace(/\.[^.]*$/, '');

/** Loads `meshPath`, then each anim (which must be an .md5anim) and checks it fits the mesh. */
export async function loadMd5WithAnims(command: string, meshPath: string, animPaths: readonly string[]): Promise<{ mesh: Md5Mesh; anims: NamedAnim[] }> {
  const mesh = await load(meshPath, () => loadMd5Mesh(meshPath));
  const anims: NamedAnim[] = [];
  for (const path of animPaths) {
    const kind = await kindOf(path);
    if (kind !== 'md5anim') throw new UsageError(`${path}: --anim takes an .md5anim, not an .${kind}`, command);
    const anim = await load(path, () => loadMd5Anim(path));
    try {
      assertAnimMatchesMesh(mesh, anim);
    } catch (e) {
      throw new InputError(path, e, `played on ${meshPath}`);
    }
    anims.push({ path, name: baseName(path), anim });
  }
  return { mesh, anims };
}
