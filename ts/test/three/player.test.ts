/**
 * A Quake 3 player in three.js (the player registration's tagged view, `formats/md3/player-view.ts`, built by
 * `taggedToThree`): the parts hang on each other's tags through three's scene graph, moved by clips
 * named after animation.cfg. Against `Md3Player` (ioquake3's CG_Player chain on our kernels), on real players: each
 * part's placement and every vertex, at frames (where they agree to float precision) and between them (where three
 * slerps a tag's rotation and the engine lerps its axes).
 */
import { AnimationMixer, Group, LoopOnce, LoopRepeat } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Md3Model } from '../../src/base/model.js';
import { parseAnimationCfg, type Md3AnimationName } from '../../src/formats/md3/animation-cfg.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { clipBlend, MD3_DEFAULT_FPS, type FrameBlend } from '../../src/pose/timing.js';
import { IdTechModel } from '../../src/three/model.js';
import type { Md3AnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { MorphPoserMesh, type MorphMode } from '../../src/three/morph-mesh.js';
import { taggedToThree, type TaggedThree } from '../../src/three/tagged-model.js';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { maxDistance, relativeMatrix, setTime, threePositions } from './three-eval.js';
import { viewOf } from './views.js';

const BSUIT = `${SHARED_MODELS}/res-players_src.dpkdir/models/players/human_bsuit`; // A1: animation.cfg, tags
const BASE = `${SHARED_MODELS}/res-tremulous_src.dpkdir/models/tremulous/players/human_base`; // no animation.cfg
const PARTS = ['lower', 'upper', 'head'] as const;
/** On frames (0 and multiples of the frame time) and between them. */
const TIMES = [0, 0.02, 0.0435, 0.3, 0.61, 1.1, 1.7];

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('auto');
});

/** The player registration's tagged view of the parts and animation.cfg, built by the tagged builder. */
async function playerToThree(models: Record<(typeof PARTS)[number], Md3Model>, animations: Md3AnimationCfg | undefined, options: { name: string; mode: MorphMode }): Promise<TaggedThree> {
  const view = await viewOf('tagged', { models, ...(animations ? { animations } : {}) }, backend);
  return taggedToThree(view, { ...options, format: 'player', quantize: true, materials: {} });
}

const load = (dir: string) => Object.fromEntries(PARTS.map((p) => [p, parseMd3(read(`${dir}/${p}.md3`))])) as Record<(typeof PARTS)[number], Md3Model>;

/** three's parts in the Z-up space vs the player's: the worst placement difference and the worst vertex distance. */
function compare(three: TaggedThree, player: Md3Player): { matrix: number; vertices: number } {
  // the poser mode writes vertices and places tags from the influences (as IdTechModel.update does), then matrices
  for (const part of PARTS) if (three.parts[part]!.mesh instanceof MorphPoserMesh) (three.parts[part]!.mesh as MorphPoserMesh).sync();
  three.root.updateMatrixWorld(true);
  const diag = diagonal(player.positions);
  let matrix = 0;
  for (const part of PARTS) {
    const m = relativeMatrix(three.parts[part]!.object, three.root).elements; // column-major
    const e = player.parts![part].matrix; // rows m0 m1 m2 t
    for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) matrix = Math.max(matrix, Math.abs(m[c * 4 + r] - e[r * 4 + c]) / (c === 3 ? diag : 1));
  }
  const all = new Float32Array(player.vertexCount * 3);
  let at = 0;
  for (const part of PARTS) {
    const p = threePositions(three.parts[part]!.mesh, three.root);
    all.set(p, at);
    at += p.length;
  }
  return { matrix, vertices: maxDistance(all, player.positions) / diag };
}

