/**
 * An MDS (or an MDM on its MDX) as a playable model: a part per surface, one clip of every frame at 20 fps (the rate
 * nothing in the file names), played by the MDS poser on the caller's backend (frames lerped as R_CalcBoneLerp).
 */
import type { PoseBackend } from '../kernels/backend.js';
import { poserPlayer, type ModelPlayer, type PlayableModel } from './playable.js';
import { WOLF_DEFAULT_FPS, wolfDraw, wolfPoser, type WolfDrawable } from '../pose/wolf-bind.js';

export function wolfPlayable(d: WolfDrawable, format: PlayableModel['format'], model: unknown, summary: string, clipName = 'frames'): PlayableModel {
  const draw = wolfDraw(d);
  const F = d.skeleton.frames.length;
  return {
    format,
    vertexCount: draw.vertexCount,
    indices: draw.triangles.slice(),
    parts: d.surfaces.map((s, i) => ({ name: s.name, firstIndex: draw.indexStart[i], indexCount: draw.indexStart[i + 1] - draw.indexStart[i], slot: { surface: i } })),
    clips: [{ name: clipName, frameCount: F, frameRate: WOLF_DEFAULT_FPS, closesOnLastFrame: false }],
    summary,
    uvs: draw.st,
    materials: [],
    textureWarnings: [],
    model: model as PlayableModel['model'],
    createPlayer(backend: PoseBackend): ModelPlayer {
      const poser = wolfPoser(backend, d);
      return poserPlayer(poser, {
        setClip: () => undefined,
        poseBlend(frame1: number, frame2: number, t: number) {
          // refEntity: frame is the one shown, oldframe the one left, backlerp how much of it remains
          poser.pose({ frame: frame2, oldFrame: frame1, backlerp: 1 - t });
        },
      });
    },
  };
}
