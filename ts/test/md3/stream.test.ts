/** Streaming: any chunking gives the one-buffer model; sources, abort, progress, early end. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { Md3Parser, parseMd3, parseMd3Stream } from '../../src/formats/md3/index.js';
import { read } from '../helpers/models.js';
import { splitAt } from '../md5/_helpers.js';
import { HUMAN_BASE, digest, expectMd3Error, smallMd3 } from './_helpers.js';

/** The digest (see _helpers) of the model parsed from `chunks`. */
function fromChunks(chunks: readonly Uint8Array[]) {
  const p = new Md3Parser();
  for (const c of chunks) p.write(c);
  return digest(p.end());
}

describe('chunking', () => {
  it('every single split point of a hand-made file (offsets backwards, trailing bytes) gives the one-buffer model', () => {
    const bytes = smallMd3({ surfacesFirst: true, trailing: 3 }).bytes;
    const whole = digest(parseMd3(bytes));
    for (let cut = 0; cut <= bytes.length; cut++) expect(fromChunks(splitAt(bytes, [cut]))).toEqual(whole);
  });

  it('one byte at a time', () => {
    const bytes = smallMd3({ trailing: 2 }).bytes;
    expect(fromChunks(Array.from(bytes, (b) => Uint8Array.of(b)))).toEqual(digest(parseMd3(bytes)));
  });

  it('random splits of the real lower.md3 (and of grenade.md3, which has a trailing byte)', () => {
    for (const path of [HUMAN_BASE.lower, HUMAN_BASE.grenade]) {
      const bytes = read(path);
      const whole = digest(parseMd3(bytes));
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
          expect(fromChunks(splitAt(bytes, [...cuts].sort((a, b) => a - b)))).toEqual(whole);
        }),
        { numRuns: 60, seed: 3 },
      );
    }
  });

  it('split points around the header end and the surface boundaries of upper.md3', () => {
    const bytes = read(HUMAN_BASE.upper);
    const whole = digest(parseMd3(bytes));
    for (const cut of [1, 4, 7, 8, 107, 108, 109, 8676, 60084, 60084 + 108, bytes.length - 1]) {
      expect(fromChunks(splitAt(bytes, [cut]))).toEqual(whole);
    }
  });
});

describe('sources and options', () => {
  const bytes = read(HUMAN_BASE.upper);
  const whole = digest(parseMd3(bytes));

  async function* chunked(b: Uint8Array, size: number) {
    for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
  }

  it('Uint8Array, ArrayBuffer, async iterable, ReadableStream and Response give the same model', async () => {
    expect(digest(await parseMd3Stream(bytes))).toEqual(whole);
    expect(digest(await parseMd3Stream(bytes.slice().buffer))).toEqual(whole);
    expect(digest(await parseMd3Stream(chunked(bytes, 1000)))).toEqual(whole);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 4096) c.enqueue(bytes.slice(i, i + 4096));
        c.close();
      },
    });
    expect(digest(await parseMd3Stream(stream))).toEqual(whole);
    expect(digest(await parseMd3Stream(new Response(bytes)))).toEqual(whole);
  });

  it('onProgress reports the bytes read so far, ending at the file size', async () => {
    const seen: number[] = [];
    await parseMd3Stream(chunked(bytes, 100_000), { onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([100_000, 200_000, 300_000, 400_000, 500_000, 600_000, bytes.length]);
  });

  it('an AbortSignal stops the read with ABORTED at the bytes consumed', async () => {
    const ac = new AbortController();
    const source = (async function* () {
      yield bytes.subarray(0, 5000);
      ac.abort();
      yield bytes.subarray(5000);
    })();
    const e = await parseMd3Stream(source, { signal: ac.signal }).catch((x) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect(e.code).toBe(ErrorCode.Aborted);
    expect(e.offset).toBe(5000);
    const pre = new AbortController();
    pre.abort();
    await expect(parseMd3Stream(bytes, { signal: pre.signal })).rejects.toMatchObject({ code: ErrorCode.Aborted, offset: 0 });
  });

  it('a stream that ends early is TRUNCATED at the bytes received', async () => {
    await expect(parseMd3Stream(chunked(bytes.subarray(0, 300_001), 4096))).rejects.toMatchObject({ code: ErrorCode.Truncated, offset: 300_001 });
    await expect(parseMd3Stream(chunked(bytes.subarray(0, 50), 7))).rejects.toMatchObject({ code: ErrorCode.Truncated, offset: 50 });
    await expect(parseMd3Stream(new Uint8Array(0))).rejects.toMatchObject({ code: ErrorCode.Truncated, offset: 0 });
  });

  it('a bad header fails on the chunk that brings it, before the rest arrives', () => {
    const bad = bytes.slice(0, 200);
    bad[5] = 1; // version 271
    const p = new Md3Parser();
    expectMd3Error(() => p.write(bad.subarray(0, 20)), ErrorCode.BadVersion, 4);
    // Sticky: the parser stays failed.
    expectMd3Error(() => p.write(bad.subarray(20)), ErrorCode.BadVersion, 4);
  });
});

describe('fuzz', () => {
  const base = read(HUMAN_BASE.head);
  const small = smallMd3({ surfacesFirst: true }).bytes;

  it('byte mutations of a real file and of a hand-made one either parse or throw ModelParseError, the same whole or chunked', () => {
    for (const original of [base, small]) {
      const outcomes = { parsed: 0, failed: 0 };
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
          fc.option(fc.nat(original.length), { nil: undefined }),
          fc.nat(original.length),
          (edits, cutTo, split) => {
            const b = original.slice(0, cutTo ?? original.length);
            for (const [at, v] of edits) if (at < b.length) b[at] = v;
            // Header fields are where the damage is interesting: aim some edits there.
            if (edits.length > 2) b[76 + (edits[0][0] % 32)] = edits[0][1];
            let whole: unknown;
            try {
              whole = digest(parseMd3(b));
              outcomes.parsed++;
            } catch (e) {
              if (!(e instanceof ModelParseError)) throw e;
              whole = { code: e.code, offset: e.offset };
              outcomes.failed++;
            }
            let chunked: unknown;
            try {
              chunked = fromChunks(splitAt(b, [Math.min(split, b.length)]));
            } catch (e) {
              if (!(e instanceof ModelParseError)) throw e;
              chunked = { code: e.code, offset: e.offset };
            }
            expect(chunked).toEqual(whole);
          },
        ),
        { numRuns: 1500, seed: 15 },
      );
      // Both outcomes must be exercised, or the property says little.
      expect(outcomes.parsed).toBeGreaterThan(20);
      expect(outcomes.failed).toBeGreaterThan(20);
    }
  });
});
