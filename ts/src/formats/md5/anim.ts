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
 *
 * Frame mode (`onFrame`): frames are not stored; each is parsed into one reused buffer and handed to `onFrame`
 * when its `}` is read, so memory stays constant whatever the frame count (with `keepBounds: false` the bounds
 * block is checked but not kept either). `frame-stream.ts` builds the async-iterator and callback APIs on it.
 *
 * Speed: a frame's values go through the tokenizer's float run (see {@link FloatRun}): no callback per number.
 */
import { ErrorCode } from '../../base/errors.js';
import type { Md5Anim } from '../../base/model.js';
import { LIMITS } from './limits.js';
import { H_CMD, H_NEXT, H_VERSION, H_VERSION_KW, Md5ParserBase, growF32, md5Grammar } from './parser-base.js';
import { decodeText, KeywordTable } from '../../text/tokenizer.js';

/** Everything of an md5anim but its frames: what a frame stream knows before the first frame. */
export type Md5AnimHeader = Omit<Md5Anim, 'frames'>;

export interface Md5AnimParserOptions {
  /**
   * Frame mode: called with each frame as soon as it is read, instead of storing it. `components` (componentCount
   * floats) and `bounds` (min xyz, max xyz; null with `keepBounds: false`) are only valid during the call. The
   * callback may call {@link Md5AnimParser.pause}. `end()` then returns the anim with an empty `frames` array.
   */
  onFrame?: (index: number, components: Float32Array, bounds: Float32Array | null) => void;
  /** Called once hierarchy, bounds and baseframe are read, before the first frame (may call `pause`). */
  onHeader?: (header: Md5AnimHeader) => void;
  /** In frame mode: keep the per-frame bounds (24 bytes per frame; default true) or only check them. */
  keepBounds?: boolean;
  /**
   * The input's total length, when known (`parseMd5Anim` passes it). After the first frame the frame store is sized
   * for the frames the rest of the input can hold at that frame's length (+5%), instead of growing by doubling:
   * one allocation, no copies. Still O(input): a frame of c values takes at least 2c bytes of text.
   */
  expectedBytes?: number;
}

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
const K_NUMFRAMES = 2;
const K_NUMJOINTS = 3;
const K_FRAMERATE = 4;
const K_NUMCOMP = 5;
const K_HIERARCHY = 6;
const K_BOUNDS = 7;
const K_BASEFRAME = 8;
const K_FRAME = 9;

// Parser states (0..3: the header states H_* of parser-base).
const A_NUMFRAMES_KW = H_NEXT;
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

const GRAMMAR = md5Grammar({
  name: 'Md5AnimParser',
  keywords: KW,
  // all md5anim keywords are file level
  fileLevelLast: K_FRAME,
  /** What each state wants, for messages. */
  expect: [
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
  ],
  /** The keyword a state is waiting for (for MISSING_BLOCK / DUPLICATE_BLOCK). */
  waits: [
    [A_NUMFRAMES_KW, K_NUMFRAMES],
    [A_NUMJOINTS_KW, K_NUMJOINTS],
    [A_FRAMERATE_KW, K_FRAMERATE],
    [A_NUMCOMP_KW, K_NUMCOMP],
    [A_HIER_KW, K_HIERARCHY],
    [A_BOUNDS_KW, K_BOUNDS],
    [A_BASE_KW, K_BASEFRAME],
    [A_FRAME_KW, K_FRAME],
  ],
  /** States whose next token is a number (a `nan`/`inf` word there is BAD_NUMBER, not UNEXPECTED_TOKEN). */
  numericStates: [
    A_NUMFRAMES, A_NUMJOINTS, A_FRAMERATE, A_NUMCOMP, A_HIER_PARENT, A_HIER_FLAGS, A_HIER_START, A_BOUND_MIN,
    A_BOUND_MAX, A_BASE_POS, A_BASE_ORI, A_FRAME_IDX, A_FRAME_VALUES,
  ],
});

function popcount6(x: number): number {
  return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1) + ((x >> 5) & 1);
}

