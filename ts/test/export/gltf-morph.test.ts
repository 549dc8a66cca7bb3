/**
 * MD2, MD3 and a Quake 3 player → glTF on every real model: the Khronos validator finds 0 errors, and the glTF,
 * evaluated by our spec-based reader (gltf-eval.ts: morph weights from the animation samplers, node hierarchy),
 * reproduces our own posers' frames (Md2Poser, Md3Poser, Md3Player) within 1e-4 × the bounding diagonal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { md2Unwelded, parseMd2 } from '../../src/formats/md2/index.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { lerpTag } from '../../src/pose/md3-tag.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import type { Md2Model, Md3Model } from '../../src/base/model.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { diagonal } from '../helpers/compare.js';
import { manifest, read, type ManifestRow } from '../helpers/models.js';
import { evaluate, gltfPositions, primitivePositions, readAccessor, readGlb, yUp, type Gltf } from './gltf-eval.js';
import { md2GridStep } from './md2-grid.js';
import { expectClean as expectCleanIn, validate } from './validate.js';

const results: string[] = [];
afterAll(() => console.log(`glTF validator, MD2 / MD3 / player:\n  ${results.join('\n  ')}`));
const expectClean = (name: string, s: Awaited<ReturnType<typeof validate>>) => expectCleanIn(results, name, s);

/** Well-formed real models of a format (the MANIFEST's malformed_* files are parser tests, not models). */
const real = (format: string): ManifestRow[] => manifest().filter((r) => r.format === format && !/malformed|invalid/.test(r.path));
const baseName = (p: string) => p.split('/').pop()!.replace(/\.[^.]+$/, '');

function maxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i += 3) {
    const d = Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]);
    if (!(d <= m)) m = d;
  }
  return m;
}

/** Md2Poser positions gathered into the un-welded vertex order (md2Unwelded: one vertex per (xyz, st) pair). */
function md2Expected(poser: Md2Poser, sourceVertex: Uint16Array): Float32Array {
  const out = new Float32Array(sourceVertex.length * 3);
  sourceVertex.forEach((s, i) => out.set(poser.positions.subarray(s * 3, s * 3 + 3), i * 3));
  return out;
}

/** The MD2 grid docs/gltf.md states (md2-grid.ts) and the distance a position on it may be off: √3/2 · step. */
function md2Grid(model: Md2Model): { step: number; bound: number } {
  const step = md2GridStep(model);
  return { step, bound: (Math.sqrt(3) / 2) * step };
}

/** The quantised glTF's MD2 mesh node carries the grid: scale = step on every axis. */
function expectGridNode(g: Gltf, step: number): void {
  const nodes = g.json.nodes.filter((n: any) => n.mesh !== undefined);
  for (const n of nodes) for (const s of n.scale) expect(s / step).toBeCloseTo(1, 9);
  expect(g.json.extensionsRequired).toEqual(['KHR_mesh_quantization']);
}

/**
 * Face normals from the glTF winding (counter-clockwise = front) against the file's own vertex normals:
 * the share of triangles whose face normal points the same way as the mean of its corners' normals.
 */
/**
 * How much of a mesh's triangle area (of `total`) has a face normal (counter-clockwise, glTF's front) points the way the
 * file's vertex normals do. Weighted by area: tiny faces with hand-set normals (a weapon's chamber) may disagree,
 * and a reversed winding would show as the complement. Which side is the front is decided by most of the area: the
 * tests ask for a share above 1/2 over the whole model (one winding rule for all of its surfaces).
 */
function frontFacingArea(g: Gltf, mesh = 0): { agree: number; total: number } {
  const prim = g.json.meshes[mesh].primitives[0];
  const p = readAccessor(g, prim.attributes.POSITION).values;
  const n = readAccessor(g, prim.attributes.NORMAL).values;
  const idx = readAccessor(g, prim.indices).values;
  let agree = 0, total = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t] * 3, idx[t + 1] * 3, idx[t + 2] * 3];
    const e1 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
    const e2 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
    const f = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const d = [0, 1, 2].reduce((s, k) => s + f[k] * (n[a + k] + n[b + k] + n[c + k]), 0);
    const area = Math.hypot(...f);
    total += area;
    if (d > 0) agree += area;
  }
  return { agree, total };
}

