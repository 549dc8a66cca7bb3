/**
 * Tokens of idTech text scripts: Quake 3 shader scripts and `.skin`-adjacent config, Doom 3 `.mtr` declarations,
 * Cube `md5.cfg` lines. Two dialects, each the engine's own lexer:
 *
 * - `quake3` — ioquake3 `COM_ParseExt` (qcommon/q_shared.c): whitespace is any byte ≤ 0x20; `//` runs to the end of
 *   the line, `/* … *\/` to its close (or the end); a `"` string runs to the next `"` or to the end of the text, line
 *   breaks included, no escapes, never an error; anything else is a word that runs to the next whitespace, so `{foo`
 *   is one token and a brace only counts when it stands alone. A token is flagged `lineBreak` when a line feed sat
 *   in the whitespace before it, exactly when `COM_ParseExt(…, qfalse)` stops: shader stages read their arguments
 *   on the keyword's line. As in ioquake3, a line feed inside a block comment does not count.
 * - `doom3` — idLexer with the flags Doom 3's declarations are read with (framework/DeclManager.h
 *   `DECL_LEXER_FLAGS`, idlib/Lexer.cpp `ReadToken`): names are `[A-Za-z_/\\:.][A-Za-z0-9_/\\:.]*` (path names
 *   allowed), numbers start with a digit (or `.` and a digit), strings are `"…"` or `'…'` on one line (no escapes),
 *   every other byte is a one-byte punctuation token — so `addnormals(a, heightmap(b, 4))` is ten tokens and `-`
 *   splits a name, as it does in Doom 3.
 *
 * Both dialects: bytes ≥ 0x80 are word characters (the engines' `char` comparisons make them whitespace on
 * signed-char platforms and word bytes elsewhere; treating them as part of a name is the portable reading).
 * Text is Latin-1 (one char per byte), so `offset` is a byte offset; `line` and `column` are 1-based, columns in
 * bytes. Memory: tokens are slices of the text, so a lexer holds O(1) besides it.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';

export type ScriptDialect = 'quake3' | 'doom3';

export interface ScriptToken {
  /** The token's text; a string's content without its quotes. */
  text: string;
  /** Byte offset of its first byte (the opening quote of a string). */
  offset: number;
  line: number;
  column: number;
  /** Written in quotes. */
  quoted: boolean;
  /** A line feed came between the previous token (or the start) and this one. */
  lineBreak: boolean;
}

/** Bytes as a Latin-1 string: one char per byte, so string offsets are byte offsets. */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2f || c === 0x5c || c === 0x3a || c === 0x2e || c >= 0x80;
const isNameChar = (c: number) => isNameStart(c) || isDigit(c);

