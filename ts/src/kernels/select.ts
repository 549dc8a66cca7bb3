/**
 * Backend choice: `auto` = WASM (SIMD when supported, else scalar), falling back to TS without WASM.
 *
 * The WASM backend (its glue over linear memory and the generated job writers, wasm-backend.ts and wasm-jobs.ts) is
 * imported with its build on the first WASM backend made, as the build itself is: `createBackend` is async anyway,
 * and an app that imports the front door without posing on WASM does not fetch it (docs/package.md). The TS backend
 * (its kernels, IQM's with them) is imported on first use as well: the stable door does not carry it.
 */
import type { BackendChoice, PoseBackend } from './backend.js';

const wasm = () => import('./wasm-backend.js');
const createTsBackend = async () => (await import('./ts-backend.js')).createTsBackend();

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
