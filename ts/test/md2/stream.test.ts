/**
 * Streaming: every two-way split of small real files, 1-byte chunks and random multi-splits give the one-buffer
 * model bit for bit; every byte source MD5 takes works for MD2; abort, progress and early end behave.
 */
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { parseMd2, parseMd2Stream } from '../../src/formats/md2/index.js';
import { fileChunks } from '../../src/node.js';
import { loadMd2 } from '../../src/formats/md2/node.js';
import type { ByteSource } from '../../src/base/source.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { FILES, catchParseAsync, diff, fromChunks, readMd2File, splitAt } from './_helpers.js';
import { chunked, instrumentedStream, readableOf as readable } from '../helpers/chunks.js';

describe('chunk-split invariance', () => {
  for (const file of [FILES.flag, FILES.barrel]) {
    test(`${file}: every two-way split point gives the one-buffer model`, () => {
      const bytes = readMd2File(file);
      const whole = parseMd2(bytes);
      for (let i = 0; i <= bytes.length; i++) {
        const d = diff(fromChunks(splitAt(bytes, [i])), whole);
        if (d) throw new Error(`split at ${i}: differs at ${d}`);
      }
    });
  }

  test('flag.md2 in 1-byte chunks, and at random multi-splits', () => {
    const bytes = readMd2File(FILES.flag);
    const whole = parseMd2(bytes);
    expect(diff(fromChunks(chunked(bytes, 1)), whole)).toBe('');
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), (cuts) => {
        const d = diff(fromChunks(splitAt(bytes, [...cuts].sort((a, b) => a - b))), whole);
        if (d) throw new Error(`cuts ${cuts}: differs at ${d}`);
      }),
      { numRuns: 200 },
    );
  });

  test('a bad header fails at the same code and offset whatever the split', () => {
    const bytes = readMd2File(FILES.zeroVertices);
    for (let i = 0; i <= 68; i++) {
      const p = () => fromChunks(splitAt(bytes, [i]));
      expect(() => p()).toThrow(/BAD_COUNT: num_xyz is 0.* at byte 24/);
    }
  });
});

describe('byte sources', () => {
  const path = `${SHARED_MODELS}/${FILES.faerie}`;
  const bytes = readMd2File(FILES.faerie);
  const whole = parseMd2(bytes);
  const sources: [string, () => ByteSource][] = [
    ['Uint8Array', () => bytes],
    ['ArrayBuffer', () => bytes.slice().buffer],
    ['ReadableStream of 1000-byte chunks', () => readable(bytes, 1000)],
    ['async iterable of 7-byte chunks', () => (async function* () { yield* chunked(bytes, 7); })()],
    ['Node Readable', () => Readable.from(chunked(bytes, 4096))],
    ['fetch Response', () => new Response(readable(bytes, 65536))],
    ['file chunks (Node path)', () => fileChunks(path, 3000)],
  ];
  for (const [name, make] of sources) {
    test(`${name} gives the one-buffer faerie.md2`, async () => {
      expect(diff(await parseMd2Stream(make()), whole)).toBe('');
    });
  }

  test('loadMd2 reads a path', async () => {
    expect(diff(await loadMd2(path), whole)).toBe('');
  });

  test('progress is reported per chunk with the running byte count', async () => {
    const seen: number[] = [];
    await parseMd2Stream(chunked(bytes, 50000), { onProgress: (n) => seen.push(n) });
    expect(seen).toEqual(chunked(bytes, 50000).map((_, i) => Math.min((i + 1) * 50000, bytes.length)));
  });

  test('an AbortSignal stops the read: ABORTED at the bytes read so far, stream cancelled', async () => {
    const ac = new AbortController();
    const { stream: rs, log } = instrumentedStream(bytes, 1000);
    const onProgress = (n: number) => n === 3000 && ac.abort();
    const e = await catchParseAsync(parseMd2Stream(rs, { signal: ac.signal, onProgress }));
    expect([e.code, e.offset]).toEqual([ErrorCode.Aborted, 3000]);
    expect(log.cancelled).toBe(true);
  });

  test('an already aborted signal rejects before reading', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await catchParseAsync(parseMd2Stream(readable(bytes, 1000), { signal: ac.signal }));
    expect([e.code, e.offset]).toEqual([ErrorCode.Aborted, 0]);
  });

  test('a stream that ends early is TRUNCATED at the byte where it ended', async () => {
    for (const cut of [0, 30, 68, 5000, bytes.length - 1]) {
      const e = await catchParseAsync(parseMd2Stream(readable(bytes.subarray(0, cut), 999)));
      expect(e).toBeInstanceOf(ModelParseError);
      expect([e.code, e.offset]).toEqual([ErrorCode.Truncated, cut]);
    }
  });
});