export class ScriptLexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private peeked: ScriptToken | null | undefined = undefined;

  constructor(
    readonly text: string,
    readonly dialect: ScriptDialect,
  ) {}

  /** The next token, or null at the end of the text. */
  next(): ScriptToken | null {
    if (this.peeked !== undefined) {
      const t = this.peeked;
      this.peeked = undefined;
      return t;
    }
    return this.read();
  }

  /** The next token without consuming it. */
  peek(): ScriptToken | null {
    if (this.peeked === undefined) this.peeked = this.read();
    return this.peeked;
  }

  /** The next token if it is on the current line, else null (and nothing is consumed): `COM_ParseExt(…, qfalse)`. */
  nextOnLine(): ScriptToken | null {
    const t = this.peek();
    if (t === null || t.lineBreak) return null;
    return this.next();
  }

  /** Every remaining token of the current line (none when the next token starts a new line). */
  restOfLine(): ScriptToken[] {
    const out: ScriptToken[] = [];
    for (let t = this.nextOnLine(); t; t = this.nextOnLine()) out.push(t);
    return out;
  }

  /**
   * Skip tokens until `depth` open braces are closed (ioquake3 `SkipBracedSection`: only a token that is exactly
   * `{` or `}` counts). Returns the closing brace, or null when the text ends first.
   */
  skipBraced(depth = 1): ScriptToken | null {
    for (let t = this.next(); t; t = this.next()) {
      if (t.text === '{') depth++;
      else if (t.text === '}' && --depth === 0) return t;
    }
    return null;
  }

  /** Where the lexer is now (for an error at the end of the text). */
  here(): { offset: number; line: number; column: number } {
    const p = this.peeked ? this.peeked.offset : this.pos;
    return this.peeked ? { offset: p, line: this.peeked.line, column: this.peeked.column } : { offset: p, line: this.line, column: p - this.lineStart + 1 };
  }

  private newline(at: number): void {
    this.line++;
    this.lineStart = at + 1;
  }

  /** Count the line feeds in [from, to) (a byte loop: indexOf could run past `to` on every call). */
  private newlines(from: number, to: number): void {
    const s = this.text;
    for (let i = from; i < to; i++) if (s.charCodeAt(i) === 0x0a) this.newline(i);
  }

  private read(): ScriptToken | null {
    const s = this.text;
    const n = s.length;
    let lineBreak = false;
    // Whitespace and comments.
    for (;;) {
      while (this.pos < n && s.charCodeAt(this.pos) <= 0x20) {
        if (s.charCodeAt(this.pos) === 0x0a) {
          lineBreak = true;
          this.newline(this.pos);
        }
        this.pos++;
      }
      if (this.pos >= n) return null;
      if (s.charCodeAt(this.pos) !== 0x2f) break;
      const c1 = s.charCodeAt(this.pos + 1);
      if (c1 === 0x2f) {
        const end = s.indexOf('\n', this.pos);
        this.pos = end < 0 ? n : end;
      } else if (c1 === 0x2a) {
        const end = s.indexOf('*/', this.pos + 2);
        const stop = end < 0 ? n : end + 2;
        this.newlines(this.pos, stop);
        this.pos = stop;
      } else break;
    }
    const start = this.pos;
    const line = this.line;
    const column = start - this.lineStart + 1;
    const c = s.charCodeAt(start);
    const token = (text: string, quoted: boolean): ScriptToken => ({ text, offset: start, line, column, quoted, lineBreak });

    if (this.dialect === 'quake3') {
      if (c === 0x22) {
        const end = s.indexOf('"', start + 1);
        const stop = end < 0 ? n : end;
        this.newlines(start, stop);
        this.pos = end < 0 ? n : end + 1;
        return token(s.slice(start + 1, stop), true);
      }
      let i = start + 1;
      while (i < n && s.charCodeAt(i) > 0x20) i++;
      this.pos = i;
      return token(s.slice(start, i), false);
    }

    // doom3: idLexer::ReadToken's order — number, string, name, punctuation.
    if (isDigit(c) || (c === 0x2e && isDigit(s.charCodeAt(start + 1)))) {
      let i = start + 1;
      while (i < n && (isDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2e)) i++;
      if ((s.charCodeAt(i) | 0x20) === 0x65) {
        let j = i + 1;
        if (s.charCodeAt(j) === 0x2b || s.charCodeAt(j) === 0x2d) j++;
        if (isDigit(s.charCodeAt(j))) {
          while (isDigit(s.charCodeAt(j))) j++;
          i = j;
        }
      }
      this.pos = i;
      return token(s.slice(start, i), false);
    }
    if (c === 0x22 || c === 0x27) {
      let i = start + 1;
      while (i < n && s.charCodeAt(i) !== c && s.charCodeAt(i) !== 0x0a) i++;
      if (i >= n || s.charCodeAt(i) !== c) {
        throw new ModelParseError(ErrorCode.UnterminatedString, 'a quoted string reaches the end of its line', { offset: start, line, column });
      }
      this.pos = i + 1;
      return token(s.slice(start + 1, i), true);
    }
    if (isNameStart(c)) {
      let i = start + 1;
      while (i < n && isNameChar(s.charCodeAt(i))) i++;
      this.pos = i;
      return token(s.slice(start, i), false);
    }
    this.pos = start + 1;
    return token(s[start], false);
  }
}
