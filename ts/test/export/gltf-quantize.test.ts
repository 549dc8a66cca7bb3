/**
 * Compact glTF (KHR_mesh_quantization, the default for MD2, MD3 and players) on every animated real MD2 and MD3:
 * three.js's GLTFLoader loads it and its AnimationMixer plays it onto our posers' frames within the error bound
 * docs/gltf.md states; MD3 positions are the file's int16 values as stored; every frame's normal is within the stated
 * angle of the poser's; `quantize: false` keeps float32.
 */
import { AnimationMixer, LoopOnce, type Group, type Mesh } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { describe, expect, it } from 'vitest';
import type { Md2Model, Md3Model } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { NORMAL_MIN_SCALE } from '../../src/export/gltf-quantize.js';
import { toGlbMeshopt } from '../../src/registry/gltf-meshopt.js';
import { md2Unwelded, parseMd2 } from '../../src/formats/md2/index.js';
import { groupClips } from '../../src/formats/md2/clips.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { diagonal } from '../helpers/compare.js';
import { manifest, read } from '../helpers/models.js';
import { maxDistance, setTime, threePositions } from '../three/three-eval.js';
import { readAccessor, readGlb, yUp, type Gltf } from './gltf-eval.js';
import { md2GridStep } from './md2-grid.js';
import { validate } from './validate.js';

/** Every well-formed real model of a format with more than one frame. */
const animated = (format: 'md2' | 'md3') =>
  manifest()
    .filter((r) => r.format === format && !/malformed|invalid/.test(r.path))
    .map((r) => ({ path: r.path, bytes: read(r.absPath) }))
    .filter((r) => (format === 'md2' ? parseMd2(r.bytes) : parseMd3(r.bytes)).frameCount > 1);

/** A model's frames as the posers give them, in glTF's axes and vertex order (MD2 un-welded, MD3 surface after surface). */
function poserFrames(model: Md2Model | Md3Model): (f: number, g?: number, t?: number) => { positions: Float64Array; normals: Float64Array } {
  if (model.format === 'md2') {
    const poser = new Md2Poser(createTsBackend(), model);
    const { sourceVertex } = md2Unwelded(model);
    const gather = (a: Float32Array) => yUp(Float32Array.from({ length: sourceVertex.length * 3 }, (_, i) => a[sourceVertex[(i / 3) | 0] * 3 + (i % 3)]));
    return (f, g = f, t = 0) => {
      poser.poseBlend(f, g, t);
      return { positions: gather(poser.positions), normals: gather(poser.normals) };
    };
  }
  const poser = new Md3Poser(createTsBackend(), model);
  return (f, g = f, t = 0) => {
    poser.poseBlend(f, g, t);
    return { positions: yUp(poser.positions), normals: yUp(poser.normals) };
  };
}

function loadThree(glb: Uint8Array): Promise<{ scene: Group; animations: any[] }> {
  const ab = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().setMeshoptDecoder(MeshoptDecoder).parse(ab, '', resolve as never, reject));
}

const parse = (path: string, bytes: Uint8Array) => (path.endsWith('.md2') ? parseMd2(bytes) : parseMd3(bytes));
const clipsOf = (model: Md2Model | Md3Model) => (model.format === 'md2' ? model.clips : groupClips(model.frameNames));

/**
 * three's GLTFLoader (with its MeshoptDecoder for EXT_meshopt_compression) and AnimationMixer on `glb`, against the
 * posers at the keys and half keys of every clip (first 6 keys each); returns the worst error over the tolerance.
 */
