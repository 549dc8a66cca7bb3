/**
 * Constant memory: streaming 10× more frames does not grow the heap (after a GC) beyond a small slack, while the
 * one-buffer parse of the same input does grow by about its frames' size (which shows the measure is live).
 * The source produces its text lazily (a few frames per chunk), so it costs constant memory itself.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { openMd5AnimFrames } from '../../src/md5/frame-stream.js';
import { parseMd5AnimStream } from '../../src/md5/stream.js';
import { syntheticFrames } from './_helpers.js';

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
    expect(held).toBeGreaterThan(LARGE * JOINTS * 6 * 4); // 4.8 MB of float32 frames
  });
});
