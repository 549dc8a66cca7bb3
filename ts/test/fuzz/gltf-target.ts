/**
 * The glTF import under fuzz: `importGltf(input, { format: 'md3' })` on mutated .glb and .gltf inputs (and, in the use
 * phase, `gltfToPlayer`, `gltfToMd2` and `gltfToMd5` on the same input, each model checked, written and read back). The import is
 * asynchronous (glTF Transform reads asynchronously), so this target has its own campaign loop and check, with the
 * same invariant as `invariant.ts`: a model or a ModelParseError with a documented code (never another exception),
 * an accepted model that passes `checkMd3` + `checkGeneric` and that `writeMd3` writes (or refuses with a typed
 * error) and `parseMd3` reads back, typed-array allocation within GLTF_MEMORY_BOUND, time within its limit (in
 * `npm run fuzz` only).
 *
 * Seeds: the corpus' glTF samples (Fox.glb, CesiumMan.glb, AnimatedMorphCube.gltf with its .bin as a resource) and
 * small generated ones (`gltfSeeds`): a hand-built triangle with a morph target, a two-joint skin, a tag node and
 * STEP / LINEAR / CUBICSPLINE channels, as .gltf (data URI) and .glb; our exporter's glb of a small corpus MD3
 * (KHR_mesh_quantization), and of the same with EXT_meshopt_compression.
 *
 * Mutations (`mutateGltf`): JSON-aware edits (a value anywhere in the JSON set to an edge value — counts, offsets,
 * component types, indices, key times, node references —, a key deleted, an array item duplicated or dropped),
 * binary-chunk edits (edge floats and integers — NaN, ±Infinity, 1e30, 0x7fffffff — written into an accessor's
 * elements, key times first), and the byte-level mutators of `mutate.ts` on the whole file (GLB header and chunk
 * lengths as its counts).
 */
import './alloc-meter-install.js';
import { toGlbNow } from '../helpers/glb-now.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import type { Md3Model } from '../../src/base/model.js';

import { toGlbMeshopt } from '../../src/registry/gltf-meshopt.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { gltfToMd5 } from '../../src/import/gltf-md5.js';
import type { GltfInput } from '../../src/import/gltf.js';
import type { GltfResourceReader } from '../../src/import/gltf-resources.js';
import { writeMd2 } from '../../src/formats/md2/write.js';
import { writeMd5Anim } from '../../src/formats/md5/write-anim.js';
import { writeMd5Mesh } from '../../src/formats/md5/write-mesh.js';
import { importGltf } from '../../src/registry/import-gltf.js';
import { gltfToPlayer, pickFrames } from '../../src/formats/md3/player-from-gltf.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { manifest } from '../helpers/models.js';
import { meteredAsync } from './alloc-meter.js';
import type { MemoryBound } from './bounds.js';
import { emptyStats, record, type CampaignResult, type TargetStats, type Violation } from './campaign.js';
import type { Outcome, ViolationKind } from './invariant.js';
import { mutate } from './mutate.js';
import { Rng } from './rng.js';
import type { Structure } from './structure.js';
import { checkGeneric, checkMd2, checkMd3, checkMd5Anim, checkMd5Mesh, type FuzzTarget } from './targets.js';

export interface GltfSeed {
  name: string;
  bytes: Uint8Array;
  /** A .gltf's external files by uri (left as they are by the mutators, except binary-chunk edits of a .bin). */
  resources: Record<string, Uint8Array>;
}

/**
 * What the import samples: few frames, so an input costs milliseconds, and at most 4 MiB of MD3 (the bounds on the
 * output are the caller's: `maxFrames`, `maxBytes`; a mesh instanced by many nodes otherwise makes an output far
 * bigger than the file).
 */
export const GLTF_IMPORT_OPTIONS = { format: 'md3', fps: 4, maxFrames: 64, maxBytes: 4 << 20 } as const;

