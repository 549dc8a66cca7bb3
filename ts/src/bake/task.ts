/**
 * The worker's side of a bake pool: one backend and one `Md5Poser` per worker, built from the stream the pool sent
 * (so a worker never rebuilds it), then each request's frames baked a few at a time through `bakeFrames` and
 * copied into the shared output at their place. Runs in any worker (`bake-worker.ts`) or, for tests, on any port.
 */
import { createBackend } from '../kernels/select.js';
import { Md5Poser } from '../pose/md5-poser.js';
import type { BakeEndpoint, BakeRequest } from './protocol.js';

/** Frames per kernel call: bounds the worker's batch buffer (frames · V · 12 bytes) while keeping calls few. */
const FRAMES_PER_CALL = 1;

export function serveBakes(endpoint: BakeEndpoint): void {
  let poser: Md5Poser | null = null;
  let queue = Promise.resolve();
  const handle = async (m: BakeRequest): Promise<void> => {
    if (m.type === 'init') {
      poser = new Md5Poser(await createBackend(m.backend), m.mesh, { stream: m.stream, order: m.order });
      poser.setAnim(m.anim);
      endpoint.post({ type: 'ready' });
    } else if (m.type === 'bake') {
      try {
        if (!poser) throw new Error('bake before init');
        const span = poser.vertexCount * 3;
        const out = new Float32Array(m.out);
        for (let i = 0; i < m.frames.length; i += FRAMES_PER_CALL) {
          const part = m.frames.subarray(i, Math.min(m.frames.length, i + FRAMES_PER_CALL));
          out.set(poser.bakeFrames(part), m.offset + i * span);
        }
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
