/**
 * A crowd of one skinned model (a skinned view, `formats/model-view.ts`, of any skeletal format): N instances, each
 * at its own time in its own clip, posed by **one** kernel job per `update` (`crowdPalettes`, `crates/core/src/crowd.rs`
 * and its TS mirror) into every instance's joint palette — a row-major 3×4 skinning matrix per joint, object space
 * of the model's own axes, what a GPU skin reads (`three/crowd.ts` puts it in a texture as it is).
 *
 * Everything is laid out once: every clip's keys back to back (translation, rotation, scale per joint, key after key),
 * the parents, the inverse binds; a pose then writes two key indices and two weights per instance and runs the job.
 */
import type { F32, I32, PoseBackend, U32 } from '../kernels/backend.js';
import type { CrowdPalettesJob } from '../kernels/backend.js';
import { crowdPalettesJob } from '../kernels/ts-crowd-kernels.js';
import { CROWD_INSTANCE_STRIDE, CROWD_KEY_STRIDE, CROWD_PALETTE_STRIDE } from '../kernels/layout.js';
import type { SkinnedModelView } from '../formats/model-view.js';
import { keyAt, type ClockClip, type KeyBlend } from './clock.js';
import { advance, crowdInstances, type CrowdInstances, type CrowdStart } from './instances.js';

/** A skinned crowd's clip: its name, its keys' times, how it plays. */
export interface CrowdClip extends ClockClip {
  name: string;
}

export interface SkinnedCrowd extends CrowdInstances {
  readonly kind: 'skinned';
  readonly clips: readonly CrowdClip[];
  /** Joints per instance (palette entries). */
  readonly joints: number;
  /** Floats per joint in `palettes()`: 12, a row-major 3×4. */
  readonly paletteStride: number;
  /** What each instance costs: its palette (joints · 48 bytes) and its state (clip, time, speed, keys, blends: 32 bytes). */
  readonly bytesPerInstance: number;
  /** Every instance's clock moved on by `dt` seconds (at its speed), then all posed: one job. */
  update(dt: number): void;
  /** All posed at their current times (after writing `time`, `clip` or `speed` directly): one job. */
  pose(): void;
  /**
   * The palettes: instance i's joint j at `(i · joints + j) · 12`, row-major 3×4 (rows: x, y, z; columns: the three
   * axes and the translation). A view on the backend's memory: read it again after any allocation on the backend.
   */
  palettes(): Float32Array;
  /** Releases the crowd's kernel buffers; later calls throw. */
  dispose(): void;
}

export interface SkinnedCrowdOptions extends CrowdStart {
  backend: PoseBackend;
}

/** Column-major 4×4 (the view's inverse binds) → row-major 3×4, joint after joint. */
function rowMajor34(colMajor: ArrayLike<number>, joints: number, out: Float32Array): void {
  for (let j = 0; j < joints; j++) {
    for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) out[j * 12 + r * 4 + c] = colMajor[j * 16 + c * 4 + r];
  }
}

