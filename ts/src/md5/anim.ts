/**
 * md5anim parser: push-driven (`write(chunk)` any number of times, then `end()`), an explicit state machine over
 * the tokens of {@link Md5Tokenizer}.
 *
 * Grammar:
 *   MD5Version 10
 *   commandline "<string>"
 *   numFrames N
 *   numJoints N
 *   frameRate R                      (a number > 0; `24` or `24.0`)
 *   numAnimatedComponents N
 *   hierarchy { ( "name" parent flags startIndex ) × numJoints }
 *   bounds { ( ( minx miny minz ) ( maxx maxy maxz ) ) × numFrames }
 *   baseframe { ( ( tx ty tz ) ( qx qy qz ) ) × numJoints }
 *   ( frame i { numAnimatedComponents numbers } ) × numFrames
 *
 * Checks: counts against {@link LIMITS} and numAnimatedComponents ≤ 6·numJoints (BAD_COUNT); list lengths
 * against the declared counts (BAD_COUNT, naming the frame for a frame with the wrong number of components; end of
 * input between frame blocks with fewer frames than declared is BAD_COUNT, anywhere else TRUNCATED);
 * `frame N` equals its position (BAD_INDEX_MARKER); parent −1 or < own index, startIndex + popcount(flags) ≤
 * numAnimatedComponents (INDEX_OUT_OF_RANGE); flags in 0..63, integers where integers go, frameRate > 0
 * (BAD_NUMBER); keywords out of order (MISSING_BLOCK / DUPLICATE_BLOCK).
 *
 * Memory: the frame store starts at no more than {@link LIMITS.initialFrameFloats} floats (and bounds at
 * {@link LIMITS.initialElements} frames) and doubles as frames actually arrive, capped at the declared size.
 */
import { ErrorCode, ModelParseError } from '../errors.js';
import type { Md5Anim } from '../model.js';
import { LIMITS } from './limits.js';
import {
  Md5Tokenizer,
  decodeText,
  isNonFiniteWord,
  KeywordTable,
  showToken,
  type Md5TokenSink,
} from './tokenizer.js';

/** Keywords; the index doubles as the order rank. */
const KW = [
  'MD5Version',
  'commandline',
  'numFrames',
  'numJoints',
  'frameRate',
  'numAnimatedComponents',
  'hierarchy',
  'bounds',
  'baseframe',
  'frame',
] as const;
const KEYWORDS = new KeywordTable(KW);
const K_VERSION = 0;
const K_COMMANDLINE = 1;
const K_NUMFRAMES = 2;
const K_NUMJOINTS = 3;
const K_FRAMERATE = 4;
const K_NUMCOMP = 5;
const K_HIERARCHY = 6;
const K_BOUNDS = 7;
const K_BASEFRAME = 8;
const K_FRAME = 9;

// Parser states.
const A_VERSION_KW = 0;
const A_VERSION = 1;
const A_CMD_KW = 2;
const A_CMD = 3;
const A_NUMFRAMES_KW = 4;
const A_NUMFRAMES = 5;
const A_NUMJOINTS_KW = 6;
const A_NUMJOINTS = 7;
const A_FRAMERATE_KW = 8;
const A_FRAMERATE = 9;
const A_NUMCOMP_KW = 10;
const A_NUMCOMP = 11;
const A_HIER_KW = 12;
const A_HIER_OPEN = 13;
const A_HIER_NAME = 14;
const A_HIER_PARENT = 15;
const A_HIER_FLAGS = 16;
const A_HIER_START = 17;
const A_BOUNDS_KW = 18;
const A_BOUNDS_OPEN = 19;
const A_BOUND_OPEN = 20;
const A_BOUND_MIN = 21;
const A_BOUND_MID = 22;
const A_BOUND_OPEN2 = 23;
const A_BOUND_MAX = 24;
const A_BOUND_CLOSE = 25;
const A_BASE_KW = 26;
const A_BASE_OPEN = 27;
const A_BASE_POS_OPEN = 28;
const A_BASE_POS = 29;
const A_BASE_POS_CLOSE = 30;
const A_BASE_ORI_OPEN = 31;
const A_BASE_ORI = 32;
const A_BASE_ORI_CLOSE = 33;
const A_FRAME_KW = 34;
const A_FRAME_IDX = 35;
const A_FRAME_OPEN = 36;
const A_FRAME_VALUES = 37;
const A_DONE = 38;

