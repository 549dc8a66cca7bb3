/**
 * `IdTechLoader`: id Software models into three.js, in three's loader conventions (a `Loader` with a
 * `LoadingManager`, `setPath`, `load` / `loadAsync`, `parse` / `parseAsync`, `abort`, onProgress), giving an
 * `IdTechModel` shaped like GLTFLoader's result.
 *
 *   const model = await new IdTechLoader().loadAsync(['drone/mesh.md5mesh', 'drone/forward.md5anim']);
 *   scene.add(model.scene); model.play('forward');   // each frame: model.update(dt)
 *
 * A load goes through the format registry (`setFormats`, default every format this package reads) and names none:
 * its files become a file system (`sources.ts`) — URLs fetched and streamed (a folder URL probed for what its
 * folder format needs), the loader's `FileSystem` (`setFileSystem`: a game folder, a .pk3, dropped files), or bytes
 * (`parseAsync`) — and the model-set loader reads the model with what plays on it (an md5mesh's md5anims, a Quake 3
 * player folder's parts). Its registration then finds its materials (`materials`) and says what kind of model it
 * is (`view`), and one builder per kind makes the three.js objects (`build.ts`).
 *
 * Materials are resolved as the model's engine resolves them (`MaterialResolver`, docs/materials.md) — through the
 * loader's file system, or for URLs under the game folder the URL is in (the part before its last `/models/`; else
 * the model's folder) with HEAD requests (`urlFileSystem`: a server cannot be listed, so shader scripts there are not
 * found — mount the folder, or an archive, as a `FileSystem` for those) — and made three.js materials with their
 * textures (`materials.ts`, `textures.ts`); every problem is a warning on the model, never an exception. Bad model
 * bytes reject with the parser's `ModelParseError` (code, position, file); an aborted load with ABORTED.
 */
import { Loader, type LoadingManager } from 'three';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { BackendChoice, PoseBackend } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import { addReplacement, openModelSet, type ModelSet } from '../load/model-set.js';
import { MaterialResolver, type MaterialSet } from '../materials/resolver.js';
import type { FormatEntry } from '../formats/entry.js';
import type { ViewSettings } from '../formats/model-view.js';
import { DEFAULT_FORMATS } from '../registry/formats.js';
import type { FileSystem } from '../vfs/file-system.js';
import { urlFileSystem } from '../vfs/browser.js';
import { buildThree } from './build.js';
import type { MaterialOptions } from './materials.js';
import type { IdTechModel } from './model.js';
import type { MorphMode } from './morph-mesh.js';
import type { SkinningMode } from './skinned-model.js';
import { bytesSource, fileSystemSource, LoadProgress, urlSource, type IdTechFile, type LoadSource } from './sources.js';
import { textureReader } from './textures.js';

export type { IdTechFile, IdTechProgress } from './sources.js';

export interface IdTechLoadOptions {
  signal?: AbortSignal;
  /** A skin by name: a player's `<part>_<skin>.skin`, an MD3's `<model>_<skin>.skin` (default: the loader's). */
  skin?: string;
  /**
   * What the model's engine sets besides clip and frame, baked into its clips and geometry where its format has it
   * (a Half-Life model: `controllers` by index in degrees or units, `blend` bytes, `body`; the view's
   * `extras.controls` lists what it offers).
   */
  settings?: ViewSettings;
}

/** Where a load's model is read from, and where its materials are looked up. */
interface Where {
  /** The model's files, once the load's signal and progress are known. */
  open(progress: LoadProgress, signal: AbortSignal): Promise<LoadSource>;
  /** Where surfaces' images are looked up (null: untextured), and the model's path there from the set's path and origin. */
  fs: FileSystem | null;
  pathInFs: (path: string, origin: string) => string;
  /** For the LoadingManager's item events. */
  url: string;
}

