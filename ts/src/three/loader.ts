/**
 * `IdTechLoader`: id Software models into three.js, in three's loader conventions (a `Loader` with a
 * `LoadingManager`, `setPath`, `load` / `loadAsync`, `parse` / `parseAsync`, `abort`, onProgress), giving an
 * `IdTechModel` shaped like GLTFLoader's result.
 *
 *   const model = await new IdTechLoader().loadAsync(['drone/mesh.md5mesh', 'drone/forward.md5anim']);
 *   scene.add(model.scene); model.play('forward');   // each frame: model.update(dt)
 *
 * What a load takes (names decide, `inputs.ts`): an .md5mesh with its .md5anims, an .md2, an .md3, or a Quake 3
 * player (a folder `…/players/sarge/`, or its lower/upper/head.md3 with animation.cfg). From where:
 * - URLs (the default): files are fetched and streamed into the parsers; surfaces' images are looked up under the
 *   game folder the URL is in (the part before its last `/models/`; else the model's folder) with HEAD requests
 *   (`urlFileSystem`: a server cannot be listed, so shader scripts there are not found — mount the folder, or an
 *   archive, as a `FileSystem` for those);
 * - a `FileSystem` (`setFileSystem`): a game folder, a .pk3 (`openArchive`), dropped files (`droppedFileSystem`),
 *   URLs with an index — paths are then the file system's, and a .pk3 member streams from the archive.
 * - bytes (`parseAsync`): files in memory; materials through the file system when one is set.
 *
 * Materials are resolved as the model's engine resolves them (`MaterialResolver`, docs/materials.md) and made
 * three.js materials with their textures (`materials.ts`, `textures.ts`); every problem is a warning on the model,
 * never an exception. Bad model bytes reject with the parser's `ModelParseError` (code and position); an aborted
 * load with `ModelParseError` ABORTED.
 */
import { Group, Loader, type LoadingManager, type Material } from 'three';
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model, Md5Anim, Md5Mesh } from '../base/model.js';
import { byteChunks, type ByteSource } from '../base/source.js';
import { formatForBytes } from '../formats/format.js';
import { DEFAULT_FORMATS } from '../registry/formats.js';
import { parseMd2Stream } from '../formats/md2/stream.js';
import { parseAnimationCfg, type Md3AnimationCfg } from '../formats/md3/animation-cfg.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../formats/md5/stream.js';
import type { BackendChoice, PoseBackend } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import { MaterialResolver, type MaterialSet } from '../materials/resolver.js';
import type { ResolvedMaterial } from '../materials/types.js';
import { companionName as clipName } from '../load/model-set.js';
import { assertAnimMatchesMesh } from '../pose/md5-poser.js';
import type { FileSystem } from '../vfs/file-system.js';
import { urlFileSystem } from '../vfs/browser.js';
import { classifyInputs, modelName, type ModelInputs } from './inputs.js';
import { plainMaterial, threeMaterial, type MaterialOptions } from './materials.js';
import { md5ToThree, type Md5Skinning } from './md5-model.js';
import { IdTechModel } from './model.js';
import type { MorphMode } from './morph-mesh.js';
import { md2ToThree, md3ToThree } from './morph-model.js';
import { playerToThree } from './player.js';
import { textureReader } from './textures.js';

/** One file given as bytes (or any byte source the parsers stream: a Response, a ReadableStream, a File's stream). */
export interface IdTechFile {
  /** Its name or path (decides the format: `.md5mesh`, `.md5anim`, `.md2`, `.md3`, `lower.md3`, `animation.cfg`). */
  name: string;
  source: ByteSource;
  size?: number;
}

export interface IdTechLoadOptions {
  signal?: AbortSignal;
  /** A skin by name: a player's `<part>_<skin>.skin`, an MD3's `<model>_<skin>.skin` (default: the loader's). */
  skin?: string;
}

/** The progress of a load: bytes of model files read so far; `total` once every file's size is known. */
export interface IdTechProgress {
  loaded: number;
  total: number;
  lengthComputable: boolean;
  /** The file being read. */
  url: string;
}

interface OpenedFile {
  name: string;
  size?: number;
  chunks: AsyncIterable<Uint8Array>;
}
/** Opens a file of the load by name; null when an optional one does not exist. */
type Opener = (name: string, required: boolean, signal: AbortSignal) => Promise<OpenedFile | null>;

interface Where {
  open: Opener;
  /** Where surfaces' images are looked up, and the model's path in it (null: untextured). */
  fs: FileSystem | null;
  pathInFs: (name: string) => string;
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
  private backend: Promise<PoseBackend> | null = null;
  private skinning: Md5Skinning = 'gpu';
  private morph: MorphMode = 'targets';
  private quantize = true;
  private textures = true;
  private normalMaps = false;
  private skin: string | undefined;
  private abortController = new AbortController();