async function playedByThree(model: Md2Model | Md3Model, glb: Uint8Array): Promise<number> {
  const frame = poserFrames(model);
  const fps = model.format === 'md2' ? 10 : 15;
  // MD3: the file's own grid, exact (float rounding only); MD2: half a step per component, √3/2 · step as a distance
  const bound = model.format === 'md2' ? (Math.sqrt(3) / 2) * md2GridStep(model) : 0;
  const gltf = await loadThree(glb);
  const meshes: Mesh[] = [];
  gltf.scene.traverse((o) => {
    if ((o as Mesh).isMesh) meshes.push(o as Mesh);
  });
  const clips = clipsOf(model);
  expect(gltf.animations.map((a) => a.name)).toEqual(clips.map((c, i) => c.name || `clip${i}`));
  const mixer = new AnimationMixer(gltf.scene);
  let worst = 0;
  clips.forEach((clip, c) => {
    mixer.stopAllAction();
    // played once and held at the end: a looping action would show key 0 again at the clip's last key time
    const action = mixer.clipAction(gltf.animations[c]).setLoop(LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    for (let k = 0; k < Math.min(clip.frameCount, 6); k++) {
      for (const half of k + 1 < clip.frameCount ? [0, 0.5] : [0]) {
        setTime(mixer, gltf.scene, (k + half) / fps);
        const f = clip.firstFrame + k;
        const want = frame(f, f + (half ? 1 : 0), half).positions;
        const got = meshes.flatMap((m) => Array.from(sourceOrder(threePositions(m, gltf.scene), m.geometry.userData.sourceVertex)));
        const tol = bound + 1e-5 * diagonal(want);
        const err = maxDistance(got, want);
        expect(err, `${clip.name} key ${k + half}`).toBeLessThanOrEqual(tol);
        worst = Math.max(worst, err / tol);
      }
    }
  });
  return worst;
}

/** Positions of a reordered mesh (toGlbMeshopt `reorder`) back in the file's vertex order: vertex i was sourceVertex[i]. */
function sourceOrder(p: Float32Array, sourceVertex?: number[]): Float32Array {
  if (!sourceVertex) return p;
  const out = new Float32Array(p.length);
  sourceVertex.forEach((old, i) => out.set(p.subarray(i * 3, i * 3 + 3), old * 3));
  return out;
}

describe('three.js GLTFLoader plays the quantised glb onto the posers\' frames', () => {
  for (const row of [...animated('md2'), ...animated('md3')]) {
    it(`${row.path}: keys and half keys of every clip (first 6 keys each) within the grid bound`, async () => {
      const model = parse(row.path, row.bytes);
      const worst = await playedByThree(model, await toGlb(model));
      console.log(`${row.path}: worst ${worst.toFixed(3)} × (grid bound + 1e-5 × diagonal)`);
    });
  }
});

describe('EXT_meshopt_compression (toGlbMeshopt)', () => {
  for (const name of ['faerie.md2', 'overmind.md3', 'grenade_launcher.md3']) {
    it(`${name}: validator 0 errors; three (MeshoptDecoder) plays it as the quantised glb; smaller than it`, async () => {
      const row = [...animated('md2'), ...animated('md3')].find((r) => r.path.endsWith(name))!;
      const model = parse(row.path, row.bytes);
      const glb = await toGlbMeshopt(model);
      const report = await validate(glb);
      expect(report.errors, report.sample.join('\n')).toBe(0);
      const json = readGlb(glb).json;
      expect(json.extensionsRequired).toEqual(['KHR_mesh_quantization', 'EXT_meshopt_compression']);
      expect(json.buffers[1].extensions.EXT_meshopt_compression.fallback).toBe(true);
      expect(json.bufferViews.filter((v: any) => v.extensions).length).toBeGreaterThan(0);
      expect(glb.byteLength).toBeLessThan((await toGlb(model)).byteLength);
      expect(await playedByThree(model, glb)).toBeLessThanOrEqual(1);
    });
  }
});

/** Each triangle's corners rotated to start at its smallest index (the same triangle, the same winding). */
function rotated(t: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.length; i += 3) {
    const r = t[i] <= Math.min(t[i + 1], t[i + 2]) ? 0 : t[i + 1] <= t[i + 2] ? 1 : 2;
    out.push(t[i + r], t[i + ((r + 1) % 3)], t[i + ((r + 2) % 3)]);
  }
  return out;
}

