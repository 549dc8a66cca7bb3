/**
 * RtCW's MDS and ET's MDM on its MDX as a skinned view (`model-view.ts`), what `IdTechLoader` draws: joints at their
 * frame-0 poses with inverse binds of the pose the weights were made in (`pose/wolf-bind.ts` wolfRestPose), the vertices
 * in it, one group per surface, one clip of every frame at 20 fps, bounds over every frame (posed by the kernels,
 * nothing kept), four influences a vertex. Shared by the `mds/` and `mdm/` rooms, as `md3-view.ts` by MD3 and MDC.
 */
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import type { PoseBackend } from '../kernels/backend.js';
import { growBounds, type SkinnedModelView } from './model-view.js';
import { WOLF_DEFAULT_FPS, wolfDraw, wolfFrames, wolfInfluences, wolfInverseBind, wolfPoser, wolfRestPose, type WolfDrawable } from '../pose/wolf-bind.js';

export function wolfView(d: WolfDrawable, backend: PoseBackend): SkinnedModelView {
  const { bones } = d.skeleton;
  const J = bones.length, F = d.skeleton.frames.length;
  const max = resourceLimits().maxAnimationKeys;
  if (F * J > max) throw overLimit(`${F} frames × ${J} bones are ${F * J} bone poses`, 'maxAnimationKeys', max);
  const frames = wolfFrames(d.skeleton);
  const draw = wolfDraw(d);
  const poser = wolfPoser(backend, d);
  try {
    let bounds = null;
    for (let f = F - 1; f >= 0; f--) bounds = growBounds(bounds, poser.pose({ frame: f }).positions);
    const rest = wolfRestPose(d, frames.bind);
    // the bind pose lies in it too (the weights' own pose, not a frame)
    bounds = growBounds(bounds, rest.positions);
    const inverseBind = new Float64Array(J * 16);
    for (let j = 0; j < J; j++) wolfInverseBind(rest.bind, j, inverseBind, j * 16);
    const keys = Math.max(2, F);
    const clipJoints = bones.map((_, j) => {
      const translation = new Float32Array(keys * 3), rotation = new Float32Array(keys * 4);
      for (let k = 0; k < keys; k++) {
        const f = Math.min(k, F - 1);
        translation.set(frames.translations.subarray((f * J + j) * 3, (f * J + j) * 3 + 3), k * 3);
        rotation.set(frames.rotations.subarray((f * J + j) * 4, (f * J + j) * 4 + 4), k * 4);
      }
      return { translation, rotation };
    });
    return {
      kind: 'skinned',
      joints: { names: bones.map((b, j) => b.name || `bone${j}`), parents: bones.map((b) => b.parent), translations: frames.translations.slice(0, J * 3), rotations: frames.rotations.slice(0, J * 4), inverseBind },
      vertexCount: draw.vertexCount,
      positions: rest.positions,
      normals: rest.normals,
      st: draw.st,
      triangles: draw.triangles,
      groups: d.surfaces.map((s, i) => ({ name: s.name, material: s.shader || s.name, start: draw.indexStart[i], count: draw.indexStart[i + 1] - draw.indexStart[i] })),
      bounds,
      clips: [{ name: 'frames', frameRate: WOLF_DEFAULT_FPS, frameCount: F, times: Float32Array.from({ length: keys }, (_, k) => k / WOLF_DEFAULT_FPS), joints: clipJoints, loop: 'repeat' }],
      influences: () => wolfInfluences(d),
      dispose: () => undefined,
      warnings: [],
    };
  } finally {
    poser.dispose();
  }
}
