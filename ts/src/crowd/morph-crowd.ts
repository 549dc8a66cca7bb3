/**
 * A crowd of one vertex-animated model (a morph view, `formats/model-view.ts`, of any vertex-frame format): N
 * instances, each at its own time in its own clip, posed into **two frame numbers and a blend per instance** — what a
 * vertex shader needs to blend two rows of a texture holding every frame (`frameTable`, decoded once through the
 * view's poser: `three/crowd.ts` uploads it as it is). Nothing per vertex is touched per frame on the CPU.
 */
import type { MorphClipView, MorphModelView } from '../formats/model-view.js';
import { keyAt, type ClockClip, type KeyBlend } from './clock.js';
import { advance, crowdInstances, type CrowdInstances, type CrowdStart } from './instances.js';

/** A morph crowd's clip: its name, its keys' times and the model frame each key shows. */
export interface MorphCrowdClip extends ClockClip {
  name: string;
  frames: readonly number[];
}

export interface MorphCrowd extends CrowdInstances {
  readonly kind: 'morph';
  readonly clips: readonly MorphCrowdClip[];
  readonly frameCount: number;
  readonly vertexCount: number;
  /** Per instance: the two model frames it blends (2 per instance). */
  readonly frames: Uint32Array;
  /** Per instance: the second frame's weight. */
  readonly blend: Float32Array;
  /** What each instance costs: its two frames and blend (12 bytes) and its state (clip, time, speed: 16 bytes). */
  readonly bytesPerInstance: number;
  /** Every instance's clock moved on by `dt` seconds (at its speed), then all posed. */
  update(dt: number): void;
  /** All posed at their current times. */
  pose(): void;
  dispose(): void;
}

export type MorphCrowdOptions = CrowdStart;

/** Key times of a morph clip: its own `times`, else k · step. */
export function morphClipTimes(c: MorphClipView): Float64Array {
  return Float64Array.from(c.frames, (_, k) => (c.times ? c.times[k] : k * c.step));
}

/** The crowd of `count` instances of `view` (the view and its poser stay the caller's). */
export function createMorphCrowd(view: MorphModelView, count: number, options: MorphCrowdOptions = {}): MorphCrowd {
  const clips: MorphCrowdClip[] = view.clips.map((c) => ({ name: c.name, times: morphClipTimes(c), loop: c.loop, frames: c.frames }));
  const instances = crowdInstances(count, clips, options);
  const frames = new Uint32Array(count * 2), blend = new Float32Array(count);
  const at: KeyBlend = { a: 0, b: 0, t: 0 };
  let disposed = false;
  const pose = () => {
    if (disposed) throw new Error('this crowd was disposed: create a new one');
    const { clip, time } = instances;
    for (let i = 0; i < count; i++) {
      const c = clip[i];
      if (c >= clips.length) throw new RangeError(`instance ${i} plays clip ${c}: the model has clips 0 to ${clips.length - 1}`);
      const cl = clips[c];
      keyAt(cl, time[i], at);
      frames[i * 2] = cl.frames[at.a];
      frames[i * 2 + 1] = cl.frames[at.b];
      blend[i] = at.t;
    }
  };
  return {
    kind: 'morph',
    ...instances,
    clips,
    frameCount: view.frameCount,
    vertexCount: view.vertexCount,
    frames,
    blend,
    bytesPerInstance: 12 + 16,
    update(dt) {
      advance(instances, dt);
      pose();
    },
    pose,
    dispose() {
      disposed = true;
    },
  };
}

/**
 * Every frame of `view` decoded once through its poser: positions and normals, frame after frame (3 floats per
 * vertex each) — the frame texture a crowd's vertex shader blends. frameCount · vertexCount · 24 bytes.
 */
export function morphFrameTable(view: MorphModelView): { positions: Float32Array; normals: Float32Array } {
  const n = view.vertexCount * 3;
  const positions = new Float32Array(view.frameCount * n), normals = new Float32Array(view.frameCount * n);
  for (let f = 0; f < view.frameCount; f++) {
    const p = view.poser.pose(f, f, 0);
    positions.set(p.positions.subarray(0, n), f * n);
    normals.set(p.normals.subarray(0, n), f * n);
  }
  return { positions, normals };
}
