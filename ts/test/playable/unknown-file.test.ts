/**
 * A file of no kind this reads, handed to `openPlayable` (what the worker's `open` runs, passing the error back by
 * its class, code and detail: worker.ts `serialize`, client.ts `revive`), is a ModelParseError UNSUPPORTED naming
 * it — not a plain Error a caller cannot tell from a bug.
 */
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { openPlayable } from '../../src/playable/open.js';

describe('openPlayable with a file it cannot read', () => {
  it('an unknown extension with bytes of no model: UNSUPPORTED naming the file', async () => {
    const e = await openPlayable([{ name: 'notes.txt', source: new TextEncoder().encode('hello, not a model') }]).catch((x) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect([e.code, e.detail]).toEqual(['UNSUPPORTED', 'notes.txt: not a model file this reads (.md5mesh, .md5anim, .md2, .md3): no known extension, and its first bytes are no model\'s']);
  });
});
