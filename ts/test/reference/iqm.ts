/**
 * An independent IQM reference, written from the IQM SDK's iqm.txt and the engines' loaders, for the tests only.
 * It shares no code with ts/src: its own reader of the few blocks posing needs (straight DataView reads), and its
 * own maths in float64 — 4×4 column-vector matrices, local = T · R · S (iqm.txt: "output = (input*scale)*rotation +
 * translation"), world = parent world · local, skinning matrix = world · (bind world)⁻¹ by a general 4×4 inverse,
 * a position as Σ wⱼ (Mⱼ · p) (three.js's order, not ioquake3's blended matrix), a normal through the inverse
 * transpose of the blended matrix. Weights follow RB_IQMSurfaceAnim: read in order up to the first one ≤ 0, a first
 * one ≤ 0 leaving the vertex as stored. Rotations interpolate by a shortest-path slerp.
 *
 * Joint scale: iqm.txt scales before rotating (R · S, columns scaled; Tesseract's matrix4x3 does the same), ioquake3's
 * JointToMatrix scales the rotation's rows (S · R). The two agree for a uniform scale; the corpus's scale channels are
 * uniform up to their quantisation (≤ 1.3e-3 apart), which moves a vertex by up to ~1.3e-4 of the model's size.
 * `convention` picks one ('ioquake3' is what the kernels follow).
 */
export type ScaleConvention = 'iqm.txt' | 'ioquake3';

export interface RefIqm {
  joints: { parent: number; t: number[]; q: number[]; s: number[] }[];
  poses: { parent: number; mask: number; offset: number[]; scale: number[] }[];
  anims: { name: string; first: number; count: number; framerate: number; loop: boolean }[];
  frameCount: number;
  channels: number;
  frames: Uint16Array;
  vertexCount: number;
  positions: Float64Array | null;
  normals: Float64Array | null;
  indices: Uint8Array | null;
  /** Already ÷ 255 for byte weights. */
  weights: Float64Array | null;
}

export function readIqmReference(bytes: Uint8Array): RefIqm {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (o: number) => v.getUint32(o, true);
  const f = (o: number) => v.getFloat32(o, true);
  const h = (i: number) => u(16 + 4 * i); // header words from `version`
  const [numText, ofsText] = [h(3), h(4)];
  const [numVA, numV, ofsVA] = [h(7), h(8), h(9)];
  const [numJ, ofsJ, numP, ofsP, numA, ofsA, numF, numC, ofsF] = [h(13), h(14), h(15), h(16), h(17), h(18), h(19), h(20), h(21)];
  const text = (at: number) => {
    let s = '';
    for (let i = ofsText + at; i < ofsText + numText && bytes[i] !== 0; i++) s += String.fromCharCode(bytes[i]);
    return s;
  };
  const joints = [];
  for (let i = 0; i < numJ; i++) {
    const o = ofsJ + 48 * i;
    joints.push({ parent: v.getInt32(o + 4, true), t: [0, 1, 2].map((c) => f(o + 8 + 4 * c)), q: [0, 1, 2, 3].map((c) => f(o + 20 + 4 * c)), s: [0, 1, 2].map((c) => f(o + 36 + 4 * c)) });
  }
  const poses = [];
  for (let i = 0; i < numP; i++) {
    const o = ofsP + 88 * i;
    poses.push({ parent: v.getInt32(o, true), mask: u(o + 4), offset: [...Array(10).keys()].map((c) => f(o + 8 + 4 * c)), scale: [...Array(10).keys()].map((c) => f(o + 48 + 4 * c)) });
  }
  const anims = [];
  for (let i = 0; i < numA; i++) {
    const o = ofsA + 20 * i;
    anims.push({ name: text(u(o)), first: u(o + 4), count: u(o + 8), framerate: f(o + 12), loop: (u(o + 16) & 1) !== 0 });
  }
  const frames = new Uint16Array(numF * numC);
  for (let i = 0; i < frames.length; i++) frames[i] = v.getUint16(ofsF + 2 * i, true);
  let positions: Float64Array | null = null, normals: Float64Array | null = null, indices: Uint8Array | null = null, weights: Float64Array | null = null;
  for (let i = 0; i < numVA; i++) {
    const o = ofsVA + 20 * i;
    const [type, , format, size, offset] = [u(o), u(o + 4), u(o + 8), u(o + 12), u(o + 16)];
    const floats = () => Float64Array.from({ length: numV * size }, (_, k) => f(offset + 4 * k));
    if (type === 0 && format === 7) positions = floats();
    if (type === 2 && format === 7) normals = floats();
    if (type === 4 && format === 1) indices = bytes.slice(offset, offset + numV * 4);
    if (type === 5) weights = format === 7 ? floats() : Float64Array.from({ length: numV * 4 }, (_, k) => bytes[offset + k] / 255);
  }
  return { joints, poses, anims, frameCount: numF, channels: numC, frames, vertexCount: numV, positions, normals, indices, weights };
}

type M4 = Float64Array; // column-major 4×4

function mul(a: M4, b: M4): M4 {
  const o = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    o[c * 4 + r] = s;
  }
  return o;
}

