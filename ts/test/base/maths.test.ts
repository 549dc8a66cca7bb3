/**
 * The double-precision maths the exporters, importers and the three.js adapter share (base/vec3.ts, base/quat.ts,
 * base/mat4.ts), checked against facts written here: a rotation's matrix columns are the basis vectors it turns,
 * a matrix times its inverse is the identity, slerp keeps the angle in proportion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAT4_IDENTITY, mat4Invert, mat4Multiply, nonRigidity, rigidMatrix, rigidPart } from '../../src/base/mat4.js';
import { quatFromBasis, quatMultiply, quatNormalize, quatRotate, quatUnit, type Quat } from '../../src/base/quat.js';
import { quatSlerp } from '../../src/base/quat-slerp.js';
import { cross, dot, unit } from '../../src/base/vec3.js';

const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => quatNormalize(q));
const vec = fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }));
const near = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number) => Array.from(a).every((x, i) => Math.abs(x - b[i]) <= tol);
/** q and −q are the same rotation. */
const sameRotation = (a: Quat, b: Quat, tol: number) => near(a, b, tol) || near(a, b.map((x) => -x), tol);

describe('vectors', () => {
  it('cross is perpendicular to both and follows the right hand; unit has length 1 and keeps zero', () => {
    expect(cross([1, 0, 0], [0, 1, 0])).toEqual([0, 0, 1]);
    fc.assert(fc.property(vec, vec, (a, b) => {
      const c = cross(a, b), scale = Math.hypot(...a) * Math.hypot(...b) + 1;
      return Math.abs(dot(c, a)) <= 1e-9 * scale * Math.hypot(...a) && Math.abs(dot(c, b)) <= 1e-9 * scale * Math.hypot(...b);
    }));
    expect(Math.hypot(...unit([3, 4, 12]))).toBeCloseTo(1, 15);
    expect(unit([0, 0, 0])).toEqual([0, 0, 0]);
  });
});

describe('quaternions', () => {
  it('quatFromBasis gives back the rotation whose matrix has those columns, in every branch of its method', () => {
    fc.assert(fc.property(unitQuat, (q) => {
      const cols = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((e) => quatRotate(q, e));
      return sameRotation(quatFromBasis(cols[0], cols[1], cols[2]), q, 1e-12);
    }), { numRuns: 500 });
    // Half turns about x, y and z: the trace is −1, so each of the three non-trace branches is taken once.
    for (const q of [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]] as Quat[]) {
      const cols = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((e) => quatRotate(q, e));
      expect(sameRotation(quatFromBasis(cols[0], cols[1], cols[2]), q, 1e-15)).toBe(true);
    }
  });

  it('quatSlerp: the endpoints, the shortest path, the angle in proportion', () => {
    fc.assert(fc.property(unitQuat, unitQuat, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, t) => {
      if (!sameRotation(quatSlerp(a, b, 0), a, 1e-9) || !sameRotation(quatSlerp(a, b, 1), b, 1e-9)) return false;
      const angle = (x: Quat, y: Quat) => 2 * Math.acos(Math.min(1, Math.abs(x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3])));
      const m = quatSlerp(a, b, t), whole = angle(a, b);
      return Math.abs(angle(a, m) - t * whole) <= 2e-3 + 1e-6 && Math.abs(angle(m, b) - (1 - t) * whole) <= 2e-3 + 1e-6;
    }), { numRuns: 300 });
  });

  it('quatNormalize keeps a zero quaternion zero; quatUnit makes it (and NaN) the identity', () => {
    expect(quatNormalize([0, 0, 0, 0])).toEqual([0, 0, 0, 0]);
    expect(quatUnit(0, 0, 0, 0)).toEqual([0, 0, 0, 1]);
    expect(quatUnit(NaN, 0, 0, 1)).toEqual([0, 0, 0, 1]);
    expect(quatUnit(0, 0, 3, 4)).toEqual([0, 0, 0.6, 0.8]);
  });
});

describe('4×4 matrices and rigid transforms', () => {
  it('a matrix times its inverse is the identity; a singular one has none', () => {
    fc.assert(fc.property(unitQuat, vec, vec, (q, t, s) => {
      const m = mat4Multiply(rigidMatrix({ q, t }), [1 + Math.abs(s[0]) / 50, 0, 0, 0, 0, 1 + Math.abs(s[1]) / 50, 0, 0, 0, 0, 1 + Math.abs(s[2]) / 50, 0, 0, 0, 0, 1]);
      const { inverse } = mat4Invert(m);
      return inverse !== null && near(mat4Multiply(m, inverse), MAT4_IDENTITY, 1e-9) && near(mat4Multiply(inverse, m), MAT4_IDENTITY, 1e-9);
    }));
    expect(mat4Invert([1, 2, 3, 0, 2, 4, 6, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toEqual({ inverse: null, det: 0 });
    expect(mat4Invert(MAT4_IDENTITY, 2).inverse).toBeNull(); // |det| = 1 is not above 2
  });

  it('rigidMatrix moves points as q then t; its inverse undoes it; rigidPart reads (q, t) back, scale dropped', () => {
    fc.assert(fc.property(unitQuat, vec, vec, (q, t, p) => {
      const m = rigidMatrix({ q, t });
      const moved = [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
      const expected = quatRotate(q, p).map((x, i) => x + t[i]);
      const inv = mat4Invert(m).inverse!;
      const scaled = mat4Multiply(m, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1]);
      const back = rigidPart(scaled);
      return near(moved, expected, 1e-9) && near(mat4Multiply(inv, m), MAT4_IDENTITY, 1e-9) && sameRotation(back.q, q, 1e-9) && near(back.t, t, 0)
        && nonRigidity(m) < 1e-12 && Math.abs(nonRigidity(scaled) - 8) < 1e-9; // column 1 scaled by 3: |3² − 1|
    }));
  });

  it('quatMultiply composes rotations as their matrices do', () => {
    fc.assert(fc.property(unitQuat, unitQuat, (a, b) => near(rigidMatrix({ q: quatMultiply(a, b), t: [0, 0, 0] }), mat4Multiply(rigidMatrix({ q: a, t: [0, 0, 0] }), rigidMatrix({ q: b, t: [0, 0, 0] })), 1e-12)));
  });
});
