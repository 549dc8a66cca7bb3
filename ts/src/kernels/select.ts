/** Backend choice: `auto` = WASM (SIMD when supported, else scalar), falling back to TS without WASM. */
import type { BackendChoice, PoseBackend } from './backend.js';
import { createTsBackend } from './ts-backend.js';
import { createWasmBackend, wasmSimdSupported, wasmSupported } from './wasm-backend.js';

export async function createBackend(choice: BackendChoice = 'auto'): Promise<PoseBackend> {
  switch (choice) {
    case 'ts':
      return createTsBackend();
    case 'wasm-simd':
      return createWasmBackend('simd');
    case 'wasm-scalar':
      return createWasmBackend('scalar');
    case 'wasm':
      return createWasmBackend(wasmSimdSupported() ? 'simd' : 'scalar');
    case 'auto':
      if (!wasmSupported()) return createTsBackend();
      return createWasmBackend(wasmSimdSupported() ? 'simd' : 'scalar');
    default:
      throw new TypeError(`unknown backend '${String(choice)}' (wasm-simd, wasm-scalar, wasm, ts, auto)`);
  }
}
