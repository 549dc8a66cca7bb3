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
import { Md5ParserBase, growF32, initialCapacity, inputBytes, md5Grammar, nextCapacity } from './parser-base.js';
import { decodeText } from '../../text/tokenizer.js';

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
   * In frame mode: convert each frame's values (default true) or only check them (`false`: `onFrame`'s
   * `components` then holds nothing meaningful). Everything else, every error and its position included, is as
   * when converting; frames are read 11-13% faster. `inspect` reads an md5anim this way.
   */
  keepValues?: boolean;
  /**
   * The input's total length, when known (`parseMd5Anim` passes it). After the first frame the frame store is sized
   * for the frames the rest of the input can hold at that frame's length (+5%), instead of growing by doubling:
   * one allocation, no copies. Still O(input): a frame of c values takes at least 2c bytes of text.
   */
  expectedBytes?: number;
}

/** md5anim keywords, spelled as in the file; the value doubles as the order rank (all are file level). */
enum Keyword {
  MD5Version,
  commandline,
  numFrames,
  numJoints,
  frameRate,
  numAnimatedComponents,
  hierarchy,
  bounds,
  baseframe,
  frame,
}

/** md5anim parser states, in file order; the first four are the shared header's, named as parser-base wants. */
enum State {
  VersionKw,
  Version,
  CommandlineKw,
  Commandline,
  NumFramesKw,
  NumFrames,
  NumJointsKw,
  NumJoints,
  FrameRateKw,
  FrameRate,
  NumComponentsKw,
  NumComponents,
  HierarchyKw,
  HierarchyOpen,
  HierarchyName,
  HierarchyParent,
  HierarchyFlags,
  HierarchyStart,
  BoundsKw,
  BoundsOpen,
  BoundOpen,
  BoundMin,
  BoundMinClose,
  BoundMaxOpen,
  BoundMax,
  BoundMaxClose,
  BaseframeKw,
  BaseframeOpen,
  BasePosOpen,
  BasePos,
  BasePosClose,
  BaseOriOpen,
  BaseOri,
  BaseOriClose,
  FrameKw,
  FrameIndex,
  FrameOpen,
  FrameValues,
  Done,
}

const GRAMMAR = /* @__PURE__ */ md5Grammar<State>({
  name: 'Md5AnimParser',
  keywords: Keyword,
  fileLevelLast: Keyword.frame,
  states: State,
  afterHeader: State.NumFramesKw,
  grammar: {
    [State.NumFramesKw]: { keyword: Keyword.numFrames, next: State.NumFrames },
    [State.NumFrames]: { expect: 'the frame count', numeric: true },
    [State.NumJointsKw]: { keyword: Keyword.numJoints, next: State.NumJoints },
    [State.NumJoints]: { expect: 'the joint count', numeric: true },
    [State.FrameRateKw]: { keyword: Keyword.frameRate, next: State.FrameRate },
    [State.FrameRate]: { expect: 'the frame rate', numeric: true },
    [State.NumComponentsKw]: { keyword: Keyword.numAnimatedComponents, next: State.NumComponents },
    [State.NumComponents]: { expect: 'the animated component count', numeric: true },
    [State.HierarchyKw]: { keyword: Keyword.hierarchy, next: State.HierarchyOpen },
    [State.HierarchyOpen]: { expect: "'{' after 'hierarchy'" },
    [State.HierarchyName]: { expect: "a joint name or '}'" },
    [State.HierarchyParent]: { expect: 'the joint parent index', numeric: true },
    [State.HierarchyFlags]: { expect: 'the joint flags', numeric: true },
    [State.HierarchyStart]: { expect: 'the joint start index', numeric: true },
    [State.BoundsKw]: { keyword: Keyword.bounds, next: State.BoundsOpen },
    [State.BoundsOpen]: { expect: "'{' after 'bounds'" },
    [State.BoundOpen]: { expect: "'(' or '}'" },
    [State.BoundMin]: { expect: 'a bounds minimum', numeric: true },
    [State.BoundMinClose]: { expect: "')' after the bounds minimum", punct: ')', next: State.BoundMaxOpen },
    [State.BoundMaxOpen]: { expect: "'(' before the bounds maximum", punct: '(', next: State.BoundMax },
    [State.BoundMax]: { expect: 'a bounds maximum', numeric: true },
    [State.BoundMaxClose]: { expect: "')' after the bounds maximum" },
    [State.BaseframeKw]: { keyword: Keyword.baseframe, next: State.BaseframeOpen },
    [State.BaseframeOpen]: { expect: "'{' after 'baseframe'" },
    [State.BasePosOpen]: { expect: "'(' or '}'" },
    [State.BasePos]: { expect: 'a baseframe position number', numeric: true },
    [State.BasePosClose]: { expect: "')' after the baseframe position", punct: ')', next: State.BaseOriOpen },
    [State.BaseOriOpen]: { expect: "'(' before the baseframe orientation", punct: '(', next: State.BaseOri },
    [State.BaseOri]: { expect: 'a baseframe orientation number', numeric: true },
    [State.BaseOriClose]: { expect: "')' after the baseframe orientation" },
    [State.FrameKw]: { expect: "'frame' or end of input", keyword: Keyword.frame },
    [State.FrameIndex]: { expect: 'the frame index', numeric: true },
    [State.FrameOpen]: { expect: "'{' after 'frame N'" },
    [State.FrameValues]: { expect: "a frame component or '}'", numeric: true },
    [State.Done]: { expect: 'nothing (parser finished)' },
  },
});

