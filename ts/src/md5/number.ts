/**
 * Decimal text → double, straight from bytes.
 *
 * Syntax accepted (the whole range [start, end) must match):
 *   [+-]? ( digits [ '.' digits? ] | '.' digits ) ( [eE] [+-]? digits )?
 * so `-0`, `12.5`, `5.`, `.5`, `-.5`, `1e-5` are numbers; `.`, `-`, `1e`, `1.#IND`, `0x10`, `inf`, `nan` are not.
 *
 * Fast path (Clinger 1990): when the decimal significand has at most 15 significant digits (so it is an exact
 * double) and the decimal exponent is within ±22 (10^|e| is an exact double), one correctly rounded multiply or
 * divide gives the correctly rounded result — the same double `parseFloat` returns. Anything else falls back to
 * `parseFloat` of the (already validated) text, so the result is always bit-identical to `parseFloat(text)`.
 * No string is built on the fast path.
 */

/** Exact powers of ten representable as doubles: 10^0 … 10^22. */
const POW10: Float64Array = new Float64Array([
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

/** Max significant digits kept in the exact-integer significand on the fast path. */
const MAX_FAST_DIGITS = 15;

/**
 * Parse `buf[start, end)` as a decimal number into `out`. Returns false (leaving `out` untouched) when the bytes
 * are not a number per the syntax above. The value may be ±Infinity for overflowing input (`1e999`): callers
 * must reject non-finite values themselves.
 */
export function parseDecimalInto(buf: Uint8Array, start: number, end: number, out: DecimalResult): boolean {
  let i = start;
  if (i >= end) return false;
  let c = buf[i];
  let neg = false;
  if (c === 0x2d) {
    neg = true;
    i++;
  } else if (c === 0x2b) {
    i++;
  }

  let mant = 0; // significand of the digits seen so far, trailing zeros deferred in `pz`
  let sig = 0; // significant digits folded into `mant`
  let pz = 0; // zeros seen after the first significant digit and not yet folded in
  let frac = 0; // digits after the '.'
  let digits = 0; // total digits (integer + fraction)
  let slow = false;
  let integer = true;

  // Integer part.
  while (i < end) {
    c = buf[i];
    const d = c - 0x30;
    if (d < 0 || d > 9) break;
    digits++;
    if (d === 0) {
      if (sig !== 0) pz++;
    } else {
      sig += pz + 1;
      if (sig > MAX_FAST_DIGITS) slow = true;
      else mant = mant * POW10[pz + 1] + d;
      pz = 0;
    }
    i++;
  }
  // Fraction.
  if (i < end && buf[i] === 0x2e) {
    integer = false;
    i++;
    while (i < end) {
      c = buf[i];
      const d = c - 0x30;
      if (d < 0 || d > 9) break;
      digits++;
      frac++;
      if (d === 0) {
        if (sig !== 0) pz++;
      } else {
        sig += pz + 1;
        if (sig > MAX_FAST_DIGITS) slow = true;
        else mant = mant * POW10[pz + 1] + d;
        pz = 0;
      }
      i++;
    }
  }
  if (digits === 0) return false;

  // Exponent.
  let exp = 0;
  if (i < end && (buf[i] | 0x20) === 0x65) {
    integer = false;
    i++;
    let eneg = false;
    if (i < end) {
      c = buf[i];
      if (c === 0x2d) {
        eneg = true;
        i++;
      } else if (c === 0x2b) {
        i++;
      }
    }
    let edigits = 0;
    while (i < end) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      if (exp < 100_000_000) exp = exp * 10 + d; // saturate: such exponents go the slow path anyway
      edigits++;
      i++;
    }
    if (edigits === 0) return false;
    if (eneg) exp = -exp;
  }
  if (i !== end) return false;

  out.integer = integer;
  if (!slow) {
    if (mant === 0) {
      out.value = neg ? -0 : 0;
      return true;
    }
    const e = pz - frac + exp;
    let v: number;
    if (e === 0) {
      v = mant;
    } else if (e > 0 && e <= 22) {
      v = mant * POW10[e];
    } else if (e < 0 && e >= -22) {
      v = mant / POW10[-e];
    } else if (e > 22 && e - 22 <= MAX_FAST_DIGITS - sig) {
      // mant·10^(e−22) is still an exact integer below 10^15: fold it in, then one rounding multiply.
      v = mant * POW10[e - 22] * 1e22;
    } else {
      out.value = slowParse(buf, start, end);
      return true;
    }
    out.value = neg ? -v : v;
    return true;
  }
  out.value = slowParse(buf, start, end);
  return true;
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
