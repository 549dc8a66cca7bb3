/**
 * What the md5mesh and md5anim parsers share: the push/end lifecycle with sticky failure, the token sink and its
 * dispatch, the grammar tables and the transitions they drive, error construction at the current token, the
 * checked-number helpers, the `MD5Version 10` / `commandline "…"` header, the joint count and parent checks, the
 * list checks and growth, the `( … )` group values, the index windows element lines are read through
 * ({@link IndexWindow}), and the keyword-order diagnostics of a wrong word.
 *
 * A parser is an explicit state machine in its own class. Its states are a TS `enum` whose values are identities
 * only: nothing compares states by order or computes one from another. Its grammar ({@link md5Grammar}) is keyed
 * by state: what the state wants (for messages), the keyword or punctuation it waits for, the state that token
 * leads to, whether its token is a number.
 *
 * Each token goes first to the parser's own switch (its `number`, `punct`, `string`, `word`), whose cases are the
 * states with work of their own and name their next state; what no case takes goes on to `sharedNumber`, … here:
 * the header states, which are the same in both formats and live here, or the grammar's transition for a state
 * that only waits for one keyword or punctuation and names its next state there, or else the error that says what
 * the state wanted. Nothing here allocates on the success path of a token.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import { LIMITS } from './limits.js';
import {
  KeywordTable,
  Md5Tokenizer,
  decodeText,
  isNonFiniteWord,
  showToken,
  type FloatRun,
  type IndexRun,
  type Md5TokenSink,
} from '../../text/tokenizer.js';

/** A numeric TS `enum` object: member name → value, and value → member name (TS's reverse mapping). */
type NumericEnum = { readonly [name: string]: number | string };

/** One state's entry in a parser's grammar. */
export interface StateSpec<S extends number> {
  /** What the state wants, for messages. A state that waits for a keyword wants `'keyword'` unless this says more. */
  readonly expect?: string;
  /** The next token is a number: a `nan`/`inf` word here is BAD_NUMBER, not UNEXPECTED_TOKEN. */
  readonly numeric?: true;
  /**
   * The keyword the state waits for (its value in the parser's keyword enum): taken when the entry names `next`,
   * and named in MISSING_BLOCK / DUPLICATE_BLOCK when a later or earlier keyword of its level comes instead.
   */
  readonly keyword?: number;
  /** The punctuation the state waits for, taken when the entry names `next`. */
  readonly punct?: '{' | '}' | '(' | ')';
  /**
   * Where the waited-for `keyword` or `punct` leads, for a state with nothing else to do
   * ({@link Md5ParserBase.nextOnKeyword} / {@link Md5ParserBase.nextOnPunct}). States with work of their own leave
   * it out and set their next state in the parser's switch.
   */
  readonly next?: S;
}

/** The names a parser's state enum gives its four header states (`MD5Version 10` `commandline "…"`). */
const HEADER_STATES = ['VersionKw', 'Version', 'CommandlineKw', 'Commandline'] as const;

/** A parser's header states (the same grammar in both formats) and the state after them. */
interface HeaderStates<S extends number> {
  /** Waits for `MD5Version`. */
  readonly versionKw: S;
  /** Waits for the version number (10). */
  readonly version: S;
  /** Waits for `commandline`. */
  readonly commandlineKw: S;
  /** Waits for the commandline string. */
  readonly commandline: S;
  /** The first state after the commandline string. */
  readonly next: S;
}

/** A parser's grammar as flat tables indexed by state value (built once by {@link md5Grammar}). */
export interface Md5Grammar<S extends number> {
  /** Class name, for the "already ended" error. */
  readonly name: string;
  /** The keyword matcher; a keyword's index is its value in the parser's keyword enum. */
  readonly keywords: KeywordTable;
  /** Keyword names by value; the value doubles as the order rank. */
  readonly keywordNames: readonly string[];
  /** Keywords up to this value are file level, the rest belong to an inner block (ranks compare within a level). */
  readonly fileLevelLast: number;
  /** The header states (the first is where parsing starts). */
  readonly header: HeaderStates<S>;
  /** What each state wants, for messages. */
  readonly expect: readonly string[];
  /** The keyword a state waits for, or −1. */
  readonly keyword: Int8Array;
  /** The punctuation byte a state waits for, or 0. */
  readonly punct: Uint8Array;
  /** The state a waited-for keyword or punctuation leads to, or −1 (the parser's switch handles it). */
  readonly next: Int16Array;
  /** 1 for states whose next token is a number. */
  readonly numeric: Uint8Array;
}