/** General 4×4 inverse (Gauss–Jordan with partial pivoting). */
export function invert(m: M4): M4 {
  const a = [...Array(4)].map((_, r) => [...Array(8)].map((_, c) => (c < 4 ? m[c * 4 + r] : c - 4 === r ? 1 : 0)));
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    const d = a[c][c];
    for (let k = 0; k < 8; k++) a[c][k] /= d;
    for (let r = 0; r < 4; r++) if (r !== c) {
      const x = a[r][c];
      for (let k = 0; k < 8; k++) a[r][k] -= x * a[c][k];
    }
  }
  const o = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) o[c * 4 + r] = a[r][c + 4];
  return o;
}

/** T · R · S (or T · S · R for 'ioquake3') from translation, a quaternion (normalised here) and scale. */
export function trs(t: number[], q: number[], s: number[], convention: ScaleConvention = 'iqm.txt'): M4 {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  const [x, y, z, w] = q.map((c) => c / n);
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
  ]; // columns
  const o = new Float64Array(16);
  for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[c * 4 + k] = r[c * 3 + k] * (convention === 'ioquake3' ? s[k] : s[c]);
  o[12] = t[0]; o[13] = t[1]; o[14] = t[2]; o[15] = 1;
  return o;
}

function slerp(a: number[], b0: number[], t: number): number[] {
  let d = a[0] * b0[0] + a[1] * b0[1] + a[2] * b0[2] + a[3] * b0[3];
  const b = d < 0 ? b0.map((x) => -x) : b0;
  d = Math.abs(d);
  if (d > 1 - 1e-9) return a.map((x, i) => x + (b[i] - x) * t);
  const th = Math.acos(Math.min(1, d));
  const s = Math.sin(th);
  return a.map((x, i) => (x * Math.sin((1 - t) * th) + b[i] * Math.sin(t * th)) / s);
}

/** Frame `f`'s channels: per pose t (3), q (4), s (3), read from the frame's values in mask order. */
function decode(anim: RefIqm, f: number): { t: number[]; q: number[]; s: number[] }[] {
  let k = f * anim.channels;
  return anim.poses.map((p) => {
    const ch = p.offset.map((off, c) => (p.mask & (1 << c) ? off + anim.frames[k++] * p.scale[c] : off));
    return { t: ch.slice(0, 3), q: ch.slice(3, 7), s: ch.slice(7, 10) };
  });
}

/** Skinning matrices (column-major, f64) of `mesh`'s joints posed by `anim`'s frames a → b at t. */
export function referenceSkinMatrices(mesh: RefIqm, anim: RefIqm, a: number, b: number, t: number, convention: ScaleConvention = 'iqm.txt'): M4[] {
  const fa = decode(anim, a), fb = decode(anim, b);
  const bindWorld: M4[] = [], world: M4[] = [];
  mesh.joints.forEach((j, i) => {
    const local = trs(j.t, j.q, j.s, convention);
    bindWorld.push(j.parent >= 0 ? mul(bindWorld[j.parent], local) : local);
    const qa = normalise(fa[i].q), qb = normalise(fb[i].q);
    const lerp = (x: number[], y: number[]) => x.map((c, k) => c * (1 - t) + y[k] * t);
    const pose = trs(lerp(fa[i].t, fb[i].t), slerp(qa, qb, t), lerp(fa[i].s, fb[i].s), convention);
    world.push(j.parent >= 0 ? mul(world[j.parent], pose) : pose);
  });
  return world.map((w, i) => mul(w, invert(bindWorld[i])));
}

function normalise(q: number[]): number[] {
  const n = Math.hypot(...q);
  return n > 0 ? q.map((x) => x / n) : [0, 0, 0, -1];
}

/** Positions and unit normals of `mesh`'s vertices under `mats`. */
export function referenceSkin(mesh: RefIqm, mats: M4[]): { positions: Float64Array; normals: Float64Array } {
  const V = mesh.vertexCount;
  const positions = new Float64Array(V * 3), normals = new Float64Array(V * 3);
  for (let v = 0; v < V; v++) {
    const p = [mesh.positions![v * 3], mesh.positions![v * 3 + 1], mesh.positions![v * 3 + 2]];
    const n = mesh.normals ? [mesh.normals[v * 3], mesh.normals[v * 3 + 1], mesh.normals[v * 3 + 2]] : [0, 0, 1];
    const blended = new Float64Array(16);
    const out = [0, 0, 0];
    let used = 0;
    for (let k = 0; k < 4; k++) {
      const w = mesh.weights![v * 4 + k];
      if (!(w > 0)) break;
      const m = mats[mesh.indices![v * 4 + k]];
      for (let r = 0; r < 3; r++) out[r] += w * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
      for (let e = 0; e < 16; e++) blended[e] += w * m[e];
      used++;
    }
    if (used === 0) {
      positions.set(p, v * 3);
      normals.set(n, v * 3);
      continue;
    }
    positions.set(out, v * 3);
    blended[15] = 1;
    const it = invert(blended); // inverse; its transpose applied to n
    const nn = [0, 1, 2].map((r) => it[r * 4] * n[0] + it[r * 4 + 1] * n[1] + it[r * 4 + 2] * n[2]);
    const len = Math.hypot(...nn) || 1;
    normals.set(nn.map((x) => x / len), v * 3);
  }
  return { positions, normals };
}