/** The signals that stop a load: the loader's `abort()`, the manager's, the caller's. */
function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal {
  const live = signals.filter((s): s is AbortSignal => !!s);
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(live);
  const c = new AbortController();
  for (const s of live) {
    if (s.aborted) c.abort(s.reason);
    else s.addEventListener('abort', () => c.abort(s.reason), { once: true });
  }
  return c.signal;
}

/** The game folder a model URL lies in (the part before its last `/models/`, else its folder), and the model's path there. */
export function gameRootOf(url: string): { root: string; path: string } {
  const u = new URL(url);
  const lower = u.pathname.toLowerCase();
  const at = lower.lastIndexOf('/models/');
  const cut = at >= 0 ? at + 1 : lower.lastIndexOf('/') + 1;
  return { root: `${u.origin}${u.pathname.slice(0, cut)}`, path: decodeURIComponent(u.pathname.slice(cut)) };
}

export class IdTechLoader extends Loader<IdTechModel, string | readonly string[]> {
  private fileSystem: FileSystem | null = null;
  private formats: readonly FormatEntry[] = DEFAULT_FORMATS;
  private backend: Promise<PoseBackend> | null = null;
  private skinning: SkinningMode = 'gpu';
  private morph: MorphMode = 'targets';
  private quantize = true;
  private textures = true;
  private normalMaps = false;
  private skin: string | undefined;
  private index: readonly string[] | null = null;
  private abortController = new AbortController();

  constructor(manager?: LoadingManager) {
    super(manager);
  }

  /** Read models and images from this file system (paths relative to its root) instead of URLs; null: URLs again. */
  setFileSystem(fs: FileSystem | null): this {
    this.fileSystem = fs;
    return this;
  }
  /** The formats to recognise (default `DEFAULT_FORMATS`: every format this package reads; add your own to load it). */
  setFormats(formats: readonly FormatEntry[]): this {
    this.formats = formats;
    return this;
  }
  /** The backend our kernels run on (default 'auto': WASM SIMD, else WASM, else TS), or one made before. */
  setBackend(backend: BackendChoice | PoseBackend): this {
    this.backend = typeof backend === 'string' ? createBackend(backend) : Promise.resolve(backend);
    return this;
  }
  /** Skeletal models (MD5): `'gpu'` (a SkinnedMesh, four weights per vertex) or `'exact'` (our kernels skin every weight on the CPU). */
  setSkinning(mode: SkinningMode): this {
    this.skinning = mode;
    return this;
  }
  /** Vertex-animated models (MD2, MD3, players): `'targets'` (morph targets) or `'poser'` (frames kept quantised, two decoded per draw). */
  setMorph(mode: MorphMode): this {
    this.morph = mode;
    return this;
  }
  /** Morph targets as int16 positions and snorm8 normals (default) or float32. */
  setQuantize(quantize: boolean): this {
    this.quantize = quantize;
    return this;
  }
  /** Load textures (default) or leave materials untextured (they are still resolved and named). */
  setTextures(load: boolean): this {
    this.textures = load;
    return this;
  }
  /** Also load normal maps as `normalMap` (default off; see docs/three.md on their conventions). */
  setNormalMaps(load: boolean): this {
    this.normalMaps = load;
    return this;
  }
  /** The default skin (`<part>_<skin>.skin`, `<model>_<skin>.skin`) for models with skin files. */
  setSkin(name: string | undefined): this {
    this.skin = name;
    return this;
  }

  /**
   * Loading from URLs: the files the server holds under the game folder, as paths from it (a listing made once, e.g.
   * `find . -type f` in the folder the model URLs' `/models/` is in). Surfaces' images, skins and configs are then
   * looked up in the list — a file not in it costs no request, so no 404 in the console — and shader scripts are
   * found (the list can be listed). null (the default): each candidate is asked of the server (HEAD), and the
   * model says how many were missing (HTTP_NOT_FOUND). docs/three.md, "Looking up images over HTTP without 404s".
   */
  setIndex(index: readonly string[] | null): this {
    this.index = index;
    return this;
  }

