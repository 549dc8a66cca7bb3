/**
 * Whether a value is a model set (what `openModelSet` returns), not a parsed model: the doors that take either
 * (`toGlb`, `resolveModelTextures`) tell them so. Its own module: those doors sit in the front door, which should not
 * carry the model-set loader for one test.
 */
import type { ModelFormat } from './format.js';
import type { ModelSet } from './model-set.js';

/** `F`: what the caller's sets were read through (`ModelEntry` for a door that takes sets read through registrations). */
export function isModelSet<F = ModelFormat>(x: unknown): x is ModelSet<unknown, F> {
  return typeof x === 'object' && x !== null && 'companions' in x && 'data' in x && 'files' in x && ('registration' in x || typeof (x as { format?: unknown }).format === 'string');
}