describe.each(['targets', 'poser'] as const)('a Quake 3 player as a three.js group, %s', (mode: MorphMode) => {
  it('human_bsuit: clips named as in animation.cfg place every part and vertex as Md3Player does', async () => {
    const models = load(BSUIT);
    const cfg = parseAnimationCfg(read(`${BSUIT}/animation.cfg`));
    const three = await playerToThree(models, cfg, { name: 'human_bsuit', mode });
    const named = cfg.animations.filter((a) => a.numFrames > 0 && !a.name.startsWith('FLAG_') && a.firstFrame + a.numFrames <= (a.name.startsWith('LEGS_') ? models.lower : models.upper).frameCount);
    expect(three.clips.map((c) => c.name).sort()).toEqual(named.map((a) => a.name).sort());
    const player = new Md3Player(backend, models, cfg);
    const scene = new Group().add(three.root);
    // IdTechModel.play sets each clip's loop mode as the engine plays it (BOTH_DEATH1 holds its last frame)
    const model = new IdTechModel({ format: 'player', name: 'human_bsuit', scene, root: three.root, animations: three.clips, warnings: [], materials: [] });
    const mixer = model.mixer;
    let atFrames = { matrix: 0, vertices: 0 }, between = { matrix: 0, vertices: 0 };
    // a legs clip and a torso clip at once, then one BOTH_ clip
    for (const pair of [['LEGS_WALKCR', 'TORSO_GESTURE'], ['BOTH_DEATH1']] as Md3AnimationName[][]) {
      model.play(...pair);
      for (const t of TIMES) {
        setTime(mixer, scene, t);
        const legs = player.clipFrameAt(pair[0], t);
        const torso = player.clipFrameAt(pair.length === 2 ? pair[1] : pair[0], t);
        player.pose({ legs, torso });
        const d = compare(three, player);
        const target = legs.t === 0 && torso.t === 0 ? atFrames : between;
        target.matrix = Math.max(target.matrix, d.matrix);
        target.vertices = Math.max(target.vertices, d.vertices);
      }
    }
    expect(atFrames.matrix).toBeLessThanOrEqual(1e-6);
    expect(atFrames.vertices).toBeLessThanOrEqual(1e-6);
    if (mode === 'poser') {
      // tags placed from the frames shown, as R_LerpTag places them: the engine's chain between frames too
      expect(between.vertices).toBeLessThanOrEqual(1e-6);
      expect(between.matrix).toBeLessThanOrEqual(1e-5);
    } else {
      // tag tracks slerp a rotation; the engine lerps the axes and normalises each, which shears when a tag turns
      // fast (BOTH_DEATH1's tag_torso turns 40° from frame 7 to 8): measured 4.1e-3 of the diagonal there
      expect(between.vertices).toBeLessThanOrEqual(5e-3);
      expect(between.matrix).toBeLessThanOrEqual(5e-2);
    }
    expect(between.vertices).toBeGreaterThan(0); // (and they are compared at all)
    player.dispose();
  });

  it('human_base without animation.cfg: a `lower` and an `upper` clip of all frames, at 15 fps', async () => {
    const models = load(BASE);
    const three = await playerToThree(models, undefined, { name: 'human_base', mode });
    expect(three.clips.map((c) => c.name)).toEqual(['lower', 'upper']);
    const player = new Md3Player(backend, models);
    const scene = new Group().add(three.root);
    const mixer = new AnimationMixer(scene);
    for (const c of three.clips) mixer.clipAction(c).play();
    let worst = 0;
    for (const t of TIMES) {
      setTime(mixer, scene, t);
      const at = (m: Md3Model): FrameBlend => clipBlend({ firstFrame: 0, frameCount: m.frameCount }, t, MD3_DEFAULT_FPS);
      player.pose({ legs: at(models.lower), torso: at(models.upper) });
      worst = Math.max(worst, compare(three, player).vertices);
    }
    expect(worst).toBeLessThanOrEqual(mode === 'poser' ? 1e-6 : 5e-4); // targets: slerp vs the engine's lerp, as above
    player.dispose();
  });
});

describe('playing a player', () => {
  it('legs and torso are two channels: a LEGS_ and a TORSO_ clip play together, a BOTH_ clip replaces both', async () => {
    const models = load(BSUIT);
    const cfg = parseAnimationCfg(read(`${BSUIT}/animation.cfg`));
    const three = await playerToThree(models, cfg, { name: 'human_bsuit', mode: 'targets' });
    const scene = new Group().add(three.root);
    const model = new IdTechModel({ format: 'player', name: 'human_bsuit', scene, root: three.root, animations: three.clips, warnings: three.warnings, materials: [] });
    // the clips touch only their own part's nodes
    const legsNodes = new Set(three.clips.find((c) => c.name === 'LEGS_WALKCR')!.tracks.map((t) => t.name.split('.')[0]));
    expect([...legsNodes].every((n) => n.startsWith('lower_'))).toBe(true);
    const [legs] = model.play('LEGS_WALKCR');
    const [torso] = model.play('TORSO_GESTURE');
    expect(legs.isRunning() && torso.isRunning()).toBe(true);
    // loopFrames 0 in the cfg: plays once and holds; BOTH_DEATH1 stops the legs and the torso clip
    expect(torso.loop).toBe(LoopOnce);
    const [death] = model.play('BOTH_DEATH1');
    expect(death.loop).toBe(LoopOnce);
    expect(legs.isRunning() || torso.isRunning()).toBe(false);
    expect(() => model.play('NO_SUCH_CLIP')).toThrow(RangeError);
    // without animation.cfg the two whole-part clips loop
    const base = await playerToThree(load(BASE), undefined, { name: 'human_base', mode: 'targets' });
    const other = new IdTechModel({ format: 'player', name: 'human_base', scene: new Group().add(base.root), root: base.root, animations: base.clips, warnings: [], materials: [] });
    expect(other.play('lower', 'upper').map((a) => a.loop)).toEqual([LoopRepeat, LoopRepeat]);
  });
});
