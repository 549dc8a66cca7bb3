/**
 * Whether this runtime validates WebAssembly SIMD128 (`createBackend('auto')` picks the SIMD build then). A module of
 * its own so that asking costs a few bytes, not the WASM backend's glue and job writers.
 */

/** A module using one v128 instruction: validates only where SIMD128 is supported. */
const SIMD_PROBE = /* @__PURE__ */ new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function wasmSimdSupported(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}