describe('EXT_meshopt_compression pays or is left out', () => {
  it('every MD2/MD3: never larger than the quantised glb; a 516-byte grass.md3 is that glb, byte for byte; byte weights encoded as 4-byte elements', async () => {
    for (const r of manifest().filter((r) => (r.format === 'md2' || r.format === 'md3') && !/malformed|invalid/.test(r.path))) {
      const model = parse(r.path, read(r.absPath));
      const plain = await toGlb(model), glb = await toGlbMeshopt(model);
      expect(glb.byteLength, r.path).toBeLessThanOrEqual(plain.byteLength);
      if (r.path.endsWith('grass.md3')) expect(glb).toEqual(plain);
      if (model.frameCount > 1 && glb !== plain) {
        // the one-hot weights of a clip of 16 keys or more (a small view stays as it is: its JSON would cost more)
        const json = readGlb(glb).json;
        const view = json.bufferViews[json.accessors[json.animations[0].samplers[0].output].bufferView];
        if (json.accessors[json.animations[0].samplers[0].input].count >= 16) expect(view.extensions?.EXT_meshopt_compression?.byteStride, r.path).toBe(4);
      }
    }
  });
});

describe('EXT_meshopt_compression with reorder (toGlbMeshopt { reorder: true })', () => {
  for (const name of ['faerie.md2', 'flag.md2', 'human_base/upper.md3', 'grenade_launcher.md3']) {
    it(`${name}: validator 0 errors; extras.sourceVertex a permutation; the same triangles; three plays it as the quantised glb; smaller than without`, async () => {
      const row = [...animated('md2'), ...animated('md3')].find((r) => r.path.endsWith(name))!;
      const model = parse(row.path, row.bytes);
      const glb = await toGlbMeshopt(model, { reorder: true });
      const report = await validate(glb);
      expect(report.errors, report.sample.join('\n')).toBe(0);
      expect(glb.byteLength).toBeLessThan((await toGlbMeshopt(model)).byteLength);
      const plain = readGlb(await toGlb(model));
      const json = readGlb(glb).json;
      const gltf = await loadThree(glb);
      const meshes: Mesh[] = [];
      gltf.scene.traverse((o) => {
        if ((o as Mesh).isMesh) meshes.push(o as Mesh);
      });
      expect(meshes.length).toBe(json.meshes.length);
      meshes.forEach((m, k) => {
        const sourceVertex: number[] = json.meshes[k].primitives[0].extras.sourceVertex;
        expect(m.geometry.userData.sourceVertex).toEqual(sourceVertex);
        expect([...sourceVertex].sort((a, b) => a - b)).toEqual(sourceVertex.map((_, i) => i));
        // triangle t is the same triangle in the file's numbering, its winding kept (the codec may rotate its corners)
        const want = Array.from(readAccessor(plain, plain.json.meshes[k].primitives[0].indices).values);
        expect(rotated(Array.from(m.geometry.index!.array, (v) => sourceVertex[v]))).toEqual(rotated(want));
      });
      expect(await playedByThree(model, glb)).toBeLessThanOrEqual(1);
    });
  }
});

/** The unit normal glTF gives at frame f: base + the target holding frame f (extras.targetNames), normalised. */
function gltfNormals(g: Gltf, mesh: number, f: number): Float64Array {
  const prim = g.json.meshes[mesh].primitives[0];
  const n = Float64Array.from(readAccessor(g, prim.attributes.NORMAL).values);
  const t = (g.json.meshes[mesh].extras?.targetNames ?? []).indexOf(`frame${f}`);
  if (t >= 0) readAccessor(g, prim.targets[t].NORMAL).values.forEach((d, i) => (n[i] += d));
  for (let i = 0; i < n.length; i += 3) {
    const len = Math.hypot(n[i], n[i + 1], n[i + 2]);
    for (let k = 0; k < 3; k++) n[i + k] /= len;
  }
  return n;
}

