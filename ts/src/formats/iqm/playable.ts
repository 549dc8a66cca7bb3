/**
 * IQM as a playable model: the file's meshes as parts (its triangles as stored, which name the file's vertices), and
 * as clips the file's own anims, then each animation file's anims (Red Eclipse's animation-only IQMs, paired as
 * Tesseract pairs them), or — with a DarkPlaces `.framegroups` file beside it — its groups over the model's frames
 * instead of the model's anims, as DarkPlaces replaces them. A clip plays its frames at its rate and wraps from the
 * last frame to the first. Without any: the bind pose.
 */
import type { IqmModel } from '../../base/model.js';
import { iqmClips } from './clips.js';
import type { PoseBackend } from '../../kernels/backend.js';
import type { ModelSet } from '../../load/model-set.js';
import { IqmPoser } from '../../pose/iqm-poser.js';
import { poserPlayer, type Clip, type ModelPlayer, type PlayableModel } from '../../playable/playable.js';

/** A clip and where its frames are: which file, from which stored frame; whether the engine loops it. */
export interface IqmClipSource {
  clip: Clip;
  file: IqmModel;
  firstFrame: number;
  loop: boolean;
}

/** The clips of a model set (`formats/iqm/clips.ts` `iqmClips`, which the glTF export reads too) as playable clips. */
export function iqmClipSources(set: ModelSet<IqmModel>): IqmClipSource[] {
  return iqmClips(set).map((c) => ({ clip: { name: c.name, frameCount: c.frameCount, frameRate: c.fps, closesOnLastFrame: false }, file: c.file, firstFrame: c.firstFrame, loop: c.loop }));
}

/** An IQM model set as a playable model (companions were checked against the mesh when the set was read). */
export function iqmPlayable(set: ModelSet<IqmModel>): PlayableModel {
  const model = set.data;
  const sources = iqmClipSources(set);
  const clips = sources.length ? sources.map((s) => s.clip) : [{ name: 'bind pose', frameCount: 1, frameRate: 0, closesOnLastFrame: false }];
  const V = model.positions ? model.positions.length / 3 : 0;
  return {
    format: set.format,
    vertexCount: V,
    indices: Uint32Array.from(model.triangles),
    parts: model.meshes.map((m, i) => ({ name: m.name || m.material || `mesh ${i}`, firstIndex: m.firstTriangle * 3, indexCount: m.triangleCount * 3 })),
    clips,
    summary: `IQM: ${model.joints.count} joints, ${model.meshes.length} meshes, ${V} vertices, ${model.triangleCount} triangles, ${sources.length} clips`,
    uvs: model.texcoords ? model.texcoords.slice() : new Float32Array(V * 2),
    materials: [],
    textureWarnings: [],
    model: model as unknown as PlayableModel['model'],
    createPlayer(backend: PoseBackend): ModelPlayer {
      const poser = new IqmPoser(backend, model);
      let clip = -1;
      const player = poserPlayer(poser, {
        setClip(index: number) {
          if (index === clip) return;
          const s = sources[index];
          if (s && s.file !== poser.animation) poser.setAnimation(s.file);
          clip = index;
        },
        poseBlend(frame1: number, frame2: number, t: number) {
          const s = sources[clip];
          if (!s || !poser.animation) {
            poser.bindPose();
            return;
          }
          const last = s.clip.frameCount - 1;
          poser.poseBlend(s.firstFrame + Math.min(frame1, last), s.firstFrame + Math.min(frame2, last), t);
        },
      });
      player.setClip(0);
      return player;
    },
  };
}