export class Md5AnimParser extends Md5ParserBase<Md5Anim> {
  private numFrames = 0;
  private frameRate = 0;
  private numComp = 0;
  private flags: Uint8Array = new Uint8Array(0);
  private startIndices: Uint32Array = new Uint32Array(0);
  private baseframe: Float32Array = new Float32Array(0);

  private bounds: Float32Array = new Float32Array(0);
  private boundsCap = 0;
  private bound = 0;

  /** All frames (stored mode) or the current frame (frame mode); `floatRun.out` is this while a frame is read. */
  private frames: Float32Array = new Float32Array(0);
  /** Capacity of `frames`, in frames. */
  private frameCap = 0;
  private frame = 0;

  /** Offset of the first `frame` keyword (for the size estimate of `expectedBytes`). */
  private frame0Offset = 0;
  private readonly expectedBytes: number;
  private readonly onFrame: Md5AnimParserOptions['onFrame'];
  private readonly onHeader: Md5AnimParserOptions['onHeader'];
  /** False only in frame mode with `keepBounds: false`: every bounds entry lands in slot 0. */
  private readonly keepBounds: boolean;

  constructor(options: Md5AnimParserOptions = {}) {
    super(GRAMMAR);
    this.onFrame = options.onFrame;
    this.onHeader = options.onHeader;
    this.keepBounds = options.onFrame === undefined || options.keepBounds !== false;
    this.expectedBytes = options.expectedBytes ?? 0;
  }

  protected finish(): Md5Anim {
    if (this.state === A_FRAME_KW && this.frame === this.numFrames) {
      this.state = A_DONE;
      const total = this.numFrames * this.numComp;
      const header = this.header();
      if (this.onFrame) return { ...header, frames: new Float32Array(0) };
      return { ...header, frames: this.frames.length === total ? this.frames : this.frames.slice(0, total) };
    }
    this.endOfInput(
      this.state === A_FRAME_KW,
      `numFrames is ${this.numFrames} but the file has ${this.frame} frame block(s)`,
    );
  }