/**
 * Typed-array bytes an import may allocate for an input of n bytes (the .gltf's resources counted in n), with the
 * output held to `maxBytes` = 4 MiB: reading, glTF Transform copies each accessor out of its buffer view (each must
 * fit in its view, import/gltf.ts `preflight`) and makes at most 64 bytes per input byte + 1 MiB from no data
 * (zero-filled accessors, meshopt-decoded views); the sampler copies attributes and animation outputs once more.
 * Sampling writes at most `maxBytes` of MD3 and allocates per frame the posed positions and normals and the
 * attribute copies of every primitive, 8× the frame's 8 bytes per vertex at the most: 9 · maxBytes in all. So
 * 256 · n (accessor copies, the made data, the sampler's copies, with headroom) + 36 MiB (9 · 4 MiB) + 16 MiB
 * (glTF Transform's and the meshopt decoder's working buffers).
 */
export const GLTF_MEMORY_BOUND: MemoryBound = { perByte: 256, constant: 52 * 1024 * 1024 };

/** Time an import may take: 250 ms + 5 µs per input byte (the import runs at ~2 µs per vertex-frame). */
export const gltfTimeLimitMs = (n: number): number => 250 + n / 200;

// --- seeds -------------------------------------------------------------------------------------------------------

const enc = new TextEncoder();

function f32(values: number[]): Uint8Array {
  return new Uint8Array(Float32Array.from(values).buffer);
}

/** A hand-built glTF: a triangle with one morph target, skinned to two joints, a tag node, three animations. */
function tinyGltf(): { json: Record<string, unknown>; bin: Uint8Array } {
  const parts: Uint8Array[] = [];
  const views: { byteOffset: number; byteLength: number; target?: number }[] = [];
  let at = 0;
  const view = (b: Uint8Array, target?: number) => {
    parts.push(b);
    views.push({ byteOffset: at, byteLength: b.length, ...(target ? { target } : {}) });
    at += b.length;
    const pad = (4 - (at % 4)) % 4;
    if (pad) parts.push(new Uint8Array(pad)), (at += pad);
    return views.length - 1;
  };
  const accessors = [
    { bufferView: view(f32([0, 0, 0, 1, 0, 0, 0, 1, 0]), 34962), componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
    { bufferView: view(f32([0, 0, 1, 0, 0, 1, 0, 0, 1]), 34962), componentType: 5126, count: 3, type: 'VEC3' },
    { bufferView: view(f32([0, 0, 1, 0, 0.5, 1]), 34962), componentType: 5126, count: 3, type: 'VEC2' },
    { bufferView: view(new Uint8Array(new Uint16Array([0, 1, 2, 0]).buffer), 34963), componentType: 5123, count: 3, type: 'SCALAR' },
    { bufferView: view(f32([0, 0, 0.5, 0, 0, 0, 0, 0, 0]), 34962), componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0.5] },
    { bufferView: view(new Uint8Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0]), 34962), componentType: 5121, count: 3, type: 'VEC4' },
    { bufferView: view(f32([1, 0, 0, 0, 0.5, 0.5, 0, 0, 0, 1, 0, 0])), componentType: 5126, count: 3, type: 'VEC4' },
    { bufferView: view(f32([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1])), componentType: 5126, count: 2, type: 'MAT4' },
    { bufferView: view(f32([0, 0.5, 1])), componentType: 5126, count: 3, type: 'SCALAR', min: [0], max: [1] }, // 8: times
    { bufferView: view(f32([0, 0, 0, 1, 0, 0, 0, 2, 0])), componentType: 5126, count: 3, type: 'VEC3' }, // 9: translations
    { bufferView: view(f32([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.7071, 0.7071, 0, 0, 0])), componentType: 5126, count: 6, type: 'VEC4' }, // 10: cubic rotations
    { bufferView: view(f32([0, 1])), componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] }, // 11: 2 times
    { bufferView: view(f32([0, 1])), componentType: 5126, count: 2, type: 'SCALAR' }, // 12: weights
  ];
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0, 1, 3] }],
    nodes: [
      { name: 'body', mesh: 0, skin: 0 },
      { name: 'root', children: [2], translation: [0, 0, 0] },
      { name: 'bone', translation: [1, 0, 0] },
      { name: 'tag_weapon', translation: [0, 1, 0], rotation: [0, 0, 0.7071068, 0.7071068] },
    ],
    meshes: [{ name: 'tri', primitives: [{ attributes: { POSITION: 0, NORMAL: 1, TEXCOORD_0: 2, JOINTS_0: 5, WEIGHTS_0: 6 }, indices: 3, material: 0, targets: [{ POSITION: 4 }] }], weights: [0] }],
    materials: [{ name: 'models/tri/skin' }],
    skins: [{ joints: [1, 2], inverseBindMatrices: 7 }],
    accessors,
    bufferViews: views.map((v) => ({ buffer: 0, ...v })),
    animations: [
      { name: 'move', channels: [{ sampler: 0, target: { node: 2, path: 'translation' } }], samplers: [{ input: 8, output: 9, interpolation: 'LINEAR' }] },
      { name: 'turn', channels: [{ sampler: 0, target: { node: 3, path: 'rotation' } }], samplers: [{ input: 11, output: 10, interpolation: 'CUBICSPLINE' }] },
      { name: 'morph', channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }], samplers: [{ input: 11, output: 12, interpolation: 'STEP' }] },
    ],
    buffers: [{ byteLength: at }],
  };
  const bin = new Uint8Array(at);
  let o = 0;
  for (const p of parts) bin.set(p, o), (o += p.length);
  return { json, bin };
}

