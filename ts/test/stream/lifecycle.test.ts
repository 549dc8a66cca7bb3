/**
 * The life of a stream: backpressure (a slow consumer is not read ahead of), abort (before and during, also while a
 * read is pending), truncation (the error names the byte offset and line:column where the input ended), and an
 * early `break` releasing the source (ReadableStream cancelled, iterator `return()`ed, Node Readable destroyed).
 */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { openMd5AnimFrames } from '../../src/formats/md5/frame-stream.js';
import { openMd5Meshes } from '../../src/formats/md5/mesh-stream.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseMd5AnimStream } from '../../src/formats/md5/stream.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { FILES, readModel } from '../md5/_helpers.js';
import { animHeaderText, chunked, enc, frameText, frameTokens, instrumentedStream, lineColumn } from './_helpers.js';

const CHUNK = 4096;
/** A synthetic anim of 200 frames × 60 components (~ 0.3 MB): many chunks, many frames per chunk. */
const JOINTS = 10;
const FRAMES = 200;
const animString = animHeaderText(JOINTS, FRAMES) + Array.from({ length: FRAMES }, (_, f) => frameText(f, frameTokens(f, JOINTS * 6))).join('');
const anim = enc(animString);
/** Byte offset just past frame f's closing brace (where the parser pauses to hand frame f out). */
const frameEnd = (f: number) => animString.indexOf('}', animString.indexOf(`frame ${f} {`)) + 1;

async function rejection(p: Promise<unknown>): Promise<ModelParseError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  if (!(e instanceof ModelParseError)) throw new Error(`expected ModelParseError, got ${String(e)}`);
  return e;
}

describe('backpressure', () => {
  test('a slow consumer: bytes pulled from the stream stay within one chunk of the frame being handed out', async () => {
    const { stream, log } = instrumentedStream(anim, CHUNK);
    const reader = await openMd5AnimFrames(stream);
    const headerEnd = animString.indexOf('frame 0 {');
    expect(log.pulled).toBeLessThanOrEqual(headerEnd + CHUNK);
    let maxAhead = 0;
    for await (const f of reader) {
      // What was read can only be the chunk holding the end of this frame: never more than one chunk ahead.
      maxAhead = Math.max(maxAhead, log.pulled - frameEnd(f.index));
      expect(log.pulled - frameEnd(f.index)).toBeLessThan(CHUNK);
      await new Promise((r) => setTimeout(r, 0)); // slow consumer
    }
    expect(log.pulled).toBe(anim.length);
    expect(maxAhead).toBeGreaterThan(0); // the measure is live: a chunk does run ahead of a frame's end
  });

  test('an async generator source is resumed only when the parser needs its next chunk', async () => {
    let yielded = 0;
    async function* source() {
      for (const c of chunked(anim, CHUNK)) {
        yielded += c.length;
        yield c;
      }
    }
    const reader = await openMd5AnimFrames(source());
    for await (const f of reader) expect(yielded - frameEnd(f.index)).toBeLessThan(CHUNK);
    expect(yielded).toBe(anim.length);
  });

  test('one huge buffer is handed out one frame at a time (no frame queue): frame k is parsed only when asked', async () => {
    const reader = await openMd5AnimFrames(anim);
    const it = reader[Symbol.asyncIterator]();
    const a = await it.next();
    const view = (a.value as { components: Float32Array }).components;
    const first = view.slice();
    // The frame's buffer is reused: it still holds frame 0 because frame 1 has not been parsed yet.
    await new Promise((r) => setTimeout(r, 5));
    expect(view).toEqual(first);
    const b = await it.next();
    expect((b.value as { index: number }).index).toBe(1);
    expect(view).not.toEqual(first); // now overwritten by frame 1, in place
    await it.return?.();
  });
});

