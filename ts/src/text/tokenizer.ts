/**
 * Incremental byte-level tokenizer for the MD5 text formats (md5mesh, md5anim).
 *
 * A state machine in the style of htmlparser2's Tokenizer: `write(chunk)` may be called with chunks split
 * anywhere (inside a number, a quoted string, a comment, between CR and LF, …); a token that straddles chunks is
 * carried over in a small reusable scratch buffer, the input is never concatenated or re-scanned.
 *
 * Lexical rules (idLexer as used by Doom 3's MD5 loaders, no escapes in strings):
 * - whitespace: any byte ≤ 0x20;
 * - comments: `//` to end of line, `/* … *\/` (not nested);
 * - word: `[A-Za-z_][A-Za-z0-9_]*`;
 * - number: starts with a digit, `-`, `+` or `.`, runs until whitespace or one of `{ } ( ) " /`, then must match
 *   the syntax of {@link parseDecimalInto} (else BAD_NUMBER: so `-1.#IND` is BAD_NUMBER, not BAD_CHARACTER);
 * - quoted string: `"…"` on one line (CR or LF inside → UNTERMINATED_STRING), may be empty;
 * - punctuation: `{ } ( )`;
 * - anything else → BAD_CHARACTER.
 * Line breaks: LF, CR, and CRLF (one break). Columns are 1-based, in bytes.
 *
 * Tokens are delivered to a {@link Md5TokenSink} without copying: numbers as an already parsed double, words and
 * strings as (buffer, start, end) views that are only valid during the callback. The position of the current
 * token's first byte is readable from {@link Md5Tokenizer.tokenOffset} / `tokenLine` / `tokenColumn`.
 *
 * Three additions for big files:
 * - a **float run** ({@link FloatRun}): a sink that expects a run of plain numbers (an md5anim frame block, an
 *   md5mesh `( u v )` group) opens a window `out[pos, end)`; the tokenizer then parses numbers straight into it in
 *   one tight loop, without a callback per number. Anything unusual (an exponent, more than 15 digits, a comment,
 *   a token cut by the chunk end, the window full) leaves the loop and goes through the ordinary path, so results
 *   and errors are the same with or without the run (tested);
 * - an **index run** ({@link IndexRun}): the same for integer slots with bounds (an md5mesh `tri N a b c`); a value
 *   outside its slot's bounds leaves the loop, so it reaches the sink's checks at its own position;
 * - **pausing**: a sink may call {@link Md5Tokenizer.pause} inside `punct`; `write` then returns right after that
 *   byte with the count of bytes consumed, and the caller writes the rest of the chunk later. Pull-driven frame
 *   streams use it to hand out one frame at a time whatever the chunk size.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { POW10, parseDecimalInto, scanDecimal, type DecimalResult } from './number.js';

/** Longest single token (word, number or quoted string), in bytes, unless a parser says otherwise → TOKEN_TOO_LONG. */
export const MAX_TOKEN_BYTES = 64 * 1024;

/** Receiver of tokens. Methods may throw {@link ModelParseError}; the tokenizer does not catch. */
export interface Md5TokenSink {
  /** A bare word; `buf[start, end)` is only valid during the call. */
  word(buf: Uint8Array, start: number, end: number): void;
  /** A quoted string's content, without the quotes; only valid during the call. */
  string(buf: Uint8Array, start: number, end: number): void;
  /**
   * A finite number whose float32 rounding is finite too. `integer` is true when the token is written as an
   * integer literal (sign and digits only).
   */
  number(value: number, integer: boolean): void;
  /** One of `{` (0x7b), `}` (0x7d), `(` (0x28), `)` (0x29). */
  punct(code: number): void;
  /** The sink's float window, read once by the tokenizer's constructor (see {@link FloatRun}). */
  readonly floatRun?: FloatRun;
  /** The sink's index window, read once by the tokenizer's constructor (see {@link IndexRun}). */
  readonly indexRun?: IndexRun;
}