const share = (a: { agree: number; total: number }) => (a.total > 0 ? a.agree / a.total : 1);

describe('every real MD2', () => {
  for (const row of real('md2')) {
    it(`${row.path}: morph targets, one animation per clip; validator 0 errors; every key and half key equals Md2Poser`, async () => {
      const model = parseMd2(read(row.absPath));
      const glb = await toGlb(model, { name: baseName(row.path) });
      expectClean(`${row.path} (morph targets)`, await validate(glb));
      const g = readGlb(glb);
      const grid = md2Grid(model);
      expectGridNode(g, grid.step);
      const { sourceVertex } = md2Unwelded(model);
      const poser = new Md2Poser(createTsBackend(), model);
      if (model.frameCount > 1) expect(g.json.animations.map((a: any) => a.name)).toEqual(model.clips.map((c) => c.name));
      else expect(g.json.animations).toBeUndefined();
      let worst = 0;
      (g.json.animations ?? []).forEach((anim: any, a: number) => {
        const clip = model.clips[a];
        for (let k = 0; k < clip.frameCount; k++) {
          const f = clip.firstFrame + k;
          poser.poseFrame(f);
          const tol = 1e-4 * diagonal(poser.positions) + grid.bound;
          // Quake 2 plays MD2 frames at 10 per second (the exporter's default rate)
          const err = maxDistance(gltfPositions(g, a, Math.fround(k / 10)), yUp(md2Expected(poser, sourceVertex)));
          expect(err, `${clip.name} frame ${f}`).toBeLessThanOrEqual(tol);
          worst = Math.max(worst, err / tol);
          if (k + 1 < clip.frameCount) {
            poser.poseBlend(f, f + 1, 0.5);
            const mid = maxDistance(gltfPositions(g, a, (k + 0.5) / 10), yUp(md2Expected(poser, sourceVertex)));
            expect(mid, `${clip.name} frame ${f}.5`).toBeLessThanOrEqual(tol);
            worst = Math.max(worst, mid / tol);
          }
        }
        expect(anim.samplers[0].interpolation).toBe('LINEAR');
      });
      results.push(`  round trip ${baseName(row.path)}: ${model.frameCount} frames in ${model.clips.length} clips, grid step ${grid.step.toPrecision(3)}, worst error ${worst.toFixed(3)} × tolerance`);
      // MD2 triangles are clockwise from the front like MD5's: after the (a, c, b) swap the faces agree with the file's normals
      const agreeing = share(frontFacingArea(g));
      results.push(`  ${baseName(row.path)}: area agreeing with the file's normals ${agreeing.toFixed(2)}`);
      expect(agreeing).toBeGreaterThan(0.5);
    });

    it(`${row.path}: md2Frames 'nodes' shows exactly the clip's frame at each key; validator 0 errors`, async () => {
      const model = parseMd2(read(row.absPath));
      const glb = await toGlb(model, { md2Frames: 'nodes', interpolation: 'STEP' });
      expectClean(`${row.path} (node per frame)`, await validate(glb));
      const g = readGlb(glb);
      const grid = md2Grid(model);
      expectGridNode(g, grid.step);
      const frameNodes: number[] = g.json.nodes.map((n: any, i: number) => (n.mesh !== undefined ? i : -1)).filter((i: number) => i >= 0);
      expect(frameNodes).toHaveLength(model.frameCount);
      const { sourceVertex } = md2Unwelded(model);
      const poser = new Md2Poser(createTsBackend(), model);
      const check = (anim: number | null, time: number, frame: number) => {
        const scene = evaluate(g, anim, time);
        const visible = frameNodes.filter((i) => scene.world[i][0] !== 0);
        expect(visible, `time ${time}`).toEqual([frameNodes[frame]]);
        poser.poseFrame(frame);
        expect(maxDistance(primitivePositions(g, scene, frameNodes[frame]), yUp(md2Expected(poser, sourceVertex)))).toBeLessThanOrEqual(1e-4 * diagonal(poser.positions) + grid.bound);
      };
      check(null, 0, 0); // at rest: frame 0
      model.clips.forEach((clip, a) => {
        if (model.frameCount === 1) return;
        for (let k = 0; k < clip.frameCount; k++) check(a, (k + 0.5) / 10, clip.firstFrame + k);
      });
    });
  }
});

