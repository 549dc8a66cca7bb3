/**
 * A worker's side of a bake whose workers share one WebAssembly memory (`shared.ts` is the pool's side): the module
 * instantiated on that memory, with the stack pointer moved to the worker's own stack. Apart from the pool's side so
 * the worker script carries no module bytes: the module arrives compiled, in the `init-shared` message.
 */

/**
 * A compiled `WebAssembly.Module` and a shared `WebAssembly.Memory`, typed as far as this code uses them: the package's
 * declarations must not need a lib that names `WebAssembly` (a Node project without the DOM lib has none).
 */
export type CompiledModule = object;
export interface SharedMemory {
  readonly buffer: ArrayBufferLike;
}

/** The exports of the threads module (`crates/threads`). */
export interface ThreadsExports {
  alloc(bytes: number): number;
  dealloc(ptr: number, bytes: number): void;
  skin_frames(job: number): number;
  iqm_skin_frames(job: number): number;
  iqm_bind(job: number): number;
  simd_enabled(): number;
  __stack_pointer: { value: number };
}

/** The export a worker runs on each job: MD5's `SkinFramesJob` or IQM's `IqmSkinFramesJob`. */
export type SharedKernel = 'skin_frames' | 'iqm_skin_frames';

/** What a worker needs to join: the module, the memory, the top of its own stack, and the kernel its jobs are for. */
export interface SharedInit {
  type: 'init-shared';
  module: CompiledModule;
  memory: SharedMemory;
  stackTop: number;
  kernel: SharedKernel;
}

/** A worker's side: instantiate on the shared memory, move the stack pointer to its own stack. */
export function joinShared(m: SharedInit): (job: number) => boolean {
  const instance = new WebAssembly.Instance(m.module as WebAssembly.Module, { env: { memory: m.memory as WebAssembly.Memory } });
  const ex = instance.exports as unknown as ThreadsExports;
  ex.__stack_pointer.value = m.stackTop;
  const kernel = ex[m.kernel];
  return (job) => kernel(job) !== 0;
}