/** A GLB of `json` and `bin` (both chunks padded to 4 bytes). */
export function packGlb(json: unknown, bin: Uint8Array | null): Uint8Array {
  let text = enc.encode(JSON.stringify(json));
  if (text.length % 4) text = Uint8Array.from([...text, ...new Array(4 - (text.length % 4)).fill(0x20)]);
  const binLength = bin ? bin.length + ((4 - (bin.length % 4)) % 4) : 0;
  const out = new Uint8Array(12 + 8 + text.length + (bin ? 8 + binLength : 0));
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, out.length, true);
  dv.setUint32(12, text.length, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  if (bin) {
    dv.setUint32(20 + text.length, binLength, true);
    dv.setUint32(24 + text.length, 0x004e4942, true);
    out.set(bin, 28 + text.length);
  }
  return out;
}

/** A GLB's JSON and binary chunk, or null when it is not one we can split. */
export function unpackGlb(b: Uint8Array): { json: unknown; bin: Uint8Array | null } | null {
  if (b.length < 20) return null;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) return null;
  const jsonLength = dv.getUint32(12, true);
  if (20 + jsonLength > b.length) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(b.subarray(20, 20 + jsonLength)));
  } catch {
    return null;
  }
  const at = 20 + jsonLength;
  const bin = at + 8 <= b.length ? b.slice(at + 8, Math.min(b.length, at + 8 + dv.getUint32(at, true))) : null;
  return { json, bin };
}

/**
 * A small Quake 3 player as our exporter writes it (what `gltfToPlayer` reads): the corpus' human_bsuit cut to 4
 * frames a part, with an animation.cfg whose BOTH_ clips use frames 0–1, TORSO_ and LEGS_ clips frames 2–3.
 */
function playerGlb(rows: ReturnType<typeof manifest>): Uint8Array {
  const part = (name: string) => {
    const row = rows.find((r) => r.path.endsWith(`human_bsuit/${name}.md3`));
    if (!row) throw new Error(`no human_bsuit/${name}.md3 in the corpus`);
    const m = parseMd3(new Uint8Array(readFileSync(row.absPath)));
    return m.frameCount > 4 ? pickFrames(m, [0, 1, 2, 3]) : m;
  };
  const both = ['0 2 0 10', '1 1 0 10', '0 2 0 10', '1 1 0 10', '0 2 0 10', '1 1 0 10'];
  const cfg = [...both, ...Array(7).fill('2 2 0 10'), ...Array(12).fill('4 2 2 10')].join('\n');
  return toGlbNow({ models: { lower: part('lower'), upper: part('upper'), head: part('head') }, animations: parseAnimationCfg(cfg) });
}

