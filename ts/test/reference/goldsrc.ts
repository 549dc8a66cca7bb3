/**
 * An independent Half-Life studio model pose, written from the engine's rules (Half-Life SDK studio.h and
 * StudioModelRenderer.cpp), not from formats/goldsrc: the header and tables read here with a DataView, the
 * run-length channels decoded by counting frames run by run, Euler angles turned into a 3×3 matrix as Rz·Ry·Rx
 * (AngleMatrix's convention), bones composed parents first as 3×4 matrices (ConcatTransforms), each vertex moved by
 * its bone's matrix (VectorTransform). Float64 throughout.
 */
export interface RefModel {
  /** `links[c]`: the controller (its place in the table) channel c adds, −1 none. */
  bones: { parent: number; value: number[]; scale: number[]; links: number[] }[];
  controllers: { type: number; start: number; end: number; index: number }[];
  /** Submodels by body part: vertices (bone-local) and their bones. */
  parts: { vertices: number[][]; bones: number[] }[][];
  sequences: { label: string; frames: number; animAt: number; group: number; motionType: number; motionBone: number; blends: number }[];
}

/** What the entity sets: controller index → degrees or units; `blending[0..1]` bytes. */
export interface RefControls {
  controllers?: Record<number, number>;
  blend?: number[];
}

export function readRef(bytes: Uint8Array): RefModel {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i = (at: number) => v.getInt32(at, true);
  const f = (at: number) => v.getFloat32(at, true);
  const bones = Array.from({ length: i(140) }, (_, b) => {
    const at = i(144) + b * 112;
    return { parent: i(at + 32), links: Array.from({ length: 6 }, (_, k) => i(at + 40 + 4 * k)), value: Array.from({ length: 6 }, (_, k) => f(at + 64 + 4 * k)), scale: Array.from({ length: 6 }, (_, k) => f(at + 88 + 4 * k)) };
  });
  const controllers = Array.from({ length: i(148) }, (_, c) => {
    const at = i(152) + c * 24;
    return { type: i(at + 4), start: f(at + 8), end: f(at + 12), index: i(at + 20) };
  });
  const parts = Array.from({ length: i(204) }, (_, p) => {
    const at = i(208) + p * 76;
    return Array.from({ length: i(at + 64) }, (_, m) => {
      const ma = i(at + 72) + m * 112;
      const n = i(ma + 80);
      return { vertices: Array.from({ length: n }, (_, k) => [f(i(ma + 88) + 12 * k), f(i(ma + 88) + 12 * k + 4), f(i(ma + 88) + 12 * k + 8)]), bones: Array.from({ length: n }, (_, k) => bytes[i(ma + 84) + k]) };
    });
  });
  const sequences = Array.from({ length: i(164) }, (_, s) => {
    const at = i(168) + s * 176;
    let label = '';
    for (let k = 0; k < 32 && bytes[at + k]; k++) label += String.fromCharCode(bytes[at + k]);
    return { label, frames: i(at + 56), animAt: i(at + 124), group: i(at + 156), motionType: i(at + 68), motionBone: i(at + 72), blends: i(at + 120) };
  });
  return { bones, controllers, parts, sequences };
}

/** The stored value of the stream at `at` for `frame`: runs counted one by one until the frame falls in one. */
function stored(bytes: Uint8Array, at: number, frame: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let run = at, first = 0;
  for (;;) {
    const valid = bytes[run], total = bytes[run + 1];
    if (frame < first + total) {
      const k = frame - first;
      return v.getInt16(run + 2 + 2 * Math.min(k, valid - 1), true);
    }
    first += total;
    run += 2 + 2 * valid;
  }
}

type M34 = number[]; // row-major 3×4

function eulerMatrix(ax: number, ay: number, az: number, t: number[]): M34 {
  const [cx, sx, cy, sy, cz, sz] = [Math.cos(ax), Math.sin(ax), Math.cos(ay), Math.sin(ay), Math.cos(az), Math.sin(az)];
  // Rz · Ry · Rx
  return [
    cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, t[0],
    sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, t[1],
    -sy, cy * sx, cy * cx, t[2],
  ];
}

function concat(a: M34, b: M34): M34 {
  const out: M34 = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) out.push(a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c] + a[r * 4 + 2] * b[8 + c] + (c === 3 ? a[r * 4 + 3] : 0));
  }
  return out;
}

/**
 * StudioCalcBoneAdj for values given in degrees / units: a controller whose index (any above 3 is the mouth, 4) has a
 * value gets it — wrapped into the 360° from its start when it loops (type bit 0x8000, not the mouth), else held
 * within its range — in radians when it turns (XR YR ZR: 8 16 32), as is when it moves (X Y Z: 1 2 4).
 */
function adjustments(model: RefModel, given: Record<number, number> | undefined): number[] {
  return model.controllers.map((c) => {
    const key = c.index > 3 ? 4 : c.index;
    const v = given?.[key];
    if (v === undefined) return 0;
    let value: number;
    if (c.index <= 3 && (c.type & 0x8000) !== 0) {
      value = v;
      while (value < c.start) value += 360;
      while (value >= c.start + 360) value -= 360;
    } else value = Math.max(Math.min(c.start, c.end), Math.min(Math.max(c.start, c.end), v));
    const kind = c.type & 0x7fff;
    if (kind === 8 || kind === 16 || kind === 32) return (value * Math.PI) / 180;
    if (kind === 1 || kind === 2 || kind === 4) return value;
    return 0;
  });
}

