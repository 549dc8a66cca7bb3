/**
 * Tremulous' model sets (`tremulous-parts.ts`) as one playable model: every part's surfaces back to back (parts in
 * order, surfaces in file order), one clip per animation.cfg line with frames (NSPA_* / BANIM_*), every part posed
 * at the same frame numbers each pose — a part asked for a frame it lacks shows frame 0 (ioquake3 R_AddMD3Surfaces) —
 * and placed as CG_Buildable places it: scaled by the config's `modelScale`, model 0 moved up by `zOffset`, a part
 * on model 0's `tag_turret` at the tag's origin, keeping the buildable's axes (`tremulous-view.ts`).
 */
import type { PoseBackend } from '../../kernels/backend.js';
import { Md3Poser } from '../../pose/md3-poser.js';
import { lerpTag, TAG_FLOATS } from '../../pose/md3-tag.js';
import { MD3_DEFAULT_FPS } from '../../pose/timing.js';
import { concatUvs, partsBackToBack, type Clip, type ModelPlayer, type PlayableModel } from '../../playable/playable.js';
import type { Md3Animation } from './animation-cfg.js';
import type { TremulousModel } from './tremulous-parts.js';

interface CfgClip extends Clip {
  animation: Md3Animation | null;
}

/** A frame of an animation `k` frames in, looping its loop frames as the engine does (else holding the last). */
function frameOf(a: Md3Animation, k: number): number {
  const n = Math.max(1, a.numFrames);
  let i = k;
  if (i >= n) i = a.loopFrames > 0 ? n - a.loopFrames + ((i - n) % a.loopFrames) : n - 1;
  return a.firstFrame + (a.reversed ? n - 1 - i : i);
}

export function tremulousPlayable(data: TremulousModel): PlayableModel {
  const pieces = data.parts.flatMap((p) => p.model.surfaces.map((s, i) => ({ part: p.name, surface: i, s })));
  const { indices, parts, vertexCount } = partsBackToBack(pieces.map((x) => ({ name: `${x.part}:${x.s.name}`, vertexCount: x.s.vertexCount, triangles: x.s.triangles, slot: { surface: x.surface, part: x.part } })));
  const base = data.parts[0].model;
  const animated = (data.animations?.animations ?? []).filter((a) => a.numFrames > 0);
  const clips: CfgClip[] = animated.length
    ? animated.map((a) => ({ name: a.name, frameCount: a.numFrames, frameRate: a.fps > 0 ? a.fps : MD3_DEFAULT_FPS, closesOnLastFrame: false, animation: a }))
    : [{ name: 'all frames', frameCount: base.frameCount, frameRate: MD3_DEFAULT_FPS, closesOnLastFrame: false, animation: null }];
  const what = data.format === 'nonseg' ? 'Tremulous non-segmented player' : `Tremulous buildable (${data.parts.length} model${data.parts.length === 1 ? '' : 's'})`;
  return {
    format: 'md3',
    vertexCount,
    indices,
    parts,
    clips,
    summary: `${what}: ${data.parts.map((p) => `${p.name} ${p.model.frameCount} frames`).join(', ')}, ${pieces.length} surfaces, ${vertexCount} vertices, ${indices.length / 3} triangles, ${clips.length} clips`,
    uvs: concatUvs(pieces.map((x) => x.s.st)),
    materials: [],
    textureWarnings: [],
    model: base,
    createPlayer: (backend: PoseBackend) => tremulousPlayer(backend, data, clips, vertexCount),
  };
}

function tremulousPlayer(backend: PoseBackend, data: TremulousModel, clips: CfgClip[], vertexCount: number): ModelPlayer {
  const posers: Md3Poser[] = [];
  try {
    for (const p of data.parts) posers.push(new Md3Poser(backend, p.model));
  } catch (e) {
    for (const p of posers) p.dispose();
    throw e;
  }
  const positions = new Float32Array(vertexCount * 3), normals = new Float32Array(vertexCount * 3);
  const tag = new Float32Array(TAG_FLOATS);
  const origins = new Map<string, [number, number, number]>();
  const s = data.scale;
  let clip = clips[0];
  return {
    backend,
    setClip(index) {
      clip = clips[index] ?? clips[0];
    },
    poseBlend(frame1, frame2, t) {
      const a = clip.animation;
      const f1 = a ? frameOf(a, frame1) : frame1, f2 = a ? frameOf(a, frame2) : frame2;
      let at = 0;
      data.parts.forEach((p, i) => {
        const n = p.model.frameCount;
        const [g1, g2] = f1 < n && f2 < n ? [f1, f2] : [0, 0];
        const poser = posers[i].poseBlend(g1, g2, t);
        // where the part's origin lands: model 0 at zOffset, a hung part at its parent's tag origin
        let o: [number, number, number] = [0, 0, data.zOffset];
        if (p.on) {
          o = origins.get(p.on.part) ?? [0, 0, 0];
          const parent = data.parts.find((q) => q.name === p.on!.part)!.model;
          if (parent.tagNames.includes(p.on.tag)) {
            const m = parent.frameCount;
            const [h1, h2] = f1 < m && f2 < m ? [f1, f2] : [0, 0];
            lerpTag(parent, p.on.tag, h1, h2, t, tag);
            o = [o[0] + tag[0] * s, o[1] + tag[1] * s, o[2] + tag[2] * s];
          }
        }
        origins.set(p.name, o);
        const pp = poser.positions, nn = poser.normals;
        for (let k = 0; k < pp.length; k += 3) {
          positions[at + k] = pp[k] * s + o[0];
          positions[at + k + 1] = pp[k + 1] * s + o[1];
          positions[at + k + 2] = pp[k + 2] * s + o[2];
        }
        normals.set(nn, at);
        at += pp.length;
      });
    },
    positions,
    normals,
    dispose: () => posers.forEach((p) => p.dispose()),
  };
}
