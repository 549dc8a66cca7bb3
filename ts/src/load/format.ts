/**
 * The first door of every format: what a file of it looks like (extensions, first bytes), how its bytes become
 * plain data (a stream parser), and what else belongs with it (an md5mesh's md5anims, a Quake 3 player's parts, an
 * IQM mesh's animation files). Each format's room exports one `ModelFormat` object (`formats/<room>/format.ts`);
 * nothing here poses, exports or draws — the registry (`registry/`) adds those capabilities to the same object.
 *
 * Formats are handed in, never registered globally (loaders.gl's `selectLoader(data, loaders)`): a caller that
 * names one format carries that format's parser and nothing else.
 */
import type { ParseWarning } from '../base/errors.js';
import type { ByteSource, ReadOptions } from '../base/source.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';

/** How a format's models move: joints (skeletal), stored vertex frames (vertex), or not at all. */
export type AnimationKind = 'skeletal' | 'vertex' | 'static';

/**
 * - `model`: opens on its own (an md5mesh, an MD2, a player folder);
 * - `animation`: plays on a model of the format `playsOn` names (an md5anim);
 * - `refused`: recognised only to be refused by name (`refusal` says why: a Doom 3 camera path).
 */
export type FormatRole = 'model' | 'animation' | 'refused';

/** A file a model set read, with its parse warnings (attributed to the file, as messages print them). */
export interface FileWarnings {
  /** The file's origin (`pak0.pk3:models/x.md3`, a path, a URL). */
  file: string;
  warnings: readonly ParseWarning[];
  /** The warnings point at no byte of the file (a part lacking what the others need; a companion left out). */
  unpositioned?: boolean;
}

/** A file that plays on the model (an md5anim on its md5mesh; an IQM animation file on its mesh). */
export interface Companion<A = unknown> {
  /** The clip name it gives (a config's name for it, else the file's base name: `walk` for `walk.md5anim`). */
  name: string;
  path: string;
  origin: string;
  /** The companion format's parsed data (one object for every reference to the same file). */
  data: A;
  /** Frames per second a config gives it (Tesseract's `iqmanim NAME FILE FPS`), over the file's own. */
  fps?: number;
  /** What else the reference says, for its format alone (which anim of the file, frames cut off). */
  detail?: unknown;
}

/**
 * Where a format looks for what belongs with a model (`companionsBeside`, `playedBy`): `root` is the game's root in
 * the file system — nothing above it is read, and a path a script names out of it is refused (UNSAFE_PATH). Default:
 * the file system's root for a relative model path (an archive, a mounted folder), the model's own folder for a path
 * from the disk's root (`vfs/safe-path.ts` `defaultModelRoot`).
 */
export interface CompanionSearch {
  root?: string;
  signal?: AbortSignal;
  /** Where what the lookup refused is told (a config's path out of the root: UNSAFE_PATH), by the file that named it. */
  onWarning?(file: string, warning: ParseWarning): void;
}

/**
 * A companion found beside a model: a path, or a clip a config names (a name, a rate, format-specific detail). A file
 * may be named by several (Tesseract plays `runcycle0.iqm` as both "run forward" at 35 fps and "sprint" at 45).
 */
export type CompanionRef = string | { path: string; name?: string; fps?: number; detail?: unknown };

export interface ModelFormat<M = unknown> {
  /** Short, stable: `md2`, `md3`, `md5mesh`, `md5anim`, `player`, `mdl`, `iqm`; the key every consumer uses. */
  readonly id: string;
  /** For people: `Quake 2 model (MD2)`. */
  readonly title: string;
  /**
   * The format's name as people say it (`MD5`, `MD2`, `Quake MDL`), one for a family (an md5mesh and its md5anim are
   * both MD5): what the CLI's help, the README and the package's description list. Default: the id.
   */
  readonly name?: string;
  /** One line for people (the CLI's help, the generated docs): what the format is, whose it is, what plays on it. */
  readonly description?: string;
  /** Lower case with the dot (`.md2`); a folder format has none. */
  readonly extensions: readonly string[];
  /** Whether a file's first bytes (up to 4096) are this format's. Formats without magic leave it out. */
  readonly test?: (head: Uint8Array) => boolean;
  readonly role: FormatRole;
  /** `animation` formats: the id of the format they play on. */
  readonly playsOn?: string;
  /** `refused` formats: why, as one clause (`a Doom 3 camera path (.md5camera), which no parser here reads`). */
  readonly refusal?: string;
  readonly animation: AnimationKind;

  /** Bytes → the format's plain data (every field kept), honouring `signal`, `onProgress`, `sizeHint`. */
  parseStream?(source: ByteSource, options?: ReadOptions): Promise<M>;
  /** The data's own parse warnings (what `inspect` and `convert` report). */
  warnings?(data: M): readonly ParseWarning[];

