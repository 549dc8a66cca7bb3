/**
 * The page's worker: everything that reads, parses or poses runs here, off the page's thread — mounting what the
 * page opens (`worker/mount.ts`), opening a model through its registration and handing the page its view as data
 * (`worker/open.ts`, `view-data.ts`), `inspect` summaries, the texture viewer's images, the backend timings and the
 * exports. Formats are the registry's (`DEFAULT_FORMATS`), plus any a same-origin module adds (`?formats=URL`, a
 * module exporting `formats`: a format of your own appears in the page as the registered ones do).
 *
 * Requests run concurrently; a new `mount` or `open` aborts the one before it. Built by scripts/bundle.mjs as a
 * module worker beside the page (its lazily loaded chunks — the zip reader, glTF Transform for the writers — load
 * when first used).
 */
import { createBackend, ErrorCode, ModelParseError, type PoseBackend } from 'idtech-models';
import { DEFAULT_FORMATS, type FormatEntry } from 'idtech-models';
import type { FormatInfo, Replies, Reply, Request, SerializedError } from './protocol.js';
import { BACKENDS, benchModel, disposeBench } from './worker/bench.js';
import { exportModel } from './worker/export.js';
import { exportAll } from './worker/export-all.js';
import { modelImages, viewImage } from './worker/images.js';
import { inspectModel } from './worker/inspect.js';
import { mount, withFiles, type Mounted } from './worker/mount.js';
import { openModel, type OpenModel } from './worker/open.js';

interface Scope {
  postMessage(message: Reply, options?: { transfer?: Transferable[] }): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<Request & { id: number }>) => void): void;
}
const scope = globalThis as unknown as Scope;

let formats: readonly FormatEntry[] = DEFAULT_FORMATS;
let mounted: Mounted | null = null;
let open: OpenModel | null = null;
let backend: Promise<PoseBackend> | null = null;
const running = new Map<number, AbortController>();
/** The request of each kind that a newer one of its kind aborts. */
const latest = new Map<string, number>();
/** Requests about the open model that a newly opened one makes moot. */
const followUps = new Set<number>();

function serialize(e: unknown): SerializedError {
  if (e instanceof ModelParseError) return { name: e.name, message: e.message, code: e.code };
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

const formatInfo = (f: FormatEntry): FormatInfo => ({ id: f.id, title: f.title, extensions: f.extensions, role: f.role, folder: !!f.folder });

function needModel(): OpenModel {
  if (!open) throw new Error('no model is open');
  return open;
}

async function handle(req: Request, id: number, signal: AbortSignal, transfer: Transferable[]): Promise<Replies[keyof Replies]> {
  const progress = (done: number, total: number | null, what: string) => scope.postMessage({ id, type: 'progress', done, total, what });
  switch (req.type) {
    case 'hello': {
      if (req.formatsUrl) {
        const url = new URL(req.formatsUrl, self.location.href);
        if (url.origin !== self.location.origin) throw new Error(`formats from another origin are not loaded: ${url.href}`);
        const mod = (await import(/* @vite-ignore */ url.href)) as { formats?: FormatEntry[] };
        formats = [...DEFAULT_FORMATS, ...(mod.formats ?? [])];
      }
      return { formats: formats.map(formatInfo), backends: BACKENDS };
    }
    case 'mount': {
      const next = await mount(req.source, formats, signal, (what) => progress(0, null, what));
      if (signal.aborted) {
        await next.close();
        throw new ModelParseError(ErrorCode.Aborted, 'the mount was replaced by another', { offset: 0 });
      }
      await mounted?.close();
      mounted = next;
      return next.listing;
    }
    case 'add-files': {
      if (!mounted) throw new Error('nothing is mounted');
      mounted = withFiles(mounted, req.files, req.origin);
      return null;
    }
    case 'open': {
      if (!mounted) throw new Error('nothing is mounted');
      backend ??= createBackend('auto');
      const r = await openModel(mounted.fs, req.entry, req.skin, formats, await backend, signal, progress, req.replacement, req.controls);
      if (open) void disposeBench(open);
      open = r.open;
      transfer.push(...r.transfer);
      return r.opened;
    }
    case 'open-hung': {
      if (!mounted) throw new Error('nothing is mounted');
      backend ??= createBackend('auto');
      const r = await openModel(mounted.fs, req.entry, undefined, formats, await backend, signal, progress);
      transfer.push(...r.transfer);
      return r.opened;
    }
    case 'inspect':
      return inspectModel(needModel(), formats, signal);
    case 'images': {
      const m = needModel();
      return modelImages(m.fs, m.materials.materials, transfer, signal);
    }
    case 'image':
      if (!mounted) throw new Error('nothing is mounted');
      return viewImage(mounted.fs, req.path, ['picked in the tree'], transfer, signal);
    case 'bench':
      return benchModel(needModel(), req.clip, signal);
    case 'export':
      return exportModel(needModel(), req.target, formats, signal, (done, what) => progress(done, 1, what));
    case 'export-all':
      if (!mounted) throw new Error('nothing is mounted');
      return exportAll(mounted.fs, mounted.listing.models, mounted.listing.name, formats, signal, (done, what) => progress(done, 1, what));
    case 'abort':
      running.get(req.id)?.abort();
      return null;
  }
}

scope.addEventListener('message', (e) => {
  const { id, ...req } = e.data;
  const controller = new AbortController();
  running.set(id, controller);
  if (req.type === 'mount' || req.type === 'open') {
    const before = latest.get(req.type);
    if (before !== undefined) running.get(before)?.abort();
    latest.set(req.type, id);
  }
  // a model opening ends what was being found out about the one before (its inspect, images, timings)
  if (req.type === 'open') for (const [other, c] of running) if (followUps.has(other)) c.abort();
  if (req.type === 'inspect' || req.type === 'images' || req.type === 'bench') followUps.add(id);
  const transfer: Transferable[] = [];
  handle(req as Request, id, controller.signal, transfer).then(
    (result) => scope.postMessage({ id, type: 'done', result }, { transfer: [...new Set(transfer)] }),
    (error) => scope.postMessage({ id, type: 'error', error: serialize(error) }),
  ).finally(() => {
    running.delete(id);
    followUps.delete(id);
  });
});
