/** Shared helpers of the writer tests (not a test file itself). */
import { expect } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';

/** The ModelParseError `f` throws (or rejects with); fails the test when it throws something else or nothing. */
export async function caught(f: () => unknown): Promise<ModelParseError> {
  try {
    await f();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelParseError);
    return e as ModelParseError;
  }
  throw new Error('no error');
}
