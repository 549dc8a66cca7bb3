/**
 * Number rounding on 1,000,000 random decimals: every value the md5anim parser stores is Math.fround(parseFloat(text))
 * — bit for bit, so "within 1 ulp" holds a fortiori — whether it went through the tokenizer's float run (plain
 * decimals of ≤ 15 digits) or the ordinary path (exponents, long mantissas, literals cut by a chunk boundary).
 * The expected values come from the engine's own parseFloat, an independent implementation.
 *
 * Seeded PRNG (mulberry32), seed 0x5eed0004: the run is the same every time.
 */
import { describe, expect, test } from 'vitest';
import { Md5AnimParser, parseMd5Anim } from '../../src/formats/md5/anim.js';
import { Md5Tokenizer } from '../../src/text/tokenizer.js';
import { animHeaderText, enc, frameText, prng } from './_helpers.js';

const SEED = 0x5eed0004;
const COUNT = 1_000_000;
const JOINTS = 4096; // the largest joint count: 24,576 components per frame
const PER_FRAME = JOINTS * 6;

function digits(rand: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x30 + Math.floor(rand() * 10));
  return s;
}

/** One random decimal literal, from one of the kinds real and hostile files contain. */
function randomDecimal(rand: () => number): string {
  const sign = rand() < 0.45 ? '-' : rand() < 0.05 ? '+' : '';
  const kind = Math.floor(rand() * 9);
  switch (kind) {
    case 0: // integer-looking, including 0 and -0 (the exporter strips trailing zeros)
      return sign + (rand() < 0.1 ? '0' : String(Math.floor(rand() * 10 ** Math.floor(rand() * 10))));
    case 1: // fixed decimals, exporter style
      return sign + String(Math.floor(rand() * 10 ** Math.floor(rand() * 5))) + '.' + digits(rand, 1 + Math.floor(rand() * 9));
    case 2: // long mantissa: past 15 significant digits (the float run's limit) and past 2^53
      return sign + digits(rand, 1 + Math.floor(rand() * 12)) + '.' + digits(rand, 10 + Math.floor(rand() * 30));
    case 3: // exponent over the whole float32 range, subnormals included
      return sign + digits(rand, 1) + '.' + digits(rand, Math.floor(rand() * 12)) + (rand() < 0.5 ? 'e' : 'E') + String(Math.floor(rand() * 84) - 45);
    case 4: // shortest round-trip text of a random float32 (what a careful exporter writes)
      return String(Math.fround((rand() - 0.5) * 10 ** (Math.floor(rand() * 20) - 10)));
    case 5: // leading zeros and bare dots: 007, .5, 5., 0.000…
      return sign + (rand() < 0.3 ? '.' + digits(rand, 1 + Math.floor(rand() * 8)) : rand() < 0.5 ? digits(rand, 1 + Math.floor(rand() * 6)) + '.' : '000' + digits(rand, 3) + '.' + digits(rand, 4));
    case 6: // negative zero in its spellings
      return ['-0', '-0.0', '-0.000000', '-.0', '-0.', '-0e5'][Math.floor(rand() * 6)];
    case 7: // many digits around float32 values
      return sign + String(Math.fround(rand() * 1e6)) + digits(rand, 1 + Math.floor(rand() * 10));
    default: {
      // Next to a float32 rounding midpoint, in ≤ 15 digits (the float run's own inputs): a double off by one ulp
      // here flips the float32 result, so only correctly rounded conversion passes.
      const f = Math.fround(10 ** (rand() * 9 - 3));
      const up = new Float32Array([f]);
      new Uint32Array(up.buffer)[0]++;
      const mid = (f + up[0]) / 2; // exact in double
      return sign + mid.toPrecision(9 + Math.floor(rand() * 7));
    }
  }
}