  /** Stops loads in progress (they reject with ModelParseError ABORTED). */
  override abort(): this {
    this.abortController.abort();
    this.abortController = new AbortController();
    return this;
  }

  override load(url: string | readonly string[], onLoad: (model: IdTechModel) => void, onProgress?: (event: ProgressEvent) => void, onError?: (err: unknown) => void): void {
    this.loadAsync(url, onProgress).then(onLoad, (e) => {
      if (onError) onError(e);
      else console.error(e);
    });
  }

  /**
   * Loads a model from URLs (or file-system paths, see `setFileSystem`): a model file with the files that play on it
   * (an .md5mesh and its .md5anims), the files of a folder format (lower/upper/head.md3 …), or a folder (`…/sarge/`).
   */
  override async loadAsync(url: string | readonly string[], onProgress?: (event: ProgressEvent) => void, options: IdTechLoadOptions = {}): Promise<IdTechModel> {
    const names = (typeof url === 'string' ? [url] : [...url]).map((u) => this.path + u);
    const fs = this.fileSystem;
    const formats = this.formats;
    let where: Where;
    // lookups over URLs the server answered 404 / 410 (each a red line in a browser's console): said on the model
    const misses = { count: 0, root: '' };
    if (fs) {
      where = { url: names[0], fs, pathInFs: (path) => path, open: (progress, signal) => fileSystemSource(fs, names, formats, progress, signal) };
    } else {
      const resolve = (n: string) => this.manager.resolveURL(n);
      const absolute = (u: string) => new URL(u, globalThis.location?.href).href;
      const { root } = gameRootOf(absolute(resolve(names[0])));
      const headers = this.requestHeader;
      const credentials: RequestCredentials = this.withCredentials ? 'include' : 'same-origin';
      misses.root = root;
      const counting = async (input: RequestInfo | URL, init?: RequestInit) => {
        const res = await fetch(input, { ...init, credentials });
        if (res.status === 404 || res.status === 410) misses.count++;
        return res;
      };
      where = {
        url: resolve(names[0]),
        fs: urlFileSystem(root, { headers, fetch: counting, ...(this.index ? { index: this.index } : {}) }),
        // the set's origin is the URL it was fetched from (a folder's: the folder's)
        pathInFs: (_path, origin) => {
          const abs = absolute(origin);
          return abs.startsWith(root) ? decodeURIComponent(new URL(abs).pathname.slice(new URL(root).pathname.length)) : gameRootOf(abs).path;
        },
        open: (progress, signal) => urlSource(names, { resolve, init: { headers, credentials } }, formats, progress, signal),
      };
    }
    const model = await this.managed(where.url, () => this.build(where, options, onProgress));
    if (misses.count > 0) {
      model.warnings.push({ code: 'HTTP_NOT_FOUND', message: `${misses.count} file${misses.count > 1 ? 's' : ''} looked up under ${misses.root} (images, skins, configs, by the engine's name fallbacks) ${misses.count > 1 ? 'were' : 'was'} not on the server: each miss is a 404 the browser logs in red; setIndex (a listing of the game folder) or setFileSystem (an archive) looks them up without a request (docs/three.md)`, offset: 0 });
    }
    return model;
  }

  /**
   * Builds a model from bytes: files by name (any set `loadAsync` takes, e.g. dropped `File`s as `{ name, source:
   * file }`), or one buffer (its format sniffed). Images come from the loader's file system, when one is set, with
   * `path` as the model's path there.
   */
  async parseAsync(data: readonly IdTechFile[] | ArrayBuffer | Uint8Array, options: IdTechLoadOptions & { path?: string } = {}): Promise<IdTechModel> {
    const one = data instanceof ArrayBuffer || data instanceof Uint8Array || data.length === 1;
    const where: Where = {
      url: data instanceof ArrayBuffer || data instanceof Uint8Array ? (options.path ?? '') : (data[0]?.name ?? ''),
      fs: this.fileSystem,
      pathInFs: (path) => (options.path && one ? options.path : path),
      open: (progress, signal) => bytesSource(data, options.path, this.formats, progress, signal),
    };
    return this.build(where, options);
  }

