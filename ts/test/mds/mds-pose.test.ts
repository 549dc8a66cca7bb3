/**
 * MDS posed as RtCW's renderer poses it (pose/wolf-skeleton.ts: R_CalcBones; the skinning kernels: RB_SurfaceAnim's
 * weighted sum) on both backends, against the positions the writing tool's JSON states at frame 0 and the middle
 * frame. The tool decodes a bone's direction angles as (s >> 4) · 360 / 4095 where the engine says s · 360 / 65536
 * (the README's R2 note): following the engine, every vertex lies within 3.1e-4 units of the JSON's (measured 1.9e-4 at frame 0,
 * 3.0e-4 at frame 24; the model is 1.6 units across), and the tool's own "engine scale" variant states the same
 * sizes. WASM and TS agree to float rounding; lerped and torso-split poses behave as the engine's refEntity says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lodTriangles, lodVertexCount } from '../../src/formats/mds/lod.js';
import { parseMds } from '../../src/formats/mds/parser.js';
import { WolfPoser, wolfSkinStream } from '../../src/pose/wolf-poser.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { MATRIX_STRIDE } from '../../src/kernels/layout.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { wolfBoneMatrices } from '../../src/pose/wolf-skeleton.js';
import { SHARED_MODELS } from '../helpers/models.js';

const FILE = join(SHARED_MODELS, 'rtcw-made/mds/cesiumman.mds');
const json = JSON.parse(readFileSync(FILE.replace(/\.mds$/, '.json'), 'utf8'));
const model = parseMds(readFileSync(FILE));
/** The tolerance the angle decoding's difference makes (README R2): well under 1e-3 of the model's 1.6-unit diagonal. */
const TOLERANCE = 3.5e-4;

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

const maxDev = (got: ArrayLike<number>, ref: number[][]) => {
  let max = 0;
  ref.forEach((v, i) => v.forEach((x, k) => (max = Math.max(max, Math.abs(x - got[i * 3 + k])))));
  return max;
};

