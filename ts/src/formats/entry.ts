/**
 * A format's registration: its first door (`ModelFormat`: name, extensions, first bytes, parser, what belongs with
 * it) and what the pipeline does with its models — how `inspect` summarises a file, how its materials are found,
 * how it is played (`openPlayable`, the worker, the demo) and drawn (`IdTechLoader`), exported (glTF, OBJ) and, where a writer exists, written
 * from glTF. Every consumer (the CLI's commands, `openPlayable`, the worker, `IdTechLoader`, the texture resolver,
 * the Node loaders) goes through these objects; none of them names a format. A format is one room
 * (`formats/<x>/`: its parser, poser, exporter …) and one registration (`formats/<x>/entry.ts`), listed once in
 * `registry/formats.ts`. What reads a file hands its registration on (`ModelSet.registration`): nothing asks the
 * formats again which one a model is.
 *
 * Capabilities are optional: a format without `gltf` cannot be converted to glTF, and the CLI says so by name. The
 * id-format writers pull in glTF Transform and are loaded on first use, so an app that only opens, poses or exports
 * models never fetches it.
 *
 * What export and texture resolution do with a bare parsed model is a smaller object of its own, a `ModelEntry`
 * (recognise the data, export it, find its materials: `formats/<x>/model-entry.ts`), which the registration includes
 * and each format's entry exports (`md3Model` from `idtech-models/md3`): an app that hands `toGlb` that object carries
 * the format's exporter and not what reads, inspects, plays or writes files (a bundler that inlines what `import()`
 * loads, as esbuild does without code splitting, would otherwise carry glTF Transform into it). A `ModelEntry` is a
 * plain object literal and a registration a call marked `@__PURE__` (`formatEntry`), so a bundler drops either where
 * it is unused (docs/package.md, "What an app carries").
 */
import type { ParseWarning } from '../base/errors.js';
import type { ByteSource, ReadOptions } from '../base/source.js';
import type { ModelFormat } from '../load/format.js';
import type { ExportContext } from '../export/gltf-context.js';
import type { GltfInput } from '../import/gltf.js';
import type { GltfOptions, GltfResult } from '../export/gltf.js';
import type { ObjOptions } from '../export/obj.js';
import type { PoseBackend } from '../kernels/backend.js';
import type { ModelSet } from '../load/model-set.js';
import type { MaterialResolver, MaterialSet } from '../materials/resolver.js';
import type { PlayableModel } from '../playable/playable.js';
import type { VfsFile } from '../vfs/file-system.js';
import type { WrittenFile } from '../write/files.js';

export type { WrittenFile };
import { withClipNames, type ModelView, type ViewSettings } from './model-view.js';

/** What `inspect` prints about a file: plain JSON, keys in the order the table shows them (`format` first). */
export type Summary = Record<string, unknown>;

export interface InspectResult<D> {
  summary: Summary;
  /** What the material resolver needs of the model (the model, or the parts of it `inspect` kept); absent: no materials. */
  materialsOf?: D;
}

export interface MaterialOptions {
  /** A skin by name (`<model>_<skin>.skin`; a player's `<part>_<skin>.skin`). */
  skin?: string;
  /** The entity's body value, where it picks what is drawn (a Half-Life model's submodels): the materials follow its meshes. */
  body?: number;
}

export interface ObjFrameOptions {
  /** The frame asked for (checked against `objFrames` first); undefined: the format's default pose. */
  frame: number | undefined;
  backend: PoseBackend;
  yUp: boolean;
  /** The header comment's subject (`drone.md5mesh posed by run.md5anim frame 3`, `tris.md2 frame 0`). */
  comment: (what: string) => string;
  materials?: ObjOptions['materials'];
  /** The clip `--anim` named, for a format whose `obj.namesClips`. */
  anim?: string;
  /** `--controller N=V` (index → degrees or units) and `--blend X[,Y]` (bytes), for a format whose `obj.controls`. */
  controllers?: ReadonlyMap<number, number>;
  blend?: readonly number[];
}