/** The names of a numeric enum in value order 0, 1, … (a keyword enum spells each keyword as its member name). */
function enumNames(e: NumericEnum): string[] {
  const names: string[] = [];
  for (let v = 0; typeof e[v] === 'string'; v++) names.push(e[v] as string);
  return names;
}

/**
 * Builds a parser's {@link Md5Grammar} from entries keyed by state. The state enum names its header states
 * `VersionKw`, `Version`, `CommandlineKw`, `Commandline`; their entries come from here. Every other state must have
 * exactly one entry in `grammar` (checked when the module loads).
 */
export function md5Grammar<S extends number>(spec: {
  readonly name: string;
  /** The keyword enum: member name = the keyword as spelled in files, value = its order rank. */
  readonly keywords: NumericEnum;
  /** Keywords up to this one are file level, the rest belong to an inner block. */
  readonly fileLevelLast: number;
  /** The state enum. */
  readonly states: { readonly [H in (typeof HEADER_STATES)[number]]: S } & NumericEnum;
  /** The first state after the commandline string. */
  readonly afterHeader: S;
  readonly grammar: { readonly [K in S]?: StateSpec<S> };
}): Md5Grammar<S> {
  const keywordNames = enumNames(spec.keywords);
  const stateNames = enumNames(spec.states);
  const kw = (word: string): number => {
    const k = keywordNames.indexOf(word);
    if (k < 0) throw new Error(`${spec.name} grammar: no keyword '${word}'`);
    return k;
  };
  const st = spec.states;
  const h: HeaderStates<S> = {
    versionKw: st.VersionKw,
    version: st.Version,
    commandlineKw: st.CommandlineKw,
    commandline: st.Commandline,
    next: spec.afterHeader,
  };
  const entries: (StateSpec<S> | undefined)[] = [];
  entries[h.versionKw] = { keyword: kw('MD5Version') };
  entries[h.version] = { expect: 'the version number' };
  entries[h.commandlineKw] = { keyword: kw('commandline'), next: h.commandline };
  entries[h.commandline] = { expect: 'the commandline string' };
  const n = stateNames.length;
  const expect: string[] = [];
  const keyword = new Int8Array(n).fill(-1);
  const punct = new Uint8Array(n);
  const next = new Int16Array(n).fill(-1);
  const numeric = new Uint8Array(n);
  for (let s = 0; s < n; s++) {
    const own = spec.grammar[s as S];
    if (own !== undefined && entries[s] !== undefined) throw new Error(`${spec.name} grammar: ${stateNames[s]} is a header state`);
    const e = own ?? entries[s];
    if (e === undefined) throw new Error(`${spec.name} grammar: no entry for state ${stateNames[s]}`);
    if (e.next !== undefined && (e.keyword === undefined) === (e.punct === undefined)) {
      throw new Error(`${spec.name} grammar: state ${stateNames[s]} names a next state but not the one token that leads there`);
    }
    if (e.keyword !== undefined) keyword[s] = e.keyword;
    if (e.punct !== undefined) punct[s] = e.punct.charCodeAt(0);
    if (e.next !== undefined) next[s] = e.next;
    if (e.numeric) numeric[s] = 1;
    const wants = e.expect ?? (e.keyword !== undefined ? `'${keywordNames[e.keyword]}'` : undefined);
    if (wants === undefined) throw new Error(`${spec.name} grammar: state ${stateNames[s]} says nothing it expects`);
    expect.push(wants);
  }
  return {
    name: spec.name,
    keywords: new KeywordTable(keywordNames),
    keywordNames,
    fileLevelLast: spec.fileLevelLast,
    header: h,
    expect,
    keyword,
    punct,
    next,
    numeric,
  };
}

/** First capacity of a list declared with `declared` elements: at most {@link LIMITS.initialElements} up front. */
export function initialCapacity(declared: number): number {
  return Math.min(declared, LIMITS.initialElements);
}