/** MD3 tag k at frame f as a world matrix, from lerpTag (orthonormalised), in glTF axes: column-major 4×4. */
function tagMatrix(model: Md3Model, k: number, f: number): number[] {
  const tag = lerpTag(model, k, f, f, 0, undefined, { orthonormalize: true });
  const c = (v: ArrayLike<number>) => [v[0], v[2], -v[1]]; // Y-up, docs/gltf.md
  const axes = [0, 1, 2].map((i) => c(tag.subarray(3 + i * 3, 6 + i * 3)));
  // columns are the axes after the change of basis: C·A·Cᵀ has columns C·axis[Cᵀ-permuted]
  const cols = [axes[0], axes[2], axes[1].map((v) => -v)];
  return [...cols[0], 0, ...cols[1], 0, ...cols[2], 0, ...c(tag), 1];
}

describe('every real MD3', () => {
  for (const row of real('md3')) {
    it(`${row.path}: a mesh per surface, tags as nodes; validator 0 errors; every key and half key equals Md3Poser`, async () => {
      const model = parseMd3(read(row.absPath));
      const glb = await toGlb(model, { name: baseName(row.path) });
      expectClean(row.path, await validate(glb));
      const g = readGlb(glb);
      expect(g.json.meshes.map((m: any) => m.name)).toEqual(model.surfaces.map((s) => s.name));
      const poser = new Md3Poser(createTsBackend(), model);
      const tagNodes = model.tagNames.map((n) => g.json.nodes.findIndex((x: any) => x.name === n));
      let worst = 0;
      const anims: any[] = g.json.animations ?? [];
      expect(anims.length).toBe(model.frameCount > 1 ? 1 : 0); // real MD3 frame names are one exporter string: one clip
      for (let f = 0; f < model.frameCount; f++) {
        poser.poseFrame(f);
        const tol = 1e-4 * diagonal(poser.positions);
        const time = Math.fround(f / 15); // the stored (float32) key time; 15 fps is Quake 3's usual rate, the exporter's default
        const err = maxDistance(gltfPositions(g, anims.length ? 0 : null, time), yUp(poser.positions));
        expect(err, `frame ${f}`).toBeLessThanOrEqual(tol);
        worst = Math.max(worst, err / tol);
        const scene = evaluate(g, anims.length ? 0 : null, time);
        tagNodes.forEach((node, k) => {
          const want = tagMatrix(model, k, f);
          // rotation part to 1e-5, translation to 1e-4 × the model's diagonal
          Array.from(scene.world[node]).forEach((v, i) => expect(Math.abs(v - want[i]), `tag ${model.tagNames[k]} frame ${f} [${i}]`).toBeLessThanOrEqual(i >= 12 ? tol : 1e-5));
        });
        if (f + 1 < model.frameCount) {
          poser.poseBlend(f, f + 1, 0.5);
          const mid = maxDistance(gltfPositions(g, 0, (f + 0.5) / 15), yUp(poser.positions));
          expect(mid, `frame ${f}.5`).toBeLessThanOrEqual(tol);
          worst = Math.max(worst, mid / tol);
        }
      }
      results.push(`  round trip ${baseName(row.path)}: ${model.frameCount} frames, worst error ${worst.toFixed(3)} × tolerance`);
      const areas = model.surfaces.map((_, i) => frontFacingArea(g, i));
      const whole = share({ agree: areas.reduce((n, a) => n + a.agree, 0), total: areas.reduce((n, a) => n + a.total, 0) });
      results.push(`  ${baseName(row.path)}: area agreeing with the file's normals ${whole.toFixed(2)} (surfaces ${areas.map((a) => share(a).toFixed(2)).join(', ')})`);
      // One surface may face against its hand-set normals (grenade_launcher's chamber: 0.59 of its area agrees); the
      // model as a whole decides the convention.
      expect(whole).toBeGreaterThan(0.5);
    });
  }
});

