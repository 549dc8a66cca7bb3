/**
 * An independent Half-Life studio model pose, written from the engine's rules (Half-Life SDK studio.h and
 * StudioModelRenderer.cpp), not from formats/goldsrc: the header and tables read here with a DataView, the
 * run-length channels decoded by counting frames run by run, Euler angles turned into a 3×3 matrix as Rz·Ry·Rx
 * (AngleMatrix's convention), bones composed parents first as 3×4 matrices (ConcatTransforms), each vertex moved by
 * its bone's matrix (VectorTransform). Float64 throughout.
 */
export interface RefModel {
  bones: { parent: number; value: number[]; scale: number[] }[];
  /** Submodels by body part: vertices (bone-local) and their bones. */
  parts: { vertices: number[][]; bones: number[] }[][];
  sequences: { label: string; frames: number; animAt: number; group: number; motionType: number; motionBone: number }[];
}

export function readRef(bytes: Uint8Array): RefModel {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i = (at: number) => v.getInt32(at, true);
  const f = (at: number) => v.getFloat32(at, true);
  const bones = Array.from({ length: i(140) }, (_, b) => {
    const at = i(144) + b * 112;
    return { parent: i(at + 32), value: Array.from({ length: 6 }, (_, k) => f(at + 64 + 4 * k)), scale: Array.from({ length: 6 }, (_, k) => f(at + 88 + 4 * k)) };
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
    return { label, frames: i(at + 56), animAt: i(at + 124), group: i(at + 156), motionType: i(at + 68), motionBone: i(at + 72) };
  });
  return { bones, parts, sequences };
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

/** Each bone's object matrix at `frame` of sequence `s` (the model's own bytes for group 0, else `groupBytes`), or at rest. */
export function refBoneMatrices(model: RefModel, bytes: Uint8Array, s: number | null, frame = 0): M34[] {
  const J = model.bones.length;
  const out: M34[] = [];
  const seq = s === null ? null : model.sequences[s];
  for (let j = 0; j < J; j++) {
    const b = model.bones[j];
    const ch = [...b.value];
    if (seq) {
      const rec = seq.animAt + j * 12;
      for (let c = 0; c < 6; c++) {
        const off = bytes[rec + 2 * c] | (bytes[rec + 2 * c + 1] << 8);
        if (off) ch[c] = b.value[c] + stored(bytes, rec + off, frame) * b.scale[c];
      }
      if (j === seq.motionBone) for (let k = 0; k < 3; k++) if (seq.motionType & (1 << k)) ch[k] = 0;
    }
    const local = eulerMatrix(ch[3], ch[4], ch[5], ch);
    out.push(b.parent < 0 ? local : concat(out[b.parent], local));
  }
  return out;
}

export const transform = (m: M34, p: number[]) => [0, 1, 2].map((r) => m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3]);
