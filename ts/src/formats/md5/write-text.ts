/**
 * What the MD5 text writers share: float32 values printed so that they read back exactly, quoted strings, and the
 * `MD5Version` / `commandline` header.
 *
 * Numbers: the fewest significant digits (1 to 9; 9 always suffices for a float32) whose decimal reads back — as
 * `Math.fround(parseFloat(s))`, which is what our tokenizer and a C `atof` stored into a float give — to the very
 * same float32, printed without an exponent (Doom 3's idLexer reads no `e` notation). `-0` stays `-0`.
 */
import { unwritable } from '../../write/out.js';

/** Digits and exponent of `s` (a toPrecision or String result) written out in plain positional notation. */
export function positional(s: string): string {
  const e = s.indexOf('e');
  if (e < 0) return s;
  const sign = s[0] === '-' ? '-' : '';
  const digits = s.slice(sign.length, e).replace('.', '');
  const point = 1 + Number(s.slice(e + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The shortest positional decimal that reads back as the float32 `v` (`v` must be a float32 value). */
export function formatF32(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  if (!Number.isFinite(v)) unwritable(`${v} has no MD5 spelling (the format has no NaN or infinity)`);
  for (let p = 1; p < 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return positional(s);
  }
  return positional(v.toPrecision(9));
}

/** `text` in double quotes; idLexer strings have no escapes, so a `"` or a line break cannot be written. */
export function quoted(text: string, what: string): string {
  if (/["\r\n]/.test(text)) unwritable(`${what} ${JSON.stringify(text)} holds a '"' or a line break, which an MD5 string cannot`);
  return `"${text}"`;
}

export function md5Header(version: number, commandline: string): string {
  return `MD5Version ${version}\ncommandline ${quoted(commandline, 'the commandline')}\n\n`;
}

/** `( a b c )` of three floats from `array` at `at`. */
export function triple(array: Float32Array, at: number): string {
  return `( ${formatF32(array[at])} ${formatF32(array[at + 1])} ${formatF32(array[at + 2])} )`;
}