function popcount6(x: number): number {
  return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1) + ((x >> 5) & 1);
}

export class Md5AnimParser extends Md5ParserBase<Md5Anim, State> {
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
    this.floatRun.checkOnly = options.onFrame !== undefined && options.keepValues === false;
  }

  protected finish(): Md5Anim {
    this.blocksComplete(State.FrameKw, this.frame, this.numFrames, 'numFrames', 'frame');
    this.state = State.Done;
    const total = this.numFrames * this.numComp;
    const header = this.header();
    if (this.onFrame) return { ...header, frames: new Float32Array(0) };
    return { ...header, frames: this.frames.length === total ? this.frames : this.frames.slice(0, total) };
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
      case State.FrameValues: {
        // Most values arrive through the float run; this is the path for the odd one (exponent, long literal, a
        // literal split across chunks, a comment next to it) and for one too many.
        const run = this.floatRun;
        if (run.pos === run.end) {
          this.fail(ErrorCode.BadCount, `frame ${this.frame} has more than numAnimatedComponents ${this.numComp} values`);
        }
        run.out[run.pos++] = v;
        return;
      }
      case State.BoundMin:
        if (this.groupValue(this.bounds, this.boundSlot(), 3, v)) this.state = State.BoundMinClose;
        return;
      case State.BoundMax:
        if (this.groupValue(this.bounds, this.boundSlot() + 3, 3, v)) this.state = State.BoundMaxClose;
        return;
      case State.BasePos:
        if (this.groupValue(this.baseframe, this.joint * 6, 3, v)) this.state = State.BasePosClose;
        return;
      case State.BaseOri:
        if (this.groupValue(this.baseframe, this.joint * 6 + 3, 3, v)) this.state = State.BaseOriClose;
        return;
      case State.FrameIndex: {
        this.marker(v, integer, this.frame, 'frame');
        const run = this.floatRun;
        if (this.onFrame) {
          run.pos = run.end = 0;
        } else {
          if (this.frame === this.frameCap) {
            const cap = nextCapacity(this.frameCap, this.numFrames);
            this.frames = growF32(this.frames, cap * this.numComp);
            this.frameCap = cap;
          }
          run.pos = run.end = this.frame * this.numComp;
        }
        run.out = this.frames;
        this.state = State.FrameOpen;
        return;
      }
      case State.HierarchyParent:
        this.parent(v, integer);
        this.state = State.HierarchyFlags;
        return;
      case State.HierarchyFlags: {
        const f = this.int(v, integer, 'joint flags');
        if (f < 0 || f > 63) this.fail(ErrorCode.BadNumber, `joint ${this.joint} flags ${f} outside 0..63`);
        this.flags[this.joint] = f;
        this.state = State.HierarchyStart;
        return;
      }
      case State.HierarchyStart: {
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
        this.state = State.HierarchyName;
        return;
      }
      case State.NumFrames:
        this.numFrames = this.count(v, integer, LIMITS.maxFrames, 'numFrames');
        this.state = State.NumJointsKw;
        return;
      case State.NumJoints: {
        const n = this.jointCount(v, integer);
        this.flags = new Uint8Array(n);
        this.startIndices = new Uint32Array(n);
        this.baseframe = new Float32Array(n * 6);
        this.state = State.FrameRateKw;
        return;
      }
      case State.FrameRate:
        if (!(v > 0)) this.fail(ErrorCode.BadNumber, `frameRate ${v} must be positive`);
        this.frameRate = v;
        this.state = State.NumComponentsKw;
        return;
      case State.NumComponents: {
        const max = LIMITS.maxComponentsPerJoint * this.numJoints;
        this.numComp = this.count(v, integer, max, 'numAnimatedComponents');
        this.state = State.HierarchyKw;
        return;
      }
    }
    this.sharedNumber(v, integer);
  }

  /** Where the bounds entry being read lands: its own 6 floats, or slot 0 when bounds are only checked. */
  private boundSlot(): number {
    return this.keepBounds ? this.bound * 6 : 0;
  }

  punct(c: number): void {
    switch (this.state) {
      case State.FrameValues: {
        if (c !== 0x7d) break;
        const run = this.floatRun;
        if (run.pos !== run.end) {
          const got = this.numComp - (run.end - run.pos);
          this.fail(ErrorCode.BadCount, `frame ${this.frame} has ${got} values, numAnimatedComponents is ${this.numComp}`);
        }
        this.frame++;
        this.state = State.FrameKw;
        if (this.frame === 1 && this.expectedBytes > 0 && !this.onFrame) this.sizeFrameStore();
        if (this.onFrame) {
          const b = this.keepBounds ? this.bounds.subarray((this.frame - 1) * 6, this.frame * 6) : null;
          this.onFrame(this.frame - 1, this.frames, b);
        }
        return;
      }
      case State.BoundOpen:
        if (c === 0x7d) {
          this.listComplete(this.bound, this.numFrames, 'numFrames', "'bounds'");
          this.state = State.BaseframeKw;
          return;
        }
        if (c !== 0x28) break;
        this.blockHasRoom('bounds', this.bound, this.numFrames, 'numFrames');
        if (this.bound === this.boundsCap && this.keepBounds) {
          const cap = nextCapacity(this.boundsCap, this.numFrames);
          this.bounds = growF32(this.bounds, cap * 6);
          this.boundsCap = cap;
        }
        this.sub = 0;
        this.state = State.BoundMin;
        return;
      case State.BoundMaxClose:
        if (c !== 0x29) break;
        this.bound++;
        this.state = State.BoundOpen;
        return;
      case State.BasePosOpen:
        if (c === 0x7d) {
          this.listComplete(this.joint, this.numJoints, 'numJoints', "'baseframe'");
          this.frame = 0;
          this.frameCap = 0;
          this.state = State.FrameKw;
          this.onHeader?.(this.header());
          return;
        }
        if (c !== 0x28) break;
        this.blockHasRoom('baseframe', this.joint, this.numJoints, 'numJoints');
        this.sub = 0;
        this.state = State.BasePos;
        return;
      case State.BaseOriClose:
        if (c !== 0x29) break;
        this.joint++;
        this.state = State.BasePosOpen;
        return;
      case State.HierarchyName:
        if (c !== 0x7d) break;
        this.listComplete(this.joint, this.numJoints, 'numJoints', "'hierarchy'");
        this.state = State.BoundsKw;
        return;
      case State.HierarchyOpen:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = State.HierarchyName;
        return;
      case State.BoundsOpen:
        if (c !== 0x7b) break;
        this.bound = 0;
        this.boundsCap = this.keepBounds ? initialCapacity(this.numFrames) : 1;
        this.bounds = new Float32Array(this.boundsCap * 6);
        this.state = State.BoundOpen;
        return;
      case State.BaseframeOpen:
        if (c !== 0x7b) break;
        this.joint = 0;
        this.state = State.BasePosOpen;
        return;
      case State.FrameOpen: {
        if (c !== 0x7b) break;
        const run = this.floatRun;
        run.end = run.pos + this.numComp; // open the window: the tokenizer fills it
        this.state = State.FrameValues;
        return;
      }
    }
    this.sharedPunct(c);
  }

  string(buf: Uint8Array, start: number, end: number): void {
    switch (this.state) {
      case State.HierarchyName:
        this.blockHasRoom('hierarchy', this.joint, this.numJoints, 'numJoints');
        this.names.push(decodeText(buf, start, end));
        this.state = State.HierarchyParent;
        return;
    }
    this.sharedString(buf, start, end);
  }

  word(buf: Uint8Array, start: number, end: number): void {
    const k = this.keywordOf(buf, start, end);
    switch (this.state) {
      case State.FrameKw:
        if (k === Keyword.frame) {
          this.listHasRoom(this.frame, this.numFrames, 'frame blocks', 'numFrames');
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
          this.state = State.FrameIndex;
          return;
        }
        break;
    }
    this.sharedWord(k, buf, start, end);
  }
}

/** Parse a whole md5anim held in memory (a string is encoded as UTF-8 first). */
export function parseMd5Anim(input: Uint8Array | string): Md5Anim {
  const bytes = inputBytes(input);
  const p = new Md5AnimParser({ expectedBytes: bytes.length });
  p.write(bytes);
  return p.end();
}
