/**
 * The Quake II re-release's `.md5scale` (formats/md5/md5scale.ts, q2pro's MD5_LoadScales / MD5_BuildFrameSkeleton /
 * calc_skel_vert) on the corpus drone (no free re-release file exists: fixtures/generate-md5-replacement.mjs lays the
 * drone out as a replacement): read as q2pro reads it, applied by `Md5Poser` through the `scaleMatrices` kernel on
 * every backend (the TS and WASM backends agree bit for bit), and in glTF through a scale node per scaled joint, so a
 * part scaled to 0 is hidden there too while the joint's children stay.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { MD5SCALE_MAX_TOKENS, parseMd5Scales, scaledAnim } from '../../src/formats/md5/md5scale.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend, wasmSimdSupported } from '../../src/kernels/wasm-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { q2Replacement } from '../../../fixtures/generate-md5-replacement.mjs';
import { gltfPositions, readGlb, yUp } from '../export/gltf-eval.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const DRONE = join(SHARED_MODELS, 'actors/drone');
const meshBytes = read(join(DRONE, 'mesh.md5mesh'));
const animBytes = read(join(DRONE, 'forward.md5anim'));
const mesh: Md5Mesh = parseMd5Mesh(meshBytes);
const anim: Md5Anim = parseMd5Anim(animBytes);
const J = anim.jointCount;
const joint = (name: string) => anim.names.indexOf(name);
const text = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const codes = (s: { warnings: { message: string }[] }) => s.warnings.map((w) => w.message);

/** Vertices every weight of which is on `j`. */
function verticesOnlyOn(j: number): number[] {
  const out: number[] = [];
  let base = 0;
  for (const m of mesh.meshes) {
    for (let v = 0; v < m.vertexCount; v++) {
      let only = m.weightCount[v] > 0;
      for (let w = m.weightStart[v]; w < m.weightStart[v] + m.weightCount[v]; w++) if (m.weightJoints[w] !== j) only = false;
      if (only) out.push(base + v);
    }
    base += m.vertexCount;
  }
  return out;
}

