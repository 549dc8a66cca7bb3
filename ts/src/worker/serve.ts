/**
 * What the Web Worker does (`worker.ts`, bundled as `dist/worker.js`, serves the package's formats with it): opens,
 * poses and skins a model off the main thread, reading the formats it is given — a worker script of an app's own
 * calls `serveModels(self, [...DEFAULT_FORMATS, itsFormat])` (a format cannot cross a worker boundary: it is code).
 * Requests run one at a time in arrival order; see `protocol.ts` for the messages and `client.ts` for the
 * main-thread side. Posed vertices are copied once out of the poser (WASM memory cannot be transferred)
 * into a buffer that is then transferred to the caller.
 */
import { ModelParseError } from '../base/errors.js';
import type { BackendName, PoseBackend } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import type { ByteSource } from '../base/source.js';
import { openPlayable } from '../registry/open-playable.js';
import { playableInfo, type ModelPlayer, type PlayableModel } from '../playable/playable.js';
import { materialBuffers } from '../playable/materials.js';
import { blobFileSystem, urlFileSystem } from '../vfs/browser.js';
import type { FormatEntry } from '../formats/entry.js';
import type { SerializedError, WorkerFile, WorkerReply, WorkerRequest } from './protocol.js';

/** The worker's side of the channel (a worker's global scope; in a test, one end of a channel). */
export interface WorkerScope {
  postMessage(message: WorkerReply, options?: { transfer?: Transferable[] }): void;
  addEventListener(type: 'message', listener: (e: { data: WorkerRequest }) => void): void;
}

/** Serves `ModelWorker` requests arriving at `scope`, opening models with `formats`; says it is ready. */
export function serveModels(scope: WorkerScope, formats: readonly FormatEntry[]): void {
  const backends = new Map<BackendName | 'auto', Promise<PoseBackend>>();
  let model: PlayableModel | null = null;
  let players = new Map<BackendName, ModelPlayer>();
  let backend: PoseBackend | null = null;
  let clip = 0;

  function backendFor(name: BackendName | 'auto'): Promise<PoseBackend> {
    let b = backends.get(name);
    if (!b) backends.set(name, (b = createBackend(name)));
    return b;
  }

  function player(): ModelPlayer {
    if (!model || !backend) throw new Error('no model open: send an open request first');
    let p = players.get(backend.name);
    if (!p) players.set(backend.name, (p = model.createPlayer(backend)));
    p.setClip(clip);
    return p;
  }

  function byteSource(f: WorkerFile): ByteSource | Promise<ByteSource> {
    const s = f.source;
    if (typeof Blob === 'function' && s instanceof Blob) return s.stream();
    if (typeof s === 'object' && s !== null && 'url' in s) {
      return fetch(s.url).then((r) => {
        if (!r.ok || !r.body) throw new Error(`${s.url}: HTTP ${r.status}`);
        return r.body;
      });
    }
    return s as ByteSource;
  }

  function serialize(e: unknown): SerializedError {
    if (e instanceof ModelParseError) return { name: e.name, message: e.message, code: e.code, detail: e.detail, offset: e.offset, line: e.line, column: e.column, file: e.file, pairedWith: e.pairedWith };
    if (e instanceof Error) return { name: e.name, message: e.message };
    return { name: 'Error', message: String(e) };
  }

  async function handle(req: WorkerRequest): Promise<void> {
    switch (req.type) {
      case 'open': {
        for (const p of players.values()) p.dispose();
        players = new Map();
        model = null;
        clip = 0;
        const files = await Promise.all(req.files.map(async (f) => ({ name: f.name, size: f.size, source: await byteSource(f) })));
        const t = req.textures;
        const opened = await openPlayable(files, {
          formats,
          onProgress: (bytesRead, bytesTotal, fileName) => scope.postMessage({ id: req.id, type: 'progress', bytesRead, bytesTotal, fileName }),
          textures: t ? { fileSystem: t.url ? urlFileSystem(t.url, { index: t.index }) : blobFileSystem(t.files ?? []), modelPath: t.modelPath, skin: t.skin } : undefined,
        });
        backend = await backendFor(req.backend);
        model = opened;
        player(); // builds the first poser now, so validation errors belong to the open
        const info = playableInfo(opened);
        // Decoded pixels move to the page (the worker keeps no use for them).
        scope.postMessage({ id: req.id, type: 'done', info, backend: backend.name }, { transfer: materialBuffers(info.materials) });
        return;
      }
      case 'backend':
        backend = await backendFor(req.backend);
        if (model) player();
        scope.postMessage({ id: req.id, type: 'done', backend: backend.name });
        return;
      case 'clip':
        if (!model || !Number.isInteger(req.clip) || req.clip < 0 || req.clip >= model.clips.length) throw new RangeError(`clip ${req.clip} is not one of the model's ${model?.clips.length ?? 0}`);
        clip = req.clip;
        player();
        scope.postMessage({ id: req.id, type: 'done' });
        return;
      case 'pose': {
        const p = player();
        const t0 = performance.now();
        p.poseBlend(req.frame1, req.frame2, req.t);
        const poseMs = performance.now() - t0;
        const n = p.positions.length;
        // Refill the caller's buffers when they were handed back at the right size; else allocate new ones.
        const positions = req.positions?.length === n ? req.positions : new Float32Array(n);
        const normals = req.normals?.length === n ? req.normals : new Float32Array(n);
        positions.set(p.positions);
        normals.set(p.normals);
        scope.postMessage(
          { id: req.id, type: 'done', frame: { positions, normals, poseMs, backend: p.backend.name } },
          { transfer: [positions.buffer, normals.buffer] },
        );
        return;
      }
    }
  }

  let queue: Promise<void> = Promise.resolve();
  scope.addEventListener('message', (e) => {
    const req = e.data;
    queue = queue.then(() => handle(req)).catch((err) => scope.postMessage({ id: req.id, type: 'failed', error: serialize(err) }));
  });
  // The script loaded and runs: tell the client (until this, an error event on its side means the load failed).
  scope.postMessage({ id: 0, type: 'ready' });
}
