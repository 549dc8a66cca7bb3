/**
 * md5anim frames streamed and composed: the format layer's frame stream (`formats/md5/frame-stream.ts`) with one
 * step added per frame — flags + baseframe → local joint poses → object space, by a backend's kernels. Buffers are
 * allocated once per stream; nothing is allocated per frame.
 *
 *   for await (const f of await openMd5AnimFrames(source, { pose: backend })) use(f.object);
 */
import type { ByteSource } from '../../base/source.js';
import type { Md5AnimHeader } from './anim.js';
import {
  forEachFrame,
  openMd5AnimFrames as openRawFrames,
  type FrameStreamOptions,
  type Md5AnimFrame,
  type Md5AnimFrameReader,
} from './frame-stream.js';
import type { ElementHooks } from './pull.js';
import type { ComposeJob, F32, I32, LocalToObjectJob, PoseBackend, U32, U8 } from '../../kernels/backend.js';
import { BASEFRAME_STRIDE, POSE_STRIDE } from '../../kernels/layout.js';

export interface PosedFrameStreamOptions extends FrameStreamOptions {
  /** Compose each frame into `frame.local` and `frame.object` (8 floats per joint) with this backend's kernels. */
  pose?: PoseBackend;
}

/** Reads `source` up to its first frame; with `pose`, every frame handed out carries its joint poses. */
export function openMd5AnimFrames(source: ByteSource, options: PosedFrameStreamOptions = {}): Promise<Md5AnimFrameReader> {
  const backend = options.pose;
  return openRawFrames(source, options, backend ? (header) => composer(backend, header) : undefined);
}

/** The callback form of {@link openMd5AnimFrames}: `onFrame` is awaited before the next frame is read. */
export async function forEachMd5AnimFrame(
  source: ByteSource,
  onFrame: (frame: Md5AnimFrame, header: Md5AnimHeader) => void | Promise<void>,
  options: PosedFrameStreamOptions = {},
): Promise<Md5AnimHeader> {
  return forEachFrame(await openMd5AnimFrames(source, options), onFrame);
}

/** Per-stream kernel buffers and jobs, then compose + local→object per frame. */
function composer(b: PoseBackend, header: Md5AnimHeader): ElementHooks<Md5AnimFrame> {
  const n = header.jointCount;
  const cc = header.componentCount;
  const m = b.memory;
  const parents: I32 = m.i32(n);
  const flags: U8 = m.u8(n);
  const startIndex: U32 = m.u32(n);
  const baseframe: F32 = m.f32(n * BASEFRAME_STRIDE);
  const frame: F32 = m.f32(cc);
  const local: F32 = m.f32(n * POSE_STRIDE);
  const object: F32 = m.f32(n * POSE_STRIDE);
  const all = [parents, flags, startIndex, baseframe, frame, local, object];
  const release = () => {
    if (!b.disposed) for (const buf of all) m.release(buf);
  };
  // Views are read after the last allocation (WASM memory growth re-creates them).
  parents.view.set(header.parents);
  flags.view.set(header.flags);
  startIndex.view.set(header.startIndices);
  baseframe.view.set(header.baseframe);
  const k = b.kernels;
  // The parser has checked parents and component ranges; the kernels' own validation must agree.
  if (k.validateParents({ parents }) !== -1 || k.validateAnim({ flags, startIndex, baseframe, componentCount: cc }) !== -1) {
    release();
    throw new Error('md5anim header rejected by the pose backend after the parser accepted it');
  }
  const compose: ComposeJob = { flags, startIndex, baseframe, frames: frame, componentCount: cc, frame: 0, out: local };
  const toObject: LocalToObjectJob = { parents, local, out: object };
  return {
    each(f) {
      frame.view.set(f.components);
      k.composeFrame(compose);
      k.localToObject(toObject);
      f.local = local.view;
      f.object = object.view;
    },
    release,
  };
}