describe('.md5scale read as q2pro reads it', () => {
  it('joint names from the anim (exact, first match), frame keys by atoi, scale_positions by its first letter', () => {
    const s = parseMd5Scales(text({ Head: { '0': 0, '5': 0.5 }, Torso: { scale_positions: true, '2': 2 }, Nope: { '1': 3 }, Waist: { '99': 2, abc: 0.25 }, head: { '1': 7 } }), anim, 'tris.md5scale');
    expect(s.scales[0 * J + joint('Head')]).toBe(0);
    expect(s.scales[5 * J + joint('Head')]).toBe(0.5);
    expect(s.scales[1 * J + joint('Head')]).toBe(1); // "head" is not "Head": q2pro compares with strcmp
    expect(s.scales[2 * J + joint('Torso')]).toBe(2);
    expect(s.scalePositions[joint('Torso')]).toBe(1);
    expect(s.scales[0 * J + joint('Waist')]).toBe(0.25); // "abc" is frame 0 (Q_atoi)
    expect(codes(s)).toEqual([
      expect.stringMatching(/tris\.md5scale: no joint "Nope"/),
      expect.stringMatching(/no frame 99 in the anim \(12 frames\)/),
      expect.stringMatching(/no joint "head"/),
    ]);
    expect(s.any).toBe(true);
  });

  it('bad JSON, a top level that is no object, or more than 4096 tokens: not read at all', () => {
    expect(codes(parseMd5Scales(text('{"Head": {"0": 0'), anim))).toEqual([expect.stringMatching(/invalid JSON/)]);
    expect(codes(parseMd5Scales(text('[1]'), anim))).toEqual([expect.stringMatching(/not an object/)]);
    const big: Record<string, Record<string, number>> = { Head: { '0': 0 } };
    for (let i = 0; i < MD5SCALE_MAX_TOKENS / 2; i++) big[`j${i}`] = { '0': 1 };
    const s = parseMd5Scales(text(big), anim);
    expect(codes(s)).toEqual([expect.stringMatching(/more JSON tokens than q2pro's 4096: not read/)]);
    expect(s.any).toBe(false);
    expect(parseMd5Scales(text(''), anim).warnings).toEqual([]);
    // a file nested 200,000 deep is refused by its count, not by a stack overflow
    const deep = parseMd5Scales(text(`{"Head": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`), anim);
    expect(codes(deep)).toEqual([expect.stringMatching(/more JSON tokens than q2pro's 4096/)]);
  });

  it('a value that is no primitive stops the reading there, what came before kept (jsmn: goto fail)', () => {
    const s = parseMd5Scales(text('{"Head": {"0": 0}, "Torso": {"1": "2"}, "Waist": {"1": 0}}'), anim);
    expect(s.scales[joint('Head')]).toBe(0);
    expect(s.scales[1 * J + joint('Waist')]).toBe(1);
    expect(codes(s)).toEqual([expect.stringMatching(/"Torso"\."1" is not a number/)]);
  });

  it('scale_positions folds into the anim: the joint\'s local translation times the frame\'s scale, nothing else moved', () => {
    const t = joint('Torso');
    const s = parseMd5Scales(text({ Torso: { scale_positions: true, '2': 2 } }), anim);
    const a = scaledAnim(anim, s);
    const p = new Md5Poser(createTsBackend(), mesh).setAnim(anim), q = new Md5Poser(createTsBackend(), mesh).setAnim(a);
    for (const f of [0, 2]) {
      const x = Array.from(p.localPose(f)), y = Array.from(q.localPose(f));
      for (let j = 0; j < J; j++) {
        for (let c = 0; c < 8; c++) {
          const k = j * 8 + c;
          expect(y[k]).toBe(j === t && f === 2 && c < 3 ? Math.fround(x[k] * 2) : x[k]);
        }
      }
    }
    expect(scaledAnim(anim, parseMd5Scales(text({ Torso: { '2': 2 } }), anim))).toBe(anim); // no scale_positions: the anim as it was
  });
});

async function backends(): Promise<PoseBackend[]> {
  return [createTsBackend(), ...(wasmSimdSupported() ? [await createWasmBackend('simd')] : []), await createWasmBackend('scalar')];
}

describe('the weights\' scales in the poser, on every backend', () => {
  const arm = joint('Upperarm.Right'), fore = joint('Forearm.Right');
  const s = parseMd5Scales(text({ 'Upperarm.Right': { '3': 0, '4': 0.5 } }), anim);

  it('0 collapses what only the joint holds onto its origin; its children\'s vertices do not move; normals unscaled', async () => {
    const only = verticesOnlyOn(arm), child = verticesOnlyOn(fore);
    expect(only.length).toBeGreaterThan(0);
    expect(child.length).toBeGreaterThan(0);
    for (const backend of await backends()) {
      const plain = new Md5Poser(backend, mesh).setAnim(anim);
      const scaled = new Md5Poser(backend, mesh).setAnim(anim).setScales(s.scales);
      const a = plain.poseFrame(3).positions.slice(), an = plain.normals.slice();
      const b = scaled.poseFrame(3).positions.slice(), bn = scaled.normals.slice();
      const origin = Array.from(scaled.jointMatrices.subarray(arm * 16, arm * 16 + 12)).filter((_, i) => i % 4 === 3);
      for (const v of only) expect(Array.from(b.subarray(v * 3, v * 3 + 3)).map((x, i) => Math.abs(x - origin[i]))).toEqual([expect.closeTo(0, 5), expect.closeTo(0, 5), expect.closeTo(0, 5)]);
      for (const v of child) expect(Array.from(b.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(a.subarray(v * 3, v * 3 + 3)));
      expect(Array.from(bn)).toEqual(Array.from(an));
      // frame 5 has no scale: the same as unscaled; a blend 3 → 4 takes frame 4's scale (q2pro: the new frame's)
      expect(Array.from(scaled.poseFrame(5).positions)).toEqual(Array.from(plain.poseFrame(5).positions));
      const half = scaled.poseBlend(3, 4, 0.25).positions.slice();
      expect(Array.from(half)).not.toEqual(Array.from(plain.poseBlend(3, 4, 0.25).positions));
      for (const v of child) expect(Array.from(half.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(plain.positions.subarray(v * 3, v * 3 + 3)));
      plain.dispose();
      scaled.dispose();
    }
  });

  it('TS and WASM pose the scaled anim alike (within 1e-5, as every skinning parity test), frame by frame and in a bake', async () => {
    const [ts, ...wasm] = await backends();
    const ref = new Md5Poser(ts, mesh).setAnim(anim).setScales(s.scales);
    const frames = Array.from({ length: anim.frameCount }, (_, f) => f);
    const want = frames.map((f) => Array.from(ref.poseFrame(f).positions));
    const bakedTs = Array.from(ref.bakeFrames(frames));
    expect(bakedTs).toEqual(want.flat());
    const near = (got: ArrayLike<number>, ref: number[], what: string) => {
      for (let i = 0; i < ref.length; i++) if (Math.abs(got[i] - ref[i]) > 1e-5) expect.fail(`${what}: float ${i} is ${got[i]}, TS ${ref[i]}`);
    };
    for (const backend of wasm) {
      const p = new Md5Poser(backend, mesh).setAnim(anim).setScales(s.scales);
      for (const f of frames) near(p.poseFrame(f).positions, want[f], `${backend.name} frame ${f}`);
      near(p.bakeFrames(frames), bakedTs, `${backend.name} bake`);
      p.dispose();
    }
    ref.dispose();
  });

  it('the scaleMatrices kernel: TS and WASM write the same bits', async () => {
    const [, ...wasm] = await backends();
    const m = Float32Array.from({ length: 3 * 16 }, (_, i) => Math.fround(Math.sin(i + 1) * 3));
    const sc = Float32Array.of(0, 0.5, 1.75);
    const results = [];
    for (const backend of [createTsBackend(), ...wasm]) {
      const mem = backend.memory;
      const matrices = mem.f32(48), scales = mem.f32(3), out = mem.f32(48);
      matrices.view.set(m);
      scales.view.set(sc);
      backend.kernels.scaleMatrices({ matrices, scales, out });
      results.push(Array.from(out.view));
      expect(() => backend.kernels.scaleMatrices({ matrices, scales, out: mem.f32(16) })).toThrow(RangeError);
    }
    for (const r of results) expect(r).toEqual(results[0]);
    expect(results[0].slice(0, 4)).toEqual([0, 0, 0, m[3]]);
    expect(results[0].slice(16, 20)).toEqual([Math.fround(m[16] * 0.5), Math.fround(m[17] * 0.5), Math.fround(m[18] * 0.5), m[19]]);
  });

  it('setScales checks its length; setAnim drops the scales', () => {
    const p = new Md5Poser(createTsBackend(), mesh).setAnim(anim);
    expect(() => p.setScales(new Float32Array(3))).toThrow(RangeError);
    p.setScales(s.scales);
    const scaled = Array.from(p.poseFrame(3).positions);
    p.setAnim(anim);
    expect(Array.from(p.poseFrame(3).positions)).not.toEqual(scaled);
  });
});

describe('through the model set into glTF', () => {
  it('the replacement\'s glTF hides the part the .md5scale scales to 0 at that frame, children kept, and shows it again after', async () => {
    const files = q2Replacement({ mesh: meshBytes, anim: animBytes, scale: { 'Upperarm.Right': { '3': 0 } } });
    const set = await openModelSet(memoryFileSystem(files), 'models/drone/tris.md2', { formats: DEFAULT_FORMATS });
    const sub = set.replacement!.set;
    expect(sub.sideFiles.map((f) => f.path)).toEqual(['models/drone/md5/tris.md5scale']);
    const g = readGlb(await toGlb(sub.data as never, setGltfOptions(sub, {})));
    const arm = joint('Upperarm.Right');
    const node = g.json.nodes.findIndex((n: { name?: string }) => n.name === 'Upperarm.Right_md5scale');
    expect(node).toBeGreaterThan(0);
    expect(g.json.skins[0].joints).toContain(node);
    const channel = g.json.animations[0].channels.find((c: { target: { node: number } }) => c.target.node === node);
    expect(channel.target.path).toBe('scale');
    expect(g.json.animations[0].samplers[channel.sampler].interpolation).toBe('STEP');
    const poser = new Md5Poser(createTsBackend(), mesh).setAnim(anim).setScales(parseMd5Scales(text({ 'Upperarm.Right': { '3': 0 } }), anim).scales);
    const rate = g.json.animations[0].extras.frameRate; // the MD2's one clip of every frame, at Quake II's 10 fps
    expect(rate).toBe(10);
    for (const f of [2, 3]) {
      const got = gltfPositions(g, 0, Math.fround(f / rate));
      const want = yUp(poser.poseFrame(f).positions);
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThan(2e-3);
    }
    const collapsed = verticesOnlyOn(arm).map((v) => Array.from(gltfPositions(g, 0, Math.fround(3 / rate)).subarray(v * 3, v * 3 + 3)));
    for (const p of collapsed) expect(p).toEqual(collapsed[0].map((x) => expect.closeTo(x, 4)));
  });
});
