/**
 * Every IQM of the corpus that holds frames, posed on the mesh it plays on at the first, middle and last frame of each
 * of its anims (and halfway between the first two), by every backend (WASM SIMD, WASM scalar, TS), against the
 * independent reference (ts/test/reference/iqm.ts: float64, T·R·S joints, general inverses, Σ w·(M·p)). Positions
 * within 1e-4 × the mesh's diagonal, unit normals within 1e-3 (the cosine), the backends within 2e-5 × diagonal of
 * each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { readIqmReference, referenceSkin, referenceSkinMatrices } from '../reference/iqm.js';
import { animationPairs, iqmFile, sampleFrames, skinnedMeshes } from './_corpus.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));



function minCos(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 1;
  for (let i = 0; i < a.length; i += 3) m = Math.min(m, a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2]);
  return m;
}

describe('IQM posing on real models', () => {
  const pairs = animationPairs();
  it('pairs every file holding frames with a mesh', () => {
    expect(pairs.length).toBeGreaterThan(150);
  });

  for (const { mesh, anim } of pairs) {
    it(`${anim.path} on ${mesh.path}: every backend matches the reference`, () => {
      const refMesh = readIqmReference(mesh.bytes);
      const refAnim = anim === mesh ? refMesh : readIqmReference(anim.bytes);
      const diag = diagonal(mesh.model.positions!);
      const frames = sampleFrames(anim.model);
      const blends: [number, number, number][] = frames.map((f) => [f, f, 0]);
      if (anim.model.frameCount > 1) blends.push([frames[0], frames[0] + 1, 0.5]);
      const posers = backends.map((b) => new IqmPoser(b, mesh.model));
      try {
        for (const p of posers) if (anim !== mesh) p.setAnimation(anim.model);
        for (const [a, b, t] of blends) {
          const ref = referenceSkin(refMesh, referenceSkinMatrices(refMesh, refAnim, a, b, t, 'ioquake3'));
          const spec = referenceSkin(refMesh, referenceSkinMatrices(refMesh, refAnim, a, b, t, 'iqm.txt'));
          const outs = posers.map((p) => p.poseBlend(a, b, t));
          for (const p of outs) {
            expect(maxAbsDiff(p.positions, ref.positions) / diag, `${p.backend.name} frames ${a}→${b} @${t}`).toBeLessThan(1e-4);
            expect(minCos(p.normals, ref.normals), `${p.backend.name} normals frames ${a}→${b}`).toBeGreaterThan(1 - 1e-3);
            expect(maxAbsDiff(p.positions, spec.positions) / diag, `${p.backend.name} against iqm.txt's scale order`).toBeLessThan(3e-4);
          }
          expect(maxAbsDiff(outs[0].positions, outs[2].positions) / diag).toBeLessThan(2e-5);
          expect(maxAbsDiff(outs[1].positions, outs[2].positions) / diag).toBeLessThan(2e-5);
        }
      } finally {
        posers.forEach((p) => p.dispose());
      }
    });
  }

  it('the bind pose is the file\'s own vertices, and a pose moves them', () => {
    const mesh = iqmFile('player/male/RE_Player_male.iqm'), anim = iqmFile('player/runcycle0.iqm');
    const poser = new IqmPoser(backends[0], mesh.model);
    poser.setAnimation(anim.model);
    expect(maxAbsDiff(poser.positions, mesh.model.positions!)).toBe(0);
    poser.poseFrame(3);
    expect(maxAbsDiff(poser.positions, mesh.model.positions!) / diagonal(mesh.model.positions!)).toBeGreaterThan(0.01);
    poser.bindPose();
    expect(poser.blend).toBeNull();
    poser.dispose();
    expect(() => poser.positions).toThrow(/disposed/);
  });

  it('dispose is final and idempotent, as Md5Poser\'s; a disposed backend makes every call throw', async () => {
    const mesh = iqmFile('sentry/drone.iqm'), anim = iqmFile('sentry/forward.iqm');
    const backend = await createWasmBackend('simd');
    const a = new IqmPoser(backend, mesh.model);
    a.setAnimation(anim.model);
    a.poseFrame(1);
    a.dispose();
    a.dispose();
    for (const call of [() => a.poseFrame(0), () => a.positions, () => a.setAnimation(null), () => a.bindPose()]) expect(call).toThrow(/IqmPoser was disposed/);
    // buffers freed by one poser and reused by another are never written by the first
    const b = new IqmPoser(backend, mesh.model);
    const bind = b.positions.slice();
    expect(() => a.skin()).toThrow(/disposed/);
    expect(maxAbsDiff(b.positions, bind)).toBe(0);
    backend.dispose();
    expect(() => b.positions).toThrow(/backend of this IqmPoser was disposed/);
    expect(() => new IqmPoser(backend, mesh.model)).toThrow(/disposed/);
    // an animation that does not fit the skeleton is ANIM_MESH_MISMATCH, and frames past the file a RangeError
    const c = new IqmPoser(backends[2], mesh.model);
    expect(() => c.setAnimation(iqmFile('player/idle.iqm').model)).toThrow(/ANIM_MESH_MISMATCH/);
    c.setAnimation(anim.model);
    expect(() => c.poseFrame(anim.model.frameCount)).toThrow(RangeError);
    c.dispose();
  });

  it('covers every skinned mesh of the corpus', () => {
    const posed = new Set(pairs.map((p) => p.mesh.path));
    const unposed = skinnedMeshes().filter((m) => !posed.has(m.path)).map((m) => m.path);
    // meshes no file of the corpus animates (the cfg names none, or its files are missing) are posed by their own joints
    for (const path of unposed) expect(path).toMatch(/^(drone|janitor|roller|turret\/base|sentry|player\/(male|female|hud_hands))/);
  });
});
