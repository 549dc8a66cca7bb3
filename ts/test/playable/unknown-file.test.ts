/**
 * A file of no kind this reads, handed to `openPlayable` (what the worker's `open` runs, passing the error back by
 * its class, code and detail: worker.ts `serialize`, client.ts `revive`), is a ModelParseError UNKNOWN_FORMAT naming
 * it and the extensions the registered formats read — not a plain Error a caller cannot tell from a bug.
 */
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { readableExtensions } from '../../src/registry/formats.js';
import { openPlayable } from '../../src/registry/open-playable.js';

describe('openPlayable with a file it cannot read', () => {
  it('an unknown extension with bytes of no model: UNKNOWN_FORMAT naming the file and what is read', async () => {
    const e = await openPlayable([{ name: 'notes.txt', source: new TextEncoder().encode('hello, not a model') }]).catch((x) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect([e.code, e.file]).toEqual(['UNKNOWN_FORMAT', 'notes.txt']);
    expect(e.detail).toContain(`(${readableExtensions()})`);
    expect(readableExtensions()).toContain('.md3');
  });
});