let seedsCache: Promise<GltfSeed[]> | undefined;

/** The corpus' glTF samples and the generated seeds (computed once per process). */
export function gltfSeeds(): Promise<GltfSeed[]> {
  return (seedsCache ??= (async () => {
    const rows = manifest();
    const out: GltfSeed[] = rows
      .filter((r) => r.format === 'gltf' && /\.(glb|gltf)$/i.test(r.path))
      .map((r) => {
        const bytes = new Uint8Array(readFileSync(r.absPath));
        const resources: Record<string, Uint8Array> = {};
        if (r.path.toLowerCase().endsWith('.gltf')) {
          const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[] };
          for (const { uri } of json.buffers ?? []) if (uri && !uri.startsWith('data:')) resources[uri] = new Uint8Array(readFileSync(join(dirname(r.absPath), uri)));
        }
        return { name: r.path, bytes, resources };
      });
    if (out.length === 0) throw new Error('no glTF samples in the shared corpus');
    const { json, bin } = tinyGltf();
    const dataUri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
    out.push({ name: 'generated:tiny.gltf', bytes: enc.encode(JSON.stringify({ ...json, buffers: [{ byteLength: bin.length, uri: dataUri }] })), resources: {} });
    out.push({ name: 'generated:tiny-external.gltf', bytes: enc.encode(JSON.stringify({ ...json, buffers: [{ byteLength: bin.length, uri: 'tiny.bin' }] })), resources: { 'tiny.bin': bin } });
    out.push({ name: 'generated:tiny.glb', bytes: packGlb(json, bin), resources: {} });
    // our exporter's glb of the smallest animated MD3 of the corpus: KHR_mesh_quantization, morph targets, tag nodes
    const md3 = rows
      .filter((r) => r.format === 'md3')
      .map((r) => ({ r, size: r.size }))
      .sort((a, b) => a.size - b.size)
      .map(({ r }) => parseMd3(new Uint8Array(readFileSync(r.absPath))))
      .find((m) => m.frameCount > 1 && m.tagCount > 0 && m.surfaces.length > 0);
    if (md3) {
      out.push({ name: 'generated:md3.glb', bytes: toGlbNow(md3), resources: {} });
      out.push({ name: 'generated:md3-meshopt.glb', bytes: await toGlbMeshopt(md3), resources: {} });
    }
    out.push({ name: 'generated:player.glb', bytes: playerGlb(rows), resources: {} });
    return out;
  })());
}

// --- mutation ----------------------------------------------------------------------------------------------------

const EDGE_NUMBERS = [
  0, 1, -1, 2, 3, 4, 5, 6, 7, 16, 255, 256, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff, 2 ** 32, 2 ** 53, 1e9, 1e30,
  1e308, -1e308, 0.5, -0.5, 1e-30, 5120, 5121, 5122, 5123, 5125, 5126, 34962, 34963, 10, 100, 1000,
];
const EDGE_VALUES: unknown[] = [null, '', 'x', 'LINEAR', 'STEP', 'CUBICSPLINE', 'SCALAR', 'VEC3', 'VEC4', 'MAT4', 'weights', 'rotation', true, [], {}, [0], [1e30], [-1]];
const EDGE_FLOATS = [NaN, Infinity, -Infinity, 1e30, -1e30, 3.4028235e38, 1e-45, -0, 65536, 1e6, 2, -1];

type Json = Record<string, unknown> | unknown[];

