import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDecimal, parseDecimalInto, type DecimalResult } from '../../src/text/number.js';
import { enc } from './_helpers.js';

function parseText(text: string): number {
  return parseDecimal(enc(text));
}

/** Digits with a bias towards zeros (exporters write many), as a string of length lo..hi. */
const digits = (lo: number, hi: number) =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 9 }) }, { weight: 1, arbitrary: fc.constant(0) }), {
      minLength: lo,
      maxLength: hi,
    })
    .map((d) => d.join(''));

/** Random decimal literals in the accepted syntax: sign, integer part, fraction, exponent. */
const decimal = fc
  .record({
    sign: fc.constantFrom('', '', '-', '+'),
    int: digits(0, 24),
    dot: fc.boolean(),
    frac: digits(0, 24),
    exp: fc.option(
      fc.record({ e: fc.constantFrom('e', 'E'), sign: fc.constantFrom('', '-', '+'), n: fc.integer({ min: 0, max: 400 }) }),
      { freq: 3 },
    ),
  })
  .filter((r) => r.int.length + (r.dot ? r.frac.length : 0) > 0)
  .map(
    (r) =>
      r.sign + r.int + (r.dot ? '.' + r.frac : '') + (r.exp ? `${r.exp.e}${r.exp.sign}${r.exp.n}` : ''),
  );

/** Realistic exporter output: %f, %g-like and shortest round-trip forms of random doubles/floats. */
const printed = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => String(v)),
  fc.float({ noNaN: true, noDefaultInfinity: true }).map((v) => String(v)),
  fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 12 })).map(([v, d]) => v.toFixed(d)),
  fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 1, max: 21 })).map(([v, d]) =>
    v.toPrecision(d),
  ),
  fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 20 })).map(([v, d]) =>
    v.toExponential(d),
  ),
  fc.integer({ min: -2147483648, max: 2147483647 }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

describe('parseDecimal', () => {
  test('examples from the format', () => {
    expect(Object.is(parseText('-0'), -0)).toBe(true);
    expect(Object.is(parseText('0'), 0)).toBe(true);
    expect(Object.is(parseText('-0.000000'), -0)).toBe(true);
    expect(parseText('12.5')).toBe(12.5);
    expect(parseText('1e-5')).toBe(1e-5);
    expect(parseText('.5')).toBe(0.5);
    expect(parseText('-.5')).toBe(-0.5);
    expect(parseText('5.')).toBe(5);
    expect(parseText('+7')).toBe(7);
    expect(parseText('-0.094203')).toBe(-0.094203);
    expect(parseText('0.0000000527')).toBe(0.0000000527);
    expect(parseText('4294967295')).toBe(4294967295);
    expect(parseText('1e999')).toBe(Infinity);
    expect(parseText('-1e999')).toBe(-Infinity);
    expect(parseText('1e-999')).toBe(0);
    expect(parseText('0e999')).toBe(0);
  });

  test('integer flag', () => {
    const r: DecimalResult = { value: 0, integer: false };
    const flag = (t: string) => {
      const b = enc(t);
      expect(parseDecimalInto(b, 0, b.length, r)).toBe(true);
      return r.integer;
    };
    expect(flag('0')).toBe(true);
    expect(flag('-1')).toBe(true);
    expect(flag('4294967295')).toBe(true);
    expect(flag('0.0')).toBe(false);
    expect(flag('5.')).toBe(false);
    expect(flag('1e3')).toBe(false);
  });

  test('rejects malformed text', () => {
    for (const t of ['', '.', '-', '+', '-.', '1e', '1e+', '1e-', 'e5', '1.2.3', '--1', '+-1', '1-', '0x10', 'inf', 'nan', '1.#IND', '-1.#QNAN', '1,5', '1 ', ' 1', '1e5.5', '١']) {
      expect(Number.isNaN(parseText(t)), t).toBe(true);
    }
  });

  test('respects the [start, end) window', () => {
    const b = enc('xx-12.25yy');
    expect(parseDecimal(b, 2, 8)).toBe(-12.25);
    expect(parseDecimal(b, 2, 5)).toBe(-12);
  });

  test('boundary cases of the fast path', () => {
    const cases = [
      '123456789012345', // 15 digits: fast
      '1234567890123456', // 16: slow
      '9007199254740993', // 2^53 + 1
      '1e22',
      '1e23', // not exact as double; must still match parseFloat
      '123e20',
      '123456789012345e22',
      '1.7976931348623157e308',
      '1.7976931348623159e308',
      '2.2250738585072014e-308',
      '4.9e-324',
      '2.4e-324',
      '0.1',
      '0.3',
      '3.4028234663852886e38',
      '3.4028235677973366e38',
      '0.000000000000000000000000000000000000000000001401298464324817',
      '100000000000000000000000000000000000000000000000000000000000.0',
      '0.00000000000000000000000000000000000000000000000000000000000000000000001',
      '1.00000000000000000000000000000000000000000000000000001',
      '12345678901234500000000000000',
      '0.000000000000000000000000000123456789012345',
    ];
    for (const t of cases) {
      expect(Object.is(parseText(t), parseFloat(t)), t).toBe(true);
      expect(Object.is(parseText('-' + t), parseFloat('-' + t)), '-' + t).toBe(true);
    }
  });

  test('property: bit-identical to parseFloat, so fround matches too (≥ 200k random decimals)', () => {
    const check = (t: string) => {
      const got = parseText(t);
      const want = parseFloat(t);
      if (!Object.is(got, want)) throw new Error(`${t}: got ${got}, parseFloat ${want}`);
      if (!Object.is(Math.fround(got), Math.fround(want))) throw new Error(`${t}: float32 differs`);
    };
    fc.assert(fc.property(decimal, check), { numRuns: 150_000 });
    fc.assert(fc.property(printed, check), { numRuns: 100_000 });
  });
});
