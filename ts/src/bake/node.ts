/**
 * Bakes across cores in Node: `BakePool` and `bakeFramesParallel` with worker threads running
 * `dist/bake-worker.js` (beside this module) and, by default, one worker per available core.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IqmModel, Md5Anim, Md5Mesh } from '../base/model.js';
import { BakePool, bakeFramesParallel as bakeOn, type BakeEndpoint, type BakePoolOptions } from './pool.js';

export interface NodeBakeOptions extends BakePoolOptions {
  /** The worker script, a path or URL (default: `./bake-worker.js` beside this module, as built in dist/). */
  workerUrl?: string | URL;
}

/**
 * A `spawn` starting worker threads on `url`. The script is the browser one: a small CommonJS prelude gives the
 * thread a Web Worker's `postMessage`, `onmessage` and `close` over its `parentPort`, then imports it.
 */
export function workerThreadSpawner(url: string | URL = new URL('./bake-worker.js', import.meta.url)): () => BakeEndpoint {
  const href = url instanceof URL ? url.href : pathToFileURL(url).href;
  // Messages that arrive while the script loads wait for its `onmessage` (a Web Worker's port queues them so).
  const prelude = `const { parentPort } = require('node:worker_threads');
const early = [];
globalThis.postMessage = (m) => parentPort.postMessage(m);
globalThis.close = () => parentPort.close();
parentPort.on('message', (data) => (globalThis.onmessage ? globalThis.onmessage({ data }) : early.push(data)));
import(${JSON.stringify(href)}).then(() => { for (const data of early.splice(0)) globalThis.onmessage({ data }); });`;
  return () => {
    const worker = new Worker(prelude, { eval: true });
    return {
      post: (m) => worker.postMessage(m),
      listen: (onMessage, onError) => {
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', (code) => onError(new Error(`bake worker exited (code ${code})`)));
      },
      terminate: () => void worker.terminate(),
    };
  };
}

const nodeOptions = (o: NodeBakeOptions): BakePoolOptions => ({ workers: availableParallelism(), spawn: workerThreadSpawner(o.workerUrl), ...o });

/**
 * A `BakePool` of worker threads (see `pool.ts`): an md5mesh and an md5anim (`BakePool.create`), or an IQM mesh and
 * the IQM file whose frames it plays — the mesh itself for its own frames (`BakePool.createIqm`).
 */
export function createBakePool(mesh: Md5Mesh, anim: Md5Anim, options?: NodeBakeOptions): Promise<BakePool>;
export function createBakePool(mesh: IqmModel, animation: IqmModel, options?: NodeBakeOptions): Promise<BakePool>;
export function createBakePool(mesh: Md5Mesh | IqmModel, anim: Md5Anim | IqmModel, options: NodeBakeOptions = {}): Promise<BakePool> {
  if (mesh.format === 'iqm') return BakePool.createIqm(mesh, anim as IqmModel, nodeOptions(options));
  return BakePool.create(mesh, anim as Md5Anim, nodeOptions(options));
}

/** One bake across worker threads (see `pool.ts`): frame i's positions at [i · V · 3, (i + 1) · V · 3). */
export function bakeFramesParallel(mesh: Md5Mesh, anim: Md5Anim, frames: ArrayLike<number>, options: NodeBakeOptions = {}): Promise<Float32Array> {
  return bakeOn(mesh, anim, frames, nodeOptions(options));
}
