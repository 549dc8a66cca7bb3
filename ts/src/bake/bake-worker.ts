/**
 * The bake worker script (`dist/bake-worker.js`, `idtech-models/bake-worker`): serves a `BakePool` from a Web
 * Worker's global scope. Node worker threads run it too: their spawner (`node.ts`) gives the thread the same
 * `postMessage` / `onmessage` / `close` globals before importing it, so this file imports nothing of Node's.
 */
import { serveBakes } from './task.js';

interface WorkerScope {
  postMessage(m: unknown): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
serveBakes({
  post: (m) => scope.postMessage(m),
  listen: (onMessage) => {
    scope.onmessage = (e) => onMessage(e.data);
  },
  terminate: () => scope.close(),
});
