/**
 * Property: random byte mutations of a real file either parse — into a model whose invariants hold (indices in
 * range, normals in the table, finite decoded frames, memory bound) — or throw ModelParseError. Nothing else
 * escapes, nothing hangs. Mutations are biased to the header, where one byte changes the whole reading.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import type { Md2Model } from '../../src/base/model.js';
import { md2GlCommandTriangles, md2Unwelded, parseMd2 } from '../../src/formats/md2/index.js';
import { md2FrameNormals, md2FramePositions } from '../reference/md2.js';
import { FILES, readMd2File, typedBytes } from './_helpers.js';

function checkInvariants(m: Md2Model, fileBytes: number): void {
  for (const i of m.trianglePositionIndices) if (i >= m.vertexCount) throw new Error(`xyz index ${i}`);
  for (const i of m.triangleStIndices) if (i >= m.stCount) throw new Error(`st index ${i}`);
  for (let i = 3; i < m.frameVertices.length; i += 4) if (m.frameVertices[i] >= 162) throw new Error('normal index');
  if (m.glCommands) {
    for (const v of m.glCommands.vertices) if (v >= m.vertexCount) throw new Error('glcmd vertex');
    md2GlCommandTriangles(m.glCommands);
  }
  // Each block costs at most its own bytes; blocks that overlap (OVERLAPPING_BLOCKS) count their shared bytes once
  // per block, so the five of them bound the model at 5× the file.
  const overlap = m.warnings.some((w) => w.code === 'OVERLAPPING_BLOCKS');
  if (typedBytes(m) > (overlap ? 5 : 1.5) * fileBytes) throw new Error('memory bound');
  for (const f of [0, m.frameCount - 1]) {
    for (const x of md2FramePositions(m, f)) if (!Number.isFinite(x)) throw new Error(`frame ${f}: position ${x}`);
    md2FrameNormals(m, f);
  }
  const uw = md2Unwelded(m);
  for (const x of uw.uvs) if (!Number.isFinite(x)) throw new Error('uv');
}

function mutationProperty(base: Uint8Array, position: fc.Arbitrary<number>) {
  return fc.property(fc.array(fc.tuple(position, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.boolean(), (edits, cut) => {
    let bytes = base.slice();
    for (const [at, v] of edits) bytes[at] = v;
    if (cut) bytes = bytes.subarray(0, edits[0][0]);
    try {
      checkInvariants(parseMd2(bytes), bytes.length);
    } catch (e) {
      if (!(e instanceof ModelParseError)) throw e;
      expect(e.offset).toBeGreaterThanOrEqual(0);
      expect(e.offset).toBeLessThanOrEqual(Math.max(bytes.length, 68));
    }
  });
}

describe('random mutations of flag.md2 parse or throw ModelParseError', () => {
  const base = readMd2File(FILES.flag);
  test('anywhere in the file', () => {
    fc.assert(mutationProperty(base, fc.integer({ min: 0, max: base.length - 1 })), { numRuns: 400 });
  });
  test('in the header', () => {
    fc.assert(mutationProperty(base, fc.integer({ min: 0, max: 67 })), { numRuns: 1500 });
  });
  test('in the triangles and the first frame header', () => {
    fc.assert(mutationProperty(base, fc.integer({ min: 2516, max: 4964 + 40 })), { numRuns: 400 });
  });
});