export interface ObjCapability<D> {
  /**
   * `--anim` names a clip of the model itself (a Half-Life sequence), not a file to play on it: the CLI hands it to
   * `frames` and `write` (`ObjFrameOptions.anim`) instead of reading it as a companion.
   */
  namesClips?: boolean;
  /** The pose takes bone controllers and blending (`ObjFrameOptions.controllers` / `blend`: a Half-Life model). */
  controls?: boolean;
  /** How many frames `--frame` may name, and of what (a companion's path, or the model's): null when only a rest pose. */
  frames(set: ModelSet<D>, anim?: string): { count: number; of: string } | null;
  /** The frame as OBJ text, and the facts of the summary line (`2 meshes`, `1439 vertices`, `frame 3 of idle.md5anim`). */
  write(set: ModelSet<D>, options: ObjFrameOptions): Promise<{ text: string; facts: string[] }>;
}

/** What the glTF export options act on, for formats that take them (the CLI refuses an option a format ignores). */
export type GltfOptionUse = 'clips' | 'fps' | 'step' | 'frameNodes' | 'md2Grid' | 'quantize';

/** Adds a model's nodes, meshes and animations to a glTF document (the set's companions as `options.anims`); the scene's roots. */
export type GltfAdd<D> = (ctx: ExportContext, data: D, name: string, options: GltfOptions, result: GltfResult) => number[];

export interface GltfCapability<D> {
  /**
   * The format's exporter, loaded on first use (`import('../registry/gltf.js')`): an app carries a format's exporter, its
   * kernels and codecs only when it exports that format.
   */
  load(): Promise<GltfAdd<D>>;
  /** The options it acts on besides the common ones. */
  uses: readonly GltfOptionUse[];
}


export interface WriterOptions {
  fps?: number;
  /**
   * Without `fps`: each animation at its own even key rate, every key a frame (an id model exported to glTF in memory
   * and written in another id format keeps its frames), else at the format's default rate (`animationRates`).
   */
  keyRate?: boolean;
  scale: number;
  texturePath?: string;
  split: boolean;
  /** MD2 / MDL: pack the materials' images into one skin (default true; `import/gltf-atlas.ts`). */
  atlas?: boolean;
  /** The output path: the main file, and the stem its siblings are named from. */
  out: string;
  /** Name each md5anim as assimp looks for it (`<mesh>.md5anim` for the first) — formats where it applies. */
  assimpNames?: boolean;
}

export interface WriterResult {
  files: WrittenFile[];
  /** The target engine's refusals of what would be written (ENGINE_LIMIT), per file. */
  engine: { file: string; warnings: ParseWarning[] }[];
  /** The import's own warnings (attributed to the input). */
  warnings: ParseWarning[];
  /** The summary line's facts (`3 surfaces`, `1439 vertices`, `60 frames`). */
  facts: string[];
  /** Which engine refuses, for the `--validate` line (`ioquake3 will not load it`). */
  refusal: string;
}

export interface WriterCapability {
  /** Output extensions (`.md3`); none for a folder format's writer. */
  extensions: readonly string[];
  /**
   * A folder format's writer is asked for by a flag (`--player`: OUT names a folder to write the parts into), which
   * the CLI offers with this help.
   */
  folderFlag?: { name: string; help: string };
  /** Frames per second when none is given; undefined: each animation at its own key rate. */
  defaultFps?: number;
  /** Options refused for this target, with why (`--split`: an MD2 has one mesh). */
  refuses?: Readonly<Record<string, string>>;
  /** Checks the fps the user gave (MD5: a whole number). */
  checkFps?(fps: number): string | null;
  /** glTF (bytes and the files a .gltf names) → the files to write. Loaded on first use (glTF Transform). */
  fromGltf(gltf: GltfInput, options: WriterOptions): Promise<WriterResult>;
  /**
   * glTF → the data model the format's writer writes (`importGltf(input, { format })`, `idtech-models/write`), for
   * the targets that offer it; the options are the room's (`GltfToMd3Options` …). Loaded on first use.
   */
  model?(gltf: GltfInput, options: object): Promise<unknown>;
}

