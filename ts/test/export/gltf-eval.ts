/**
 * A minimal glTF 2.0 reader and evaluator for the round-trip tests, written from the glTF 2.0 specification
 * (§3.5 nodes and hierarchy, §3.6 accessors, §3.7.3 skins, §3.7.2.2 morph targets, §3.11 animations,
 * Appendix: interpolation), independently of the exporter: it shares no code with `ts/src/export/`.
 *
 * Evaluation: animated node TRS at a time (LINEAR: lerp / slerp, STEP: previous key) → world matrices
 * (parent · local, column-major 4×4) → skinned position = Σ wᵢ · (world(jointᵢ) · IBMᵢ) · p, or morphed
 * position = p + Σ weightₖ · targetₖ, then the mesh node's world transform for unskinned meshes.
 */

export interface Gltf {
  json: any;
  bin: Uint8Array;
}

/** Splits a GLB into its JSON and BIN chunks (glTF 2.0 §4.4). */
export function readGlb(bytes: Uint8Array): Gltf {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67 || dv.getUint32(4, true) !== 2) throw new Error('not GLB v2');
  if (dv.getUint32(8, true) !== bytes.byteLength) throw new Error('GLB length field is wrong');
  let o = 12;
  let json: any = null;
  let bin: Uint8Array = new Uint8Array(0);
  while (o < bytes.byteLength) {
    const len = dv.getUint32(o, true), type = dv.getUint32(o + 4, true);
    const body = bytes.subarray(o + 8, o + 8 + len);
    if (type === 0x4e4f534a) json = JSON.parse(new TextDecoder().decode(body));
    else if (type === 0x004e4942) bin = body;
    o += 8 + len;
  }
  return { json, bin };
}

const SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const COUNT: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** An accessor's values as float64, `COUNT[type]` per element, normalised integers mapped to [0, 1] / [−1, 1]. */
export function readAccessor(g: Gltf, index: number): { values: Float64Array; n: number; count: number } {
  const a = g.json.accessors[index];
  const n = COUNT[a.type];
  const size = SIZE[a.componentType];
  const view = g.json.bufferViews[a.bufferView];
  const stride = view.byteStride ?? n * size;
  const start = (view.byteOffset ?? 0) + (a.byteOffset ?? 0);
  const dv = new DataView(g.bin.buffer, g.bin.byteOffset, g.bin.byteLength);
  const out = new Float64Array(a.count * n);
  for (let e = 0; e < a.count; e++) {
    for (let c = 0; c < n; c++) {
      const p = start + e * stride + c * size;
      let v: number;
      switch (a.componentType) {
        case 5126: v = dv.getFloat32(p, true); break;
        case 5125: v = dv.getUint32(p, true); break;
        case 5123: v = dv.getUint16(p, true); if (a.normalized) v /= 65535; break;
        case 5121: v = dv.getUint8(p); if (a.normalized) v /= 255; break;
        // signed normalised: max(c / (2^(b−1) − 1), −1) (glTF 2.0 §3.11, KHR_mesh_quantization)
        case 5122: v = dv.getInt16(p, true); if (a.normalized) v = Math.max(v / 32767, -1); break;
        case 5120: v = dv.getInt8(p); if (a.normalized) v = Math.max(v / 127, -1); break;
        default: throw new Error(`component type ${a.componentType}`);
      }
      out[e * n + c] = v;
    }
  }
  return { values: out, n, count: a.count };
}

type Mat4 = Float64Array; // column-major

function compose(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): Mat4 {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const m = new Float64Array(16);
  m[0] = (1 - 2 * (y * y + z * z)) * s[0];
  m[1] = 2 * (x * y + z * w) * s[0];
  m[2] = 2 * (x * z - y * w) * s[0];
  m[4] = 2 * (x * y - z * w) * s[1];
  m[5] = (1 - 2 * (x * x + z * z)) * s[1];
  m[6] = 2 * (y * z + x * w) * s[1];
  m[8] = 2 * (x * z + y * w) * s[2];
  m[9] = 2 * (y * z - x * w) * s[2];
  m[10] = (1 - 2 * (x * x + y * y)) * s[2];
  m[12] = t[0]; m[13] = t[1]; m[14] = t[2]; m[15] = 1;
  return m;
}

function multiply(a: Mat4, b: Mat4): Mat4 {
  const m = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    m[c * 4 + r] = s;
  }
  return m;
}

function slerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): number[] {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const sign = d < 0 ? -1 : 1;
  d *= sign;
  let s0 = 1 - t, s1 = t;
  if (d < 1 - 1e-9) {
    const om = Math.acos(Math.min(1, d));
    s0 = Math.sin((1 - t) * om) / Math.sin(om);
    s1 = Math.sin(t * om) / Math.sin(om);
  }
  const r = [0, 1, 2, 3].map((k) => s0 * a[k] + sign * s1 * b[k]);
  const len = Math.hypot(...r);
  return r.map((v) => v / len);
}