/** One bone's six channels at `frame` of blend `blend`, with its controllers' adjustments, after the motion test. */
function boneChannels(model: RefModel, bytes: Uint8Array, seq: RefModel['sequences'][number], blend: number, j: number, frame: number, adj: number[]): number[] {
  const b = model.bones[j];
  const ch = [...b.value];
  const rec = seq.animAt + (blend * model.bones.length + j) * 12;
  for (let c = 0; c < 6; c++) {
    const off = bytes[rec + 2 * c] | (bytes[rec + 2 * c + 1] << 8);
    if (off) ch[c] = b.value[c] + stored(bytes, rec + off, frame) * b.scale[c];
    if (b.links[c] >= 0 && b.links[c] < adj.length) ch[c] += adj[b.links[c]];
  }
  if (j === seq.motionBone) for (let k = 0; k < 3; k++) if (seq.motionType & (1 << k)) ch[k] = 0;
  return ch;
}

type Quat = number[]; // x y z w

/** The quaternion of Rz·Ry·Rx, as the product qz · qy · qx of the three axis rotations. */
function eulerQuat(ax: number, ay: number, az: number): Quat {
  const mul = (p: Quat, q: Quat): Quat => [
    p[3] * q[0] + p[0] * q[3] + p[1] * q[2] - p[2] * q[1],
    p[3] * q[1] - p[0] * q[2] + p[1] * q[3] + p[2] * q[0],
    p[3] * q[2] + p[0] * q[1] - p[1] * q[0] + p[2] * q[3],
    p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
  ];
  const qx = [Math.sin(ax / 2), 0, 0, Math.cos(ax / 2)], qy = [0, Math.sin(ay / 2), 0, Math.cos(ay / 2)], qz = [0, 0, Math.sin(az / 2), Math.cos(az / 2)];
  return mul(mul(qz, qy), qx);
}

/** QuaternionSlerp (mathlib.c): the shorter way from p to q, by t. */
function slerp(p: Quat, q: Quat, t: number): Quat {
  const far = p.reduce((s, x, k) => s + (x - q[k]) ** 2, 0), near = p.reduce((s, x, k) => s + (x + q[k]) ** 2, 0);
  const qq = far > near ? q.map((x) => -x) : q;
  const cos = p.reduce((s, x, k) => s + x * qq[k], 0);
  if (1 - Math.abs(cos) < 1e-9) return p.map((x, k) => x * (1 - t) + qq[k] * t);
  const w = Math.acos(cos), sin = Math.sin(w);
  const a = Math.sin((1 - t) * w) / sin, b = Math.sin(t * w) / sin;
  return p.map((x, k) => a * x + b * qq[k]);
}

function quatMatrix(q: Quat, t: number[]): M34 {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), t[0],
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), t[1],
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), t[2],
  ];
}

/** One bone's pose (position, quaternion) of blend `blend`. */
function blendPose(model: RefModel, bytes: Uint8Array, seq: RefModel['sequences'][number], blend: number, j: number, frame: number, adj: number[]): { p: number[]; q: Quat } {
  const ch = boneChannels(model, bytes, seq, blend, j, frame, adj);
  return { p: ch.slice(0, 3), q: eulerQuat(ch[3], ch[4], ch[5]) };
}

const mix = (a: { p: number[]; q: Quat }, b: { p: number[]; q: Quat }, t: number) => {
  const s = Math.min(1, Math.max(0, t));
  return { p: a.p.map((x, k) => x * (1 - s) + b.p[k] * s), q: slerp(a.q, b.q, s) };
};

/**
 * Each bone's object matrix at `frame` of sequence `s` (the model's own bytes for group 0, else `groupBytes`), or at
 * rest; with `controls`, the controllers' adjustments and the sequence's blends mixed as StudioSetupBones does (two:
 * 0→1 by blending[0]; four: 0→1 and 2→3 by blending[0], then by blending[1]; nine: Counter-Strike's 3×3 grid).
 */
export function refBoneMatrices(model: RefModel, bytes: Uint8Array, s: number | null, frame = 0, controls: RefControls = {}): M34[] {
  const J = model.bones.length;
  const out: M34[] = [];
  const seq = s === null ? null : model.sequences[s];
  const adj = adjustments(model, controls.controllers);
  const bx = Math.max(0, Math.min(255, controls.blend?.[0] ?? 0)), by = Math.max(0, Math.min(255, controls.blend?.[1] ?? 0));
  for (let j = 0; j < J; j++) {
    const b = model.bones[j];
    let local: M34;
    if (!seq) local = eulerMatrix(b.value[3], b.value[4], b.value[5], b.value);
    else if (seq.blends <= 1) {
      const ch = boneChannels(model, bytes, seq, 0, j, frame, adj);
      local = eulerMatrix(ch[3], ch[4], ch[5], ch);
    } else {
      const pose = (k: number) => blendPose(model, bytes, seq, k, j, frame, adj);
      let r;
      if (seq.blends === 9) {
        // the grid's cell: columns by blending[0], rows by blending[1], each byte's half of the range
        const col = bx > 127 ? 1 : 0, row = by > 127 ? 1 : 0;
        const fx = (bx > 127 ? bx - 127 : bx) * 2 / 255, fy = (by > 127 ? by - 127 : by) * 2 / 255;
        const cell = (r: number, c: number) => pose((row + r) * 3 + col + c);
        r = mix(mix(cell(0, 0), cell(0, 1), fx), mix(cell(1, 0), cell(1, 1), fx), fy);
      } else if (seq.blends === 4) r = mix(mix(pose(0), pose(1), bx / 255), mix(pose(2), pose(3), bx / 255), by / 255);
      else r = mix(pose(0), pose(1), bx / 255);
      local = quatMatrix(r.q, r.p);
    }
    out.push(b.parent < 0 ? local : concat(out[b.parent], local));
  }
  return out;
}

export const transform = (m: M34, p: number[]) => [0, 1, 2].map((r) => m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3]);