  constructor(manager?: LoadingManager) {
    super(manager);
  }

  /** Read models and images from this file system (paths relative to its root) instead of URLs; null: URLs again. */
  setFileSystem(fs: FileSystem | null): this {
    this.fileSystem = fs;
    return this;
  }
  /** The backend our kernels run on (default 'auto': WASM SIMD, else WASM, else TS), or one made before. */
  setBackend(backend: BackendChoice | PoseBackend): this {
    this.backend = typeof backend === 'string' ? createBackend(backend) : Promise.resolve(backend);
    return this;
  }
  /** MD5: `'gpu'` (a SkinnedMesh, four weights per vertex) or `'exact'` (our kernels skin every weight on the CPU). */
  setSkinning(mode: Md5Skinning): this {
    this.skinning = mode;
    return this;
  }
  /** MD2 / MD3 / players: `'targets'` (morph targets) or `'poser'` (frames kept quantised, two decoded per draw). */
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
  /** The default skin (`<part>_<skin>.skin`) for players and MD3s. */
  setSkin(name: string | undefined): this {
    this.skin = name;
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

  /** Loads a model from URLs (or file-system paths, see `setFileSystem`); the names decide what it is. */
  override async loadAsync(url: string | readonly string[], onProgress?: (event: ProgressEvent) => void, options: IdTechLoadOptions = {}): Promise<IdTechModel> {
    const names = (typeof url === 'string' ? [url] : [...url]).map((u) => this.path + u);
    const fs = this.fileSystem;
    let where: Where;
    if (fs) {
      where = {
        url: names[0],
        fs,
        pathInFs: (n) => n,
        open: async (name, required, signal) => {
          const f = await fs.file(name);
          if (!f) {
            if (required) throw new Error(`${name}: not found in the file system`);
            return null;
          }
          return { name, size: f.size, chunks: f.stream({ signal }) };
        },
      };
    } else {
      const resolved = names.map((n) => this.manager.resolveURL(n));
      const absolute = (u: string) => new URL(u, globalThis.location?.href).href;
      const { root } = gameRootOf(absolute(resolved[0]));
      const headers = this.requestHeader;
      const credentials: RequestCredentials = this.withCredentials ? 'include' : 'same-origin';
      where = {
        url: resolved[0],
        fs: urlFileSystem(root, { headers, fetch: (input, init) => fetch(input, { ...init, credentials }) }),
        pathInFs: (n) => {
          const abs = absolute(this.manager.resolveURL(n));
          return abs.startsWith(root) ? decodeURIComponent(new URL(abs).pathname.slice(new URL(root).pathname.length)) : gameRootOf(abs).path;
        },
        open: async (name, required, signal) => {
          const target = this.manager.resolveURL(name);
          const res = await fetch(target, { headers, credentials, signal });
          if (!res.ok) {
            if (!required && (res.status === 404 || res.status === 410)) return null;
            throw new ModelParseError(ErrorCode.ReadFailed, `${target}: HTTP ${res.status}`, { offset: 0 });
          }
          const length = Number(res.headers.get('content-length') ?? NaN);
          return { name, size: Number.isFinite(length) && !res.headers.get('content-encoding') ? length : undefined, chunks: byteChunks(res, { signal }) };
        },
      };
    }
    return this.managed(where.url, () => this.build(names, where, options, onProgress));
  }

  /**
   * Builds a model from bytes: files by name (any set `loadAsync` takes, e.g. dropped `File`s as `{ name, source:
   * file }`), or one buffer (its format sniffed). Images come from the loader's file system, when one is set, with
   * `path` as the model's path there.
   */
  async parseAsync(data: readonly IdTechFile[] | ArrayBuffer | Uint8Array, options: IdTechLoadOptions & { path?: string } = {}): Promise<IdTechModel> {
    let files: IdTechFile[];
    if (data instanceof ArrayBuffer || data instanceof Uint8Array) {
      const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
      const kind = formatForBytes(bytes, DEFAULT_FORMATS)?.id ?? null;
      if (kind !== 'md2' && kind !== 'md3' && kind !== 'md5mesh') throw new Error(`these bytes are not an .md5mesh, .md2 or .md3 (${kind ?? 'unknown'}): pass named files for anything else`);
      files = [{ name: options.path ?? `model.${kind}`, source: bytes }];
    } else {
      files = [...data];
    }
    const byName = new Map(files.map((f) => [f.name, f]));
    const where: Where = {
      url: files[0]?.name ?? '',
      fs: this.fileSystem,
      pathInFs: (n) => (options.path && files.length === 1 ? options.path : n),
      open: async (name, required, signal) => {
        const f = byName.get(name);
        if (!f) {
          if (required) throw new Error(`${name}: not among the files given`);
          return null;
        }
        return { name, size: f.size ?? (f.source instanceof Uint8Array || f.source instanceof ArrayBuffer ? f.source.byteLength : undefined), chunks: byteChunks(f.source, { signal }) };
      },
    };
    return this.build(files.map((f) => f.name), where, options);
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

  private async build(names: string[], where: Where, options: IdTechLoadOptions, onProgress?: (event: ProgressEvent) => void): Promise<IdTechModel> {
    const signal = anySignal([this.abortController.signal, (this.manager as { abortController?: AbortController }).abortController?.signal, options.signal]);
    try {
      return await this.buildModel(names, where, options, signal, onProgress);
    } catch (e) {
      // fetch and the image decoders reject an abort with their own AbortError: one error for every aborted load
      if (signal.aborted && !(e instanceof ModelParseError && e.code === ErrorCode.Aborted)) throw new ModelParseError(ErrorCode.Aborted, 'the load was aborted', { offset: 0 });
      throw e;
    }
  }

  private async buildModel(names: string[], where: Where, options: IdTechLoadOptions, signal: AbortSignal, onProgress?: (event: ProgressEvent) => void): Promise<IdTechModel> {
    const inputs = classifyInputs(names);
    const name = modelName(inputs);
    const warnings: ParseWarning[] = [];
    // Progress over every model file: bytes so far, and the total once each file's size is known.
    const sizes = new Map<string, number | undefined>();
    let loaded = 0;
    const read = async <T>(file: string, required: boolean, parse: (chunks: AsyncIterable<Uint8Array>, sizeHint?: number) => Promise<T>): Promise<T | null> => {
      const opened = await where.open(file, required, signal);
      if (!opened) return null;
      sizes.set(file, opened.size);
      const counted = async function* () {
        for await (const chunk of opened.chunks) {
          loaded += chunk.length;
          const known = [...sizes.values()];
          const computable = known.every((s) => s !== undefined);
          onProgress?.({ loaded, total: computable ? known.reduce((a: number, b) => a + (b ?? 0), 0) : 0, lengthComputable: computable, url: file } as IdTechProgress as unknown as ProgressEvent);
          yield chunk;
        }
      };
      return parse(counted(), opened.size);
    };
    const backend = await (this.backend ??= createBackend('auto'));
    const resolver = where.fs ? new MaterialResolver(where.fs, { signal }) : null;
    const textures = where.fs && this.textures ? textureReader({ fs: where.fs, manager: this.manager, warnings, signal }) : null;
    const materialOptions: MaterialOptions = { textures, normalMaps: this.normalMaps, warnings };
    const skin = options.skin ?? this.skin;
    const resolved: ResolvedMaterial[] = [];
    /** The resolver's materials as three's, `count` of them (untextured ones where nothing was resolved). */
    const materialsOf = async (set: MaterialSet | null, count: number, fallback: (i: number) => string): Promise<Material[]> => {
      if (set) {
        resolved.push(...set.materials);
        warnings.push(...set.warnings.map((w) => ({ code: w.code, message: w.path ? `${w.path}${w.line ? `:${w.line}:${w.column}` : ''}: ${w.message}` : w.message, offset: 0 })));
      }
      return Promise.all(Array.from({ length: count }, (_, i) => (set?.materials[i] ? threeMaterial(set.materials[i], materialOptions) : plainMaterial(fallback(i)))));
    };

    const scene = new Group();
    scene.name = name;
    let model: IdTechModel;
    if (inputs.kind === 'md5mesh') {
      const mesh = (await read<Md5Mesh>(inputs.mesh, true, (c) => parseMd5MeshStream(c, { signal })))!;
      const anims: { name: string; anim: Md5Anim }[] = [];
      for (const a of inputs.anims) {
        const anim = (await read<Md5Anim>(a, true, (c, sizeHint) => parseMd5AnimStream(c, { signal, sizeHint })))!;
        assertAnimMatchesMesh(mesh, anim);
        anims.push({ name: clipName(a), anim });
      }
      const set = resolver ? await resolver.md5(mesh, where.pathInFs(inputs.mesh)) : null;
      const materials = await materialsOf(set, mesh.meshes.length, (i) => mesh.meshes[i].shader || mesh.meshes[i].name);
      const three = md5ToThree({ name, mesh, anims, backend, skinning: this.skinning, materials });
      scene.add(three.root);
      model = new IdTechModel({ format: 'md5mesh', name, scene, root: three.root, animations: three.clips, warnings: [...three.warnings, ...warnings], materials: resolved, skeleton: three.skeleton });
    } else if (inputs.kind === 'md2') {
      const md2 = (await read<Md2Model>(inputs.file, true, (c) => parseMd2Stream(c, { signal })))!;
      const set = resolver ? await resolver.md2(md2, where.pathInFs(inputs.file)) : null;
      const materials = await materialsOf(set, 1, () => md2.skins[0]?.name ?? name);
      const three = md2ToThree(md2, { name, backend, mode: this.morph, quantize: this.quantize, materials });
      scene.add(three.root);
      model = new IdTechModel({ format: 'md2', name, scene, root: three.root, animations: three.clips, warnings: [...md2.warnings, ...three.warnings, ...warnings], materials: resolved });
    } else if (inputs.kind === 'md3') {
      const md3 = (await read<Md3Model>(inputs.file, true, (c) => parseMd3Stream(c, { signal })))!;
      const set = resolver ? await resolver.md3(md3, where.pathInFs(inputs.file), { skin }) : null;
      const materials = await materialsOf(set, md3.surfaces.length, (i) => md3.surfaces[i].shaders[0]?.name || md3.surfaces[i].name);
      const three = md3ToThree(md3, { name, backend, mode: this.morph, quantize: this.quantize, materials });
      scene.add(three.root);
      model = new IdTechModel({ format: 'md3', name, scene, root: three.root, animations: three.clips, warnings: [...md3.warnings, ...three.warnings, ...warnings], materials: resolved });
    } else {
      model = await this.buildPlayer(inputs, name, scene, { read, resolver, where, skin, backend, materialsOf, warnings, resolved, signal });
    }
    return model;
  }

  private async buildPlayer(
    inputs: Extract<ModelInputs, { kind: 'player' }>, name: string, scene: Group,
    c: {
      read: <T>(file: string, required: boolean, parse: (chunks: AsyncIterable<Uint8Array>, sizeHint?: number) => Promise<T>) => Promise<T | null>;
      resolver: MaterialResolver | null; where: Where; skin: string | undefined; backend: PoseBackend;
      materialsOf: (set: MaterialSet | null, count: number, fallback: (i: number) => string) => Promise<Material[]>;
      warnings: ParseWarning[]; resolved: ResolvedMaterial[]; signal: AbortSignal;
    },
  ): Promise<IdTechModel> {
    const md3 = (file: string, required: boolean) => c.read<Md3Model>(file, required, (chunks) => parseMd3Stream(chunks, { signal: c.signal }));
    const lower = (await md3(inputs.lower, true))!;
    const upper = (await md3(inputs.upper, true))!;
    const head = (await md3(inputs.head, true))!;
    const weapon = inputs.weapon ? await md3(inputs.weapon, !inputs.optionalProbe) : null;
    let cfg: Md3AnimationCfg | undefined;
    if (inputs.cfg) {
      const text = await c.read<Uint8Array>(inputs.cfg, !inputs.optionalProbe, async (chunks) => {
        const parts: Uint8Array[] = [];
        for await (const p of chunks) parts.push(p);
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
        return all;
      });
      if (text) cfg = parseAnimationCfg(text);
    }
    const models = { lower, upper, head, ...(weapon ? { weapon } : {}) };
    const folder = c.where.pathInFs(inputs.folder).replace(/\/+$/, '');
    const set = c.resolver ? await c.resolver.player({ lower, upper, head }, folder, { skin: c.skin }) : null;
    const perPart: Record<string, Material[]> = {};
    const all = await c.materialsOf(set, lower.surfaces.length + upper.surfaces.length + head.surfaces.length, (i) => `surface ${i}`);
    perPart.lower = all.slice(0, lower.surfaces.length);
    perPart.upper = all.slice(lower.surfaces.length, lower.surfaces.length + upper.surfaces.length);
    perPart.head = all.slice(lower.surfaces.length + upper.surfaces.length);
    if (weapon && inputs.weapon) {
      const wset = c.resolver ? await c.resolver.md3(weapon, c.where.pathInFs(inputs.weapon)) : null;
      perPart.weapon = await c.materialsOf(wset, weapon.surfaces.length, (i) => weapon.surfaces[i].name);
    }
    const three = playerToThree(models, cfg, { name, backend: c.backend, mode: this.morph, quantize: this.quantize, materials: perPart });
    scene.add(three.root);
    const parseWarnings = [lower, upper, head, ...(weapon ? [weapon] : [])].flatMap((m) => m.warnings);
    return new IdTechModel({
      format: 'player', name, scene, root: three.root, animations: three.clips,
      warnings: [...parseWarnings, ...(cfg?.warnings ?? []), ...three.warnings, ...c.warnings], materials: c.resolved,
      parts: Object.fromEntries(Object.entries(three.parts).map(([k, p]) => [k, p!.object])),
    });
  }
}
