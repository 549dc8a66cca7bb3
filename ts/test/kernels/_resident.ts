/**
 * What the resident-job tests of the WASM backend share (morph-resident, skin-resident): the backends under test,
 * and the refusals a resident job must never skip.
 */
import { expect } from 'vitest';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createWasmBackend, wasmSimdSupported } from '../../src/kernels/wasm-backend.js';

/** The WASM backends: SIMD where the host has it, and scalar. */
export async function wasmBackends(): Promise<PoseBackend[]> {
  return [...(wasmSimdSupported() ? [await createWasmBackend('simd')] : []), await createWasmBackend('scalar')];
}

/**
 * After a checked (resident) run, a released buffer of the job is refused as disposed; after another checked run, a
 * job whose `foreign` buffer belongs to another backend of the same build is refused as such. Returns that second
 * job, its foreign buffer still in place.
 */
export async function expectRefusalsAfterResidentRun<J>(
  b: PoseBackend,
  make: (b: PoseBackend, seed: number) => J,
  check: (b: PoseBackend, j: J) => void,
  run: (b: PoseBackend, j: J) => void,
  released: keyof J,
  foreign: keyof J,
  seed: number,
): Promise<J> {
  const j = make(b, seed);
  check(b, j);
  b.memory.release(j[released] as Parameters<PoseBackend['memory']['release']>[0]);
  expect(() => run(b, j)).toThrow(/disposed/);
  const k = make(b, seed + 1);
  check(b, k);
  const other = make(await createWasmBackend(b.name === 'wasm-simd' ? 'simd' : 'scalar'), seed + 1);
  k[foreign] = other[foreign];
  expect(() => run(b, k)).toThrow(/another backend/);
  return k;
}
