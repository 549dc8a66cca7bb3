/**
 * What a bake pool and its workers say to each other (`pool.ts` ↔ `task.ts`). A worker gets the model once
 * (`init`: the joints, the anim and the prepared skin stream — never rebuilt there; `init-iqm`: an IQM mesh's
 * vertices and skeleton and the frames it plays), then any number of `bake`
 * requests, each a run of frames and the place in one shared output where they go. Or, where the workers share one
 * WebAssembly memory, it joins that memory once (`init-shared`) and then runs the job descriptors the pool wrote
 * there (`run`).
 */
import type { IqmModel, Md5Anim, Md5Mesh } from '../base/model.js';
import type { BackendName } from '../kernels/backend.js';
import type { Md5SkinStream } from '../pose/skin-stream.js';
import type { SharedInit } from './shared-worker.js';

export type BakeRequest =
  | { type: 'init'; backend: BackendName; mesh: Md5Mesh; anim: Md5Anim; stream: Md5SkinStream; order: 'file' | 'grouped' }
  /** An IQM bake: the mesh (what skinning reads) and the file whose frames it plays (null: the mesh's own). */
  | { type: 'init-iqm'; backend: BackendName; mesh: IqmModel; animation: IqmModel | null }
  /** Frames `frames` posed and skinned; frame i's positions at float `offset + i · V · 3` of `out`. */
  | { type: 'bake'; id: number; frames: Uint32Array; out: SharedArrayBuffer; offset: number }
  /** Join a pool whose workers share one WebAssembly memory (`shared.ts`). */
  | SharedInit
  /**
   * Run the job at address `job` in the shared memory (with the kernel `init-shared` named); then, with `copy`, copy `floats` floats from byte
   * address `from` there to float `at` of `to` (memory the caller owns).
   */
  | { type: 'run'; id: number; job: number; copy: { to: SharedArrayBuffer; at: number; from: number; floats: number } | null }
  | { type: 'close' };

export type BakeReply = { type: 'ready' } | { type: 'done'; id: number } | { type: 'error'; id: number; message: string };

/** One end of a message channel, whatever carries it: a Web Worker, a Node worker thread, or a port. */
export interface BakeEndpoint {
  post(message: BakeRequest | BakeReply): void;
  listen(onMessage: (message: unknown) => void, onError: (error: Error) => void): void;
  terminate(): void;
}
