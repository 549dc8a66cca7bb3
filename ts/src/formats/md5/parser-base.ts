/**
 * What the md5mesh and md5anim parsers share: the push/end lifecycle with sticky failure, error construction at the
 * current token, the checked-number helpers, the `MD5Version 10` / `commandline "…"` header states, the joint
 * count and parent checks, the keyword-order diagnostics of `word()`, and the list growth helpers.
 *
 * Each parser stays an explicit state machine in its own class (its own `number` / `punct` / `string` / `word`
 * switches); the base class only holds code that is the same to the letter in both, and none of it allocates on
 * the success path of a token.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { LIMITS } from './limits.js';
import { Md5Tokenizer, decodeText, isNonFiniteWord, showToken, type FloatRun, type Md5TokenSink } from '../../text/tokenizer.js';

// Header states, the same in both formats; each parser numbers its own states from H_NEXT on.
export const H_VERSION_KW = 0;
export const H_VERSION = 1;
export const H_CMD_KW = 2;
export const H_CMD = 3;
/** The first state after the commandline string. */
export const H_NEXT = 4;

/** What the header states want, for messages. */
const H_EXPECT: readonly string[] = ["'MD5Version'", 'the version number', "'commandline'", 'the commandline string'];

/** Keyword index of `MD5Version` and `commandline` in both keyword lists. */
export const K_VERSION = 0;
export const K_COMMANDLINE = 1;

/** A parser's fixed tables, used for messages and diagnostics (never on the success path of a token). */
export interface Md5Grammar {
  /** Class name, for the "already ended" error. */
  readonly name: string;
  /** Keywords; the index doubles as the order rank. */
  readonly keywords: readonly string[];
  /** Keywords up to this index are file level, the rest belong to an inner block (ranks compare within a level). */
  readonly fileLevelLast: number;
  /** What each state wants, for messages. */
  readonly expect: readonly string[];
  /** The keyword a state is waiting for (for MISSING_BLOCK / DUPLICATE_BLOCK), or −1. */
  readonly expectKw: Int8Array;
  /** 1 for states whose next token is a number (a `nan`/`inf` word there is BAD_NUMBER, not UNEXPECTED_TOKEN). */
  readonly numeric: Uint8Array;
}

/** Builds a parser's {@link Md5Grammar}; the header states' entries are filled in here. */
export function md5Grammar(spec: {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly fileLevelLast: number;
  /** What each state from H_NEXT on wants, for messages; the last entry is the finished state. */
  readonly expect: readonly string[];
  /** `[state, keyword]`: the keyword a state waits for (header states excluded). */
  readonly waits: readonly (readonly [number, number])[];
  /** The states whose next token is a number (header states excluded). */
  readonly numericStates: readonly number[];
}): Md5Grammar {
  const expect = [...H_EXPECT, ...spec.expect];
  const expectKw = new Int8Array(expect.length).fill(-1);
  expectKw[H_CMD_KW] = K_COMMANDLINE;
  for (const [st, k] of spec.waits) expectKw[st] = k;
  const numeric = new Uint8Array(expect.length);
  for (const st of spec.numericStates) numeric[st] = 1;
  return { name: spec.name, keywords: spec.keywords, fileLevelLast: spec.fileLevelLast, expect, expectKw, numeric };
}

export function growF32(a: Float32Array, len: number): Float32Array {
  const b = new Float32Array(len);
  b.set(a);
  return b;
}

export function growU32(a: Uint32Array, len: number): Uint32Array {
  const b = new Uint32Array(len);
  b.set(a);
  return b;
}

export abstract class Md5ParserBase<T> implements Md5TokenSink {
  /** The tokenizer's float window (see {@link FloatRun}); closed (`pos === end`) unless a parser opens it. */
  readonly floatRun: FloatRun = { out: new Float32Array(0), pos: 0, end: 0 };
  protected readonly tok: Md5Tokenizer;
  protected state = H_VERSION_KW;
  private finished = false;
  private failure: unknown = undefined;

  protected version = 0;
  protected commandline = '';
  protected numJoints = 0;
  protected names: string[] = [];
  protected parents: Int32Array = new Int32Array(0);
  /** The joint being read. */
  protected joint = 0;
  /** Sub-index inside a ( … ) group or a triangle. */
  protected sub = 0;

  private readonly grammar: Md5Grammar;

  constructor(grammar: Md5Grammar) {
    this.grammar = grammar;
    this.tok = new Md5Tokenizer(this);
  }