/**
 * A window `out[pos, end)` that the next plain numbers go to directly (as float32). The sink owns it and moves
 * `pos`/`end`; the tokenizer only writes `out[pos++]` while `pos < end`. Keep `pos === end` whenever the grammar
 * does not want a run of numbers, so a stray number still reaches `number()` and its error.
 */
export interface FloatRun {
  out: Float32Array;
  pos: number;
  end: number;
  /**
   * True: the plain decimals of the run are only checked (the same ones are taken as when converting, so what is
   * accepted and every error stay the same), not converted: `pos` moves past them and `out` is not written.
   */
  checkOnly: boolean;
}

/**
 * A window `out[pos, end)` of integer slots that the next plain integers go to directly, in one loop without a
 * callback per number: an md5mesh element's integers (`tri N a b c`: the marker N, then three vertex indices). A
 * slot takes a literal of 1 to 9 digits (no sign, no point) that ends, inside the chunk, at whitespace, `}` or `)`,
 * and whose value is `marker` in the slot `markerAt`, below `limit` in the others. Any other token (a sign, a
 * fraction, a marker that is not the element's position, a value at or above the limit, a literal cut by the chunk
 * end, the window full) is left to the ordinary path and so reaches `number()` at its own position, where the sink
 * warns or refuses. Keep `pos === end` whenever the grammar does not want a run of indices.
 */
export interface IndexRun {
  out: Uint32Array;
  pos: number;
  end: number;
  /** The slot that holds the element's marker, or −1 (none). */
  markerAt: number;
  /** The one value the marker slot takes. */
  marker: number;
  /** The other slots take values below this. */
  limit: number;
  /**
   * Position of the last value the run took (offset, 1-based line and column), written when the run returns: for a
   * check the sink can only make later (an md5mesh vertex's weight range, once numweights is known).
   */
  lastOffset: number;
  lastLine: number;
  lastColumn: number;
}

const NO_RUN: FloatRun = { out: /* @__PURE__ */ new Float32Array(0), pos: 0, end: 0, checkOnly: false };
const NO_INDEX_RUN: IndexRun = { out: /* @__PURE__ */ new Uint32Array(0), pos: 0, end: 0, markerAt: -1, marker: 0, limit: 0, lastOffset: 0, lastLine: 0, lastColumn: 0 };

// Tokenizer states.
const S_GROUND = 0;
const S_WORD = 1;
const S_NUMBER = 2;
const S_STRING = 3;
const S_SLASH = 4; // saw '/', waiting for the next byte
const S_LINE_COMMENT = 5;
const S_BLOCK_COMMENT = 6;
const S_BLOCK_COMMENT_STAR = 7; // in a block comment, last byte was '*'
const S_ENDED = 8;

// Byte classes for token starts.
const C_WS = 0;
const C_WORD = 1;
const C_NUMBER = 2;
const C_QUOTE = 3;
const C_PUNCT = 4;
const C_SLASH = 5;
const C_BAD = 6;

