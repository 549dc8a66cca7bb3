/**
 * The generated layout constants as one namespace (`kernelLayout` in `idtech-models/advanced`), built here for the
 * reason `ts-kernels-namespace.ts` gives.
 */
export * from './layout.js';