describe('a Quake 3 player assembly (Tremulous human_base)', () => {
  const part = (name: string) => parseMd3(read(real('md3').find((r) => r.path.endsWith(`human_base/${name}.md3`))!.absPath));
  const models = () => ({ lower: part('lower'), upper: part('upper'), head: part('head') });

  it('head on upper on lower by tags; "lower" and "upper" played together equal Md3Player; validator 0 errors', async () => {
    const player = new Md3Player(createTsBackend(), models());
    const glb = await toGlb({ models: player.models }, { name: 'human_base' });
    expectClean('human_base player (lower + upper + head)', await validate(glb));
    const g = readGlb(glb);
    expect(g.json.animations.map((a: any) => a.name)).toEqual(['lower', 'upper']);
    const frames = Math.min(player.models.lower.frameCount, player.models.upper.frameCount);
    let worst = 0;
    for (let f = 0; f < frames; f += 4) {
      const still = { frame1: f, frame2: f, t: 0 };
      const ours = player.pose({ legs: still, torso: still }).positions;
      const tol = 1e-4 * diagonal(ours);
      const err = maxDistance(gltfPositions(g, [0, 1], Math.fround(f / 15)), yUp(ours));
      expect(err, `frame ${f}`).toBeLessThanOrEqual(tol);
      worst = Math.max(worst, err / tol);
    }
    results.push(`  round trip human_base player: ${frames} frames (every 4th), worst error ${worst.toFixed(3)} × tolerance`);
  });

  it('with an animation.cfg: one animation per clip, on the parts its prefix names', async () => {
    // A hand-written animation.cfg in Quake 3's layout (25 required clips: first, count, loop, fps). LEGS_ first
    // frames are written after the TORSO_ ones, as real files do; the parser subtracts the offset (here 90).
    const lines = [
      '0 10 0 20', '9 1 0 20', '10 10 0 20', '19 1 0 20', '20 10 0 20', '29 1 0 20', // BOTH_DEATH1..BOTH_DEAD3
      '30 10 0 15', '40 8 0 15', '48 8 0 15', '56 5 0 15', '61 5 0 15', '66 12 12 15', '78 12 12 15', // TORSO_*
      '120 10 10 15', '130 10 10 15', '140 10 10 15', '150 10 10 15', '160 10 10 15', // LEGS_WALKCR..LEGS_SWIM
      '170 5 0 15', '175 5 0 15', '180 5 0 15', '185 5 0 15', '190 10 10 15', '200 10 10 15', '210 5 5 15', // ..LEGS_TURN
    ];
    const cfg = parseAnimationCfg(`sex m\n${lines.join('\n')}\n`);
    const player = new Md3Player(createTsBackend(), models(), cfg);
    const glb = await toGlb(player); // a player is a { models, animations }
    expectClean('human_base player with animation.cfg', await validate(glb));
    const g = readGlb(glb);
    const byName = new Map<string, any>(g.json.animations.map((a: any) => [a.name, a]));
    const targets = (name: string) => new Set(byName.get(name).channels.map((c: any) => g.json.nodes[c.target.node].name));
    // LEGS_ clips move lower's surfaces and its tag_torso; TORSO_ clips upper's; BOTH_ clips both
    expect(targets('LEGS_WALK')).toEqual(new Set(['l_legs', 'l_kneepads', 'tag_torso']));
    expect(targets('TORSO_STAND')).toEqual(new Set(['u_shoulderpads_base', 'u_armour_light', 'u_shoulderpads_light', 'u_torso', 'tag_head', 'tag_weapon', 'tag_torso']));
    // lower: 2 surfaces + tag_torso; upper: 4 surfaces + tag_head, tag_weapon, tag_torso (node indices: names repeat)
    expect(new Set(byName.get('BOTH_DEATH1').channels.map((c: any) => c.target.node)).size).toBe(2 + 1 + 4 + 3);
    // LEGS_BACKWALK is LEGS_WALK reversed (derived by the game): same keys, frames in reverse order
    const legsWalk = cfg.byName.LEGS_WALK;
    const times = readAccessor(g, byName.get('LEGS_BACKWALK').samplers[0].input).values;
    expect(times).toHaveLength(legsWalk!.numFrames);
    const lower = player.models.lower;
    const poser = new Md3Poser(createTsBackend(), lower);
    const i = g.json.animations.findIndex((a: any) => a.name === 'LEGS_BACKWALK');
    poser.poseFrame(legsWalk!.firstFrame + legsWalk!.numFrames - 1);
    const scene = evaluate(g, i, 0);
    const lowerNodes = g.json.nodes.map((n: any, k: number) => (n.name === 'l_legs' || n.name === 'l_kneepads' ? k : -1)).filter((k: number) => k >= 0);
    const posed = lowerNodes.flatMap((k: number) => Array.from(primitivePositions(g, scene, k)));
    expect(maxDistance(posed, yUp(poser.positions))).toBeLessThanOrEqual(1e-4 * diagonal(poser.positions));
  });
});

