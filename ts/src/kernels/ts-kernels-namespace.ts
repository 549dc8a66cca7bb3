/**
 * The TS kernels as one namespace (`tsKernels` in `idtech-models/advanced`). Bundlers build a module's namespace
 * object where the module's code is (a call at its top level, which they keep): built from this module, only what
 * imports `advanced` carries it, not every app whose chunk holds the kernels.
 */
export * from './ts-kernels.js';