describe('normals', () => {
  // docs/gltf.md: round(127 · c · n) / 127 with c ≥ NORMAL_MIN_SCALE is off by ≤ √3 / 254 per vector, so the angle is ≤ asin(√3 / (254 · c))
  const bound = Math.asin(Math.sqrt(3) / (254 * NORMAL_MIN_SCALE));

  for (const row of [...animated('md2'), ...animated('md3')]) {
    it(`${row.path}: every frame's normals within ${((bound * 180) / Math.PI).toFixed(2)}° of the poser's`, async () => {
      const model = parse(row.path, row.bytes);
      const frame = poserFrames(model);
      const g = readGlb(await toGlb(model));
      let worst = 0;
      for (let f = 0; f < model.frameCount; f++) {
        const want = frame(f).normals;
        const got = g.json.meshes.flatMap((_: unknown, m: number) => Array.from(gltfNormals(g, m, f)));
        for (let i = 0; i < got.length; i += 3) {
          const dot = got[i] * want[i] + got[i + 1] * want[i + 1] + got[i + 2] * want[i + 2];
          worst = Math.max(worst, Math.acos(Math.min(1, dot)));
        }
      }
      expect(worst).toBeLessThanOrEqual(bound);
    });
  }
});

describe('MD3 positions are the file\'s int16 values', () => {
  it('overmind.md3: each surface\'s base POSITION holds frame 0\'s stored x, z, −y; the node scale is 1/64', async () => {
    const row = animated('md3').find((r) => r.path.endsWith('overmind.md3'))!;
    const model = parseMd3(row.bytes);
    const g = readGlb(await toGlb(model));
    model.surfaces.forEach((s, i) => {
      const node = g.json.nodes.find((n: any) => n.mesh === i);
      expect(node.scale).toEqual([1 / 64, 1 / 64, 1 / 64]);
      const acc = g.json.accessors[g.json.meshes[i].primitives[0].attributes.POSITION];
      expect(acc.componentType).toBe(5122); // SHORT, not normalised
      const stored = readAccessor(g, g.json.meshes[i].primitives[0].attributes.POSITION).values;
      for (let v = 0; v < s.vertexCount; v++) {
        const [x, y, z] = s.xyzNormals.subarray(v * 4, v * 4 + 3);
        expect([stored[v * 3], stored[v * 3 + 1], stored[v * 3 + 2]]).toEqual([x, z, -y === 0 ? 0 : -y]);
      }
    });
  });
});

describe('quantize: false', async () => {
  for (const name of ['faerie.md2', 'overmind.md3']) {
    it(`${name}: float32 positions, normals and weights, no extension; the quantised file is under half its size`, async () => {
      const row = [...animated('md2'), ...animated('md3')].find((r) => r.path.endsWith(name))!;
      const model = parse(row.path, row.bytes);
      const float = await toGlb(model, { quantize: false });
      const g = readGlb(float);
      expect(g.json.extensionsUsed).toBeUndefined();
      const types = new Set<number>();
      for (const m of g.json.meshes) {
        const p = m.primitives[0];
        for (const a of [p.attributes.POSITION, p.attributes.NORMAL, ...p.targets.flatMap((t: any) => [t.POSITION, t.NORMAL])]) types.add(g.json.accessors[a].componentType);
      }
      for (const a of g.json.animations) for (const s of a.samplers) types.add(g.json.accessors[s.output].componentType);
      expect([...types]).toEqual([5126]);
      const quantized = await toGlb(model);
      expect(readGlb(quantized).json.extensionsRequired).toEqual(['KHR_mesh_quantization']);
      expect(quantized.byteLength).toBeLessThan(float.byteLength / 2);
    });
  }
});
