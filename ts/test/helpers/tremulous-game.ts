/**
 * A small Tremulous game folder for the tests of its non-segmented players and buildables (formats/md3/
 * tremulous-format.ts). The corpus has Tremulous MD3s but none of its aliens or buildable folders with their cfgs
 * (../shared/models README), so the folder is assembled at test time from real corpus models and the hand-made cfgs in
 * fixtures/md3 — nothing of it is committed:
 *
 * - `models/players/spitfire/`: nonseg.md3 = res-tremulous human_base lower.md3 (184 frames, standing in for an
 *   alien's model), animation.cfg = fixtures/md3/nonseg-animation.cfg (nonsegmented, fits 184 frames);
 * - `models/buildables/slime_zunge/`: slime_zunge.md3 = overmind.md3 (70 frames), animation.cfg =
 *   fixtures/md3/buildable-animation.cfg (fits 70 frames); no config: the folder's model plays the cfg;
 * - `models/buildables/mgturret/`: turret_base.md3 = overmind.md3 with a `tag_turret` added (a turned frame of
 *   reference moving up with the frames: `TURRET_TAG`), turret_barrel.md3 = mgturret.md3 (1 frame),
 *   turret_top.md3 = human_base head.md3 (1 frame), the same animation.cfg; `configs/buildables/mgturret.cfg` names
 *   the three as models 0 to 2, with `modelScale 1.5` and `zOffset 8`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import type { Md3Model } from '../../src/base/model.js';
import { FIXTURES, SHARED_MODELS } from './models.js';

const TREM = join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous');
const read = (p: string) => new Uint8Array(readFileSync(p));

/** The added tag at frame f: origin (10, −4, 30 + f / 2), axes turned 90° about Z (x → y, y → −x). */
export const TURRET_TAG = {
  origin: (f: number): [number, number, number] => [10, -4, 30 + f / 2],
  axes: [0, 1, 0, -1, 0, 0, 0, 0, 1],
};
export const MGTURRET_SCALE = 1.5;
export const MGTURRET_Z = 8;

/** `model` with one more tag, `tag_turret` (TURRET_TAG). */
function withTurretTag(model: Md3Model): Md3Model {
  const F = model.frameCount, T = model.tagCount;
  const origins = new Float32Array(F * (T + 1) * 3), axes = new Float32Array(F * (T + 1) * 9);
  for (let f = 0; f < F; f++) {
    origins.set(model.tagOrigins.subarray(f * T * 3, (f + 1) * T * 3), f * (T + 1) * 3);
    origins.set(TURRET_TAG.origin(f), (f * (T + 1) + T) * 3);
    axes.set(model.tagAxes.subarray(f * T * 9, (f + 1) * T * 9), f * (T + 1) * 9);
    axes.set(TURRET_TAG.axes, (f * (T + 1) + T) * 9);
  }
  return { ...model, tagCount: T + 1, tagNames: [...model.tagNames, 'tag_turret'], tagOrigins: origins, tagAxes: axes };
}

export const MGTURRET_CFG = `model 0 "models/buildables/mgturret/turret_base.md3"
model 1 "models/buildables/mgturret/turret_barrel.md3"
model 2 "models/buildables/mgturret/turret_top.md3"

modelScale ${MGTURRET_SCALE}
mins -25 -25 -20
maxs 25 25 20
zOffset ${MGTURRET_Z}
`;

/** The game folder's files, by path under its root. */
export function tremulousGame(): Map<string, Uint8Array> {
  const overmind = read(join(TREM, 'buildables/overmind/overmind.md3'));
  const buildableCfg = read(join(FIXTURES, 'md3', 'buildable-animation.cfg'));
  return new Map([
    ['models/players/spitfire/nonseg.md3', read(join(TREM, 'players/human_base/lower.md3'))],
    ['models/players/spitfire/animation.cfg', read(join(FIXTURES, 'md3', 'nonseg-animation.cfg'))],
    ['models/buildables/slime_zunge/slime_zunge.md3', overmind],
    ['models/buildables/slime_zunge/animation.cfg', buildableCfg],
    ['models/buildables/mgturret/turret_base.md3', writeMd3(withTurretTag(parseMd3(overmind)))],
    ['models/buildables/mgturret/turret_barrel.md3', read(join(TREM, 'buildables/mgturret/mgturret.md3'))],
    ['models/buildables/mgturret/turret_top.md3', read(join(TREM, 'players/human_base/head.md3'))],
    ['models/buildables/mgturret/animation.cfg', buildableCfg],
    ['configs/buildables/mgturret.cfg', new TextEncoder().encode(MGTURRET_CFG)],
  ]);
}