describe('morph options', () => {
  const faerie = (): Md2Model => parseMd2(read(real('md2').find((r) => r.path.endsWith('faerie.md2'))!.absPath));

  it('clips, fps and STEP interpolation as asked; a clip past the frames is skipped with CLIP_RANGE', async () => {
    const model = faerie();
    const warnings: { code: string }[] = [];
    // float output (quantize: false): the poser's frame to 1e-4 of the diagonal
    const glb = await toGlb(model, { clips: [{ name: 'two', firstFrame: 40, frameCount: 2, fps: 5 }, { name: 'bad', firstFrame: 197, frameCount: 5 }], interpolation: 'STEP', quantize: false, warnings: warnings as never });
    expect(warnings.map((w) => w.code)).toEqual(['CLIP_RANGE']);
    const g = readGlb(glb);
    expect(g.json.animations).toHaveLength(1);
    expect(g.json.animations[0].samplers[0].interpolation).toBe('STEP');
    expect(Array.from(readAccessor(g, g.json.animations[0].samplers[0].input).values)).toEqual([0, Math.fround(0.2)]); // float32 key times
    // STEP: at 0.19 s the first key (frame 40) is still shown
    const poser = new Md2Poser(createTsBackend(), model);
    poser.poseFrame(40);
    expect(maxDistance(gltfPositions(g, 0, 0.19), yUp(md2Expected(poser, md2Unwelded(model).sourceVertex)))).toBeLessThanOrEqual(1e-4 * diagonal(poser.positions));
    expectClean('faerie.md2 custom clips, STEP', await validate(glb));
  });

  it('skins name the material; a texture folder makes the image URI', async () => {
    const dolphin = parseMd2(read(real('md2').find((r) => r.path.endsWith('dolphin.md2'))!.absPath));
    const json = readGlb(await toGlb(dolphin, { textureFolder: 'tex' })).json;
    // MANIFEST: skins=settings/elias1/desktop/frames/dolphin_f.bmp
    expect(json.materials[0].name).toBe('settings/elias1/desktop/frames/dolphin_f.bmp');
    expect(json.images[0].uri).toBe('tex/dolphin_f.png');
  });
});