describe('abort', () => {
  test('already aborted: ABORTED at offset 0, the stream is cancelled and nothing is read', async () => {
    const ac = new AbortController();
    ac.abort();
    const { stream, log } = instrumentedStream(anim, CHUNK);
    const e = await rejection(openMd5AnimFrames(stream, { signal: ac.signal }));
    expect(e.code).toBe(ErrorCode.Aborted);
    expect(e.offset).toBe(0);
    expect(log.pulled).toBe(0);
  });

  test('during the frames, inside one chunk: the next step throws ABORTED at the parse position and releases the stream', async () => {
    const ac = new AbortController();
    const { stream, log } = instrumentedStream(anim, 1 << 20); // one chunk holds the whole file
    const reader = await openMd5AnimFrames(stream, { signal: ac.signal });
    const seen: number[] = [];
    const e = await rejection(
      (async () => {
        for await (const f of reader) {
          seen.push(f.index);
          if (f.index === 3) ac.abort();
        }
      })(),
    );
    expect(e.code).toBe(ErrorCode.Aborted);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(e.offset).toBe(frameEnd(3));
    expect(log.cancelled).toBe(true);
  });

  test('while the source is waiting for data that never comes: rejects promptly and calls return()', async () => {
    const ac = new AbortController();
    let returned = false;
    const head = anim.subarray(0, 1000);
    const stuck: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        let sent = false;
        return {
          next: () => (sent ? new Promise<IteratorResult<Uint8Array>>(() => {}) : ((sent = true), Promise.resolve({ done: false, value: head }))),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    setTimeout(() => ac.abort(), 20);
    const e = await rejection(parseMd5AnimStream(stuck, { signal: ac.signal }));
    expect(e.code).toBe(ErrorCode.Aborted);
    expect(e.offset).toBe(1000);
    expect(returned).toBe(true);
  });
});

describe('truncation', () => {
  /**
   * Drains `open` over `text` cut at `cut` bytes. The error is the one-buffer parser's for the same bytes (code and
   * position). At a token boundary it is TRUNCATED inside a structure, or BAD_COUNT exactly between two frame / mesh
   * blocks (fewer blocks than declared, docs/errors.md), at the end of input: offset = cut and its line:column,
   * counted here independently. A cut inside a token leaves a partial token that the grammar judges as it is
   * ("MD5Vers", "-", or "numweights 1" for "numweights 16"), as the one-buffer parse does.
   */
  async function expectCutError(text: string, cut: number, open: (s: Uint8Array[]) => Promise<AsyncIterable<unknown>>, parseWhole: (b: Uint8Array) => unknown) {
    const bytes = enc(text).subarray(0, cut);
    const e = await rejection(
      (async () => {
        for await (const _ of await open(chunked(bytes, 97))) {
          // drain
        }
      })(),
    );
    const at = (x: ModelParseError) => ({ code: x.code, offset: x.offset, line: x.line, column: x.column });
    let whole: unknown;
    try {
      parseWhole(bytes);
    } catch (x) {
      whole = x;
    }
    expect(whole).toBeInstanceOf(ModelParseError);
    expect(at(e), `cut at ${cut}`).toEqual(at(whole as ModelParseError));
    const lineBefore = text.slice(0, cut).split(/\r\n|\r|\n/).pop()!;
    const inString = (lineBefore.replace(/\/\/.*$/, '').match(/"/g)?.length ?? 0) % 2 === 1;
    const isTokenByte = (c: string | undefined) => c !== undefined && /[^\s{}()]/.test(c);
    const atBoundary = !inString && !(isTokenByte(text[cut - 1]) && isTokenByte(text[cut]));
    if (atBoundary) {
      expect([ErrorCode.Truncated, ErrorCode.BadCount], `cut at ${cut}: ${e.message}`).toContain(e.code);
      expect({ offset: e.offset, line: e.line, column: e.column }, `cut at ${cut}: ${e.message}`).toEqual({ offset: cut, ...lineColumn(text, cut) });
    }
    return atBoundary ? e.code : 'inside a token';
  }

  test('md5anim cut at every byte of a small file (through the frame stream)', async () => {
    const text = animHeaderText(2, 3) + [0, 1, 2].map((f) => frameText(f, frameTokens(f, 12))).join('');
    const codes = new Map<string, number>();
    for (let cut = 0; cut <= text.lastIndexOf('}'); cut++) {
      const code = await expectCutError(text, cut, (s) => openMd5AnimFrames(s), parseMd5Anim);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect(codes.get(ErrorCode.Truncated)).toBeGreaterThan(text.length / 3);
    // between blocks: after the baseframe's, frame 0's and frame 1's '}', each before and after its newline
    expect(codes.get(ErrorCode.BadCount)).toBe(6);
  });

  test('real rifle_view_idle.md5anim (CRLF) cut at 300 places through the frame stream', async () => {
    const text = new TextDecoder('latin1').decode(readModel(FILES.rifleIdle));
    for (let k = 1; k <= 300; k++) {
      await turnIfHeld(); // each cut awaits only promises already settled: the loop turns here (helpers/loop-turn.ts)
      await expectCutError(text, Math.floor((k * text.length) / 301), (s) => openMd5AnimFrames(s), parseMd5Anim);
    }
  });

  test('real SimpleCube.md5mesh cut at every byte (through the mesh stream)', async () => {
    const text = new TextDecoder('latin1').decode(readModel(FILES.simpleCube));
    for (let cut = 0; cut <= text.lastIndexOf('}'); cut++) {
      await turnIfHeld();
      await expectCutError(text, cut, (s) => openMd5Meshes(s), parseMd5Mesh);
    }
  });
});

describe('a consumer that stops early releases the source', () => {
  test('break: the ReadableStream is cancelled, having been read only up to the frame taken', async () => {
    const { stream, log } = instrumentedStream(anim, CHUNK);
    for await (const f of await openMd5AnimFrames(stream)) if (f.index === 5) break;
    expect(log.cancelled).toBe(true);
    expect(log.pulled).toBeLessThan(frameEnd(5) + CHUNK);
  });

  test("break: an async iterable's return() is called", async () => {
    let returned = false;
    const parts = chunked(anim, CHUNK);
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: async () => (i < parts.length ? { done: false, value: parts[i++] } : { done: true, value: undefined }),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    for await (const f of await openMd5AnimFrames(source)) if (f.index === 2) break;
    expect(returned).toBe(true);
  });

  test('break: a Node Readable is destroyed; close() without iterating does the same', async () => {
    const r1 = Readable.from(chunked(anim, CHUNK));
    for await (const f of await openMd5AnimFrames(r1)) if (f.index === 1) break;
    await new Promise((r) => setImmediate(r));
    expect(r1.destroyed).toBe(true);

    const r2 = Readable.from(chunked(anim, CHUNK));
    const reader = await openMd5AnimFrames(r2);
    await reader.close();
    await new Promise((r) => setImmediate(r));
    expect(r2.destroyed).toBe(true);
  });

  test('a throw in the consumer also cancels the stream (mesh stream)', async () => {
    const bytes = readModel(FILES.droneMesh);
    const { stream, log } = instrumentedStream(bytes, CHUNK);
    await expect(
      (async () => {
        for await (const _ of await openMd5Meshes(stream)) throw new Error('consumer failed');
      })(),
    ).rejects.toThrow('consumer failed');
    expect(log.cancelled).toBe(true);
    expect(log.pulled).toBeLessThan(bytes.length);
  });
});