  /**
   * Folder formats (a Quake 3 player): whether a folder's direct children (by lower-case name) make one, and the
   * files of it to read. Tried before the folder's files are taken one by one.
   */
  readonly folder?: FolderForm<M>;

  /**
   * The model names whose `.skin` files the model's folder offers (`<name>_<skin>.skin`: an MD3's base name, a
   * player's lower/upper/head); absent for formats without skin files.
   */
  skinNames?(path: string): readonly string[];
  /**
   * What plays on a model of this format, found beside it in `fs` (its folder's md5anims; the animation files an
   * `iqm.cfg` names): paths, read from directories only. Used where no companions are given (the catalog, `--all`,
   * a dropped folder).
   */
  companionsBeside?(fs: FileSystem, path: string, options?: CompanionSearch): Promise<CompanionRef[]>;
  /**
   * Whether a model opened with no companions named plays what `companionsBeside` finds, as its engine does: Tesseract
   * loads an IQM through the `iqm.cfg` beside it, which names its animations (an md5mesh plays nothing unnamed).
   */
  readonly companionsByDefault?: boolean;
  /**
   * Whether a file of this format holds only what plays on a model of it, from its first bytes (an IQM with poses
   * and no meshes: Red Eclipse's animation files): such a file is not listed as a model of its own.
   */
  animationOnly?(head: Uint8Array): boolean;
  /**
   * The models such an animation-only file plays on, as the engine's configs pair them (the `iqm.cfg`s in its folder
   * and below, under the root, whose `iqmanim` lines name it): what the refusal to open it alone names.
   */
  playedBy?(fs: FileSystem, path: string, options?: CompanionSearch): Promise<string[]>;
  /**
   * Files beside the model that change how it plays without being models themselves, read whole when present
   * (DarkPlaces' `model.iqm.framegroups`: named clips over the model's frames): paths in the model's file system.
   */
  sideFiles?(path: string): string[];
  /**
   * Whether `companion` (parsed by the format `companionFormat`) can play on `data`: null when it can, or why not
   * (ANIM_MESH_MISMATCH's detail). Warnings about differences the engine accepts go to `warnings`.
   */
  acceptsCompanion?(data: M, companion: unknown, companionFormat: string, warnings: ParseWarning[]): string | null;
  /**
   * The files a source port draws in place of this model when they are there (the Quake and Quake II re-releases'
   * MD5 models beside an MDL or MD2: docs/md5-replacements.md), from the model's path and data; null when this
   * format's models have none. The model set opens them as `replacement` (load/model-set.ts). Without `data`, the
   * paths alone (no `skins`, no `check`): what a caller probes before reading the model.
   */
  replacedBy?(path: string, data?: M): Replacement | null;
  /**
   * This format's model with each material drawn with the image `skin(material)` names instead — as a replacement is
   * skinned by its engine's rule (`Replacement.skins`: q2pro's MD5 models take the MD2's first skin, from `md5/`
   * beside it; `Replacement.skinOf`: QuakeSpasm-Spiked's and vkQuake's `progs/<shader>_00_00`). Absent: the model
   * keeps its own.
   */
  skinnedWith?(data: M, skin: (material: string) => string): M;
}

/** A model a source port draws instead of another (`ModelFormat.replacedBy`): where its files are, who loads them. */
export interface Replacement {
  /** The replacing model file (an md5mesh). */
  model: string;
  /**
   * What plays on it (its md5anim), each file at least once; every file must be there, or the engine draws the
   * original (unless `companionsOptional`). A reference may cut clips out of a file (`detail`, for the replacing format
   * alone): the original's clips over the frames the engine shows for them.
   */
  companions: CompanionRef[];
  /**
   * The model alone replaces the original; its companions play when they are all there, else it stands in its bind
   * pose (QuakeSpasm-Spiked's and vkQuake's MD5Anim_Begin: an md5mesh without its md5anim loads with no frames).
   */
  companionsOptional?: boolean;
  /**
   * The model is a replacement only when read from the original's search path or a higher one
   * (`FileSystem.searchPath`: vkQuake's "this is a replacement only if its priority is >= MDL one"), so a mod's own
   * model is not replaced by the base game's MD5.
   */
  notFromLowerSearchPath?: boolean;
  /** Side files of the replacement read whole when present (Quake II's `tris.md5scale`). */
  sideFiles?: string[];
  /** Who loads it so, for messages: `q2pro MOD_LoadMD5 (the Quake II re-release)`. */
  by: string;
  /** The images the engine skins it with (`<skin dir>/md5/<skin>`), in skin order; every material drawn with the first. */
  skins?: string[];
  /**
   * The image the engine draws each of the replacement's materials with, from the material's name (the default skin,
   * number 0: QuakeSpasm-Spiked's `progs/<shader>_00_00`), where it is found from the replacement's own materials
   * rather than the original's skins. The set's `replacement.skins` lists them then.
   */
  skinOf?(material: string): string;
  /** Warnings about the opened replacement the original's format can tell (fewer anim frames than its own). */
  check?(replacement: { companions: readonly Companion[] }): ParseWarning[];
}

