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
 * Frames here are raw (the file's components). Composing them into joint poses is the pose layer's job:
 * `formats/md5/composed-frames.ts` passes a per-frame step through `hooks` (`{ pose: backend }` in the public API).
 */
import type { ByteSource, ReadOptions } from '../../base/source.js';
import { Md5AnimParser, type Md5AnimHeader } from './anim.js';
import { openElements, type ElementHooks, type ElementReader } from './pull.js';

export interface Md5AnimFrame {
  /** 0-based frame number. */
  index: number;
  /** The frame's `componentCount` values as in the file. Reused for the next frame. */
  components: Float32Array;
  /** This frame's bounds (min xyz, max xyz), or null when the stream was opened with `keepBounds: false`. */
  bounds: Float32Array | null;
  /** Composed local joint poses (8 floats per joint) when a pose step runs (`{ pose }`), else null. Reused. */
  local: Float32Array | null;
  /** Composed object-space joint poses (8 floats per joint) when a pose step runs, else null. Reused. */
  object: Float32Array | null;
}

export interface FrameStreamOptions extends ReadOptions {
  /**
   * Keep the bounds of every frame (24 bytes per frame, read before the first frame; default true). With false
   * the bounds block is still checked, memory stays constant, and `frame.bounds` / `header.bounds` are empty.
   */
  keepBounds?: boolean;
}

/** An opened md5anim: its header, and its frames as a one-shot async iterable. */
export type Md5AnimFrameReader = ElementReader<Md5AnimHeader, Md5AnimFrame>;

/**
 * Reads `source` up to its first frame; the frames follow as the reader is iterated. `hooks`, called once the header
 * is known, may add a step run on every frame before it is handed out (and its clean-up).
 */
export function openMd5AnimFrames(
  source: ByteSource,
  options: FrameStreamOptions = {},
  hooks?: (header: Md5AnimHeader) => ElementHooks<Md5AnimFrame>,
): Promise<Md5AnimFrameReader> {
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
    hooks,
  );
}

/**
 * Callback form: `onFrame` is called for every frame, in order, and awaited when it returns a promise (the next
 * frame is not read before). Resolves with the header once the whole file is read and checked.
 */
export async function forEachFrame(
  reader: Md5AnimFrameReader,
  onFrame: (frame: Md5AnimFrame, header: Md5AnimHeader) => void | Promise<void>,
): Promise<Md5AnimHeader> {
  for await (const f of reader) {
    const r = onFrame(f, reader.header);
    if (r) await r;
  }
  return reader.header;
}

/** {@link forEachFrame} over {@link openMd5AnimFrames}`(source, options)`. */
export async function forEachMd5AnimFrame(
  source: ByteSource,
  onFrame: (frame: Md5AnimFrame, header: Md5AnimHeader) => void | Promise<void>,
  options: FrameStreamOptions = {},
): Promise<Md5AnimHeader> {
  return forEachFrame(await openMd5AnimFrames(source, options), onFrame);
}