const EXPECT: readonly string[] = [
  "'MD5Version'",
  'the version number',
  "'commandline'",
  'the commandline string',
  "'numFrames'",
  'the frame count',
  "'numJoints'",
  'the joint count',
  "'frameRate'",
  'the frame rate',
  "'numAnimatedComponents'",
  'the animated component count',
  "'hierarchy'",
  "'{' after 'hierarchy'",
  "a joint name or '}'",
  'the joint parent index',
  'the joint flags',
  'the joint start index',
  "'bounds'",
  "'{' after 'bounds'",
  "'(' or '}'",
  'a bounds minimum',
  "')' after the bounds minimum",
  "'(' before the bounds maximum",
  'a bounds maximum',
  "')' after the bounds maximum",
  "'baseframe'",
  "'{' after 'baseframe'",
  "'(' or '}'",
  'a baseframe position number',
  "')' after the baseframe position",
  "'(' before the baseframe orientation",
  'a baseframe orientation number',
  "')' after the baseframe orientation",
  "'frame' or end of input",
  'the frame index',
  "'{' after 'frame N'",
  "a frame component or '}'",
  'nothing (parser finished)',
];

/** The keyword a state is waiting for (for MISSING_BLOCK / DUPLICATE_BLOCK), or −1. */
const EXPECT_KW = new Int8Array(A_DONE + 1).fill(-1);
EXPECT_KW[A_CMD_KW] = K_COMMANDLINE;
EXPECT_KW[A_NUMFRAMES_KW] = K_NUMFRAMES;
EXPECT_KW[A_NUMJOINTS_KW] = K_NUMJOINTS;
EXPECT_KW[A_FRAMERATE_KW] = K_FRAMERATE;
EXPECT_KW[A_NUMCOMP_KW] = K_NUMCOMP;
EXPECT_KW[A_HIER_KW] = K_HIERARCHY;
EXPECT_KW[A_BOUNDS_KW] = K_BOUNDS;
EXPECT_KW[A_BASE_KW] = K_BASEFRAME;
EXPECT_KW[A_FRAME_KW] = K_FRAME;

/** States whose next token is a number (a `nan`/`inf` word there is BAD_NUMBER). */
const NUMERIC = new Uint8Array(A_DONE + 1);
for (const st of [
  A_NUMFRAMES, A_NUMJOINTS, A_FRAMERATE, A_NUMCOMP, A_HIER_PARENT, A_HIER_FLAGS, A_HIER_START, A_BOUND_MIN,
  A_BOUND_MAX, A_BASE_POS, A_BASE_ORI, A_FRAME_IDX, A_FRAME_VALUES,
]) NUMERIC[st] = 1;

function popcount6(x: number): number {
  return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1) + ((x >> 5) & 1);
}

export class Md5AnimParser implements Md5TokenSink {
  private readonly tok: Md5Tokenizer;
  private state = A_VERSION_KW;
  private finished = false;
  private failure: unknown = undefined;

  private version = 0;
  private commandline = '';
  private numFrames = 0;
  private numJoints = 0;
  private frameRate = 0;
  private numComp = 0;
  private names: string[] = [];
  private parents: Int32Array = new Int32Array(0);
  private flags: Uint8Array = new Uint8Array(0);
  private startIndices: Uint32Array = new Uint32Array(0);
  private baseframe: Float32Array = new Float32Array(0);
  private joint = 0;
  private sub = 0;

  private bounds: Float32Array = new Float32Array(0);
  private boundsCap = 0;
  private bound = 0;

  private frames: Float32Array = new Float32Array(0);
  /** Capacity of `frames`, in frames. */
  private frameCap = 0;
  private frame = 0;
  /** Write position and end of the current frame inside `frames`. */
  private fpos = 0;
  private fend = 0;

  constructor() {
    this.tok = new Md5Tokenizer(this);
  }

