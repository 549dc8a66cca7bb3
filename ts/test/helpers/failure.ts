/** The ModelParseError a call or a promise ends in; anything else (another error, no error) fails the test. */
import { ModelParseError } from '../../src/base/errors.js';

/** The typed error `p` rejects with. */
export async function failure(p: Promise<unknown>): Promise<ModelParseError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw new Error(`untyped: ${(e as Error)?.stack ?? e}`);
  }
  throw new Error('no error');
}

/** The typed error `f` throws. */
export function refusal(f: () => unknown): ModelParseError {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw new Error(`untyped: ${(e as Error)?.stack ?? e}`);
  }
  throw new Error('no error');
}
