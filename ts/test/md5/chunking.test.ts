/**
 * Chunk-split invariance: feeding a file in any number of pieces, split anywhere, gives a result bit-identical to
 * the one-chunk parse (and the same error, at the same position, for invalid input).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import {
  FILES,
  HAVE_MODELS,
  animFromChunks,
  catchParse,
  diff,
  everyTwoWaySplit,
  meshFromChunks,
  readModel,
  splitAt,
} from './_helpers.js';

type Parse = (chunks: readonly Uint8Array[]) => unknown;

/** fast-check: sorted distinct cut positions, sometimes dense (many 1-byte chunks). */
function cutsArb(len: number) {
  const sparse = fc.uniqueArray(fc.integer({ min: 0, max: len }), { maxLength: 64 });
  const dense = fc
    .tuple(fc.integer({ min: 0, max: len }), fc.integer({ min: 1, max: 400 }))
    .map(([start, count]) => Array.from({ length: Math.min(count, len - start) }, (_, k) => start + k));
  return fc.oneof(sparse, dense).map((c) => [...new Set(c)].sort((a, b) => a - b));
}

function randomSplitsMatch(bytes: Uint8Array, parse: Parse, whole: unknown, numRuns: number): void {
  fc.assert(
    fc.property(cutsArb(bytes.length), (cuts) => {
      const d = diff(parse(splitAt(bytes, cuts)), whole);
      if (d) throw new Error(`cuts ${cuts.join(',')}: results differ at ${d}`);
    }),
    { numRuns },
  );
}

function oneByteChunks(bytes: Uint8Array): Uint8Array[] {
  return Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
}

/** `file` split at every position, in 1-byte chunks, and at `numRuns` random cut sets: all give the one-chunk result. */
function everySplitKind(file: string, one: (bytes: Uint8Array) => unknown, parse: Parse, numRuns: number): void {
  const bytes = readModel(file);
  const whole = one(bytes);
  expect(everyTwoWaySplit(bytes, parse, whole)).toBe(bytes.length + 1);
  expect(diff(parse(oneByteChunks(bytes)), whole)).toBe('');
  randomSplitsMatch(bytes, parse, whole, numRuns);
}

describe.skipIf(!HAVE_MODELS)('chunk-split invariance on real files', () => {
  test('SimpleCube.md5mesh: every split position, 1-byte chunks, random multi-splits', () => {
    everySplitKind(FILES.simpleCube, parseMd5Mesh, meshFromChunks, 500);
  });

  test('drone idle.md5anim: every split position, 1-byte chunks, random multi-splits', () => {
    everySplitKind(FILES.droneIdle, parseMd5Anim, animFromChunks, 300);
  });

  test('turret.md5mesh: 1-byte chunks and random multi-splits (every split position: chunking-turret-*.test.ts)', () => {
    const bytes = readModel(FILES.turret);
    const whole = parseMd5Mesh(bytes);
    expect(diff(meshFromChunks(oneByteChunks(bytes)), whole)).toBe('');
    randomSplitsMatch(bytes, meshFromChunks, whole, 100);
  });

  test('drone mesh and CRLF rifle files: a handful of random splits', () => {
    for (const [file, parse, one] of [
      [FILES.droneMesh, meshFromChunks, parseMd5Mesh],
      [FILES.rifleView, meshFromChunks, parseMd5Mesh],
      [FILES.rifleIdle, animFromChunks, parseMd5Anim],
      [FILES.rifleReload, animFromChunks, parseMd5Anim],
    ] as const) {
      const bytes = readModel(file);
      const whole = one(bytes);
      randomSplitsMatch(bytes, parse, whole, 8);
      // fixed small chunk sizes, incl. odd ones that land between CR and LF
      for (const size of [1, 2, 3, 7, 4096]) {
        if (size === 1 && bytes.length > 500_000) continue;
        const chunks: Uint8Array[] = [];
        for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
        const d = diff(parse(chunks), whole);
        expect(d, `${file} in ${size}-byte chunks`).toBe('');
      }
    }
  });

  test('invalid files: same error and position under every split', () => {
    for (const file of [FILES.invalidBoneIndex, FILES.camera]) {
      const bytes = readModel(file);
      const ref = catchParse(() => parseMd5Mesh(bytes));
      for (let i = 0; i <= bytes.length; i++) {
        const e = catchParse(() => meshFromChunks(splitAt(bytes, [i])));
        expect(e).toBeInstanceOf(ModelParseError);
        expect([e.code, e.offset, e.line, e.column], `${file} split ${i}`).toEqual([ref.code, ref.offset, ref.line, ref.column]);
      }
    }
  });

  test('warnings: the same INDEX_MARKER, at the same position, under every split', () => {
    for (const file of [FILES.overflowTri, FILES.overflowVert, FILES.overflowWeight]) {
      const bytes = readModel(file);
      const ref = parseMd5Mesh(bytes).warnings;
      expect(ref?.length, file).toBe(1);
      for (let i = 0; i <= bytes.length; i++) expect(meshFromChunks(splitAt(bytes, [i])).warnings, `${file} split ${i}`).toEqual(ref);
    }
  });
});
