/**
 * Decimal text → double, straight from bytes.
 *
 * Syntax accepted (the whole range [start, end) must match):
 *   [+-]? ( digits [ '.' digits? ] | '.' digits ) ( [eE] [+-]? digits )?
 * so `-0`, `12.5`, `5.`, `.5`, `-.5`, `1e-5` are numbers; `.`, `-`, `1e`, `1.#IND`, `0x10`, `inf`, `nan` are not.
 *
 * Fast path (Clinger 1990): when the decimal significand (all digits, as an integer) is below 2^53 (so it is an
 * exact double — always the case with at most 15 digits) and the decimal exponent is within ±22 (10^|e| is an exact double), one correctly rounded multiply or
 * divide gives the correctly rounded result — the same double `parseFloat` returns. Anything else falls back to
 * `parseFloat` of the (already validated) text, so the result is always bit-identical to `parseFloat(text)`.
 * No string is built on the fast path.
 */

/** Exact powers of ten representable as doubles: 10^0 … 10^22. */
export const POW10: Float64Array = /* @__PURE__ */ new Float64Array([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
  1e20, 1e21, 1e22,
]);

/** Reusable out-parameter of {@link parseDecimalInto} (no allocation per number). */
export interface DecimalResult {
  /** The parsed double (bit-identical to `parseFloat` of the text). */
  value: number;
  /** True when the text is an integer literal: optional sign and digits only (no `.`, no exponent). */
  integer: boolean;
}

/** Integers below this are exact doubles. */
const TWO53 = 9007199254740992;

/**
 * Greedy single pass over a decimal literal starting at `buf[start]`: consumes sign, digits, fraction and exponent
 * while they fit the syntax, stopping at `limit` or at the first byte that cannot continue the literal. Returns the
 * index where it stopped. `out.value` is the parsed double, or NaN when what was consumed is not a complete literal
 * (no digit at all, or an exponent marker without digits); `out.integer` is set as documented on
 * {@link DecimalResult}. The caller decides whether the byte at the returned index may legally end the token.
 */
export function scanDecimal(buf: Uint8Array, start: number, limit: number, out: DecimalResult): number {
  let i = start;
  let c = i < limit ? buf[i] : 0;
  let neg = false;
  if (c === 0x2d) {
    neg = true;
    i++;
  } else if (c === 0x2b) {
    i++;
  }

  // Accumulate every digit into `mant`. While the exact value stays below 2^53 each step is exact; once it
  // reaches 2^53 the (monotonic) rounding keeps it there, so `mant < 2^53` at the end proves exactness.
  let mant = 0;
  const intStart = i;
  while (i < limit) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) break;
    mant = mant * 10 + d;
    i++;
  }
  let digits = i - intStart;
  let frac = 0;
  let integer = true;
  if (i < limit && buf[i] === 0x2e) {
    integer = false;
    i++;
    const fracStart = i;
    while (i < limit) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      mant = mant * 10 + d;
      i++;
    }
    frac = i - fracStart;
    digits += frac;
  }
  out.integer = integer;
  if (digits === 0) {
    out.value = NaN;
    return i;
  }

  // Exponent.
  let exp = 0;
  if (i < limit && (buf[i] | 0x20) === 0x65) {
    out.integer = false;
    i++;
    let eneg = false;
    if (i < limit) {
      c = buf[i];
      if (c === 0x2d) {
        eneg = true;
        i++;
      } else if (c === 0x2b) {
        i++;
      }
    }
    const expStart = i;
    while (i < limit) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      if (exp < 100_000_000) exp = exp * 10 + d; // saturate: such exponents go the slow path anyway
      i++;
    }
    if (i === expStart) {
      out.value = NaN;
      return i;
    }
    if (eneg) exp = -exp;
  }

  if (mant < TWO53) {
    const e = exp - frac;
    let v = NaN;
    if (mant === 0 || e === 0) {
      v = mant;
    } else if (e > 0) {
      if (e <= 22) {
        v = mant * POW10[e];
      } else if (e <= 22 + 15) {
        // mant·10^(e−22) may still be an exact integer: then one rounding multiply by 10^22 is correct.
        const t = mant * POW10[e - 22];
        if (t < TWO53) v = t * 1e22;
      }
    } else if (e >= -22) {
      v = mant / POW10[-e];
    }
    if (v === v) {
      out.value = neg ? -v : v;
      return i;
    }
  }
  out.value = slowParse(buf, start, i);
  return i;
}

/**
 * Parse exactly `buf[start, end)` as a decimal number into `out`. Returns false when the bytes are not a number
 * per the syntax above (then `out` holds garbage). The value may be ±Infinity for overflowing input (`1e999`):
 * callers must reject non-finite values themselves.
 */
export function parseDecimalInto(buf: Uint8Array, start: number, end: number, out: DecimalResult): boolean {
  return scanDecimal(buf, start, end, out) === end && out.value === out.value;
}

/** `parseDecimalInto` convenience: the value, or NaN when the bytes are not a number. */
export function parseDecimal(buf: Uint8Array, start = 0, end = buf.length): number {
  return parseDecimalInto(buf, start, end, scratchResult) ? scratchResult.value : NaN;
}
const scratchResult: DecimalResult = { value: 0, integer: false };

/** Fallback: decode the validated ASCII text and let the engine round it. */
function slowParse(buf: Uint8Array, start: number, end: number): number {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
  return parseFloat(s);
}
