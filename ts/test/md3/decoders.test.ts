/**
 * The reference decoders: packed normals, frame blends and tag interpolation. Expected values come from the
 * GROUND-TRUTH formulas worked by hand here, or from the raw tag floats of upper.md3 lerped and normalised in the
 * test (ioquake3 R_LerpTag: component lerp, each axis normalised).
 */
import { describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { decodeMd3Normal, md3FramePositions, md3LerpFramePositions } from '../reference/md3.js';
import { lerpTag } from '../../src/pose/md3-tag.js';
import { read } from '../helpers/models.js';
import { HUMAN_BASE, buildMd3 } from './_helpers.js';

const close = (got: ArrayLike<number>, want: readonly number[], digits = 6) => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, digits));
};

describe('decodeMd3Normal', () => {
  const n = (packed: number) => {
    const out = new Float32Array(3);
    decodeMd3Normal(packed, out, 0);
    return out;
  };

  it('the poles and the axes: lng is the angle from +z, lat the angle around it', () => {
    close(n(0x0000), [0, 0, 1]); // lng 0
    close(n(0x0080), [0, 0, -1]); // lng 128 = π
    close(n(0x0040), [1, 0, 0]); // lat 0, lng 64 = π/2
    close(n(0x4040), [0, 1, 0]); // lat 64 = π/2
    close(n(0x8040 << 16 >> 16), [-1, 0, 0]); // stored as a negative int16: lat 128
    close(n(0xc040 << 16 >> 16), [0, -1, 0]);
  });

  it('every one of the 65536 packed values decodes to a unit vector', () => {
    const out = new Float32Array(3);
    for (let p = -32768; p < 32768; p++) {
      decodeMd3Normal(p, out, 0);
      expect(Math.abs(Math.hypot(out[0], out[1], out[2]) - 1)).toBeLessThan(1e-6);
    }
  });

  it('writes at the offset', () => {
    const out = [9, 9, 9, 9, 9];
    decodeMd3Normal(0x0080, out, 2);
    expect(out.slice(0, 2)).toEqual([9, 9]);
    close(out.slice(2), [0, 0, -1]);
  });
});

describe('md3LerpFramePositions', () => {
  // Vertex v of frame f: (64v, 64f, −64v) → (v, f, −v) after ×1/64.
  const m = parseMd3(
    buildMd3({
      frames: 3,
      surfaces: [{ name: 's', vertexCount: 2, triangles: [0, 1, 1], xyzNormal: (f, v) => [64 * v, 64 * f, -64 * v, v === 0 ? (f === 0 ? 0x0000 : 0x0080) : 0x0040 + (f << 14)] }],
    }).bytes,
  );

  it('one frame: positions ×1/64, normals decoded', () => {
    const p = md3FramePositions(m, 0, 2);
    close(p.positions, [0, 2, 0, 1, 2, -1]);
    // vertex 0 at frame 2: 0x0080 (lng π) → −z; vertex 1: 0x0040 + (2 << 14) = 0x8040 (lat π, lng π/2) → −x.
    close(p.normals, [0, 0, -1, -1, 0, 0]);
  });

  it('a blend lerps positions and renormalises lerped normals', () => {
    const p = md3LerpFramePositions(m, 0, 0, 1, 0.25);
    close(p.positions, [0, 0.25, 0, 1, 0.25, -1]);
    // vertex 1: (1,0,0) → (0,1,0) at t = 0.25: (0.75, 0.25, 0) normalised.
    const l = Math.hypot(0.75, 0.25);
    close(p.normals.subarray(3), [0.75 / l, 0.25 / l, 0]);
  });

  it('opposite normals cancelling at t = 0.5 keep the nearer frame’s normal, never NaN', () => {
    // vertex 0: +z at frame 0, −z at frame 1.
    close(md3LerpFramePositions(m, 0, 0, 1, 0.5).normals.subarray(0, 3), [0, 0, -1]);
    close(md3LerpFramePositions(m, 0, 0, 1, 0.49).normals.subarray(0, 3), [0, 0, 1]);
  });

  it('reuses `out` when large enough; RangeError for a frame or surface outside the model', () => {
    const out = { positions: new Float32Array(6), normals: new Float32Array(6) };
    expect(md3FramePositions(m, m.surfaces[0], 1, out)).toBe(out);
    expect(() => md3FramePositions(m, 0, 3)).toThrow(RangeError);
    expect(() => md3FramePositions(m, 1, 0)).toThrow(RangeError);
    expect(() => md3LerpFramePositions(m, 0, 0, -1, 0.5)).toThrow(RangeError);
  });
});