describe('cesiumman.mds posed', () => {
  it('is within the stated tolerance of the JSON at frame 0 and the middle frame, on both backends', () => {
    const diag = Math.hypot(...[0, 1, 2].map((k) => model.frames.bounds[3 + k] - model.frames.bounds[k]));
    expect(diag).toBeGreaterThan(1.2);
    for (const backend of backends) {
      const p = new WolfPoser(backend, model, wolfSkinStream(model.surfaces));
      for (const f of json.sampled_frames as number[]) {
        p.pose({ frame: f });
        const dev = maxDev(p.positions, json.surfaces[0].vertices_model_space[String(f)]);
        expect(dev, `${backend.name} frame ${f}`).toBeLessThan(TOLERANCE);
        // and not the rest pose: the frames differ from each other by far more
        expect(dev).toBeLessThan(json.ofs_angles_engine_scale_variant[String(f)].max_vertex_dev + 1e-4);
        // bones and tags where the tool puts them
        const bones = json.bone_poses_model_space[String(f)] as { location: number[] }[];
        bones.forEach((b, i) => b.location.forEach((x, k) => expect(Math.abs(p.bones[i * MATRIX_STRIDE + 4 * k + 3] - x)).toBeLessThan(TOLERANCE)));
        for (const tag of json.tags) {
          const at = model.tags.find((t) => t.name === tag.name)!.boneIndex * MATRIX_STRIDE;
          const ref = tag.frames[String(f)];
          ref.location.forEach((x: number, k: number) => expect(Math.abs(p.bones[at + 4 * k + 3] - x)).toBeLessThan(TOLERANCE));
          // the tool's orientation is the bone's matrix as the skinning applies it (M · v), except for a BONEFLAG_TAG
          // bone, whose matrix it gives transposed: its rows as axes, which is how R_GetBoneTag hands a tag's axes on
          const bone = model.tags.find((t) => t.name === tag.name)!.boneIndex;
          const transposed = (model.bones[bone].flags & 1) !== 0;
          (ref.orientation as number[][]).forEach((row, r) => row.forEach((x, c) => expect(Math.abs(p.bones[at + (transposed ? 4 * c + r : 4 * r + c)] - x)).toBeLessThan(2e-3)));
        }
      }
      p.dispose();
    }
  });

  it('frame 0 and frame 24 differ (the test above could not pass on one pose)', () => {
    const p = new WolfPoser(backends[1], model, wolfSkinStream(model.surfaces)).pose({ frame: 0 });
    expect(maxDev(p.positions, json.surfaces[0].vertices_model_space['24'])).toBeGreaterThan(0.05);
    p.dispose();
  });

  it('WASM and TS skin every frame alike', () => {
    const [w, t] = backends.map((b) => new WolfPoser(b, model, wolfSkinStream(model.surfaces)));
    for (let f = 0; f < model.frames.length; f += 5) {
      w.pose({ frame: f, oldFrame: f + 1, backlerp: 0.3 });
      t.pose({ frame: f, oldFrame: f + 1, backlerp: 0.3 });
      const apart = (a: Float32Array, b: Float32Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
      expect(apart(w.positions, t.positions), `frame ${f}`).toBeLessThan(1e-5);
      expect(apart(w.normals, t.normals), `frame ${f}`).toBeLessThan(1e-5);
    }
    w.dispose();
    t.dispose();
  });

  it('lerps between two frames as R_CalcBoneLerp: backlerp 0 is the frame, 1 the old frame', () => {
    const p = new WolfPoser(backends[1], model, wolfSkinStream(model.surfaces));
    const at = (o: Parameters<WolfPoser['pose']>[0]) => Float32Array.from(p.pose(o).positions);
    const f0 = at({ frame: 0 }), f24 = at({ frame: 24 });
    const same = (a: Float32Array, b: Float32Array, tol: number) => a.forEach((x, i) => expect(Math.abs(x - b[i])).toBeLessThan(tol));
    same(at({ frame: 24, oldFrame: 0, backlerp: 0 }), f24, 1e-6);
    // angles blended through the engine's 16-bit normalisation: one step is 360/65536 degrees
    same(at({ frame: 24, oldFrame: 0, backlerp: 1 }), f0, 1e-4);
    const half = at({ frame: 24, oldFrame: 0, backlerp: 0.5 });
    expect(maxDev(half, json.surfaces[0].vertices_model_space['0'])).toBeGreaterThan(0.01);
    expect(maxDev(half, json.surfaces[0].vertices_model_space['24'])).toBeGreaterThan(0.01);
    p.dispose();
  });

  it('plays the torso on its own frame: the legs keep theirs, the torso bones take the other', () => {
    const J = model.bones.length;
    const legs = wolfBoneMatrices(model, { frame: 0 }, new Float32Array(J * MATRIX_STRIDE));
    const split = wolfBoneMatrices(model, { frame: 0, torsoFrame: 24 }, new Float32Array(J * MATRIX_STRIDE));
    const torso = wolfBoneMatrices(model, { frame: 24 }, new Float32Array(J * MATRIX_STRIDE));
    const row = (m: Float32Array, b: number) => Array.from(m.subarray(b * MATRIX_STRIDE, b * MATRIX_STRIDE + 12));
    model.bones.forEach((b, i) => {
      // a bone's rotation is its own frame's; where it sits follows its parents (legs' parents for every bone here)
      if (b.torsoWeight === 0) expect(row(split, i).filter((_, k) => k % 4 !== 3)).toEqual(row(legs, i).filter((_, k) => k % 4 !== 3));
      if (b.torsoWeight === 1) row(split, i).forEach((x, k) => k % 4 !== 3 && expect(x).toBeCloseTo(torso[i * MATRIX_STRIDE + k], 5));
    });
    expect(model.bones.some((b) => b.torsoWeight === 1) && model.bones.some((b) => b.torsoWeight === 0)).toBe(true);
  });

  it('a torso axis turns the torso bones about the torso parent, and the legs not at all', () => {
    const J = model.bones.length;
    const a = 0.4, c = Math.cos(a), s = Math.sin(a);
    const plain = wolfBoneMatrices(model, { frame: 3 }, new Float32Array(J * MATRIX_STRIDE));
    const turned = wolfBoneMatrices(model, { frame: 3, torsoAxis: [c, s, 0, -s, c, 0, 0, 0, 1] }, new Float32Array(J * MATRIX_STRIDE));
    const tp = model.torsoParent * MATRIX_STRIDE;
    for (let k = 0; k < 3; k++) expect(turned[tp + 4 * k + 3]).toBeCloseTo(plain[tp + 4 * k + 3], 6);
    model.bones.forEach((b, i) => {
      const moved = Math.max(...[3, 7, 11].map((k) => Math.abs(turned[i * MATRIX_STRIDE + k] - plain[i * MATRIX_STRIDE + k])));
      if (b.torsoWeight === 0) expect(moved).toBe(0);
    });
    const head = 4 * MATRIX_STRIDE;
    const d = (m: Float32Array) => [3, 7, 11].map((k) => m[head + k] - m[tp + k]);
    // the head turns about the torso parent by the axis' angle, its distance kept
    expect(Math.hypot(...d(turned))).toBeCloseTo(Math.hypot(...d(plain)), 5);
    expect(Math.abs(Math.atan2(d(turned)[1], d(turned)[0]) - Math.atan2(d(plain)[1], d(plain)[0]))).toBeGreaterThan(0.1);
  });

  it('drops vertices through the collapse map as RB_SurfaceAnim: all of them at full detail, fewer triangles below', () => {
    const s = model.surfaces[0];
    expect(lodVertexCount(s, 1)).toBe(s.vertexCount);
    expect(lodVertexCount(s, 0)).toBe(s.minLod);
    expect(lodTriangles(s, s.vertexCount)).toEqual(s.triangles);
    const low = lodTriangles(s, s.minLod);
    expect(low.length / 3).toBeLessThan(s.triangles.length / 3);
    expect(low.length / 3).toBeGreaterThan(100);
    expect(Math.max(...low)).toBeLessThan(s.minLod);
  });
});
