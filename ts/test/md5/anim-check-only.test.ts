/**
 * `keepValues: false` (what `inspect` reads an md5anim with): frames are checked, not converted, by a loop of their
 * own in the tokenizer. It must accept exactly what the converting parse accepts and fail exactly where it fails.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { Md5AnimParser } from '../../src/formats/md5/index.js';
import { FILES, HAVE_MODELS, enc, readModel, splitAt } from './_helpers.js';

/** Frame-mode parse of `chunks`: the header, the frames seen, or the error with its position, as one string. */
function outcome(chunks: readonly Uint8Array[], keepValues: boolean): string {
  let frames = 0;
  const p = new Md5AnimParser({ keepBounds: false, keepValues, onFrame: (index) => void (frames = index + 1) });
  try {
    for (const c of chunks) p.write(c);
    const a = p.end();
    return JSON.stringify({ frames, count: a.frameCount, comp: a.componentCount, base: [...a.baseframe], names: a.names });
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    return `${e.code}@${e.offset}:${e.line}:${e.column} ${e.message}`;
  }
}

const SMALL = `MD5Version 10
commandline ""
numFrames 2
numJoints 1
frameRate 24
numAnimatedComponents 6
hierarchy {
\t"root"\t-1 63 0
}
bounds {
\t( -1 -1 -1 ) ( 1 1 1 )
\t( -1 -1 -1 ) ( 1 1 1 )
}
baseframe {
\t( 0 0 0 ) ( 0 0 0 )
}
frame 0 {
\t0.25 -0.5 1 -2. +3 .5
}
frame 1 {
\t1e0 2 3 -0.0 0.123456789012345 6
}
`;

/** Literals and separators the two loops could tell apart: long, signed, dotted, exponent, cut, glued. */
const frameByte = fc.constantFrom(...' \t\r\n{}()/*-+.eE0123456789x'.split('').map((c) => c.charCodeAt(0)));

describe('md5anim frames checked, not converted (keepValues: false)', () => {
  test('the same outcome as converting, on edits of frame text and under any chunking', () => {
    const bytes = enc(SMALL);
    const framesAt = SMALL.indexOf('frame 0');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.array(frameByte, { maxLength: 20 })), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (edits, cuts) => {
          let text = bytes;
          for (const [at, del, ins] of edits) {
            const i = framesAt + (at % (text.length - framesAt + 1));
            text = Uint8Array.from([...text.subarray(0, i), ...ins, ...text.subarray(i + del)]);
          }
          const chunks = splitAt(text, [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b));
          expect(outcome(chunks, false)).toBe(outcome([text], true));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('literals at the edges of the run: 15 and 16 digits, a float32 overflow, a missing digit', () => {
    const frame1 = '\t1e0 2 3 -0.0 0.123456789012345 6\n';
    const cases = [
      '\t1 2 3 4 5 123456789012345\n', // 15 digits: the run takes it
      '\t1 2 3 4 5 1234567890123456\n', // 16: left to the ordinary path
      `\t1 2 3 4 5 ${'9'.repeat(40)}\n`, // beyond float32: BAD_NUMBER from the ordinary path
      '\t1 2 3 4 5 -\n', // no digit
      '\t1 2 3 4 5 6 7\n', // one too many
      '\t1 2 3 4 5 6)\n',
    ];
    for (const c of cases) {
      const text = enc(SMALL.replace(frame1, c));
      const converted = outcome([text], true);
      expect(outcome([text], false), c).toBe(converted);
      for (let cut = text.length - 40; cut < text.length; cut++) expect(outcome(splitAt(text, [cut]), false)).toBe(converted);
    }
    expect(outcome([enc(SMALL.replace(frame1, cases[2]))], true)).toMatch(/^BAD_NUMBER@/);
  });
});

describe.skipIf(!HAVE_MODELS)('md5anim frames checked, not converted: real files', () => {
  test('rifle_view_idle (CRLF) and drone forward read to the same header and frame count', () => {
    for (const f of [FILES.rifleIdle, FILES.droneForward]) {
      const bytes = readModel(f);
      const converted = outcome([bytes], true);
      expect(converted).toMatch(/^\{"frames":/);
      expect(outcome([bytes], false)).toBe(converted);
      expect(outcome(splitAt(bytes, [4093, 8191, 65536]), false)).toBe(converted);
    }
  });
});
