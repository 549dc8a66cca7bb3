/**
 * Property tests (fast-check) for the MD5 tokenizer and every parser: arbitrary bytes, MD5 token soups near the
 * grammar, and binary headers built from edge values. The invariant is the fuzzer's (`checkInput`): a model that
 * passes an independent re-check or a ModelParseError, within the memory and time bounds, the same in chunks.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { Md5Tokenizer } from '../../src/text/tokenizer.js';
import { enc, splitAt } from '../md5/_helpers.js';
import { checkInput } from './invariant.js';
import { Rng } from './rng.js';
import { TARGETS, type FuzzTarget } from './targets.js';

/** Bytes weighted towards what MD5 text is made of, so arbitrary inputs get past the first token. */
const md5ish = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...' \t\r\n{}()"/*-+.e0123456789abz_'.split('').map((c) => c.charCodeAt(0))) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    ),
    { maxLength: 400 },
  )
  .map((a) => Uint8Array.from(a));

const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 1500 }), md5ish);

/** Tokenize `chunks`; the tokens (kind, value, position) then the error, as one comparable string. */
function lexOutcome(chunks: readonly Uint8Array[]): string {
  const out: string[] = [];
  const t: Md5Tokenizer = new Md5Tokenizer({
    word: (b, s, e) => out.push(`w${String.fromCharCode(...b.subarray(s, e))}@${t.tokenOffset}`),
    string: (b, s, e) => out.push(`s${b.subarray(s, e).join(',')}@${t.tokenOffset}`),
    number: (v, i) => out.push(`${i ? 'i' : 'n'}${Object.is(v, -0) ? '-0' : v}@${t.tokenOffset}:${t.tokenLine}:${t.tokenColumn}`),
    punct: (c) => out.push(`p${c}@${t.tokenOffset}`),
  });
  try {
    for (const c of chunks) t.write(c);
    t.end();
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    out.push(`${e.code}@${e.offset}:${e.line}:${e.column}`);
  }
  return out.join(' ');
}

/** `bytes` split at arbitrary cut positions (taken modulo the length, deduplicated, sorted). */
function cutsToChunks(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  return splitAt(bytes, [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b));
}