/** The crowd of `count` instances of `view` (the view stays the caller's: the crowd copies what it poses from). */
export function createSkinnedCrowd(view: SkinnedModelView, count: number, options: SkinnedCrowdOptions): SkinnedCrowd {
  const backend = options.backend;
  const joints = view.joints.parents.length;
  const clips: CrowdClip[] = view.clips.map((c) => ({ name: c.name, times: c.times, loop: c.loop }));
  const instances = crowdInstances(count, clips, options);
  const firstKey: number[] = [];
  const scaleSteps: boolean[] = [];
  let keyTotal = 0;
  for (const c of view.clips) {
    firstKey.push(keyTotal);
    keyTotal += c.times.length;
    scaleSteps.push(c.joints.some((j) => j.scaleStep === true));
  }
  const mem = backend.memory;
  const held: (F32 | I32 | U32)[] = [];
  const hold = <B extends F32 | I32 | U32>(b: B): B => (held.push(b), b);
  const parents = hold(mem.i32(joints));
  const invBind = hold(mem.f32(joints * CROWD_PALETTE_STRIDE));
  const keys = hold(mem.f32(keyTotal * joints * CROWD_KEY_STRIDE));
  const instanceKeys = hold(mem.u32(count * CROWD_INSTANCE_STRIDE));
  const instanceBlend = hold(mem.f32(count * CROWD_INSTANCE_STRIDE));
  const scratch = hold(mem.f32(joints * CROWD_PALETTE_STRIDE));
  const out = hold(mem.f32(count * joints * CROWD_PALETTE_STRIDE));
  // views are read after every allocation above (a WASM memory may have grown)
  parents.view.set(Array.from(view.joints.parents));
  rowMajor34(view.joints.inverseBind, joints, invBind.view);
  const k = keys.view;
  view.clips.forEach((c, ci) => {
    for (let key = 0; key < c.times.length; key++) {
      const base = (firstKey[ci] + key) * joints * CROWD_KEY_STRIDE;
      for (let j = 0; j < joints; j++) {
        const o = base + j * CROWD_KEY_STRIDE;
        const track = c.joints[j];
        if (!track) {
          // a clip without this joint: its bind pose (the view's parent-relative transform)
          const t = view.joints.translations, r = view.joints.rotations, s = view.joints.scales;
          k[o] = t[j * 3]; k[o + 1] = t[j * 3 + 1]; k[o + 2] = t[j * 3 + 2];
          k[o + 3] = r[j * 4]; k[o + 4] = r[j * 4 + 1]; k[o + 5] = r[j * 4 + 2]; k[o + 6] = r[j * 4 + 3];
          k[o + 7] = s ? s[j * 3] : 1; k[o + 8] = s ? s[j * 3 + 1] : 1; k[o + 9] = s ? s[j * 3 + 2] : 1;
          continue;
        }
        const tr = track.translation, ro = track.rotation, sc = track.scale;
        k[o] = tr[key * 3]; k[o + 1] = tr[key * 3 + 1]; k[o + 2] = tr[key * 3 + 2];
        k[o + 3] = ro[key * 4]; k[o + 4] = ro[key * 4 + 1]; k[o + 5] = ro[key * 4 + 2]; k[o + 6] = ro[key * 4 + 3];
        k[o + 7] = sc ? sc[key * 3] : 1; k[o + 8] = sc ? sc[key * 3 + 1] : 1; k[o + 9] = sc ? sc[key * 3 + 2] : 1;
      }
    }
  });
  const job: CrowdPalettesJob = { parents, invBind, keys, instanceKeys, instanceBlend, scratch, out, instanceCount: count };
  const at: KeyBlend = { a: 0, b: 0, t: 0 };
  let disposed = false;

  const pose = () => {
    if (disposed) throw new Error('this crowd was disposed: create a new one');
    const ik = instanceKeys.view, ib = instanceBlend.view;
    const { clip, time } = instances;
    for (let i = 0; i < count; i++) {
      const c = clip[i];
      if (c >= clips.length) throw new RangeError(`instance ${i} plays clip ${c}: the model has clips 0 to ${clips.length - 1}`);
      keyAt(clips[c], time[i], at);
      ik[i * 2] = firstKey[c] + at.a;
      ik[i * 2 + 1] = firstKey[c] + at.b;
      ib[i * 2] = at.t;
      ib[i * 2 + 1] = scaleSteps[c] ? 0 : at.t;
    }
    runCrowdPalettes(backend, job);
  };

  return {
    kind: 'skinned',
    ...instances,
    clips,
    joints,
    paletteStride: CROWD_PALETTE_STRIDE,
    bytesPerInstance: joints * CROWD_PALETTE_STRIDE * 4 + 4 + 8 + 4 + CROWD_INSTANCE_STRIDE * 8,
    update(dt) {
      advance(instances, dt);
      pose();
    },
    pose,
    palettes: () => {
      if (disposed) throw new Error('this crowd was disposed: create a new one');
      return out.view;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const b of held) if (!backend.disposed) backend.memory.release(b);
    },
  };
}

/** One `crowdPalettes` job on `backend`: its own kernel (WASM), or the TS mirror the crowd brings (backend.ts). */
export function runCrowdPalettes(backend: PoseBackend, job: CrowdPalettesJob): void {
  if (backend.kernels.crowdPalettes) backend.kernels.crowdPalettes(job);
  else crowdPalettesJob(job);
}
