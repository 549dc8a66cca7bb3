/**
 * md5mesh element lines (`vert N ( u v ) start count`, `tri N a b c`, `weight N joint bias ( x y z )`) are read as
 * index windows: the tokenizer's index run takes the plain integers the parser would accept without a warning, the
 * others reach number(). In one-byte chunks every literal is cut by a chunk end, so the run takes nothing and every
 * value goes through number(): comparing that with the one-buffer parse compares the run with the ordinary path.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { Md5MeshParser, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { diff, enc, meshFromChunks, splitAt } from './_helpers.js';

interface Shape {
  joints: number;
  verts: number;
  tris: number;
  weights: number;
  eol: string;
}

/** The integer tokens of a clean mesh of `shape`, line by line: the property edits these and nothing else. */
function elementLines(s: Shape): { kind: 'vert' | 'tri' | 'weight'; ints: string[] }[] {
  const lines: { kind: 'vert' | 'tri' | 'weight'; ints: string[] }[] = [];
  for (let v = 0; v < s.verts; v++) lines.push({ kind: 'vert', ints: [String(v), String(v % s.weights), '1'] });
  for (let t = 0; t < s.tris; t++) lines.push({ kind: 'tri', ints: [String(t), String(t % s.verts), String((t + 1) % s.verts), String((t + 2) % s.verts)] });
  for (let w = 0; w < s.weights; w++) lines.push({ kind: 'weight', ints: [String(w), String(w % s.joints)] });
  return lines;
}

function meshText(s: Shape, lines: { kind: string; ints: string[] }[]): string {
  const e = s.eol;
  const out = [`MD5Version 10${e}commandline ""${e}numJoints ${s.joints}${e}numMeshes 1${e}joints {`];
  for (let j = 0; j < s.joints; j++) out.push(`\t"j${j}"\t${j - 1} ( ${j} 0 0 ) ( 0 0 0 )`);
  out.push('}', 'mesh {', '\tshader "s"', `\tnumverts ${s.verts}`);
  for (const l of lines.filter((l) => l.kind === 'vert')) out.push(`\tvert ${l.ints[0]} ( 0.5 0.25 ) ${l.ints[1]} ${l.ints[2]}`);
  out.push(`\tnumtris ${s.tris}`);
  for (const l of lines.filter((l) => l.kind === 'tri')) out.push(`\ttri ${l.ints.join(' ')}`);
  out.push(`\tnumweights ${s.weights}`);
  for (const l of lines.filter((l) => l.kind === 'weight')) out.push(`\tweight ${l.ints[0]} ${l.ints[1]} 1.0 ( 1 2 3 )`);
  out.push('}', '');
  return out.join(e);
}

/** The parse's outcome: the mesh (with its warnings), or the error's code, message and position. */
function outcome(chunks: readonly Uint8Array[]): unknown {
  try {
    return meshFromChunks(chunks);
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    return [e.code, e.message, e.offset, e.line, e.column];
  }
}

/** What an edit puts in place of an integer: values the run must leave to number(), and some it may take. */
const replacement = fc.oneof(
  fc.constantFrom('0', '1', '2', '3', '7', '-1', '+1', '1.0', '1.', '1e0', '0001', '-0', '999999999', '1000000000', '2147483648', '4294967298'),
  fc.integer({ min: 0, max: 40 }).map(String),
  fc.constantFrom('/* c */ 1', '1 // c\n', '\r\n2'),
);

const shapeArb = fc.record({
  joints: fc.integer({ min: 1, max: 4 }),
  verts: fc.integer({ min: 1, max: 6 }),
  tris: fc.integer({ min: 0, max: 5 }),
  weights: fc.integer({ min: 1, max: 6 }),
  eol: fc.constantFrom('\n', '\r\n'),
});

describe('md5mesh index windows', () => {
  afterEach(() => vi.restoreAllMocks());

  test('a clean file: every element integer goes through the index run, none through number()', () => {
    const s: Shape = { joints: 3, verts: 5, tris: 4, weights: 6, eol: '\r\n' };
    const text = meshText(s, elementLines(s));
    const numbers = vi.spyOn(Md5MeshParser.prototype, 'number');
    const mesh = parseMd5Mesh(text);
    // number() sees the header's 4 counts and version, each joint's parent and 6 values, each weight's bias
    expect(numbers).toHaveBeenCalledTimes(1 + 2 + 7 * s.joints + 3 + s.weights);
    const part = mesh.meshes[0];
    expect([...part.triangles]).toEqual([0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 0]);
    expect([...part.weightStart]).toEqual([0, 1, 2, 3, 4]);
    expect([...part.weightCount]).toEqual([1, 1, 1, 1, 1]);
    expect([...part.weightJoints]).toEqual([0, 1, 2, 0, 1, 2]);
    expect(mesh.warnings).toEqual([]);
    // in one-byte chunks, all of them do (and the float runs' values: texture coordinates, weight positions)
    numbers.mockClear();
    expect(diff(meshFromChunks(Array.from(enc(text), (b) => Uint8Array.of(b))), mesh)).toBe('');
    const floats = 2 * s.verts + 3 * s.weights;
    expect(numbers).toHaveBeenCalledTimes(1 + 2 + 7 * s.joints + 3 + s.weights + 3 * s.verts + 4 * s.tris + 2 * s.weights + floats);
  });

  test('property: edited element integers give the same mesh, warnings or error, with the run and without it', () => {
    let errors = 0;
    let warned = 0;
    fc.assert(
      fc.property(
        shapeArb.chain((s) => {
          const lines = elementLines(s);
          const slots = lines.flatMap((l, i) => l.ints.map((_, k) => [i, k] as const));
          return fc.tuple(fc.constant(s), fc.constant(lines), fc.array(fc.tuple(fc.constantFrom(...slots), replacement), { maxLength: 4 }), fc.nat());
        }),
        ([s, lines, edits, cut]) => {
          const edited = lines.map((l) => ({ kind: l.kind, ints: [...l.ints] }));
          for (const [[i, k], to] of edits) edited[i].ints[k] = to;
          const bytes = enc(meshText(s, edited));
          const whole = outcome([bytes]);
          if (Array.isArray(whole)) errors++;
          else if ((whole as { warnings?: unknown[] }).warnings?.length) warned++;
          const bytewise = outcome(Array.from(bytes, (b) => Uint8Array.of(b)));
          expect(diff(bytewise, whole), 'one-byte chunks').toBe('');
          const split = outcome(splitAt(bytes, [cut % (bytes.length + 1)]));
          expect(diff(split, whole), `split at ${cut % (bytes.length + 1)}`).toBe('');
        },
      ),
      { numRuns: 400 },
    );
    // the edits reach the error and warning paths, not only clean files
    expect(errors).toBeGreaterThan(40);
    expect(warned).toBeGreaterThan(10);
  });
});