/** Every (container, key) of a JSON value, depth first. */
function slots(root: unknown): [Json, string | number][] {
  const out: [Json, string | number][] = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach((v, i) => (out.push([x, i]), walk(v)));
    else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) out.push([x as Json, k]), walk(v);
  };
  walk(root);
  return out;
}

function mutateJson(json: unknown, rng: Rng, ops: string[]): unknown {
  const root = structuredClone(json);
  const all = slots(root);
  if (all.length === 0) return root;
  const get = (c: Json, k: string | number) => (c as Record<string | number, unknown>)[k];
  const set = (c: Json, k: string | number, v: unknown) => ((c as Record<string | number, unknown>)[k] = v);
  const numbers = all.filter(([c, k]) => typeof get(c, k) === 'number');
  const r = rng.below(10);
  if (r < 5 && numbers.length) {
    const [c, k] = rng.pick(numbers);
    const old = get(c, k) as number;
    const v = rng.chance(0.7) ? rng.pick(EDGE_NUMBERS) : rng.pick([old + 1, old - 1, old * 2, old * 1000, -old, old + 4]);
    set(c, k, v);
    ops.push(`json:${String(k)}=${v}`);
  } else if (r < 7) {
    const [c, k] = rng.pick(all);
    const v = rng.pick(EDGE_VALUES);
    set(c, k, structuredClone(v));
    ops.push(`json:${String(k)}=${JSON.stringify(v)}`);
  } else if (r < 8) {
    const [c, k] = rng.pick(all);
    if (Array.isArray(c)) c.splice(k as number, 1);
    else delete (c as Record<string, unknown>)[k as string];
    ops.push(`json:delete ${String(k)}`);
  } else {
    const arrays = all.map(([c, k]) => get(c, k)).filter((v): v is unknown[] => Array.isArray(v) && v.length > 0);
    if (arrays.length) {
      const a = rng.pick(arrays);
      const i = rng.below(a.length);
      const copies = rng.pick([1, 2, 100]);
      for (let n = 0; n < copies; n++) a.push(structuredClone(a[i]));
      ops.push(`json:duplicate item ${i} ×${copies}`);
    }
  }
  return root;
}

/** Edge floats / integers written over elements of an accessor (an animation's key times first), in the binary data. */
function mutateBin(json: unknown, bin: Uint8Array, rng: Rng, ops: string[]): Uint8Array {
  const out = bin.slice();
  // the JSON may itself be mutated: read it defensively
  type Acc = { bufferView?: unknown; byteOffset?: unknown; componentType?: unknown };
  const list = <T>(x: unknown): T[] => (Array.isArray(x) ? (x as T[]) : []);
  const j = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const inputs = list<{ samplers?: unknown }>(j.animations).flatMap((a) => list<{ input?: unknown }>(a?.samplers).map((s) => s?.input)).filter((x): x is number => typeof x === 'number');
  const accessors = list<Acc>(j.accessors);
  const which = inputs.length && rng.chance(0.5) ? rng.pick(inputs) : rng.below(Math.max(1, accessors.length));
  const a = accessors[which] as Acc | undefined;
  const num = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : 0);
  const bv = a && typeof a.bufferView === 'number' ? (list<{ byteOffset?: unknown; byteLength?: unknown }>(j.bufferViews)[a.bufferView] as { byteOffset?: unknown; byteLength?: unknown } | undefined) : undefined;
  const dv = new DataView(out.buffer);
  const start = Math.min(out.length, num(bv?.byteOffset) + num(a?.byteOffset));
  const end = bv ? Math.min(out.length, start + num(bv.byteLength)) : out.length;
  if (end - start < 4) return out;
  const n = rng.pick([1, 1, 2, 8]);
  for (let k = 0; k < n; k++) {
    const at = start + 4 * rng.below(Math.floor((end - start) / 4));
    if (a?.componentType === 5126 || rng.chance(0.3)) {
      const v = rng.pick(EDGE_FLOATS);
      dv.setFloat32(at, v, true);
      ops.push(`bin:accessor ${which} f32@${at}=${v}`);
    } else {
      const v = rng.pick([0xffffffff, 0x7fffffff, 0xffff, 0x10000, 255, 1000]);
      dv.setUint32(at, v, true);
      ops.push(`bin:accessor ${which} u32@${at}=${v}`);
    }
  }
  return out;
}