describe('Md5Tokenizer on arbitrary bytes', () => {
  test('tokens or ModelParseError, nothing else; the same tokens and error position under any chunking', () => {
    fc.assert(
      fc.property(anyBytes, fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const whole = lexOutcome([bytes]);
        expect(lexOutcome(cutsToChunks(bytes, cuts))).toBe(whole);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Asserts the fuzzer's invariant on one input (chunked and used too). */
function holds(target: FuzzTarget, bytes: Uint8Array, seed: number): void {
  const v = checkInput(target, bytes, new Rng(seed), { chunks: true, use: true }).violation;
  expect(v, v && `${v.kind}: ${v.detail}`).toBeUndefined();
}

/** Text near the MD5 grammar: its keywords, punctuation and numbers at the edges of every limit, in random order. */
const md5Soup = fc
  .array(
    fc.oneof(
      fc.constantFrom('MD5Version 10', 'commandline ""', 'numJoints', 'numMeshes', 'joints', 'mesh', 'shader', 'name',
        'numverts', 'vert', 'numtris', 'tri', 'numweights', 'weight', 'numFrames', 'frameRate', 'numAnimatedComponents',
        'hierarchy', 'bounds', 'baseframe', 'frame', '{', '}', '(', ')', '"j"', '""', '// c\n', '/* c */'),
      fc.constantFrom('0', '1', '2', '-1', '6', '63', '64', '4096', '4097', '16777216', '16777217', '1.5', '-0', '1e39', 'nan'),
      fc.integer({ min: -3, max: 40 }).map(String),
    ),
    { maxLength: 120 },
  )
  .map((parts) => enc(parts.join(' ')));

/** The start of a valid file, then soup: the parser gets past the header into the blocks. */
const md5Headers = fc.constantFrom(
  'MD5Version 10 commandline "" numJoints 2 numMeshes 1 joints { "a" -1 ( 0 0 0 ) ( 0 0 0 ) "b" 0 ( 1 0 0 ) ( 0 0 0 ) } ',
  'MD5Version 10 commandline "" numFrames 2 numJoints 2 frameRate 24 numAnimatedComponents 3 hierarchy { "a" -1 7 0 "b" 0 0 3 } ',
  'MD5Version 10 commandline "" ',
);

/** Text near the idTech script grammars (.shader, .mtr, .skin): keywords, braces, paths, programs, comments, quotes. */
const scriptSoup = fc
  .array(
    fc.constantFrom('textures/a', 'models/b.tga', '{', '}', '{', '}', 'map', 'clampMap', 'animMap', '10', '$lightmap', 'blendFunc', 'blend',
      'add', 'GL_ONE', 'GL_ZERO', 'alphaFunc', 'GE128', 'cull', 'none', 'surfaceparm', 'nodraw', 'diffusemap', 'bumpmap',
      'addnormals(', 'heightmap(', ',', ')', '(', '4', 'stage', 'alphaTest', '0.5', 'material', 'table', 'translucent',
      'tag_head,', 'h_head,', '"', '"q u"', '// c', '/* c', '*/', '\n', '\r\n', '\t', '-', ','),
    { maxLength: 150 },
  )
  .chain((parts) => fc.array(fc.constantFrom(' ', '\n', ''), { minLength: parts.length, maxLength: parts.length }).map((seps) => enc(parts.map((p, i) => p + seps[i]).join(''))));

describe('every parser on arbitrary and near-grammar input', () => {
  for (const target of TARGETS.filter((t) => ['skin', 'shader', 'mtr'].includes(t.name))) {
    test(`${target.name}: idTech script keyword soups`, () => {
      fc.assert(fc.property(scriptSoup, fc.nat(), (bytes, seed) => holds(target, bytes, seed)), { numRuns: 2000 });
    });
  }

  for (const target of TARGETS) {
    test(`${target.name}: arbitrary bytes`, () => {
      fc.assert(fc.property(anyBytes, fc.nat(), (bytes, seed) => holds(target, bytes, seed)), { numRuns: 1500 });
    });
  }

  for (const target of TARGETS.filter((t) => t.text)) {
    test(`${target.name}: MD5 keyword and number soups after a valid header`, () => {
      fc.assert(
        fc.property(md5Headers, md5Soup, fc.nat(), (head, soup, seed) => {
          const h = enc(head);
          const bytes = new Uint8Array(h.length + soup.length);
          bytes.set(h);
          bytes.set(soup, h.length);
          holds(target, bytes, seed);
        }),
        { numRuns: 1500 },
      );
    });
  }

  /** int32 header fields: edges of every limit and of the file size. */
  const field = fc.oneof(
    fc.constantFrom(0, 1, -1, 2, 4, 8, 15, 16, 40, 64, 68, 108, 162, 255, 256, 512, 513, 2048, 2049, 4096, 4097, 16384, 65536, 0x7fffffff, -0x80000000),
    fc.integer({ min: 0, max: 4096 }),
  );
  /** ident, version, offset of the first int32 field after them, number of such fields, header size. */
  const magic: Record<string, [string, number, number, number, number]> = {
    md2: ['IDP2', 8, 8, 15, 68],
    // MD3: a 64-byte name follows the version (left zero), then flags … ofsEnd.
    md3: ['IDP3', 15, 72, 9, 108],
  };

  for (const target of TARGETS.filter((t) => magic[t.name])) {
    test(`${target.name}: its magic and version, then header fields at the edges, then random bytes`, () => {
      const [ident, version, first, count, size] = magic[target.name];
      fc.assert(
        fc.property(fc.array(field, { minLength: count, maxLength: count }), fc.uint8Array({ maxLength: 3000 }), fc.nat(), (fields, body, seed) => {
          const b = new Uint8Array(size + body.length);
          const dv = new DataView(b.buffer);
          b.set(enc(ident));
          dv.setInt32(4, version, true);
          fields.forEach((v, k) => dv.setInt32(first + k * 4, v, true));
          b.set(body, size);
          holds(target, b, seed);
        }),
        { numRuns: 2000 },
      );
    });
  }

  /** Image header fields: 8/16-bit edges, the values each field defines, and small sizes that fit the random body. */
  const u8 = fc.oneof(fc.constantFrom(0, 1, 2, 3, 8, 9, 10, 11, 15, 16, 24, 32, 0x20, 0x30, 0x28, 0x0c, 0x7f, 0x80, 0xff), fc.nat(255));
  const u16 = fc.oneof(fc.constantFrom(0, 1, 2, 3, 7, 8, 63, 64, 255, 256, 0x7fff, 0x8000, 0xfffe, 0xffff), fc.nat(70));

  test('tga: header fields at the edges (type, colour map, depth, size, descriptor), then random bytes', () => {
    const target = TARGETS.find((t) => t.name === 'tga')!;
    fc.assert(
      fc.property(fc.tuple(u8, fc.constantFrom(0, 1, 2), fc.constantFrom(1, 2, 3, 9, 10, 11, 0, 32), u16, u16, fc.constantFrom(0, 15, 16, 24, 32, 8), u16, u16, fc.constantFrom(8, 15, 16, 24, 32, 1, 0), u8), fc.uint8Array({ maxLength: 3000 }), fc.nat(), ([id, cmt, type, first, len, bits, w, h, depth, desc], body, seed) => {
        const b = new Uint8Array(18 + body.length);
        const dv = new DataView(b.buffer);
        b.set([id & 31, cmt, type]);
        dv.setUint16(3, first, true);
        dv.setUint16(5, len, true);
        b[7] = bits;
        dv.setUint16(12, w, true);
        dv.setUint16(14, h, true);
        b[16] = depth;
        b[17] = desc;
        b.set(body, 18);
        holds(target, b, seed);
      }),
      { numRuns: 3000 },
    );
  });

  test('pcx: header fields at the edges (version, encoding, depth, window, planes, bytes per line), then random bytes', () => {
    const target = TARGETS.find((t) => t.name === 'pcx')!;
    fc.assert(
      fc.property(fc.tuple(fc.constantFrom(5, 0, 3), fc.constantFrom(1, 0), fc.constantFrom(8, 1, 4, 24), u16, u16, u16, u16, fc.constantFrom(1, 3, 4, 0), u16), fc.uint8Array({ minLength: 0, maxLength: 4000 }), fc.nat(), ([version, encoding, bpp, x0, y0, x1, y1, planes, bpl], body, seed) => {
        const b = new Uint8Array(128 + body.length);
        const dv = new DataView(b.buffer);
        b.set([0x0a, version, encoding, bpp]);
        [x0, y0, x1, y1].forEach((v, k) => dv.setUint16(4 + k * 2, v, true));
        b[65] = planes;
        dv.setUint16(66, bpl, true);
        b.set(body, 128);
        holds(target, b, seed);
      }),
      { numRuns: 3000 },
    );
  });
});
