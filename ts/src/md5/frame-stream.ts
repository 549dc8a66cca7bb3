/**
 * md5anim frames as a stream: the header first, then one frame at a time, in constant memory whatever the file's
 * length. Two forms over one engine ({@link pullElements}):
 *
 *   const anim = await openMd5AnimFrames(source, { signal });   // reads up to the first frame
 *   anim.header.frameCount;
 *   for await (const f of anim) use(f.index, f.components);     // or break: the source is released
 *
 *   await forEachMd5AnimFrame(source, async (f, header) => { … }); // the next frame is read when the promise settles
 *
 * Backpressure: a frame is parsed only when the consumer asks for it, and a chunk is read only when the previous
 * one is used up; nothing is queued. A frame's arrays are reused: copy what you keep.
 *
 * With `pose` (a backend from `createBackend`), every frame is also composed (flags + baseframe → local joint poses)
 * and carried to object space by that backend's kernels: `f.local` / `f.object`, 8 floats per joint
 * (`tx ty tz 0 qx qy qz qw`, see pose/layout.ts).
 */
import type { F32, I32, PoseBackend, U32, U8 } from '../pose/backend.js';
import { POSE_STRIDE } from '../pose/layout.js';
import type { ByteSource, ReadOptions } from '../source.js';
import { Md5AnimParser, type Md5AnimHeader } from './anim.js';
import { openElements, type ElementReader } from './pull.js';

export interface Md5AnimFrame {
  /** 0-based frame number. */
  index: number;
  /** The frame's `componentCount` values as in the file. Reused for the next frame. */
  components: Float32Array;
  /** This frame's bounds (min xyz, max xyz), or null when the stream was opened with `keepBounds: false`. */
  bounds: Float32Array | null;
  /** With `pose`: local joint poses, 8 floats per joint. Reused for the next frame. */
  local: Float32Array | null;
  /** With `pose`: object-space joint poses, 8 floats per joint. Reused for the next frame. */
  object: Float32Array | null;
}

export interface FrameStreamOptions extends ReadOptions {
  /**
   * Keep the bounds of every frame (24 bytes per frame, read before the first frame; default true). With false
   * the bounds block is still checked, memory stays constant, and `frame.bounds` / `header.bounds` are empty.
   */
  keepBounds?: boolean;
  /** Compose each frame into local and object joint poses with this backend's kernels. */
  pose?: PoseBackend;
}

/** An opened md5anim: its header, and its frames as a one-shot async iterable. */
export type Md5AnimFrameReader = ElementReader<Md5AnimHeader, Md5AnimFrame>;

/** Reads `source` up to its first frame; the frames follow as the reader is iterated. */
export function openMd5AnimFrames(source: ByteSource, options: FrameStreamOptions = {}): Promise<Md5AnimFrameReader> {
  // One frame object for the whole stream: its fields are re-pointed at each frame.
  const frame: Md5AnimFrame = { index: -1, components: new Float32Array(0), bounds: null, local: null, object: null };
  return openElements<Md5AnimHeader, Md5AnimFrame>(
    (onHeader, onFrame) =>
      new Md5AnimParser({
        keepBounds: options.keepBounds,
        onHeader,
        onFrame: (index, components, bounds) => {
          frame.index = index;
          frame.components = components;
          frame.bounds = bounds;
          onFrame(frame);
        },
      }),
    source,
    options,
    (header) => {
      if (!options.pose) return {};
      const composer = new FrameComposer(options.pose, header);
      return { each: (f) => composer.compose(f), release: () => composer.release() };
    },
  );
}

/**
 * Callback form: `onFrame` is called for every frame, in order, and awaited when it returns a promise (the next
 * frame is not read before). Resolves with the header once the whole file is read and checked.
 */
export async function forEachMd5AnimFrame(
  source: ByteSource,
  onFrame: (frame: Md5AnimFrame, header: Md5AnimHeader) => void | Promise<void>,
  options: FrameStreamOptions = {},
): Promise<Md5AnimHeader> {
  const reader = await openMd5AnimFrames(source, options);
  for await (const f of reader) {
    const r = onFrame(f, reader.header);
    if (r) await r;
  }
  return reader.header;
}

/** Per-stream kernel buffers: allocated once, then compose + local→object per frame, nothing allocated per frame. */
class FrameComposer {
  private readonly backend: PoseBackend;
  private readonly componentCount: number;
  private readonly parents: I32;
  private readonly flags: U8;
  private readonly startIndex: U32;
  private readonly baseframe: F32;
  private readonly frame: F32;
  private readonly local: F32;
  private readonly object: F32;

  constructor(backend: PoseBackend, header: Md5AnimHeader) {
    const b = (this.backend = backend);
    const n = header.jointCount;
    this.componentCount = header.componentCount;
    this.parents = b.i32(n);
    this.flags = b.u8(n);
    this.startIndex = b.u32(n);
    this.baseframe = b.f32(n * 6);
    this.frame = b.f32(header.componentCount);
    this.local = b.f32(n * POSE_STRIDE);
    this.object = b.f32(n * POSE_STRIDE);
    // Views are read after the last allocation (WASM memory growth re-creates them).
    this.parents.view.set(header.parents);
    this.flags.view.set(header.flags);
    this.startIndex.view.set(header.startIndices);
    this.baseframe.view.set(header.baseframe);
    // The parser has checked parents and component ranges; the kernels' own validation must agree.
    if (b.validateParents(this.parents) !== -1 || b.validateAnim(this.flags, this.startIndex, this.componentCount) !== -1) {
      throw new Error('md5anim header rejected by the pose backend after the parser accepted it');
    }
  }

  compose(f: Md5AnimFrame): void {
    const b = this.backend;
    this.frame.view.set(f.components);
    b.composeFrame(this.flags, this.startIndex, this.baseframe, this.frame, 0, this.componentCount, this.local);
    b.localToObject(this.parents, this.local, this.object);
    f.local = this.local.view;
    f.object = this.object.view;
  }

  release(): void {
    for (const buf of [this.parents, this.flags, this.startIndex, this.baseframe, this.frame, this.local, this.object]) {
      this.backend.release(buf);
    }
  }
}