/** The decimals (finite in float32), the bytes of an md5anim holding them as frame values, and the expected floats. */
function corpus() {
  const rand = prng(SEED);
  const tokens: string[] = [];
  while (tokens.length < COUNT) {
    const t = randomDecimal(rand);
    // Text whose float32 rounding overflows is BAD_NUMBER (tested elsewhere), not a value.
    if (Number.isFinite(Math.fround(parseFloat(t)))) tokens.push(t);
  }
  const frames = Math.ceil(COUNT / PER_FRAME);
  const parts = [animHeaderText(JOINTS, frames)];
  const expected = new Float32Array(frames * PER_FRAME);
  for (let f = 0; f < frames; f++) {
    const slice = tokens.slice(f * PER_FRAME, (f + 1) * PER_FRAME);
    while (slice.length < PER_FRAME) slice.push('0');
    slice.forEach((t, k) => (expected[f * PER_FRAME + k] = Math.fround(parseFloat(t))));
    parts.push(frameText(f, slice));
  }
  return { tokens, bytes: enc(parts.join('')), expected };
}

const { tokens, bytes, expected } = corpus();

/** Index of the first float that differs bit for bit, or −1. */
function firstDifference(a: Float32Array, b: Float32Array): number {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  if (x.length !== y.length) return Math.min(x.length, y.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

function explain(i: number, got: Float32Array): string {
  return i < 0 ? '' : `value ${i}: text ${JSON.stringify(tokens[i])} parsed ${got[i]}, expected ${expected[i]}`;
}

describe(`float32 rounding of ${COUNT.toLocaleString('en')} random decimals (seed 0x${SEED.toString(16)})`, () => {
  test('the corpus covers every kind: integers, -0, long mantissas, exponents', () => {
    expect(tokens.length).toBe(COUNT);
    expect(tokens.filter((t) => /^-0\.?0*$/.test(t)).length).toBeGreaterThan(1000);
    expect(tokens.filter((t) => /[eE]/.test(t)).length).toBeGreaterThan(100_000);
    expect(tokens.filter((t) => t.replace(/[^0-9]/g, '').length > 17).length).toBeGreaterThan(100_000);
    expect(tokens.filter((t) => /^[-+]?\d+$/.test(t)).length).toBeGreaterThan(100_000);
    // near a float32 midpoint and plain (≤ 15 digits, no exponent): the float run's hardest inputs
    expect(tokens.filter((t) => !/[eE]/.test(t) && t.replace(/[^0-9]/g, '').length >= 13 && t.replace(/[^0-9]/g, '').length <= 15).length).toBeGreaterThan(30_000);
  });

  test('one buffer: every stored value is Math.fround(parseFloat(text)), bit for bit', () => {
    const anim = parseMd5Anim(bytes);
    const i = firstDifference(anim.frames, expected);
    expect(i, explain(i, anim.frames)).toBe(-1);
  });

  test('random chunk sizes (1 B – 4 KiB), so literals are cut everywhere: the same bits', () => {
    const rand = prng(SEED + 1);
    const p = new Md5AnimParser();
    for (let at = 0; at < bytes.length; ) {
      const size = rand() < 0.1 ? 1 + Math.floor(rand() * 8) : 1 + Math.floor(rand() * 4096);
      p.write(bytes.subarray(at, at + size));
      at += size;
    }
    const anim = p.end();
    const i = firstDifference(anim.frames, expected);
    expect(i, explain(i, anim.frames)).toBe(-1);
  });

  test('the tokenizer without a float run (every number through number()) agrees', () => {
    const got = new Float32Array(expected.length);
    let n = 0;
    let inBlock = false; // between a frame's '{' and '}'; the frame index before '{' is not a value
    const t = new Md5Tokenizer({
      word() {},
      string() {},
      punct(c) {
        inBlock = c === 0x7b;
      },
      number(v) {
        if (inBlock) got[n++] = v;
      },
    });
    const firstFrame = new TextDecoder('latin1').decode(bytes).indexOf('frame 0 {'); // ASCII: char index = byte index
    t.write(bytes.subarray(firstFrame));
    t.end();
    expect(n).toBe(expected.length);
    const i = firstDifference(got, expected);
    expect(i, explain(i, got)).toBe(-1);
  });
});
