/**
 * The worker's side of a bake pool. Where the workers share one WebAssembly memory (`shared.ts`), it joins that
 * memory and runs the jobs the pool wrote there. Otherwise it has one backend and one poser of its own — an
 * `Md5Poser` built from the stream the pool sent (so a worker never rebuilds it), or an `IqmPoser` — and bakes each
 * request's frames into the shared output at their place (`bakeFramesInto`: runs of frames baked in its module's
 * memory, each copied out). Runs in any worker (`bake-worker.ts`) or, for tests, on any port.
 */
import { createBackend } from '../kernels/select.js';
import { IqmPoser } from '../pose/iqm-poser.js';
import { Md5Poser } from '../pose/md5-poser.js';
import type { BakeEndpoint, BakeRequest } from './protocol.js';
import { joinShared, type SharedMemory } from './shared-worker.js';

export function serveBakes(endpoint: BakeEndpoint): void {
  let poser: Md5Poser | IqmPoser | null = null;
  let shared: { run: (job: number) => boolean; memory: SharedMemory } | null = null;
  let queue = Promise.resolve();
  const handle = async (m: BakeRequest): Promise<void> => {
    if (m.type === 'init') {
      poser = new Md5Poser(await createBackend(m.backend), m.mesh, { stream: m.stream, order: m.order });
      poser.setAnim(m.anim);
      endpoint.post({ type: 'ready' });
    } else if (m.type === 'init-iqm') {
      const iqm = new IqmPoser(await createBackend(m.backend), m.mesh, { normals: false });
      iqm.setAnimation(m.animation ?? m.mesh);
      poser = iqm;
      endpoint.post({ type: 'ready' });
    } else if (m.type === 'init-shared') {
      shared = { run: joinShared(m), memory: m.memory };
      endpoint.post({ type: 'ready' });
    } else if (m.type === 'run') {
      try {
        if (!shared) throw new Error('run before init-shared');
        if (!shared.run(m.job)) throw new Error('the bake kernel refused the job: a frame index is past the anim, or a buffer is too short');
        const c = m.copy;
        if (c) new Float32Array(c.to, c.at * 4, c.floats).set(new Float32Array(shared.memory.buffer, c.from, c.floats));
        endpoint.post({ type: 'done', id: m.id });
      } catch (e) {
        endpoint.post({ type: 'error', id: m.id, message: e instanceof Error ? e.message : String(e) });
      }
    } else if (m.type === 'bake') {
      try {
        if (!poser) throw new Error('bake before init');
        poser.bakeFramesInto(m.frames, new Float32Array(m.out), m.offset);
        endpoint.post({ type: 'done', id: m.id });
      } catch (e) {
        endpoint.post({ type: 'error', id: m.id, message: e instanceof Error ? e.message : String(e) });
      }
    } else {
      poser?.dispose();
      poser?.backend.dispose();
      poser = null;
    }
  };
  // One request at a time, in order (init is asynchronous: a bake sent right after it waits for it).
  endpoint.listen(
    (m) => {
      queue = queue.then(() => handle(m as BakeRequest)).catch((e: unknown) => endpoint.post({ type: 'error', id: -1, message: e instanceof Error ? e.message : String(e) }));
    },
    () => {},
  );
}