describe('lerpTag on upper.md3', () => {
  const upper = parseMd3(read(HUMAN_BASE.upper));
  const T = upper.tagCount;
  /** By hand: tag k blended between frames a and b, each axis normalised (R_LerpTag). */
  function byHand(k: number, a: number, b: number, t: number): number[] {
    const ia = a * T + k;
    const ib = b * T + k;
    const o = [0, 1, 2].map((c) => upper.tagOrigins[ia * 3 + c] * (1 - t) + upper.tagOrigins[ib * 3 + c] * t);
    const axes = [0, 1, 2].flatMap((r) => {
      const v = [0, 1, 2].map((c) => upper.tagAxes[ia * 9 + r * 3 + c] * (1 - t) + upper.tagAxes[ib * 9 + r * 3 + c] * t);
      const len = Math.hypot(...v);
      return v.map((x) => x / len);
    });
    return [...o, ...axes];
  }

  it('by name or index, at t = 0, 0.5 and 1, equals the raw floats lerped and normalised by hand', () => {
    const k = upper.tagNames.indexOf('tag_weapon');
    expect(k).toBe(1);
    for (const [a, b] of [[0, 1], [40, 41], [10, 150]]) {
      for (const t of [0, 0.5, 1]) {
        close(lerpTag(upper, 'tag_weapon', a, b, t), byHand(k, a, b, t), 5);
        close(lerpTag(upper, k, a, b, t), byHand(k, a, b, t), 5);
      }
    }
  });

  it('engine mode: unit axes, not orthogonal between distant frames; orthonormalize: a rotation of the same handedness', () => {
    const e = lerpTag(upper, 'tag_head', 10, 150, 0.5);
    const o = lerpTag(upper, 'tag_head', 10, 150, 0.5, new Float32Array(12), { orthonormalize: true });
    const axis = (v: Float32Array, r: number) => [v[3 + r * 3], v[4 + r * 3], v[5 + r * 3]];
    const dot = (x: number[], y: number[]) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    const det = (v: Float32Array) => {
      const [a, b, c] = [axis(v, 0), axis(v, 1), axis(v, 2)];
      return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    };
    for (let r = 0; r < 3; r++) expect(Math.hypot(...axis(e, r))).toBeCloseTo(1, 6);
    const skew = Math.max(Math.abs(dot(axis(e, 0), axis(e, 1))), Math.abs(dot(axis(e, 0), axis(e, 2))), Math.abs(dot(axis(e, 1), axis(e, 2))));
    expect(skew).toBeGreaterThan(1e-3);
    for (let r = 0; r < 3; r++) {
      expect(Math.hypot(...axis(o, r))).toBeCloseTo(1, 6);
      for (let s = r + 1; s < 3; s++) expect(Math.abs(dot(axis(o, r), axis(o, s)))).toBeLessThan(1e-6);
    }
    expect(Math.sign(det(o))).toBe(Math.sign(det(e)));
    close(axis(o, 0), axis(e, 0), 6); // Gram–Schmidt starts from axis[0]
    close(o.subarray(0, 3), Array.from(e.subarray(0, 3)), 6); // the origin is not touched
  });

  it('RangeError for an unknown tag or a frame outside the model', () => {
    expect(() => lerpTag(upper, 'tag_flag', 0, 0, 0)).toThrow(RangeError);
    expect(() => lerpTag(upper, 3, 0, 0, 0)).toThrow(RangeError);
    expect(() => lerpTag(upper, 0, 0, 153, 0)).toThrow(RangeError);
  });

  it('axes that cancel out stay zero (as the engine’s VectorNormalize leaves them), never NaN', () => {
    const built = buildMd3({ frames: 2, tags: ['tag_x'], surfaces: [] });
    // Frame 1's axes = −identity: at t = 0.5 every axis lerps to zero.
    const dv = new DataView(built.bytes.buffer);
    for (let a = 0; a < 3; a++) dv.setFloat32(built.ofsTags + 112 + 76 + a * 16, -1, true);
    const m = parseMd3(built.bytes);
    for (const orthonormalize of [false, true]) {
      const out = lerpTag(m, 'tag_x', 0, 1, 0.5, new Float32Array(12), { orthonormalize });
      expect(Array.from(out.subarray(3))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
  });
});