/** The GLB's header and chunk lengths as counts, chunk starts as boundaries, for the byte-level mutators. */
function glbStructure(b: Uint8Array): Structure {
  const boundaries = [0, 12, 20, b.length];
  const counts = [{ at: 8, len: 4 }, { at: 12, len: 4 }];
  if (b.length >= 20) {
    const jsonEnd = 20 + new DataView(b.buffer, b.byteOffset).getUint32(12, true);
    if (jsonEnd + 8 <= b.length) boundaries.push(jsonEnd, jsonEnd + 8), counts.push({ at: jsonEnd, len: 4 });
  }
  return { boundaries: Int32Array.from(boundaries.filter((x) => x <= b.length)), counts, offsets: [], numbers: new Int32Array(0), lines: new Int32Array(0) };
}

/** Input `index` of campaign `seed`: which seed, which mutations, which bytes (a pure function of the two numbers). */
export async function makeGltfInput(seed: number, index: number): Promise<{ rng: Rng; from: string; ops: string[]; bytes: Uint8Array; resources: Record<string, Uint8Array> }> {
  const seeds = await gltfSeeds();
  const rng = Rng.forInput(seed, index);
  // the small seeds more often: each input costs a parse and a sampling of the whole file
  const small = seeds.filter((s) => s.bytes.length < 100_000);
  const s = rng.chance(0.7) ? rng.pick(small) : rng.pick(seeds);
  const ops: string[] = [];
  let resources = s.resources;
  let bytes = s.bytes;
  const rounds = rng.range(1, 3);
  for (let k = 0; k < rounds; k++) {
    const glb = unpackGlb(bytes);
    const r = rng.unit();
    if (r < 0.15) {
      const m = mutate({ name: s.name, bytes, structure: glb ? glbStructure(bytes) : { boundaries: Int32Array.of(0, bytes.length), counts: [], offsets: [], numbers: new Int32Array(0), lines: new Int32Array(0) } }, rng, !glb, []);
      bytes = m.bytes;
      ops.push(...m.ops.map((o) => `bytes:${o}`));
      continue;
    }
    const json = glb ? glb.json : (() => {
      try {
        return JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        return null;
      }
    })();
    if (json === null) continue;
    const external = Object.keys(resources)[0];
    if (r < 0.45 && (glb?.bin || external)) {
      const bin = mutateBin(json, glb?.bin ?? resources[external], rng, ops);
      if (glb) bytes = packGlb(json, bin);
      else resources = { ...resources, [external]: bin };
    } else {
      const mutated = mutateJson(json, rng, ops);
      bytes = glb ? packGlb(mutated, glb.bin) : enc.encode(JSON.stringify(mutated));
    }
  }
  return { rng, from: s.name, ops, bytes, resources };
}

// --- the invariant -----------------------------------------------------------------------------------------------

const CODES = new Set<string>(Object.values(ErrorCode));

function describeError(e: unknown): string {
  if (e instanceof Error) {
    const frames = (e.stack ?? '').split('\n').slice(1).filter((l) => !l.includes('alloc-meter'));
    return `${e.name}: ${e.message} ${frames.slice(0, 4).map((l) => l.trim()).join(' ')}`;
  }
  return `non-Error thrown: ${String(e)}`;
}

/**
 * The import of one input, checked (see the file comment); `use` also writes and re-reads an accepted model.
 * `readResource` reads the files the input names (the hostile-file campaign, gltf-hostile.ts); `timed` holds the
 * import to its time bound (scripts/fuzz.mjs only).
 */
