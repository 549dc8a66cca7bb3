/**
 * Backend choice: `auto` = WASM (SIMD when supported, else scalar), falling back to TS without WASM.
 *
 * The WASM backend (its glue over linear memory and the generated job writers, wasm-backend.ts and wasm-jobs.ts) is
 * imported with its build on the first WASM backend made, as the build itself is: `createBackend` is async anyway,
 * and an app that imports the front door without posing on WASM does not fetch it (docs/package.md). The TS backend
 * stays: the synchronous exporters pose on it.
 */
import type { BackendChoice, PoseBackend } from './backend.js';
import { createTsBackend } from './ts-backend.js';

const wasm = () => import('./wasm-backend.js');

export async function createBackend(choice: BackendChoice = 'auto'): Promise<PoseBackend> {
  switch (choice) {
    case 'ts':
      return createTsBackend();
    case 'wasm-simd':
      return (await wasm()).createWasmBackend('simd');
    case 'wasm-scalar':
      return (await wasm()).createWasmBackend('scalar');
    case 'wasm': {
      const w = await wasm();
      return w.createWasmBackend(w.wasmSimdSupported() ? 'simd' : 'scalar');
    }
    case 'auto': {
      if (typeof WebAssembly !== 'object') return createTsBackend();
      const w = await wasm();
      if (!w.wasmSupported()) return createTsBackend();
      return w.createWasmBackend(w.wasmSimdSupported() ? 'simd' : 'scalar');
    }
    default:
      throw new TypeError(`unknown backend '${String(choice)}' (wasm-simd, wasm-scalar, wasm, ts, auto)`);
  }
}
