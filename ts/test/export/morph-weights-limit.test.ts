/**
 * A morph-target glTF holds one weight per target per keyframe — quadratic in an MD2's or MD3's frame count — so the
 * export bounds their sum (`maxMorphWeights`, default 2²⁶; export/gltf-morph.ts) before allocating it: an MD3 of
 * 9,000 tiny frames (made here; 80 million weights) is UNWRITABLE naming the limit, not 3.6 GB and a RangeError; a
 * real model exports under the default and is refused under a lowered one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { toGlb } from '../../src/export/gltf.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { refusal } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

/** An MD3 of one 3-vertex surface and `frames` frames (all zeros but the counts and offsets). */
function md3(frames: number): Uint8Array {
  const verts = 3;
  const surface = 108 + 68 + 12 + 8 * verts + 8 * verts * frames;
  const b = new Uint8Array(108 + 56 * frames + surface);
  const v = new DataView(b.buffer);
  const ascii = (at: number, s: string) => b.set(new TextEncoder().encode(s), at);
  ascii(0, 'IDP3');
  v.setInt32(4, 15, true);
  v.setInt32(76, frames, true);
  v.setInt32(84, 1, true);
  v.setInt32(92, 108, true);
  v.setInt32(96, 108 + 56 * frames, true);
  const s = 108 + 56 * frames;
  v.setInt32(100, s, true);
  v.setInt32(104, b.length, true);
  ascii(s, 'IDP3');
  ascii(s + 4, 'surface');
  v.setInt32(s + 72, frames, true);
  v.setInt32(s + 76, 1, true);
  v.setInt32(s + 80, verts, true);
  v.setInt32(s + 84, 1, true);
  v.setInt32(s + 88, 108 + 68, true);
  v.setInt32(s + 92, 108, true);
  v.setInt32(s + 96, 108 + 68 + 12, true);
  v.setInt32(s + 100, 108 + 68 + 12 + 8 * verts, true);
  v.setInt32(s + 104, surface, true);
  v.setInt32(s + 180, 2, true);
  v.setInt32(s + 184, 1, true);
  return b;
}


describe('maxMorphWeights', () => {
  it('an MD3 of 9,000 frames (216 KB) is UNWRITABLE before its 81 million weights are allocated', () => {
    const model = parseMd3(md3(9000));
    expect(model.frameCount).toBe(9000);
    const before = process.memoryUsage().arrayBuffers;
    const e = refusal(() => toGlb(model));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', expect.stringMatching(/^the animations' morph weights reach \d+ \(this clip: \d+ keyframes × \d+ targets\): over the limit maxMorphWeights = 67108864 /)]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('faerie.md2 (198 frames in 16 clips over 198 targets: 39,204 weights) exports under the default and at 39,204, not at 39,203', () => {
    const faerie = parseMd2(read(`${SHARED_MODELS}/assimp/test/models/MD2/faerie.md2`));
    expect(toGlb(faerie).length).toBeGreaterThan(0);
    setResourceLimits({ maxMorphWeights: 39_204 });
    expect(toGlb(faerie).length).toBeGreaterThan(0);
    setResourceLimits({ maxMorphWeights: 39_203 });
    expect(refusal(() => toGlb(faerie)).detail).toMatch(/morph weights reach 39204 .*over the limit maxMorphWeights = 39203 /);
  });
});