export async function checkGltfInput(bytes: Uint8Array, resources: Record<string, Uint8Array>, use = true, o: { readResource?: GltfResourceReader; timed?: boolean } = {}): Promise<Outcome> {
  const n = bytes.length + Object.values(resources).reduce((s, r) => s + r.length, 0);
  const input = { bytes, resources, readResource: o.readResource };
  const once = async () => {
    const t0 = performance.now();
    const run = await meteredAsync(() => importGltf(input, GLTF_IMPORT_OPTIONS));
    return { run, ms: performance.now() - t0 };
  };
  let { run, ms } = await once();
  const out: Outcome = { code: 'OK', allocated: run.bytes, ms };
  const fail = (kind: ViolationKind, detail: string): Outcome => ({ ...out, violation: { kind, detail } });
  if (run.error !== undefined) {
    if (!(run.error instanceof ModelParseError)) return fail('untyped', describeError(run.error));
    out.code = run.error.code;
    if (!CODES.has(run.error.code)) return fail('bad-error', `undocumented code ${run.error.code}`);
    if (!Number.isInteger(run.error.offset) || run.error.offset < 0 || run.error.offset > n) return fail('bad-error', `offset ${run.error.offset} outside 0..${n}`);
  } else {
    const bad = checkMd3(run.value) || checkGeneric(run.value, bytes);
    if (bad) return fail('accepted-invalid', bad);
  }
  const limit = GLTF_MEMORY_BOUND.perByte * n + GLTF_MEMORY_BOUND.constant;
  if (run.bytes > limit) return fail('memory', `${run.bytes} typed-array bytes for ${n} input bytes (limit ${limit})`);
  if (o.timed && ms > gltfTimeLimitMs(n)) {
    for (let k = 0; k < 2 && ms > gltfTimeLimitMs(n); k++) ms = Math.min(ms, (await once()).ms);
    out.ms = ms;
    if (ms > gltfTimeLimitMs(n)) return fail('slow', `${ms.toFixed(1)} ms for ${n} bytes (limit ${gltfTimeLimitMs(n).toFixed(1)} ms)`);
  }
  if (use && run.error === undefined) {
    // what was imported is written (or refused with a typed error) and reads back
    let written: Uint8Array | undefined;
    try {
      written = writeMd3(run.value as Md3Model);
    } catch (e) {
      if (!(e instanceof ModelParseError)) return fail('use-untyped', `writeMd3: ${describeError(e)}`);
    }
    if (written) {
      try {
        parseMd3(written);
      } catch (e) {
        return fail('use-untyped', `parseMd3 of what writeMd3 wrote: ${describeError(e)}`);
      }
    }
  }
  if (use) {
    // the same input as a Quake 3 player (gltfToPlayer): three parts and a cfg our own parser reads, or a typed error
    const bad = await playerCheck(input);
    if (bad) return fail('use-untyped', `gltfToPlayer: ${bad}`);
    // and into MD2 and MD5: checked models that write and read back, or a typed error
    const other = (await md2Check(input)) || (await md5Check(input));
    if (other) return fail('use-untyped', other);
  }
  return out;
}

/** The bounds the MD2 and MD5 imports get here: GLTF_IMPORT_OPTIONS' without its format. */
const SAMPLING = { fps: GLTF_IMPORT_OPTIONS.fps, maxFrames: GLTF_IMPORT_OPTIONS.maxFrames, maxBytes: GLTF_IMPORT_OPTIONS.maxBytes };

/**
 * What is wrong with one import of an input ('' when nothing): it throws a ModelParseError, or gives a model that
 * passes `check` and that `roundTrip` writes and reads back (a typed UNWRITABLE from the writer is an answer too).
 */
async function importCheck<T>(label: string, run: () => Promise<T>, check: (model: T) => string, roundTrip: (model: T) => void): Promise<string> {
  let model: T;
  try {
    model = await run();
  } catch (e) {
    return e instanceof ModelParseError ? '' : `${label}: ${describeError(e)}`;
  }
  const bad = check(model);
  if (bad) return `${label}: ${bad}`;
  try {
    roundTrip(model);
  } catch (e) {
    if (!(e instanceof ModelParseError) || e.code !== ErrorCode.Unwritable) return `${label}, written and read back: ${describeError(e)}`;
  }
  return '';
}