/** The value of one sampler at `time` (spec Appendix C: clamp outside the keys). */
function sample(g: Gltf, sampler: any, path: string, time: number): number[] {
  const input = readAccessor(g, sampler.input).values;
  const out = readAccessor(g, sampler.output);
  const k = out.values.length / input.length; // components per key (weights: target count)
  const at = (i: number) => Array.from(out.values.subarray(i * k, (i + 1) * k));
  if (time <= input[0]) return at(0);
  if (time >= input[input.length - 1]) return at(input.length - 1);
  let i = 0;
  while (input[i + 1] <= time) i++;
  if (sampler.interpolation === 'STEP') return at(i);
  const t = (time - input[i]) / (input[i + 1] - input[i]);
  const a = at(i), b = at(i + 1);
  if (path === 'rotation') return slerp(a, b, t);
  return a.map((v, c) => v + (b[c] - v) * t);
}

export interface EvaluatedScene {
  world: Mat4[];
  /** Morph weights per node (animated, else the node's or its mesh's defaults). */
  weights: (number[] | undefined)[];
}

/** Every node's world matrix (and morph weights) with animation(s) `animIndex` (or none) at `time` seconds. */
export function evaluate(g: Gltf, animIndex: number | number[] | null, time: number): EvaluatedScene {
  const nodes: any[] = g.json.nodes ?? [];
  const trs = nodes.map((nd) => ({
    t: nd.translation ?? [0, 0, 0],
    r: nd.rotation ?? [0, 0, 0, 1],
    s: nd.scale ?? [1, 1, 1],
    w: nd.weights ?? (nd.mesh !== undefined ? g.json.meshes[nd.mesh].weights : undefined),
  }));
  for (const a of animIndex === null ? [] : Array.isArray(animIndex) ? animIndex : [animIndex]) {
    const anim = g.json.animations[a];
    for (const ch of anim.channels) {
      const v = sample(g, anim.samplers[ch.sampler], ch.target.path, time);
      const x = trs[ch.target.node];
      if (ch.target.path === 'translation') x.t = v;
      else if (ch.target.path === 'rotation') x.r = v;
      else if (ch.target.path === 'scale') x.s = v;
      else x.w = v;
    }
  }
  const parent = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((nd, i) => (nd.children ?? []).forEach((c: number) => (parent[c] = i)));
  const world: Mat4[] = new Array(nodes.length);
  const resolve = (i: number): Mat4 => {
    if (world[i]) return world[i];
    const local = compose(trs[i].t, trs[i].r, trs[i].s);
    return (world[i] = parent[i] < 0 ? local : multiply(resolve(parent[i]), local));
  };
  nodes.forEach((_, i) => resolve(i));
  return { world, weights: trs.map((x) => x.w) };
}

const transform = (m: Mat4, x: number, y: number, z: number): number[] => [
  m[0] * x + m[4] * y + m[8] * z + m[12],
  m[1] * x + m[5] * y + m[9] * z + m[13],
  m[2] * x + m[6] * y + m[10] * z + m[14],
];

/**
 * World-space positions of one mesh node's primitive `prim` in an evaluated scene: skinned when the node
 * has a skin (the node's own transform is then ignored, §3.7.3), otherwise morphed and placed by the node.
 */
export function primitivePositions(g: Gltf, scene: EvaluatedScene, nodeIndex: number, prim = 0): Float64Array {
  const node = g.json.nodes[nodeIndex];
  const p = g.json.meshes[node.mesh].primitives[prim];
  const base = readAccessor(g, p.attributes.POSITION);
  const pos = Float64Array.from(base.values);
  const weights = scene.weights[nodeIndex];
  (p.targets ?? []).forEach((target: any, k: number) => {
    const w = weights?.[k] ?? 0;
    if (w === 0) return;
    const d = readAccessor(g, target.POSITION).values;
    for (let i = 0; i < pos.length; i++) pos[i] += w * d[i];
  });
  const out = new Float64Array(pos.length);
  if (node.skin === undefined) {
    const m = scene.world[nodeIndex];
    for (let v = 0; v < base.count; v++) out.set(transform(m, pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]), v * 3);
    return out;
  }
  const skin = g.json.skins[node.skin];
  const ibm = readAccessor(g, skin.inverseBindMatrices).values;
  const jointMatrices = skin.joints.map((j: number, k: number) => multiply(scene.world[j], ibm.subarray(k * 16, k * 16 + 16)));
  const joints = readAccessor(g, p.attributes.JOINTS_0).values;
  const wts = readAccessor(g, p.attributes.WEIGHTS_0).values;
  for (let v = 0; v < base.count; v++) {
    const acc = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = wts[v * 4 + k];
      if (w === 0) continue;
      const q = transform(jointMatrices[joints[v * 4 + k]], pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]);
      acc[0] += w * q[0]; acc[1] += w * q[1]; acc[2] += w * q[2];
    }
    out.set(acc, v * 3);
  }
  return out;
}

/** Z-up → Y-up as docs/gltf.md states it: (x, y, z) → (x, z, −y). */
export const yUp = (p: ArrayLike<number>): Float64Array => {
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    out[i] = p[i];
    out[i + 1] = p[i + 2];
    out[i + 2] = -p[i + 1];
  }
  return out;
};

/** All mesh nodes' evaluated positions, back to back in node order (= the file's non-empty meshes). */
export function gltfPositions(g: Gltf, anim: number | number[] | null, time: number): Float64Array {
  const scene = evaluate(g, anim, time);
  const parts = g.json.nodes.map((n: any, i: number) => (n.mesh !== undefined ? primitivePositions(g, scene, i) : null)).filter(Boolean) as Float64Array[];
  const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
