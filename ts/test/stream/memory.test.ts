/**
 * Constant memory: streaming 10× more frames does not grow the heap (after a GC) beyond a small slack, while the
 * one-buffer parse of the same input does grow by about its frames' size (which shows the measure is live).
 * The source produces its text lazily (a few frames per chunk), so it costs constant memory itself.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { Md5AnimParser } from '../../src/formats/md5/anim.js';
import { openMd5AnimFrames } from '../../src/formats/md5/frame-stream.js';
import { parseMd5AnimStream } from '../../src/formats/md5/stream.js';
import { animHeaderText, enc, frameText, frameTokens, syntheticFrames } from './_helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const JOINTS = 10; // 60 components per frame, ~ 0.5 KB of text
const SMALL = 2_000;
const LARGE = 20_000;

/** Live heap + array buffers after a full GC. */
function liveBytes(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Streams `frames` frames; returns the largest live memory seen above the level right after the header. */
async function streamGrowth(frames: number, keepBounds: boolean): Promise<number> {
  const { source, pulled } = syntheticFrames(JOINTS, frames);
  const reader = await openMd5AnimFrames(source, { keepBounds });
  const base = liveBytes();
  let peak = 0;
  let n = 0;
  for await (const f of reader) {
    n++;
    if (f.index % Math.floor(frames / 10) === 0) peak = Math.max(peak, liveBytes() - base);
  }
  expect(n).toBe(frames);
  expect(pulled()).toBeGreaterThan(frames * 400);
  return peak;
}

describe('frame streaming memory', () => {
  test(`${LARGE.toLocaleString('en')} frames cost no more live memory than ${SMALL.toLocaleString('en')} (keepBounds: false)`, async () => {
    const small = await streamGrowth(SMALL, false);
    const large = await streamGrowth(LARGE, false);
    // slack: GC noise and the odd chunk in flight, far below the 18,000 extra frames' 4.3 MB of values
    expect(large - small, `small ${small} B, large ${large} B`).toBeLessThan(256 * 1024);
  });

  test('with bounds kept, growth is the bounds only: 24 bytes per frame', async () => {
    const large = await streamGrowth(LARGE, true);
    // the bounds array doubles as it grows: at most 2 × 24 B per frame, plus the same slack
    expect(large).toBeLessThan(LARGE * 24 * 2 + 256 * 1024);
  });

  test('the one-buffer parse of the same input does hold every frame (the measure is live)', async () => {
    const before = liveBytes();
    const anim = await parseMd5AnimStream(syntheticFrames(JOINTS, LARGE).source);
    const held = liveBytes() - before;
    expect(anim.frames.length).toBe(LARGE * JOINTS * 6);
    // 4.8 MB of float32 frames, less whatever else the heap let go between the two readings (seen: 10 KB under it
    // on a loaded machine); the streamed parse above stays under 1.2 MB, so 90 % still tells the two apart.
    expect(held).toBeGreaterThan(0.9 * LARGE * JOINTS * 6 * 4);
  });
});

describe('one-buffer frame store sizing (expectedBytes)', () => {
  /** The parser's frame store, in floats (private: read for this check only). */
  const storeFloats = (p: Md5AnimParser) => (p as unknown as { frames: Float32Array }).frames.length;

  test('sized once from the first frame: exactly the frames the input holds, +5%', () => {
    const frames = 5000;
    const text = animHeaderText(4, frames) + Array.from({ length: frames }, (_, f) => frameText(f, frameTokens(f, 24))).join('');
    const bytes = enc(text);
    const p = new Md5AnimParser({ expectedBytes: bytes.length });
    p.write(bytes.subarray(0, text.indexOf('frame 2 {')));
    // after frame 0 and 1: room for about the 5000 frames, not the 65,536-float first guess or a doubling of it
    expect(storeFloats(p)).toBeGreaterThanOrEqual(frames * 24);
    expect(storeFloats(p)).toBeLessThanOrEqual(Math.ceil(frames * 1.1) * 24);
    // and the result is the exact-size array, as without the hint
    p.write(bytes.subarray(text.indexOf('frame 2 {')));
    expect(p.end().frames.length).toBe(frames * 24);
  });
});