/** Where a folder format's folder sits: its file system and the game's root in it (CompanionSearch's `root`). */
export interface FolderContext {
  fs: FileSystem;
  root?: string;
}

/** A model made of a folder's files (the Quake 3 player: lower/upper/head.md3, animation.cfg, weapon.md3). */
export interface FolderForm<M> {
  /** The lower-case names such a folder must hold, and those it may: what is probed where a folder cannot be listed (URLs). */
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /**
   * More lower-case names probed where a folder cannot be listed, from the folder's path (a Tremulous buildable's
   * `<name>.md3` in `models/buildables/<name>/`): what `required` and `optional` cannot name.
   */
  probes?(folder: string): readonly string[];
  /** Whether the children (lower-case name → file) make one. */
  matches(children: ReadonlyMap<string, VfsFile>): boolean;
  /** The children that belong to it (to be read, listed and not catalogued again on their own). */
  files(children: ReadonlyMap<string, VfsFile>): VfsFile[];
  /**
   * Reads the folder's model; each file's warnings attributed to it. `context` is the file system the folder is in and
   * the game's root there, for a form whose engine reads files outside the folder (a Tremulous buildable's
   * `configs/buildables/<name>.cfg` and the models it names): nothing above `root` is read.
   */
  load(children: ReadonlyMap<string, VfsFile>, folder: string, options?: ReadOptions, context?: FolderContext): Promise<{ data: M; warnings: FileWarnings[] }>;
  /**
   * Whether a file of this lower-case name, opened on its own, opens as the whole folder when its folder is one of
   * this form (Tremulous reads an alien's nonseg.md3, and a buildable's models, only through their folder's
   * animation.cfg): `openModelSet` then reads the folder. Absent: a file of the folder opens alone.
   */
  opensFrom?(name: string, path: string): boolean;
  /** What a folder of this form holds, for messages: `lower.md3, upper.md3 and head.md3 (…)`. */
  readonly describes: string;
  /** What such a folder is called, for messages: `Quake 3 player folder`. */
  readonly noun: string;
}

/** The format of a file by its name (extension), among `formats`; null when none claims it. */
export function formatForName<F extends ModelFormat>(name: string, formats: readonly F[]): F | null {
  const lower = name.toLowerCase();
  for (const f of formats) if (f.extensions.some((x) => lower.endsWith(x))) return f;
  return null;
}

/** The format whose first bytes `head` are, among `formats` (in their order); null when none recognises them. */
export function formatForBytes<F extends ModelFormat>(head: Uint8Array, formats: readonly F[]): F | null {
  for (const f of formats) if (f.test?.(head)) return f;
  return null;
}

/** Every format claiming the name's extension, in their order (`.mdl`: Quake's and Half-Life's). */
export function formatsForName<F extends ModelFormat>(name: string, formats: readonly F[]): F[] {
  const lower = name.toLowerCase();
  return formats.filter((f) => f.extensions.some((x) => lower.endsWith(x)));
}

/** Whether the name's extension is claimed by more than one format, so only its first bytes can tell which. */
export function nameIsAmbiguous(name: string, formats: readonly ModelFormat[]): boolean {
  return formatsForName(name, formats).length > 1;
}

/**
 * By name, else (when `head` is given) by first bytes: loaders.gl's selectLoader. Where several formats claim the
 * name's extension (`.mdl`: Quake's `IDPO` and Half-Life's `IDST`), the first of them whose first bytes `head` are;
 * without `head`, or when none is, the first of them (whose parser then refuses the bytes by name).
 */
export function selectFormat<F extends ModelFormat>(name: string, head: Uint8Array | null, formats: readonly F[]): F | null {
  const named = formatsForName(name, formats);
  if (named.length > 1 && head) return named.find((f) => f.test?.(head)) ?? named[0];
  return named[0] ?? (head ? formatForBytes(head, formats) : null);
}

/** `.md5mesh, .md5anim, .md2, .md3`: the extensions of the formats that are read (not refused), for messages. */
export function readableExtensions(formats: readonly ModelFormat[]): string {
  return formats.filter((f) => f.role !== 'refused').flatMap((f) => f.extensions).join(', ');
}

/** Whether the first four bytes are `magic` (binary formats' identifiers: `IDP2`, `IDP3`, `IDPO`). */
export function hasMagic(head: Uint8Array, magic: string): boolean {
  if (head.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (head[i] !== magic.charCodeAt(i)) return false;
  return true;
}
