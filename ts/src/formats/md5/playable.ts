/** MD5 as a playable model: the mesh's meshes as parts, each md5anim a clip (none: the bind pose). */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { Md5Poser } from '../../pose/md5-poser.js';
import { buildSkinStream } from '../../pose/skin-stream.js';
import { concatUvs, partsBackToBack, poserPlayer, type Clip, type ModelPlayer, type PlayableModel } from '../../playable/playable.js';

/** An md5mesh and the md5anims that play on it (checked against it when the model set was read), each a clip. */
export function md5Playable(mesh: Md5Mesh, named: readonly { name: string; anim: Md5Anim; scales?: Float32Array }[]): PlayableModel {
  const anims = named.map((a) => a.anim);
  const skin = buildSkinStream(mesh); // shared by the posers of every backend
  // Meshes back to back, as the skin stream's file-order outputs (meshVertexStart) lay them out.
  const { indices, parts } = partsBackToBack(mesh.meshes.map((m, i) => ({ name: m.name || m.shader || `mesh ${i}`, vertexCount: m.vertexCount, triangles: m.triangles })));
  const clips: Clip[] = anims.length
    ? named.map(({ name, anim: a }) => ({ name, frameCount: a.frameCount, frameRate: a.frameRate, closesOnLastFrame: true }))
    : [{ name: 'bind pose', frameCount: 1, frameRate: 0, closesOnLastFrame: true }];
  const triangles = indices.length / 3;
  return {
    format: 'md5mesh',
    vertexCount: skin.vertexCount,
    indices,
    parts,
    clips,
    summary: `MD5: ${mesh.joints.count} joints, ${mesh.meshes.length} meshes, ${skin.vertexCount} vertices, ${triangles} triangles, ${anims.length} anims`,
    uvs: concatUvs(mesh.meshes.map((m) => m.uvs)),
    materials: [],
    textureWarnings: [],
    model: mesh,
    createPlayer(backend: PoseBackend): ModelPlayer {
      const poser = new Md5Poser(backend, mesh, { stream: skin });
      let clip = -1;
      const player = poserPlayer(poser, {
        setClip(index: number) {
          if (index === clip) return;
          poser.setAnim(anims[index] ?? null);
          if (anims[index]) poser.setScales(named[index].scales ?? null);
          clip = index;
        },
        poseBlend(frame1: number, frame2: number, t: number) {
          if (poser.anim) poser.poseBlend(frame1, frame2, t);
          else poser.poseBind();
        },
      });
      player.setClip(0);
      return player;
    },
  };
}