/** What a parsed model of the format can do without reading files: be recognised by its data, exported, textured. */
export interface ModelEntry<D = any> {
  /** The format's id and title (its `ModelFormat`'s). */
  readonly id: string;
  readonly title: string;
  /** Whether a parsed value is this format's data (`toGlb(model)` finds its entry so). */
  owns(data: unknown): data is D;
  /** Each surface's materials, found as the format's engine finds them. */
  materials?(resolver: MaterialResolver, data: D, path: string, options: MaterialOptions): Promise<MaterialSet>;
  /**
   * What a skin by name (`MaterialOptions.skin`, the CLI's `--skin NAME`) picks for this format, for messages
   * (`<model>_NAME.skin beside it`); absent: its materials take no skin by name, and `--skin` is refused.
   */
  readonly skins?: string;
  gltf?: GltfCapability<D>;
}

export interface FormatEntry<D = any> extends ModelFormat<D>, ModelEntry<D> {
  /** `inspect`: what a file holds, read as a stream (MD5's huge files in constant memory). */
  inspect?(source: ByteSource, options: ReadOptions): Promise<InspectResult<D>>;
  /**
   * `inspect` of a model read as a set of files (a folder format: a Quake 3 player, Tremulous' non-segmented player
   * or buildable): what its files make, and which form they were read as (`form`).
   */
  inspectSet?(set: ModelSet<D>): Promise<InspectResult<D>>;
  /** Frames of a file from its header alone (the archive listing never reads a whole model). */
  headerFrames?(file: VfsFile): Promise<number>;
  /** For drawing: geometry, clips, and a player per backend. */
  playable?(set: ModelSet<D>): Promise<PlayableModel>;
  /**
   * What a renderer builds, by kind (`model-view.ts`: a morph, skinned or tagged view, plain data posed on `backend`):
   * what `IdTechLoader` turns into three.js objects without knowing the format.
   */
  view?(set: ModelSet<D>, backend: PoseBackend, settings?: ViewSettings): Promise<ModelView>;
  /**
   * How a model set (its companions, side files) becomes its glTF export's options, where they are more than each
   * companion one `anims` entry (IQM: one animation per clip an `iqm.cfg` or a `.framegroups` makes).
   */
  gltfOptions?(set: ModelSet<D>, options: GltfOptions): GltfOptions;
  obj?: ObjCapability<D>;
  /** Writing this format from glTF input. */
  writer?: WriterCapability;
}

/** A model's warnings as `inspect --json` prints them. */
export const plainWarnings = (warnings: readonly ParseWarning[]) => warnings.map((w) => ({ code: w.code, message: w.message, offset: w.offset }));

/** The capabilities a registration adds to its `ModelEntry`: what reads, inspects, plays or writes files. */
export type FileCapabilities<D> = Omit<FormatEntry<D>, keyof ModelFormat<D> | keyof ModelEntry<D>>;

/** A format's registration: its first door (whose id and title it keeps), its `ModelEntry`'s functions, and its file capabilities. */
export function formatEntry<D>(format: ModelFormat<D>, model: ModelEntry<D>, capabilities: FileCapabilities<D> = {}): FormatEntry<D> {
  const { view } = capabilities;
  // one clip name for one clip, whoever draws it (the viewer's list, three's clips): named here, once, for every format
  return { ...model, ...format, ...capabilities, ...(view ? { view: async (set, backend, settings) => withClipNames(await view(set, backend, settings)) } : {}) };
}

/** The entry whose data `data` is (a parsed model), among `entries`; a TypeError naming what it got otherwise. */
export function ownerAmong<E extends ModelEntry>(data: unknown, entries: readonly E[]): E {
  const e = entries.find((f) => f.owns(data));
  if (!e) throw new TypeError(`no format here holds ${(data as { format?: string } | null)?.format ?? 'this value'} (formats: ${entries.map((f) => f.id).join(', ')})`);
  return e;
}