/** Next capacity of a full list of `cap` elements: doubled, never past the declared count. */
export function nextCapacity(cap: number, declared: number): number {
  return Math.min(cap * 2, declared);
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

/** Bytes of a whole input held in memory (a string is encoded as UTF-8). */
export function inputBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/**
 * One kind of index window (see {@link IndexRun}): the row of integer slots an element line reads, e.g. `tri N a b
 * c`: the marker N, then three vertex indices. Each slot says what it is, for messages. The parser keeps one per
 * kind and reads `values` once the window is full.
 */
export class IndexWindow {
  readonly values: Uint32Array;
  /**
   * @param wants what each slot holds ("the triangle index", …)
   * @param marked slot 0 is the element's marker (`N` of `tri N`), which Doom 3 reads and ignores: the run takes it
   *   only when it is the element's position, and the parser warns about any other
   */
  constructor(
    readonly wants: readonly string[],
    readonly marked: boolean,
  ) {
    this.values = new Uint32Array(wants.length);
  }
}

const NO_WINDOW = /* @__PURE__ */ new IndexWindow([], false);

export abstract class Md5ParserBase<T, S extends number> implements Md5TokenSink {
  /** The tokenizer's float window (see {@link FloatRun}); closed (`pos === end`) unless a parser opens it. */
  readonly floatRun: FloatRun = { out: new Float32Array(0), pos: 0, end: 0, checkOnly: false };
  /** The tokenizer's index window (see {@link IndexRun}); closed unless a parser opens it. */
  readonly indexRun: IndexRun = {
    out: new Uint32Array(0),
    pos: 0,
    end: 0,
    markerAt: -1,
    marker: 0,
    limit: 0,
    lastOffset: 0,
    lastLine: 0,
    lastColumn: 0,
  };
  protected readonly tok: Md5Tokenizer;
  protected state: S;
  /** The index window opened last ({@link openWindow}) and the state that reads it. */
  private window: IndexWindow = NO_WINDOW;
  private windowState = -1;
  private finished = false;
  private failure: unknown = undefined;

  protected version = 0;
  protected commandline = '';
  protected numJoints = 0;
  protected names: string[] = [];
  protected parents: Int32Array = new Int32Array(0);
  /** The joint being read. */
  protected joint = 0;
  /** Sub-index inside a ( … ) group. */
  protected sub = 0;

  private readonly grammar: Md5Grammar<S>;

  constructor(grammar: Md5Grammar<S>) {
    this.grammar = grammar;
    this.state = grammar.header.versionKw;
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

  /** At end of input (the tokenizer has flushed): the result, or a throw (usually {@link blocksComplete}'s). */
  protected abstract finish(): T;

  /**
   * At end of input, for a file that ends with `declared` repeated `block` blocks (`countKw N`): returns when the
   * parser is in `between` (between blocks) with all of them read; otherwise throws BAD_COUNT when it is between
   * blocks with fewer, TRUNCATED anywhere else, both at the end-of-input position.
   */
  protected blocksComplete(between: S, read: number, declared: number, countKw: string, block: string): void {
    this.settle();
    if (this.state === between && read === declared) return;
    const eof = this.tok.position();
    if (this.state === between) {
      throw new ModelParseError(ErrorCode.BadCount, `${countKw} is ${declared} but the file has ${read} ${block} block(s)`, eof);
    }
    throw new ModelParseError(ErrorCode.Truncated, `input ended while expecting ${this.wants()}`, eof);
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error(`${this.grammar.name}: already ended`);
  }

  protected fail(code: ErrorCode, detail: string): never {
    throw new ModelParseError(code, detail, this.tok.tokenPosition());
  }

  protected expected(got: string): never {
    const h = this.grammar.header;
    if (this.state === h.versionKw || this.state === h.version) this.fail(ErrorCode.BadVersion, `expected 'MD5Version 10', got ${got}`);
    this.fail(ErrorCode.UnexpectedToken, `expected ${this.wants()}, got ${got}`);
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

  /** Warnings of the parse so far (md5mesh hands them out with the mesh). */
  protected readonly warnings: ParseWarning[] = [];

  /**
   * An element's `frame N` marker must be an integer equal to its position `expected` (Doom 3's LoadAnim refuses
   * any other: "Expected frame number"). `vert`/`tri`/`weight N` markers: idMD5Mesh::ParseMesh reads N with
   * ParseInt and ignores it, so a wrong N is a warning (INDEX_MARKER, one per list) and the element is stored at its
   * position, as the engine stores it.
   */
  protected marker(v: number, integer: boolean, expected: number, what: string): void {
    if (!integer) this.fail(ErrorCode.BadNumber, `'${what}' index must be an integer, got ${v}`);
    if (v === expected) return;
    if (what === 'frame') this.fail(ErrorCode.BadIndexMarker, `'${what} ${v}' at position ${expected}`);
    if (this.markerWarned.has(what)) return;
    this.markerWarned.add(what);
    const at = this.tok.tokenPosition();
    this.warnings.push({ code: 'INDEX_MARKER', message: `'${what} ${v}' at position ${expected}: stored at its position, as Doom 3 does (further ${what} markers not reported)`, ...at });
  }

  private readonly markerWarned = new Set<string>();

  // --- lists declared by a count ------------------------------------------------------------------------------

  /** Before element `read` of a list declared as `countKw declared`: BAD_COUNT "more `what` than …" when full. */
  protected listHasRoom(read: number, declared: number, what: string, countKw: string): void {
    if (read === declared) this.fail(ErrorCode.BadCount, `more ${what} than ${countKw} ${declared}`);
  }

  /** Before entry `read` of the `block` block, whose length `countKw declared` gives: BAD_COUNT when full. */
  protected blockHasRoom(block: string, read: number, declared: number, countKw: string): void {
    if (read === declared) this.fail(ErrorCode.BadCount, `'${block}' lists more than ${countKw} ${declared}`);
  }

  /** At the end of a list declared as `countKw declared` (`where` lists it): BAD_COUNT unless all were read. */
  protected listComplete(read: number, declared: number, countKw: string, where: string): void {
    if (read !== declared) this.fail(ErrorCode.BadCount, `${countKw} is ${declared} but ${where} lists ${read}`);
  }

  /**
   * One number of a `( … )` group, stored at `out[at + sub]` (`sub` counts from 0 at the group's `(`, see
   * {@link nextOnPunct}); true once the group's `size` numbers are in. Every group of both parsers lands here, so
   * this is where groups can become float runs (open the tokenizer's window `out[at, at + size)` at the `(`, check
   * it is full at the `)`), as md5anim frame blocks are.
   */
  protected groupValue(out: Float32Array, at: number, size: number, v: number): boolean {
    out[at + this.sub] = v;
    return ++this.sub === size;
  }

  /** Opens the float-run window `out[at, at + size)`: the tokenizer fills it with the plain decimals that follow. */
  protected openGroup(out: Float32Array, at: number, size: number): void {
    const run = this.floatRun;
    run.out = out;
    run.pos = at;
    run.end = at + size;
  }

  // --- index windows ---------------------------------------------------------------------------------------

  /**
   * Opens `window` (see {@link IndexWindow}) and enters `state`, which reads it: the tokenizer's index run fills the
   * slots whose values it may take (the `marker` in a marked window's slot 0, values below `limit` in the others);
   * any other value reaches `number()` in `state`, where the parser checks it (warns, refuses) at its own position
   * and stores it with {@link windowValue}.
   */
  protected openWindow(window: IndexWindow, state: S, marker: number, limit: number): void {
    const run = this.indexRun;
    run.out = window.values;
    run.markerAt = window.marked ? 0 : -1;
    run.marker = marker;
    run.limit = limit;
    run.pos = 0;
    run.end = window.values.length;
    this.window = window;
    this.windowState = state;
    this.state = state;
  }

  /** True in the state that reads the open window once all its slots are in. */
  protected windowFull(): boolean {
    return this.state === this.windowState && this.indexRun.pos === this.indexRun.end;
  }

  /** Stores a slot value that came through `number()`, and its position as the window's last (see IndexRun). */
  protected windowValue(v: number): void {
    const run = this.indexRun;
    run.out[run.pos++] = v;
    const tok = this.tok;
    run.lastOffset = tok.tokenOffset;
    run.lastLine = tok.tokenLine;
    run.lastColumn = tok.tokenColumn;
  }

  /**
   * A state that reads an index window is still the parser's state once the tokenizer's run has filled the window:
   * only the next token tells. With its window full, {@link windowRead} completes the element and moves on, and this
   * returns true; else false. The shared handlers call it before they refuse a token, which is then offered again
   * in the new state (and {@link blocksComplete} before it judges the end of input), so a message names what the
   * file really lacks. The parser's own cases complete the common successor tokens themselves.
   */
  protected settle(): boolean {
    if (!this.windowFull()) return false;
    this.windowRead();
    return true;
  }

  /** Completes the element of a full window in its state (store the values, move to the next state). */
  protected windowRead(): void {
    throw new Error(`${this.grammar.name}: no index windows`);
  }

  /** What the parser wants next, for messages: the open window's next slot, else what its state wants. */
  protected wants(): string {
    const run = this.indexRun;
    if (this.state === this.windowState && run.pos < run.end) return this.window.wants[run.pos];
    return this.grammar.expect[this.state];
  }

  // --- the header and the joints ------------------------------------------------------------------------------

  /** The word in the first state: `MD5Version`, or BAD_VERSION. */
  private versionWord(k: number, buf: Uint8Array, start: number, end: number): void {
    if (k !== this.grammar.keyword[this.state]) {
      this.fail(ErrorCode.BadVersion, `expected 'MD5Version', got ${showToken(buf, start, end)}`);
    }
    this.state = this.grammar.header.version;
  }

  /** The version number: 10, or BAD_VERSION. */
  private versionNumber(v: number, integer: boolean): void {
    if (!integer || v !== 10) this.fail(ErrorCode.BadVersion, `MD5Version ${v} is not supported (want 10)`);
    this.version = 10;
    this.state = this.grammar.header.commandlineKw;
  }

  /** The commandline string. */
  private commandlineString(buf: Uint8Array, start: number, end: number): void {
    this.commandline = decodeText(buf, start, end);
    this.state = this.grammar.header.next;
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

  // --- transitions the grammar drives -------------------------------------------------------------------------

  /** In a state that waits for keyword `k` and names its next state: go there and return true; else false. */
  private nextOnKeyword(k: number): boolean {
    const g = this.grammar;
    const s = this.state;
    if (k < 0 || k !== g.keyword[s] || g.next[s] < 0) return false;
    this.state = g.next[s] as S;
    return true;
  }

  /**
   * In a state that waits for punctuation `c` and names its next state: go there and return true; else false.
   * A `(` opens a group: its numbers count from `sub` 0 ({@link groupValue}).
   */
  private nextOnPunct(c: number): boolean {
    const g = this.grammar;
    const s = this.state;
    if (c !== g.punct[s] || g.next[s] < 0) return false;
    if (c === 0x28) this.sub = 0;
    this.state = g.next[s] as S;
    return true;
  }

  // --- errors for a token that no case of the parser's callback accepted in the current state ----------------

  private wrongNumber(v: number): never {
    this.expected(`number ${v}`);
  }

  private wrongPunct(c: number): never {
    this.expected(`'${String.fromCharCode(c)}'`);
  }

  private wrongString(buf: Uint8Array, start: number, end: number): never {
    this.expected(`string ${showToken(buf, start, end)}`);
  }

  private wrongWord(k: number, buf: Uint8Array, start: number, end: number): never {
    const g = this.grammar;
    const s = this.state;
    if (g.numeric[s] === 1 && isNonFiniteWord(buf, start, end)) {
      this.fail(ErrorCode.BadNumber, `${showToken(buf, start, end)} is not a finite number`);
    }
    const want = g.keyword[s];
    if (k >= 0 && want >= 0 && (k <= g.fileLevelLast) === (want <= g.fileLevelLast)) {
      if (k < want) this.fail(ErrorCode.DuplicateBlock, `'${g.keywordNames[k]}' appears again (expected ${this.wants()})`);
      this.fail(ErrorCode.MissingBlock, `'${g.keywordNames[want]}' is missing before '${g.keywordNames[k]}'`);
    }
    this.expected(`word ${showToken(buf, start, end)}`);
  }

  // --- what the parser's switches leave: the header, the grammar's transitions, else the error --------------
  // Each sink method of a parser is a switch over its states with work of their own; a token no case takes (another
  // state, or a token its state does not take) goes on to the matching method here, which offers it again once a
  // full index window has moved the parser on ({@link settle}).

  /** The keyword value (in the parser's keyword enum) of the word `buf[start, end)`, or −1. */
  protected keywordOf(buf: Uint8Array, start: number, end: number): number {
    return this.grammar.keywords.index(buf, start, end);
  }

  /** A number no case took: the version number, or the error. */
  protected sharedNumber(v: number, integer: boolean): void {
    if (this.state === this.grammar.header.version) this.versionNumber(v, integer);
    else if (this.settle()) this.number(v, integer);
    else this.wrongNumber(v);
  }

  /** Punctuation no case took: the grammar's transition, or the error. */
  protected sharedPunct(c: number): void {
    if (this.nextOnPunct(c)) return;
    if (this.settle()) this.punct(c);
    else this.wrongPunct(c);
  }

  /** A string no case took: the commandline, or the error. */
  protected sharedString(buf: Uint8Array, start: number, end: number): void {
    if (this.state === this.grammar.header.commandline) this.commandlineString(buf, start, end);
    else if (this.settle()) this.string(buf, start, end);
    else this.wrongString(buf, start, end);
  }

  /** A word no case took (`k` from {@link keywordOf}): `MD5Version`, the grammar's transition, or the error. */
  protected sharedWord(k: number, buf: Uint8Array, start: number, end: number): void {
    if (this.state === this.grammar.header.versionKw) this.versionWord(k, buf, start, end);
    else if (this.nextOnKeyword(k)) return;
    else if (this.settle()) this.word(buf, start, end);
    else this.wrongWord(k, buf, start, end);
  }

  abstract number(value: number, integer: boolean): void;
  abstract punct(code: number): void;
  abstract string(buf: Uint8Array, start: number, end: number): void;
  abstract word(buf: Uint8Array, start: number, end: number): void;
}