  /** Feed the next chunk of the file (any split). */
  write(chunk: Uint8Array): void {
    this.checkUsable();
    try {
      this.tok.write(chunk);
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  /** Finish and return the animation. The parser is done afterwards, whether this returns or throws. */
  end(): Md5Anim {
    this.checkUsable();
    this.finished = true;
    try {
      this.tok.end();
      if (this.state === A_FRAME_KW && this.frame === this.numFrames) {
        this.state = A_DONE;
        const total = this.numFrames * this.numComp;
        return {
          format: 'md5anim',
          version: this.version,
          commandline: this.commandline,
          frameCount: this.numFrames,
          jointCount: this.numJoints,
          frameRate: this.frameRate,
          componentCount: this.numComp,
          names: this.names,
          parents: this.parents,
          flags: this.flags,
          startIndices: this.startIndices,
          bounds: this.bounds,
          baseframe: this.baseframe,
          frames: this.frames.length === total ? this.frames : this.frames.slice(0, total),
        };
      }
      const eof = this.tok.position();
      if (this.state === A_FRAME_KW) {
        throw new ModelParseError(
          ErrorCode.BadCount,
          `numFrames is ${this.numFrames} but the file has ${this.frame} frame block(s)`,
          eof,
        );
      }
      throw new ModelParseError(ErrorCode.Truncated, `input ended while expecting ${EXPECT[this.state]}`, eof);
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error('Md5AnimParser: already ended');
  }

  private fail(code: ErrorCode, detail: string): never {
    throw new ModelParseError(code, detail, this.tok.tokenPosition());
  }

  private expected(got: string): never {
    if (this.state <= A_VERSION) this.fail(ErrorCode.BadVersion, `expected 'MD5Version 10', got ${got}`);
    this.fail(ErrorCode.UnexpectedToken, `expected ${EXPECT[this.state]}, got ${got}`);
  }

  private count(v: number, integer: boolean, max: number, what: string): number {
    if (!integer) this.fail(ErrorCode.BadNumber, `${what} must be an integer, got ${v}`);
    if (v < 0 || v > max) this.fail(ErrorCode.BadCount, `${what} ${v} outside 0..${max}`);
    return v;
  }

  private int(v: number, integer: boolean, what: string): number {
    if (!integer) this.fail(ErrorCode.BadNumber, `${what} must be an integer, got ${v}`);
    return v;
  }

  // --- token callbacks -------------------------------------------------------------------------------------

  number(v: number, integer: boolean): void {
    switch (this.state) {
      case A_FRAME_VALUES: {
        if (this.fpos === this.fend) {
          this.fail(ErrorCode.BadCount, `frame ${this.frame} has more than numAnimatedComponents ${this.numComp} values`);
        }
        this.frames[this.fpos++] = v;
        return;
      }
      case A_BOUND_MIN:
      case A_BOUND_MAX: {
        this.bounds[this.bound * 6 + this.sub] = v;
        this.sub++;
        if (this.sub === 3) this.state = A_BOUND_MID;
        else if (this.sub === 6) this.state = A_BOUND_CLOSE;
        return;
      }
      case A_BASE_POS:
      case A_BASE_ORI: {
        this.baseframe[this.joint * 6 + this.sub] = v;
        this.sub++;
        if (this.sub === 3) this.state = A_BASE_POS_CLOSE;
        else if (this.sub === 6) this.state = A_BASE_ORI_CLOSE;
        return;
      }
      case A_FRAME_IDX: {
        if (!integer) this.fail(ErrorCode.BadNumber, `'frame' index must be an integer, got ${v}`);
        if (v !== this.frame) this.fail(ErrorCode.BadIndexMarker, `'frame ${v}' at position ${this.frame}`);
        if (this.frame === this.frameCap) {
          const cap = Math.min(this.frameCap * 2, this.numFrames);
          const next = new Float32Array(cap * this.numComp);
          next.set(this.frames);
          this.frames = next;
          this.frameCap = cap;
        }
        this.fpos = this.frame * this.numComp;
        this.fend = this.fpos + this.numComp;
        this.state = A_FRAME_OPEN;
        return;
      }
      case A_HIER_PARENT: {
        const p = this.int(v, integer, 'joint parent index');
        if (p < -1 || p >= this.joint) {
          this.fail(ErrorCode.IndexOutOfRange, `joint ${this.joint} parent ${p} must be -1 or below ${this.joint}`);
        }
        this.parents[this.joint] = p;
        this.state = A_HIER_FLAGS;
        return;
      }
      case A_HIER_FLAGS: {
        const f = this.int(v, integer, 'joint flags');
        if (f < 0 || f > 63) this.fail(ErrorCode.BadNumber, `joint ${this.joint} flags ${f} outside 0..63`);
        this.flags[this.joint] = f;
        this.state = A_HIER_START;
        return;
      }
      case A_HIER_START: {
        const s = this.int(v, integer, 'joint start index');
        const n = popcount6(this.flags[this.joint]);
        if (s < 0 || s + n > this.numComp) {
          this.fail(
            ErrorCode.IndexOutOfRange,
            `joint ${this.joint} components ${s}..${s + n - 1} outside numAnimatedComponents ${this.numComp}`,
          );
        }
        this.startIndices[this.joint] = s;
        this.joint++;
        this.state = A_HIER_NAME;
        return;
      }
      case A_VERSION: {
        if (!integer || v !== 10) this.fail(ErrorCode.BadVersion, `MD5Version ${v} is not supported (want 10)`);
        this.version = 10;
        this.state = A_CMD_KW;
        return;
      }
      case A_NUMFRAMES: {
        this.numFrames = this.count(v, integer, LIMITS.maxFrames, 'numFrames');
        this.state = A_NUMJOINTS_KW;
        return;
      }
      case A_NUMJOINTS: {
        const n = this.count(v, integer, LIMITS.maxJoints, 'numJoints');
        this.numJoints = n;
        this.parents = new Int32Array(n);
        this.flags = new Uint8Array(n);
        this.startIndices = new Uint32Array(n);
        this.baseframe = new Float32Array(n * 6);
        this.state = A_FRAMERATE_KW;
        return;
      }
      case A_FRAMERATE: {
        if (!(v > 0)) this.fail(ErrorCode.BadNumber, `frameRate ${v} must be positive`);
        this.frameRate = v;
        this.state = A_NUMCOMP_KW;
        return;
      }
      case A_NUMCOMP: {
        const max = LIMITS.maxComponentsPerJoint * this.numJoints;
        this.numComp = this.count(v, integer, max, 'numAnimatedComponents');
        this.state = A_HIER_KW;
        return;
      }
      default:
        this.expected(`number ${v}`);
    }
  }

  punct(c: number): void {
    switch (this.state) {
      case A_FRAME_VALUES:
        if (c !== 0x7d) break;
        if (this.fpos !== this.fend) {
          this.fail(
            ErrorCode.BadCount,
            `frame ${this.frame} has ${this.fpos - this.frame * this.numComp} values, numAnimatedComponents is ${this.numComp}`,
          );
        }
        this.frame++;
        this.state = A_FRAME_KW;
        return;
      case A_BOUND_OPEN:
        if (c === 0x7d) {
          if (this.bound !== this.numFrames) {
            this.fail(ErrorCode.BadCount, `numFrames is ${this.numFrames} but 'bounds' lists ${this.bound}`);
          }
          this.state = A_BASE_KW;
          return;
        }
        if (c !== 0x28) break;
        if (this.bound === this.numFrames) {
          this.fail(ErrorCode.BadCount, `'bounds' lists more than numFrames ${this.numFrames}`);
        }
        if (this.bound === this.boundsCap) {
          const cap = Math.min(this.boundsCap * 2, this.numFrames);
          const next = new Float32Array(cap * 6);
          next.set(this.bounds);
          this.bounds = next;
          this.boundsCap = cap;
        }
        this.sub = 0;
        this.state = A_BOUND_MIN;
        return;
      case A_BOUND_MID:
        if (c !== 0x29) break;
        this.state = A_BOUND_OPEN2;
        return;
      case A_BOUND_OPEN2:
        if (c !== 0x28) break;
        this.state = A_BOUND_MAX;
        return;
      case A_BOUND_CLOSE:
        if (c !== 0x29) break;
        this.bound++;
        this.state = A_BOUND_OPEN;
        return;
      case A_BASE_POS_OPEN:
        if (c === 0x7d) {
          if (this.joint !== this.numJoints) {
            this.fail(ErrorCode.BadCount, `numJoints is ${this.numJoints} but 'baseframe' lists ${this.joint}`);
          }
          this.frame = 0;
          this.frameCap = 0;
          this.state = A_FRAME_KW;
          return;
        }
        if (c !== 0x28) break;
        if (this.joint === this.numJoints) {
          this.fail(ErrorCode.BadCount, `'baseframe' lists more than numJoints ${this.numJoints}`);
        }
        this.sub = 0;
        this.state = A_BASE_POS;
        return;
      case A_BASE_POS_CLOSE:
        if (c !== 0x29) break;
        this.state = A_BASE_ORI_OPEN;
        return;
      case A_BASE_ORI_OPEN:
        if (c !== 0x28) break;
        this.state = A_BASE_ORI;
        return;
      case A_BASE_ORI_CLOSE:
        if (c !== 0x29) break;
        this.joint++;
        this.state = A_BASE_POS_OPEN;
        return;
      case A_HIER_NAME:
        if (c !== 0x7d) break;
        if (this.joint !== this.numJoints) {
          this.fail(ErrorCode.BadCount, `numJoints is ${this.numJoints} but 'hierarchy' lists ${this.joint}`);
        }
        this.state = A_BOUNDS_KW;
        return;
      case A_HIER_OPEN:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = A_HIER_NAME;
        return;
      case A_BOUNDS_OPEN:
        if (c !== 0x7b) break;
        this.bound = 0;
        this.boundsCap = Math.min(this.numFrames, LIMITS.initialElements);
        this.bounds = new Float32Array(this.boundsCap * 6);
        this.state = A_BOUND_OPEN;
        return;
      case A_BASE_OPEN:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = A_BASE_POS_OPEN;
        return;
      case A_FRAME_OPEN:
        if (c !== 0x7b) break;
        this.state = A_FRAME_VALUES;
        return;
      default:
        break;
    }
    this.expected(`'${String.fromCharCode(c)}'`);
  }

  string(buf: Uint8Array, start: number, end: number): void {
    switch (this.state) {
      case A_HIER_NAME:
        if (this.joint === this.numJoints) {
          this.fail(ErrorCode.BadCount, `'hierarchy' lists more than numJoints ${this.numJoints}`);
        }
        this.names.push(decodeText(buf, start, end));
        this.state = A_HIER_PARENT;
        return;
      case A_CMD:
        this.commandline = decodeText(buf, start, end);
        this.state = A_NUMFRAMES_KW;
        return;
      default:
        this.expected(`string ${showToken(buf, start, end)}`);
    }
  }

  word(buf: Uint8Array, start: number, end: number): void {
    const k = KEYWORDS.index(buf, start, end);
    const s = this.state;
    switch (s) {
      case A_FRAME_KW:
        if (k === K_FRAME) {
          if (this.frame === this.numFrames) {
            this.fail(ErrorCode.BadCount, `more frame blocks than numFrames ${this.numFrames}`);
          }
          if (this.frameCap === 0 && this.numFrames > 0) {
            // First frame: allocate a modest store; it doubles as frames arrive.
            const perFrame = Math.max(1, this.numComp);
            this.frameCap = Math.min(this.numFrames, Math.max(1, Math.floor(LIMITS.initialFrameFloats / perFrame)));
            this.frames = new Float32Array(this.frameCap * this.numComp);
          }
          this.state = A_FRAME_IDX;
          return;
        }
        break;
      case A_VERSION_KW:
        if (k === K_VERSION) {
          this.state = A_VERSION;
          return;
        }
        this.fail(ErrorCode.BadVersion, `expected 'MD5Version', got ${showToken(buf, start, end)}`);
      default: {
        const want = EXPECT_KW[s];
        if (want >= 0 && k === want) {
          this.state = s + 1;
          return;
        }
        break;
      }
    }
    if (NUMERIC[s] === 1 && isNonFiniteWord(buf, start, end)) {
      this.fail(ErrorCode.BadNumber, `${showToken(buf, start, end)} is not a finite number`);
    }
    const want = EXPECT_KW[s];
    if (k >= 0 && want >= 0) {
      if (k < want) this.fail(ErrorCode.DuplicateBlock, `'${KW[k]}' appears again (expected ${EXPECT[s]})`);
      this.fail(ErrorCode.MissingBlock, `'${KW[want]}' is missing before '${KW[k]}'`);
    }
    this.expected(`word ${showToken(buf, start, end)}`);
  }
}

/** Parse a whole md5anim held in memory (a string is encoded as UTF-8 first). */
export function parseMd5Anim(input: Uint8Array | string): Md5Anim {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const p = new Md5AnimParser();
  p.write(bytes);
  return p.end();
}