  /**
   * Feed the next chunk of the file (any split). Returns the bytes consumed: all of them, unless a callback paused
   * the parser ({@link pause}); then feed `chunk.subarray(consumed)` to continue.
   */
  write(chunk: Uint8Array): number {
    this.checkUsable();
    try {
      return this.tok.write(chunk);
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  /** Finish and return the result. The parser is done afterwards, whether this returns or throws. */
  end(): T {
    this.checkUsable();
    this.finished = true;
    try {
      this.tok.end();
      return this.finish();
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  /**
   * Called from a parser callback (`onFrame`, `onMesh`, …): the current `write` returns right after the byte that
   * completed the element, so a pull-driven reader can hand elements out one at a time.
   */
  pause(): void {
    this.tok.pause();
  }

  /** Byte offset reached so far (the end of input, after `end()`). */
  get offset(): number {
    return this.tok.offset;
  }

  /** At end of input (the tokenizer has flushed): the result, or a throw (usually {@link endOfInput}). */
  protected abstract finish(): T;

  /**
   * End of input before the parser is done: BAD_COUNT with `countDetail` when `betweenBlocks` (fewer repeated
   * blocks than declared), TRUNCATED otherwise; both at the end-of-input position.
   */
  protected endOfInput(betweenBlocks: boolean, countDetail: string): never {
    const eof = this.tok.position();
    if (betweenBlocks) throw new ModelParseError(ErrorCode.BadCount, countDetail, eof);
    throw new ModelParseError(ErrorCode.Truncated, `input ended while expecting ${this.grammar.expect[this.state]}`, eof);
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error(`${this.grammar.name}: already ended`);
  }

  protected fail(code: ErrorCode, detail: string): never {
    throw new ModelParseError(code, detail, this.tok.tokenPosition());
  }

  protected expected(got: string): never {
    if (this.state <= H_VERSION) this.fail(ErrorCode.BadVersion, `expected 'MD5Version 10', got ${got}`);
    this.fail(ErrorCode.UnexpectedToken, `expected ${this.grammar.expect[this.state]}, got ${got}`);
  }

  protected count(v: number, integer: boolean, max: number, what: string): number {
    if (!integer) this.fail(ErrorCode.BadNumber, `${what} must be an integer, got ${v}`);
    if (v < 0 || v > max) this.fail(ErrorCode.BadCount, `${what} ${v} outside 0..${max}`);
    return v;
  }

  protected int(v: number, integer: boolean, what: string): number {
    if (!integer) this.fail(ErrorCode.BadNumber, `${what} must be an integer, got ${v}`);
    return v;
  }

  /** An element's `vert/tri/weight/frame N` marker must be an integer equal to its position `expected`. */
  protected marker(v: number, integer: boolean, expected: number, what: string): void {
    if (!integer) this.fail(ErrorCode.BadNumber, `'${what}' index must be an integer, got ${v}`);
    if (v !== expected) this.fail(ErrorCode.BadIndexMarker, `'${what} ${v}' at position ${expected}`);
  }

  // --- shared grammar pieces, called from the parsers' switches ---------------------------------------------

  /** `MD5Version` (state H_VERSION_KW, keyword index `k`). */
  protected versionWord(k: number, buf: Uint8Array, start: number, end: number): void {
    if (k !== K_VERSION) this.fail(ErrorCode.BadVersion, `expected 'MD5Version', got ${showToken(buf, start, end)}`);
    this.state = H_VERSION;
  }

  /** The version number (state H_VERSION). */
  protected versionNumber(v: number, integer: boolean): void {
    if (!integer || v !== 10) this.fail(ErrorCode.BadVersion, `MD5Version ${v} is not supported (want 10)`);
    this.version = 10;
    this.state = H_CMD_KW;
  }

  /** The commandline string (state H_CMD). */
  protected commandlineString(buf: Uint8Array, start: number, end: number): void {
    this.commandline = decodeText(buf, start, end);
    this.state = H_NEXT;
  }

  /** `numJoints N`: checks N, allocates `parents`; the parser allocates the rest of its per-joint arrays. */
  protected jointCount(v: number, integer: boolean): number {
    const n = this.count(v, integer, LIMITS.maxJoints, 'numJoints');
    this.numJoints = n;
    this.parents = new Int32Array(n);
    return n;
  }

  /** The parent index of joint `this.joint`: −1 or an earlier joint. */
  protected parent(v: number, integer: boolean): void {
    const p = this.int(v, integer, 'joint parent index');
    if (p < -1 || p >= this.joint) {
      this.fail(ErrorCode.IndexOutOfRange, `joint ${this.joint} parent ${p} must be -1 or below ${this.joint}`);
    }
    this.parents[this.joint] = p;
  }

  /**
   * A state that waits for one keyword and goes on to the next state (the grammar's `waits`, states numbered in
   * order): take keyword `k` there and return true; false when `k` is not what this state waits for.
   */
  protected nextOnKeyword(k: number): boolean {
    if (k < 0 || k !== this.grammar.expectKw[this.state]) return false;
    this.state++;
    return true;
  }

  // --- errors for a token that no case of the parser's callback accepted in the current state ----------------

  protected wrongNumber(v: number): never {
    this.expected(`number ${v}`);
  }

  protected wrongPunct(c: number): never {
    this.expected(`'${String.fromCharCode(c)}'`);
  }

  protected wrongString(buf: Uint8Array, start: number, end: number): never {
    this.expected(`string ${showToken(buf, start, end)}`);
  }

  protected wrongWord(k: number, buf: Uint8Array, start: number, end: number): never {
    const g = this.grammar;
    const s = this.state;
    if (g.numeric[s] === 1 && isNonFiniteWord(buf, start, end)) {
      this.fail(ErrorCode.BadNumber, `${showToken(buf, start, end)} is not a finite number`);
    }
    const want = g.expectKw[s];
    if (k >= 0 && want >= 0 && (k <= g.fileLevelLast) === (want <= g.fileLevelLast)) {
      if (k < want) this.fail(ErrorCode.DuplicateBlock, `'${g.keywords[k]}' appears again (expected ${g.expect[s]})`);
      this.fail(ErrorCode.MissingBlock, `'${g.keywords[want]}' is missing before '${g.keywords[k]}'`);
    }
    this.expected(`word ${showToken(buf, start, end)}`);
  }

  abstract number(value: number, integer: boolean): void;
  abstract punct(code: number): void;
  abstract string(buf: Uint8Array, start: number, end: number): void;
  abstract word(buf: Uint8Array, start: number, end: number): void;
}
