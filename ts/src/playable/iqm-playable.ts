/**
 * IQM as a playable model: the file's meshes as parts (its triangles as stored, which name the file's vertices), and
 * as clips the file's own anims, then each animation file's anims (Red Eclipse's animation-only IQMs, paired as
 * Tesseract pairs them), or — with a DarkPlaces `.framegroups` file beside it — its groups over the model's frames
 * instead of the model's anims, as DarkPlaces replaces them. A clip plays its frames at its rate and wraps from the
 * last frame to the first. Without any: the bind pose.
 */
import type { IqmModel } from '../base/model.js';
import { boundFrameGroups, parseFrameGroups } from '../formats/iqm/framegroups.js';
import type { IqmClipDetail } from '../formats/iqm/companions.js';
import { clipFrames } from '../formats/iqm/iqm-cfg.js';
import { IQM_DEFAULT_FPS } from '../formats/iqm/pairing.js';
import type { PoseBackend } from '../kernels/backend.js';
import type { ModelSet } from '../load/model-set.js';
import { IqmPoser } from '../pose/iqm-poser.js';
import { poserPlayer, type Clip, type ModelPlayer, type PlayableModel } from './playable.js';

/** A clip and where its frames are: which file, from which stored frame; whether the engine loops it. */
export interface IqmClipSource {
  clip: Clip;
  file: IqmModel;
  firstFrame: number;
  loop: boolean;
}

/**
 * The clips of a model set: the model's own anims (or its `.framegroups`' groups), then each animation file's, named
 * after the file (`file/anim` for a file of several).
 */
export function iqmClipSources(set: ModelSet<IqmModel>): IqmClipSource[] {
  const model = set.data;
  const sources: IqmClipSource[] = [];
  const own = (file: IqmModel, prefix: string) => {
    for (const a of file.anims) {
      const first = Math.min(a.firstFrame, Math.max(0, file.frameCount - 1));
      const count = Math.max(1, Math.min(a.frameCount, file.frameCount - first));
      sources.push({ clip: { name: prefix ? `${prefix}${file.anims.length > 1 ? `/${a.name}` : ''}` : a.name, frameCount: count, frameRate: a.framerate > 0 ? a.framerate : IQM_DEFAULT_FPS, closesOnLastFrame: false }, file, firstFrame: first, loop: a.loop });
    }
  };
  const groupsFile = set.sideFiles.find((f) => f.path.toLowerCase().endsWith('.framegroups'));
  if (groupsFile && model.frameCount > 0) {
    const { groups } = parseFrameGroups(new TextDecoder('latin1').decode(groupsFile.bytes));
    for (const g of boundFrameGroups(groups, model.frameCount)) {
      sources.push({ clip: { name: g.name === `groupified_${sources.length}_anim` && g.comment ? g.comment : g.name, frameCount: g.frameCount, frameRate: g.fps, closesOnLastFrame: false }, file: model, firstFrame: g.firstFrame, loop: g.loop });
    }
  } else if (model.frameCount > 0 && model.poses.count === model.joints.count) own(model, '');
  for (const c of set.companions) {
    const file = c.data as IqmModel;
    const detail = c.detail as IqmClipDetail | undefined;
    if (!detail) {
      own(file, c.name);
      continue;
    }
    // a config's clip (Tesseract animmodel.h setanim): the named anim of the file (else its first), cut by its offsets, at its rate
    const anim = (detail.anim ? file.anims.find((a) => a.name === detail.anim) : file.anims[0]) ?? file.anims[0];
    const base = anim ? Math.min(anim.firstFrame, Math.max(0, file.frameCount - 1)) : 0;
    const frames = anim ? Math.max(1, Math.min(anim.frameCount, file.frameCount - base)) : file.frameCount;
    const { first, count } = clipFrames(detail, base, frames);
    sources.push({ clip: { name: detail.variant ? `${c.name} (${detail.variant + 1})` : c.name, frameCount: count, frameRate: c.fps ?? IQM_DEFAULT_FPS, closesOnLastFrame: false }, file, firstFrame: first, loop: anim?.loop ?? true });
  }
  return sources;
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