  /** three's callback form of `parseAsync`. */
  parse(data: readonly IdTechFile[] | ArrayBuffer | Uint8Array, path: string, onLoad: (model: IdTechModel) => void, onError?: (err: unknown) => void): void {
    this.parseAsync(data, { path: path || undefined }).then(onLoad, (e) => (onError ? onError(e) : console.error(e)));
  }

  private async managed<T>(url: string, run: () => Promise<T>): Promise<T> {
    this.manager.itemStart(url);
    try {
      return await run();
    } catch (e) {
      this.manager.itemError(url);
      throw e;
    } finally {
      this.manager.itemEnd(url);
    }
  }

  private async build(where: Where, options: IdTechLoadOptions, onProgress?: (event: ProgressEvent) => void): Promise<IdTechModel> {
    const signal = anySignal([this.abortController.signal, (this.manager as { abortController?: AbortController }).abortController?.signal, options.signal]);
    try {
      return await this.buildModel(where, options, signal, onProgress);
    } catch (e) {
      // fetch and the image decoders reject an abort with their own AbortError: one error for every aborted load
      if (signal.aborted && !(e instanceof ModelParseError && e.code === ErrorCode.Aborted)) throw new ModelParseError(ErrorCode.Aborted, 'the load was aborted', { offset: 0 });
      throw e;
    }
  }

  private async buildModel(where: Where, options: IdTechLoadOptions, signal: AbortSignal, onProgress?: (event: ProgressEvent) => void): Promise<IdTechModel> {
    const formats = this.formats;
    const source = await where.open(new LoadProgress(onProgress), signal);
    const set = await openModelSet(source.fs, source.path, { formats, format: source.format, companions: source.companions, signal });
    const entry = set.registration;
    const backend = await (this.backend ??= createBackend('auto'));
    const name = set.path.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'model';
    // named files are a file system of their own: the replacement is looked for in the one they came from
    if (!set.replacement && where.fs && source.fs !== where.fs) await addReplacement(where.fs, set, entry, { formats, signal });
    const model = await this.buildSet(set, entry, name, where, options, backend, signal);
    // a re-release's MD5 model drawn in its place (docs/md5-replacements.md): built too, beside the original
    const r = set.replacement;
    const rEntry = r ? (r.set.registration as FormatEntry) : null; // opened through the same registrations
    if (r && rEntry) model.replacement = { model: await this.buildSet(r.set, rEntry, name, where, options, backend, signal), by: r.by, replaces: r.replaces };
    return model;
  }

  private async buildSet(set: ModelSet, entry: FormatEntry, name: string, where: Where, options: IdTechLoadOptions, backend: PoseBackend, signal: AbortSignal): Promise<IdTechModel> {
    const materialOptions: MaterialOptions = { textures: null, normalMaps: this.normalMaps, warnings: [] };
    let materials: MaterialSet | null = null;
    if (where.fs) {
      if (this.textures) materialOptions.textures = textureReader({ fs: where.fs, manager: this.manager, warnings: materialOptions.warnings, signal, embedded: () => materials?.pixels });
      const resolver = new MaterialResolver(where.fs, { signal });
      materials = entry.materials ? await entry.materials(resolver, set.data, where.pathInFs(set.path, set.origin), { skin: options.skin ?? this.skin, ...(options.settings?.body ? { body: options.settings.body } : {}) }) : null;
    }
    return buildThree(set, entry, { name, backend, skinning: this.skinning, morph: this.morph, quantize: this.quantize, materials, materialOptions, ...(options.settings ? { settings: options.settings } : {}) });
  }
}
