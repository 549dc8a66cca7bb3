/**
 * Export by registration, the stable door's `toGlb`, `toGltf` and `toObj`: a model set (what `openModelSet` gives)
 * or a parsed model goes out through its format's registration — the set's own (it carries the one that read it), the one given (`format`: a registration, or the
 * lighter `ModelEntry` a format's entry exports, `md3Model` from `idtech-models/md3`), else the one among `formats`
 * whose id is the set's or whose data it is. There is no default list here on purpose: a default would name every
 * format's exporter, and a bundler that puts what `import()` loads into one file (esbuild without splitting) would then
 * carry all of them into an app that exports one format (docs/package.md, "What an app carries"). `registry/gltf.ts`
 * keeps the defaulting forms (`DEFAULT_FORMATS`) for `idtech-models/advanced` and `/write`.
 *
 * A set's companions become its animations as its registration says (`gltfOptions`: IQM's iqm.cfg cuts and rates),
 * so a caller cannot forget them. The glTF builder itself is loaded on the first export.
 */
import type { GltfOptions, GltfResult } from '../export/gltf.js';
import type { ImageFile } from '../export/gltf-material.js';
import type { ObjOptions } from '../export/obj.js';
import { ownerAmong, type FormatEntry, type GltfAdd, type ModelEntry } from '../formats/entry.js';
import type { BackendChoice, PoseBackend } from '../kernels/backend.js';
import { isModelSet } from '../load/is-model-set.js';
import type { ModelSet } from '../load/model-set.js';

/** How the export finds the model's registration. */
export interface ExportBy {
  /** The model's registration (or its `ModelEntry`: `md3Model` from `idtech-models/md3`). */
  format?: ModelEntry;
  /** The registrations to find it among (`DEFAULT_FORMATS`): by the set's format id, else by the data. */
  formats?: readonly ModelEntry[];
}

export type ExportOptions = GltfOptions & ExportBy;


/** The registration `input` (a model set or a parsed model) exports through; a TypeError saying what to pass otherwise. */
export function registrationOf(input: unknown, by: ExportBy): ModelEntry {
  if (by.format) return by.format;
  // a set read through registrations carries the one that read it (identified once, when it was opened)
  const carried = isModelSet(input) ? (input.registration as Partial<ModelEntry> | undefined) : undefined;
  if (carried && typeof carried.owns === 'function') return carried as ModelEntry;
  if (!by.formats) throw new TypeError("the model's format is needed: pass { format } (its registration, e.g. md3Model from 'idtech-models/md3') or { formats } (DEFAULT_FORMATS)");
  if (isModelSet(input)) return by.formats.find((f) => f.id === input.format) ?? ownerAmong(input.data, by.formats);
  return ownerAmong(input, by.formats);
}

/** A set's glTF options: its companions as animations, as its registration makes them (`gltfOptions`), else one `anims` entry each. */
export function setOptions(set: ModelSet, entry: ModelEntry, options: GltfOptions): GltfOptions {
  const own = (entry as FormatEntry).gltfOptions;
  if (own) return own(set, options);
  return set.companions.length && !options.anims ? { ...options, anims: set.companions.map((c) => ({ name: c.name, anim: c.data as never })) } : options;
}

/** The exporter of `entry`, loaded. */
async function exporterOf(entry: ModelEntry): Promise<GltfAdd<unknown>> {
  if (!entry.gltf) throw new TypeError(`${entry.title}: no glTF export for this format`);
  return entry.gltf.load();
}

/** The glTF document of a model set or a parsed model; `toGlb` / `toGltf` serialise it. */
export async function buildGltfBy(input: unknown, options: ExportOptions = {}): Promise<GltfResult> {
  const entry = registrationOf(input, options);
  const set = isModelSet(input) ? input : null;
  const o = set ? setOptions(set, entry, options) : options;
  const data = set ? set.data : input;
  const [add, { buildGltfDocument }] = await Promise.all([exporterOf(entry), import('../export/gltf.js')]);
  return buildGltfDocument((ctx, result) => add(ctx, data, o.name ?? 'model', o, result), o);
}

/** The model (a set, or a parsed model with its `format`) as one binary glTF (`.glb`) file. */
export async function toGlb(input: unknown, options: ExportOptions = {}): Promise<Uint8Array> {
  return (await buildGltfBy(input, options)).builder.glb();
}

/**
 * The model as `.gltf` JSON text whose buffer is the separate file `binUri` (default `model.bin`); with
 * `imageFilePrefix`, `images` are the texture files it refers to (else textures are in the buffer).
 */
export async function toGltf(input: unknown, options: ExportOptions & { binUri?: string } = {}): Promise<{ json: string; bin: Uint8Array; images: ImageFile[] }> {
  const result = await buildGltfBy(input, options);
  return { ...result.builder.gltf(options.binUri ?? 'model.bin'), images: result.imageFiles };
}

export interface ToObjOptions extends ExportBy {
  /** The frame (of the first companion for a skeletal model, of the model's own frames otherwise); default: the rest pose. */
  frame?: number;
  /** The backend to pose on (default: `createBackend('ts')`, released after). */
  backend?: PoseBackend | BackendChoice;
  /** Rotate Z-up to Y-up: (x, y, z) → (x, z, −y). */
  yUp?: boolean;
  /** The first line's comment (default: what was posed, `drone.md5mesh posed by run.md5anim frame 3`). */
  comment?: string;
  /** A material library (`objMaterialLibrary` from `idtech-models/write`). */
  materials?: ObjOptions['materials'];
}

/**
 * One posed frame of a model set as Wavefront OBJ text, written by its registration (`obj`): an md5mesh posed by its
 * first companion's frame (or its bind pose), a vertex-animated model's frame. A RangeError for a frame the set has
 * not; a TypeError for a format without OBJ output (a folder format).
 */
export async function toObj(set: ModelSet, options: ToObjOptions = {}): Promise<string> {
  const entry = registrationOf(set, options) as FormatEntry;
  const obj = entry.obj;
  if (!obj) throw new TypeError(`${entry.title}: no OBJ output for this format`);
  const frames = obj.frames(set);
  if (options.frame !== undefined && (!frames || options.frame < 0 || options.frame >= frames.count)) {
    throw new RangeError(`frame ${options.frame}: ${frames ? `${frames.of} has frames 0..${frames.count - 1}` : `${set.path} has only its rest pose`}`);
  }
  const given = typeof options.backend === 'object' ? options.backend : null;
  const backend = given ?? (await (await import('../kernels/select.js')).createBackend((options.backend as BackendChoice | undefined) ?? 'ts'));
  try {
    const { text } = await obj.write(set, { frame: options.frame, backend, yUp: options.yUp ?? false, comment: (what) => options.comment ?? what, materials: options.materials });
    return text;
  } finally {
    if (!given) backend.dispose();
  }
}