  private header(): Md5AnimHeader {
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
      bounds: this.keepBounds ? this.bounds : new Float32Array(0),
      baseframe: this.baseframe,
    };
  }

  /** After frame 0 (with `expectedBytes`): grow the store once to the frames the rest of the input can hold. */
  private sizeFrameStore(): void {
    const frameBytes = this.tok.tokenOffset + 1 - this.frame0Offset;
    const estimate = Math.min(this.numFrames, Math.ceil(((this.expectedBytes - this.frame0Offset) / frameBytes) * 1.05) + 1);
    if (estimate > this.frameCap) {
      this.frames = growF32(this.frames, estimate * this.numComp);
      this.frameCap = estimate;
    }
  }

  // --- token callbacks -------------------------------------------------------------------------------------

  number(v: number, integer: boolean): void {
    switch (this.state) {
      case A_FRAME_VALUES: {
        // Most values arrive through the float run; this is the path for the odd one (exponent, long literal, a
        // literal split across chunks, a comment next to it) and for one too many.
        const run = this.floatRun;
        if (run.pos === run.end) {
          this.fail(ErrorCode.BadCount, `frame ${this.frame} has more than numAnimatedComponents ${this.numComp} values`);
        }
        run.out[run.pos++] = v;
        return;
      }
      case A_BOUND_MIN:
      case A_BOUND_MAX: {
        this.bounds[(this.keepBounds ? this.bound * 6 : 0) + this.sub] = v;
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
        this.marker(v, integer, this.frame, 'frame');
        const run = this.floatRun;
        if (this.onFrame) {
          run.pos = run.end = 0;
        } else {
          if (this.frame === this.frameCap) {
            const cap = Math.min(this.frameCap * 2, this.numFrames);
            this.frames = growF32(this.frames, cap * this.numComp);
            this.frameCap = cap;
          }
          run.pos = run.end = this.frame * this.numComp;
        }
        run.out = this.frames;
        this.state = A_FRAME_OPEN;
        return;
      }
      case A_HIER_PARENT: {
        this.parent(v, integer);
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
      case H_VERSION:
        this.versionNumber(v, integer);
        return;
      case A_NUMFRAMES: {
        this.numFrames = this.count(v, integer, LIMITS.maxFrames, 'numFrames');
        this.state = A_NUMJOINTS_KW;
        return;
      }
      case A_NUMJOINTS: {
        const n = this.jointCount(v, integer);
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
        this.wrongNumber(v);
    }
  }

  punct(c: number): void {
    switch (this.state) {
      case A_FRAME_VALUES: {
        if (c !== 0x7d) break;
        const run = this.floatRun;
        if (run.pos !== run.end) {
          const got = this.numComp - (run.end - run.pos);
          this.fail(ErrorCode.BadCount, `frame ${this.frame} has ${got} values, numAnimatedComponents is ${this.numComp}`);
        }
        this.frame++;
        this.state = A_FRAME_KW;
        if (this.frame === 1 && this.expectedBytes > 0 && !this.onFrame) this.sizeFrameStore();
        if (this.onFrame) {
          const b = this.keepBounds ? this.bounds.subarray((this.frame - 1) * 6, this.frame * 6) : null;
          this.onFrame(this.frame - 1, this.frames, b);
        }
        return;
      }
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
        if (this.bound === this.boundsCap && this.keepBounds) {
          const cap = Math.min(this.boundsCap * 2, this.numFrames);
          this.bounds = growF32(this.bounds, cap * 6);
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
          this.onHeader?.(this.header());
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
        this.boundsCap = this.keepBounds ? Math.min(this.numFrames, LIMITS.initialElements) : 1;
        this.bounds = new Float32Array(this.boundsCap * 6);
        this.state = A_BOUND_OPEN;
        return;
      case A_BASE_OPEN:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = A_BASE_POS_OPEN;
        return;
      case A_FRAME_OPEN: {
        if (c !== 0x7b) break;
        const run = this.floatRun;
        run.end = run.pos + this.numComp; // open the window: the tokenizer fills it
        this.state = A_FRAME_VALUES;
        return;
      }
      default:
        break;
    }
    this.wrongPunct(c);
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
      case H_CMD:
        this.commandlineString(buf, start, end);
        return;
      default:
        this.wrongString(buf, start, end);
    }
  }

  word(buf: Uint8Array, start: number, end: number): void {
    const k = KEYWORDS.index(buf, start, end);
    switch (this.state) {
      case A_FRAME_KW:
        if (k === K_FRAME) {
          if (this.frame === this.numFrames) {
            this.fail(ErrorCode.BadCount, `more frame blocks than numFrames ${this.numFrames}`);
          }
          if (this.frameCap === 0 && this.onFrame) {
            // Frame mode: one frame's buffer, reused.
            this.frameCap = 1;
            this.frames = new Float32Array(this.numComp);
          } else if (this.frameCap === 0 && this.numFrames > 0) {
            // First frame: allocate a modest store; it doubles as frames arrive (or is sized once after frame 0).
            this.frame0Offset = this.tok.tokenOffset;
            const perFrame = Math.max(1, this.numComp);
            this.frameCap = Math.min(this.numFrames, Math.max(1, Math.floor(LIMITS.initialFrameFloats / perFrame)));
            this.frames = new Float32Array(this.frameCap * this.numComp);
          }
          this.state = A_FRAME_IDX;
          return;
        }
        break;
      case H_VERSION_KW:
        this.versionWord(k, buf, start, end);
        return;
      default:
        if (this.nextOnKeyword(k)) return;
        break;
    }
    this.wrongWord(k, buf, start, end);
  }
}

/** Parse a whole md5anim held in memory (a string is encoded as UTF-8 first). */
export function parseMd5Anim(input: Uint8Array | string): Md5Anim {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const p = new Md5AnimParser({ expectedBytes: bytes.length });
  p.write(bytes);
  return p.end();
}