/** The class of a byte that starts a token. */
const START_CLASS = /* @__PURE__ */ byteTable((c) => {
  if (c <= 0x20) return C_WS;
  if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e) return C_NUMBER; // digits - + .
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f) return C_WORD;
  if (c === 0x22) return C_QUOTE;
  if (c === 0x7b || c === 0x7d || c === 0x28 || c === 0x29) return C_PUNCT;
  if (c === 0x2f) return C_SLASH;
  return C_BAD;
});
/** 1 when the byte continues a word. */
const WORD_CONT = /* @__PURE__ */ byteTable((c) => Number((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f));
/** 1 when the byte continues a number token: printable, not `{ } ( ) " /`. */
const NUMBER_CONT = /* @__PURE__ */ byteTable((c) => Number(c >= 0x21 && c <= 0x7e && c !== 0x7b && c !== 0x7d && c !== 0x28 && c !== 0x29 && c !== 0x22 && c !== 0x2f));

/** A 256-entry table of `of(byte)`. */
function byteTable(of: (c: number) => number): Uint8Array {
  const t = new Uint8Array(256);
  for (let c = 0; c < 256; c++) t[c] = of(c);
  return t;
}

/** Largest magnitude whose float32 rounding is still finite: 2^128 − 2^103 rounds (to even) up to Infinity. */
const F32_OVERFLOW = 3.4028235677973366e38;

export class Md5Tokenizer {
  /** Byte offset (0-based) of the current token's first byte. */
  tokenOffset = 0;
  /**
   * 1-based line of the current token's first byte. A token holds no line break and is delivered before the
   * bytes after it are read, so during a callback (and at an error) the token's line is the tokenizer's current
   * line: nothing is stored per token but its offset.
   */
  get tokenLine(): number {
    return this.line;
  }
  /** 1-based column (bytes) of the current token's first byte. */
  get tokenColumn(): number {
    return this.tokenOffset - this.lineStart + 1;
  }

  private readonly sink: Md5TokenSink;
  private readonly run: FloatRun;
  private readonly indices: IndexRun;
  private readonly maxToken: number;
  private state = S_GROUND;
  private paused = false;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private line = 1;
  /** Absolute offset of the first byte of the current line. */
  private lineStart = 0;
  /** Absolute offset of the last CR seen (so that the LF of a CRLF split across chunks is not a second break). */
  private lastCR = -2;
  private scratch: Uint8Array = new Uint8Array(256);
  private scratchLen = 0;
  private readonly num: DecimalResult = { value: 0, integer: false };
  /** Start position of a pending `/` or block comment (for errors). */
  private pendOffset = 0;
  private pendLine = 1;
  private pendColumn = 1;

  constructor(sink: Md5TokenSink, maxTokenBytes: number = MAX_TOKEN_BYTES) {
    this.sink = sink;
    this.run = sink.floatRun ?? NO_RUN;
    this.indices = sink.indexRun ?? NO_INDEX_RUN;
    this.maxToken = maxTokenBytes;
  }

  /** Called by the sink inside `punct()`: `write` returns right after this byte (see the class comment). */
  pause(): void {
    this.paused = true;
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.base;
  }

  /** Position just past the last byte written so far (where the input ended, after `end()`). */
  position(): { offset: number; line: number; column: number } {
    return { offset: this.base, line: this.line, column: this.base - this.lineStart + 1 };
  }

  /** Position of the current token, for errors. */
  tokenPosition(): { offset: number; line: number; column: number } {
    return { offset: this.tokenOffset, line: this.tokenLine, column: this.tokenColumn };
  }

  /**
   * Feed the next chunk. Returns the number of bytes consumed: `chunk.length`, or less when the sink paused (then
   * write the rest, `chunk.subarray(consumed)`, later). Throws {@link ModelParseError} on a lexical error (and on
   * whatever the sink throws).
   */
  write(chunk: Uint8Array): number {
    if (this.state === S_ENDED) throw new Error('Md5Tokenizer: write() after end()');
    const n = chunk.length;
    let i = 0;
    if (this.state !== S_GROUND) {
      i = this.resume(chunk);
      if (i < 0) {
        this.base += n;
        return n;
      }
    }
    const sink = this.sink;
    const run = this.run;
    const indices = this.indices;
    const base = this.base;
    while (i < n) {
      const c = chunk[i];
      if (c <= 0x20) {
        if (c === 0x0d && i + 1 < n && chunk[i + 1] === 0x0a) {
          // CRLF inside the chunk: one break, both bytes at once (a CR-ended file's every line).
          this.line++;
          this.lastCR = base + i;
          this.lineStart = base + i + 2;
          i += 2;
          continue;
        }
        if (c === 0x0a || c === 0x0d) this.lineBreak(c, base + i);
        i++;
        continue;
      }
      const cls = START_CLASS[c];
      this.tokenOffset = base + i;
      if (cls === C_NUMBER) {
        // The two runs' loops are written here, not in methods of their own: V8 inlines only some of the calls a
        // hot function makes (a budget in bytecode size, spent on the most frequent first), and which ones varied
        // from process to process, between 1.04x and 1.16x the previous parse on rifle_view.md5mesh. Here they never
        // cost a call (bench/parse.mjs's medians, docs/benchmarks-history.md "Sixth pass").
        if (run.pos < run.end) {
          if (run.checkOnly) {
            const k = this.checkRun(chunk, i, n);
            if (k !== i) {
              i = k;
              continue;
            }
          } else {
            // The float run: plain decimals (sign, at most 15 digits, optional fraction, no exponent: the exact
            // significand and one correctly rounded division give `parseFloat`'s double, stored as float32 exactly
            // as the ordinary path stores it) separated by whitespace, each ending inside the chunk at whitespace,
            // `}` or `)`. `d` is 0 at the chunk's end (the literal may go on in the next chunk: the ordinary path's).
            const out = run.out;
            const end = run.end;
            let pos = run.pos;
            let k = i;
            while (pos < end) {
              let j = k;
              let d = chunk[j];
              const neg = d === 0x2d;
              if (neg || d === 0x2b) d = ++j < n ? chunk[j] : 0;
              let mant = 0;
              const digitStart = j;
              while (d >= 0x30 && d <= 0x39) {
                mant = mant * 10 + (d - 0x30);
                d = ++j < n ? chunk[j] : 0;
              }
              let digits = j - digitStart;
              let frac = 0;
              if (d === 0x2e) {
                const fracStart = ++j;
                d = j < n ? chunk[j] : 0;
                while (d >= 0x30 && d <= 0x39) {
                  mant = mant * 10 + (d - 0x30);
                  d = ++j < n ? chunk[j] : 0;
                }
                frac = j - fracStart;
                digits += frac;
              }
              if (j === n || digits === 0 || digits > 15 || (d > 0x20 && d !== 0x7d && d !== 0x29)) break;
              const v = frac === 0 ? mant : mant / POW10[frac];
              out[pos++] = neg ? -v : v;
              k = this.skipBlanks(chunk, j, n);
              if (k === n || START_CLASS[chunk[k]] !== C_NUMBER) break;
            }
            run.pos = pos;
            if (k !== i) {
              i = k;
              continue;
            }
          }
        } else if (indices.pos < indices.end) {
          // The index run: slot by slot, a plain integer within the slot's bounds (see IndexRun).
          const out = indices.out;
          const end = indices.end;
          const markerAt = indices.markerAt;
          const marker = indices.marker;
          const limit = indices.limit;
          let pos = indices.pos;
          let last = -1;
          let lastLine = 0;
          let lastLineStart = 0;
          let k = i;
          while (pos < end) {
            let j = k;
            let d = chunk[j];
            let v = 0;
            while (d >= 0x30 && d <= 0x39) {
              v = v * 10 + (d - 0x30);
              d = ++j < n ? chunk[j] : 0;
            }
            if (j === n || j === k || j - k > 9 || (pos === markerAt ? v !== marker : v >= limit) || (d > 0x20 && d !== 0x7d && d !== 0x29)) break;
            out[pos++] = v;
            last = k;
            lastLine = this.line;
            lastLineStart = this.lineStart;
            k = this.skipBlanks(chunk, j, n);
            if (k === n || START_CLASS[chunk[k]] !== C_NUMBER) break;
          }
          if (last >= 0) {
            indices.pos = pos;
            indices.lastOffset = base + last;
            indices.lastLine = lastLine;
            indices.lastColumn = base + last - lastLineStart + 1;
            i = k;
            continue;
          }
        }
        // Plain decimals (sign, at most 15 digits, optional fraction, no exponent: indices, counts, a weight's bias,
        // most of an md5mesh's numbers) take a short loop when they end, inside the chunk, at whitespace, ')' or
        // '}': the exact significand and one correctly rounded division give the general scan's value and flag
        // ("-0" and "5." too); anything else goes on to the general scan. The float run's loop above reads its
        // literals the same way, written out again on purpose: one shared method (value and flag in fields) made
        // the md5anim parse 20% slower and the md5mesh parse 15% (bench/parse.mjs's files, interleaved).
        {
          let j = i;
          let d = chunk[j];
          const neg = d === 0x2d;
          if (neg) d = ++j < n ? chunk[j] : 0;
          const digitStart = j;
          let mant = 0;
          while (d >= 0x30 && d <= 0x39) {
            mant = mant * 10 + (d - 0x30);
            d = ++j < n ? chunk[j] : 0;
          }
          let digits = j - digitStart;
          let frac = -1;
          if (d === 0x2e) {
            const fracStart = ++j;
            d = j < n ? chunk[j] : 0;
            while (d >= 0x30 && d <= 0x39) {
              mant = mant * 10 + (d - 0x30);
              d = ++j < n ? chunk[j] : 0;
            }
            frac = j - fracStart;
            digits += frac;
          }
          if (j < n && digits > 0 && digits <= 15 && (d <= 0x20 || d === 0x29 || d === 0x7d)) {
            const v = frac <= 0 ? mant : mant / POW10[frac];
            sink.number(neg ? -v : v, frac < 0);
            i = j;
            continue;
          }
        }
        // One pass: scan and convert; the literal must end at a byte that cannot continue a number token.
        const num = this.num;
        // (Bounded scan: a giant digit run must not reach the parseFloat fallback before TOKEN_TOO_LONG.)
        const j = scanDecimal(chunk, i, n - i > this.maxToken ? i + this.maxToken + 1 : n, num);
        if (j === n) {
          this.beginPartial(chunk, i, n, S_NUMBER);
          break;
        }
        const v = num.value;
        if (NUMBER_CONT[chunk[j]] === 1 || !(v < F32_OVERFLOW && v > -F32_OVERFLOW) || j - i > this.maxToken) {
          let k = j;
          while (k < n && NUMBER_CONT[chunk[k]] === 1) k++;
          if (k === n) {
            this.beginPartial(chunk, i, n, S_NUMBER);
            break;
          }
          this.emitNumber(chunk, i, k); // reports the precise error
          i = k;
          continue;
        }
        sink.number(v, num.integer);
        i = j;
      } else if (cls === C_PUNCT) {
        sink.punct(c);
        i++;
        if (this.paused) {
          this.paused = false;
          this.base = base + i;
          return i;
        }
      } else if (cls === C_WORD) {
        let j = i + 1;
        while (j < n && WORD_CONT[chunk[j]] === 1) j++;
        if (j === n) {
          this.beginPartial(chunk, i, n, S_WORD);
          break;
        }
        if (j - i > this.maxToken) this.tooLong();
        sink.word(chunk, i, j);
        i = j;
      } else if (cls === C_QUOTE) {
        let j = i + 1;
        while (j < n) {
          const d = chunk[j];
          if (d === 0x22 || d === 0x0a || d === 0x0d) break;
          j++;
        }
        if (j === n) {
          this.beginPartial(chunk, i + 1, n, S_STRING);
          break;
        }
        if (chunk[j] !== 0x22) this.unterminatedString();
        if (j - i - 1 > this.maxToken) this.tooLong();
        sink.string(chunk, i + 1, j);
        i = j + 1;
      } else if (cls === C_SLASH) {
        this.pendOffset = this.tokenOffset;
        this.pendLine = this.tokenLine;
        this.pendColumn = this.tokenColumn;
        if (i + 1 === n) {
          this.state = S_SLASH;
          break;
        }
        const d = chunk[i + 1];
        if (d === 0x2f) {
          i = this.skipLineComment(chunk, i + 2);
          if (i < 0) break;
        } else if (d === 0x2a) {
          this.state = S_BLOCK_COMMENT;
          i = this.skipBlockComment(chunk, i + 2);
          if (i < 0) break;
        } else {
          this.badCharacter(0x2f, this.pendOffset, this.pendLine, this.pendColumn);
        }
      } else {
        this.badCharacter(c, this.tokenOffset, this.tokenLine, this.tokenColumn);
      }
    }
    this.base = base + n;
    return n;
  }

  /** Past the whitespace from `chunk[i]` (line breaks counted): the next token's first byte, or `n`. */
  private skipBlanks(chunk: Uint8Array, i: number, n: number): number {
    const base = this.base;
    while (i < n) {
      const c = chunk[i];
      if (c > 0x20) break;
      if (c === 0x0a || c === 0x0d) this.lineBreak(c, base + i);
      i++;
    }
    return i;
  }

  /**
   * The float run (in {@link write}) for a run that is only checked ({@link FloatRun.checkOnly}): the same literals
   * are taken and the same ones left to the ordinary path, but no value is computed or stored. Without the digit
   * arithmetic (a multiply-add chain per digit, a division and a store per literal) an md5anim's frames read 11-13%
   * faster in frame mode (bench/parse.mjs's 100 MB anim, 512 KiB chunks), which is what `inspect` wants: it reports
   * the file and its errors, never the values. A third copy of the literal loop on purpose: one loop testing a flag
   * per digit measured up to 8% slower when converting, and gained half as much when checking. A method, unlike the
   * converting loop: it is the one run an `inspect` makes, once per frame.
   */
  private checkRun(chunk: Uint8Array, i: number, n: number): number {
    const run = this.run;
    const end = run.end;
    let pos = run.pos;
    while (pos < end) {
      let j = i;
      let c = chunk[j];
      if (c === 0x2d || c === 0x2b) c = ++j < n ? chunk[j] : 0;
      const digitStart = j;
      while (c >= 0x30 && c <= 0x39) c = ++j < n ? chunk[j] : 0;
      let digits = j - digitStart;
      if (c === 0x2e) {
        const fracStart = ++j;
        c = j < n ? chunk[j] : 0;
        while (c >= 0x30 && c <= 0x39) c = ++j < n ? chunk[j] : 0;
        digits += j - fracStart;
      }
      if (j === n || digits === 0 || digits > 15 || (c > 0x20 && c !== 0x7d && c !== 0x29)) break;
      pos++;
      i = this.skipBlanks(chunk, j, n);
      if (i === n || START_CLASS[chunk[i]] !== C_NUMBER) break;
    }
    run.pos = pos;
    return i;
  }

  /**
   * Finish: flush a final word/number, report an unterminated string (UNTERMINATED_STRING) or block comment
   * (TRUNCATED, at the comment's start) or a lone `/` (BAD_CHARACTER). Further writes are refused.
   */
  end(): void {
    const state = this.state;
    this.state = S_ENDED;
    switch (state) {
      case S_WORD:
        this.sink.word(this.scratch, 0, this.scratchLen);
        break;
      case S_NUMBER:
        this.emitNumber(this.scratch, 0, this.scratchLen);
        break;
      case S_STRING:
        this.unterminatedString();
        break;
      case S_SLASH:
        this.badCharacter(0x2f, this.pendOffset, this.pendLine, this.pendColumn);
        break;
      case S_BLOCK_COMMENT:
      case S_BLOCK_COMMENT_STAR: {
        const eof = this.position();
        throw new ModelParseError(
          ErrorCode.Truncated,
          `unterminated /* comment (input ends at line ${eof.line}:${eof.column})`,
          { offset: this.pendOffset, line: this.pendLine, column: this.pendColumn },
        );
      }
      default:
        break;
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  /**
   * Continue the token or comment left open by the previous chunk. Returns the index in `chunk` where ground
   * scanning resumes, or −1 when the whole chunk was consumed.
   */
  private resume(chunk: Uint8Array): number {
    const n = chunk.length;
    switch (this.state) {
      case S_NUMBER:
      case S_WORD: {
        const cont = this.state === S_NUMBER ? NUMBER_CONT : WORD_CONT;
        let j = 0;
        while (j < n && cont[chunk[j]] === 1) j++;
        this.appendScratch(chunk, 0, j);
        if (j === n) return -1;
        const state = this.state;
        this.state = S_GROUND;
        if (state === S_NUMBER) this.emitNumber(this.scratch, 0, this.scratchLen);
        else this.sink.word(this.scratch, 0, this.scratchLen);
        return j;
      }
      case S_STRING: {
        let j = 0;
        while (j < n) {
          const d = chunk[j];
          if (d === 0x22 || d === 0x0a || d === 0x0d) break;
          j++;
        }
        this.appendScratch(chunk, 0, j);
        if (j === n) return -1;
        if (chunk[j] !== 0x22) this.unterminatedString();
        this.state = S_GROUND;
        this.sink.string(this.scratch, 0, this.scratchLen);
        return j + 1;
      }
      case S_SLASH: {
        if (n === 0) return -1;
        const d = chunk[0];
        if (d === 0x2f) {
          this.state = S_GROUND;
          return this.skipLineComment(chunk, 1);
        }
        if (d === 0x2a) {
          this.state = S_BLOCK_COMMENT;
          return this.skipBlockComment(chunk, 1);
        }
        return this.badCharacter(0x2f, this.pendOffset, this.pendLine, this.pendColumn);
      }
      case S_LINE_COMMENT:
        return this.skipLineComment(chunk, 0);
      case S_BLOCK_COMMENT:
      case S_BLOCK_COMMENT_STAR:
        return this.skipBlockComment(chunk, 0);
      default:
        return 0;
    }
  }

  /** Skip to the CR/LF ending a `//` comment (the line break itself is left for the ground loop). */
  private skipLineComment(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    while (i < n) {
      const c = chunk[i];
      if (c === 0x0a || c === 0x0d) {
        this.state = S_GROUND;
        return i;
      }
      i++;
    }
    this.state = S_LINE_COMMENT;
    return -1;
  }

  /** Skip past the `*\/` ending a block comment, tracking line breaks. `this.state` says whether a '*' is pending. */
  private skipBlockComment(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    const base = this.base;
    let star = this.state === S_BLOCK_COMMENT_STAR;
    while (i < n) {
      const c = chunk[i];
      if (star && c === 0x2f) {
        this.state = S_GROUND;
        return i + 1;
      }
      star = c === 0x2a;
      if (c === 0x0a || c === 0x0d) this.lineBreak(c, base + i);
      i++;
    }
    this.state = star ? S_BLOCK_COMMENT_STAR : S_BLOCK_COMMENT;
    return -1;
  }

  /**
   * Counts the line break byte `c` (LF or CR) at absolute offset `at`, the one place lines are counted: LF, CR and
   * CRLF are one break each. `lastCR` remembers the last CR so that the LF of a CRLF split across chunks (or read
   * by another loop) is not a second break.
   */
  private lineBreak(c: number, at: number): void {
    this.lineStart = at + 1;
    if (c === 0x0d) this.lastCR = at;
    else if (this.lastCR === at - 1) return; // the LF of a CRLF
    this.line++;
  }

  private beginPartial(chunk: Uint8Array, start: number, end: number, state: number): void {
    this.scratchLen = 0;
    this.appendScratch(chunk, start, end);
    this.state = state;
  }

  private appendScratch(chunk: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (len === 0) return;
    const need = this.scratchLen + len;
    if (need > this.maxToken) this.tooLong();
    if (need > this.scratch.length) {
      let cap = this.scratch.length * 2;
      while (cap < need) cap *= 2;
      const next = new Uint8Array(Math.min(cap, Math.max(need, this.maxToken)));
      next.set(this.scratch.subarray(0, this.scratchLen));
      this.scratch = next;
    }
    this.scratch.set(chunk.subarray(start, end), this.scratchLen);
    this.scratchLen = need;
  }

  private emitNumber(buf: Uint8Array, start: number, end: number): void {
    if (end - start > this.maxToken) this.tooLong();
    const num = this.num;
    if (!parseDecimalInto(buf, start, end, num)) {
      throw new ModelParseError(ErrorCode.BadNumber, `bad number '${latin1(buf, start, Math.min(end, start + 64))}'`, this.tokenPosition());
    }
    const v = num.value;
    if (!(v < F32_OVERFLOW && v > -F32_OVERFLOW)) {
      throw new ModelParseError(ErrorCode.BadNumber, `number out of float32 range '${latin1(buf, start, Math.min(end, start + 64))}'`, this.tokenPosition());
    }
    this.sink.number(v, num.integer);
  }

  private tooLong(): never {
    throw new ModelParseError(ErrorCode.TokenTooLong, `token longer than ${this.maxToken} bytes`, this.tokenPosition());
  }

  private unterminatedString(): never {
    throw new ModelParseError(ErrorCode.UnterminatedString, 'quoted string not closed on its line', this.tokenPosition());
  }

  private badCharacter(c: number, offset: number, line: number, column: number): never {
    const shown = c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `0x${c.toString(16).padStart(2, '0')}`;
    throw new ModelParseError(ErrorCode.BadCharacter, `unexpected byte ${shown}`, { offset, line, column });
  }
}

/** Decode bytes as Latin-1 (one char per byte). */
export function latin1(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
  return s;
}

let utf8: TextDecoder | undefined;

/**
 * Decode a name / shader / commandline: ASCII directly, otherwise strict UTF-8, and Latin-1 when the bytes are not
 * valid UTF-8 (so any byte string round-trips to a defined text).
 */
export function decodeText(buf: Uint8Array, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (buf[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return latin1(buf, start, end);
  utf8 ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return utf8.decode(buf.subarray(start, end));
  } catch {
    return latin1(buf, start, end);
  }
}

/** True when `buf[start, end)` equals the ASCII `text`. */
export function bytesEqual(buf: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (buf[start + i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * A small fixed keyword set, matched against token bytes without decoding them. A word's length and first and last
 * bytes pick its one candidate from a table, so a lookup is one table read and one compare instead of a walk
 * through the list: it runs once per line of an md5mesh. Words that share a slot (in MD5: `numJoints` with
 * `numMeshes` or `numFrames`, header words read once) are tried in turn.
 */
export class KeywordTable {
  private readonly words: Uint8Array[];
  /** Slot → keyword index + 1, 0 for none, −1 when several keywords share the slot. */
  private readonly slots = new Int8Array(KEYWORD_SLOTS);
  constructor(list: readonly string[]) {
    this.words = list.map((w) => Uint8Array.from(w, (ch) => ch.charCodeAt(0)));
    this.words.forEach((w, k) => {
      const slot = keywordSlot(w, 0, w.length);
      this.slots[slot] = this.slots[slot] === 0 ? k + 1 : -1;
    });
  }
  /** Index of the word `buf[start, end)` in the table, or −1. */
  index(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    if (len <= 0) return -1;
    const hit = this.slots[keywordSlot(buf, start, end)];
    if (hit > 0) return sameBytes(this.words[hit - 1], buf, start, len) ? hit - 1 : -1;
    if (hit === 0) return -1;
    const words = this.words;
    for (let k = 0; k < words.length; k++) if (sameBytes(words[k], buf, start, len)) return k;
    return -1;
  }
}

const KEYWORD_SLOTS = 4096;

/** Table slot of the word `buf[start, end)` (non-empty): length, first and last byte mixed into 12 bits. */
function keywordSlot(buf: Uint8Array, start: number, end: number): number {
  return ((end - start) * 0x9e + buf[start] * 0x1f + buf[end - 1] * 0x3b) & (KEYWORD_SLOTS - 1);
}

/** True when `word` equals `buf[start, start + len)`. */
function sameBytes(word: Uint8Array, buf: Uint8Array, start: number, len: number): boolean {
  if (word.length !== len) return false;
  for (let i = 0; i < len; i++) if (buf[start + i] !== word[i]) return false;
  return true;
}

/** True for the words `nan`, `inf`, `infinity` (any case), which we report as BAD_NUMBER where a number goes. */
export function isNonFiniteWord(buf: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 3 && len !== 8) return false;
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i] | 0x20);
  return s === 'nan' || s === 'inf' || s === 'infinity';
}

/** A short, printable rendering of a word or string token for error messages. */
export function showToken(buf: Uint8Array, start: number, end: number): string {
  const cut = end - start > 40;
  return JSON.stringify(decodeText(buf, start, cut ? start + 40 : end)) + (cut ? '…' : '');
}