/** gltfToMd2: a checked MD2 that writes and reads back, or a typed error. */
const md2Check = (input: GltfInput) =>
  importCheck('gltfToMd2', () => gltfToMd2(input, SAMPLING), (m) => checkMd2(m) || checkGeneric(m, input.bytes), (m) => parseMd2(writeMd2(m)));

/** gltfToMd5: an md5mesh and md5anims that check, write and read back, or a typed error. */
const md5Check = (input: GltfInput) =>
  importCheck(
    'gltfToMd5',
    () => gltfToMd5(input, SAMPLING),
    (r) => checkMd5Mesh(r.mesh) || r.anims.map((a) => checkMd5Anim(a.anim)).find(Boolean) || '',
    (r) => {
      parseMd5Mesh(writeMd5Mesh(r.mesh));
      for (const { anim } of r.anims) parseMd5Anim(writeMd5Anim(anim));
    },
  );

/** What is wrong with `gltfToPlayer` on an input ('' when nothing): it must give checked parts that write and read back and a cfg that parses, or throw a typed error. */
async function playerCheck(input: GltfInput): Promise<string> {
  const { bytes } = input;
  let player;
  try {
    player = await gltfToPlayer(input, { maxFrames: GLTF_IMPORT_OPTIONS.maxFrames, maxBytes: GLTF_IMPORT_OPTIONS.maxBytes });
  } catch (e) {
    return e instanceof ModelParseError ? '' : describeError(e);
  }
  for (const p of ['lower', 'upper', 'head'] as const) {
    const bad = checkMd3(player[p]) || checkGeneric(player[p], bytes);
    if (bad) return `${p}: ${bad}`;
    try {
      parseMd3(writeMd3(player[p]));
    } catch (e) {
      if (!(e instanceof ModelParseError) || e.code !== ErrorCode.Unwritable) return `${p} written and read back: ${describeError(e)}`;
    }
  }
  try {
    parseAnimationCfg(player.animationCfg);
  } catch (e) {
    return `its animation.cfg: ${describeError(e)}`;
  }
  return '';
}

/** Stands for the glTF import in the campaign's stats (`record` reads its memory bound). */
export const GLTF_TARGET_STATS = { name: 'gltf', memory: GLTF_MEMORY_BOUND } as unknown as FuzzTarget;

export interface GltfCampaignOptions {
  seed: number;
  start: number;
  count: number;
  /** Hold each import to its time bound (scripts/fuzz.mjs only; a test never asserts a time). */
  timed?: boolean;
  /** Write and re-read accepted models on every k-th input (default 2, as CAMPAIGN_CADENCE.useEvery). */
  useEvery?: number;
  onInput?: (index: number) => void;
}

/** Inputs start … start + count − 1 of campaign `seed`, like `runCampaign`. */
export async function runGltfCampaign(o: GltfCampaignOptions): Promise<CampaignResult> {
  const stats: Record<string, TargetStats> = { gltf: emptyStats() };
  const violations: Violation[] = [];
  for (let i = o.start; i < o.start + o.count; i++) {
    const { from, ops, bytes, resources } = await makeGltfInput(o.seed, i);
    const out = await checkGltfInput(bytes, resources, i % (o.useEvery ?? 2) === 0, { timed: o.timed });
    record(stats.gltf, out, bytes.length, GLTF_TARGET_STATS);
    if (out.violation) violations.push({ target: 'gltf', seed: o.seed, index: i, from, ops, ...out.violation, bytes });
    o.onInput?.(i);
    await turnIfHeld(); // an import awaits only promises already settled: the loop turns here (helpers/loop-turn.ts)
  }
  return { stats, violations };
}
