/**
 * One model with everything that belongs to it, read from any FileSystem (a folder, an archive, a mounted game
 * folder, dropped files, URLs): a model file and the files that play on it (an md5mesh's md5anims; an IQM mesh's
 * animation files), or a folder format (a Quake 3 player: its parts, animation.cfg and weapon). Every file streams
 * from `VfsFile.stream()` into its format's parser (a deflated archive member is inflated as it is read, never
 * extracted), and every failure names the file it came from (`ModelParseError.file`), so no caller wraps reads.
 *
 * The formats are handed in (`options.formats`): this room knows none of them.
 */
import { ErrorCode, ModelParseError, readingFile, type ParseWarning } from '../base/errors.js';
import type { ReadOptions } from '../base/source.js';
import { formatForName, nameIsAmbiguous, selectFormat, type Companion, type CompanionRef, type FileWarnings, type ModelFormat, type Replacement } from './format.js';
import { readScriptFile } from '../vfs/bounded-read.js';
import { fileHead, pathKey, type FileSystem, type VfsFile } from '../vfs/file-system.js';

export { fileHead };

export interface ModelSet<D = unknown, F = ModelFormat> {
  /** The id of the model's format (`md5mesh`, `md3`, `player` …). */
  format: string;
  /**
   * The format that read it, as it was handed in (`options.formats`: a registration, when the caller gave
   * registrations): what exports the set and finds its materials, so nothing asks the formats again which one it is.
   */
  registration: F;
  /** The model file, or the folder of a folder format ('' for the root), as stored. */
  path: string;
  /** Where it comes from, for messages: the model file's origin, or the folder's. */
  origin: string;
  data: D;
  /** What plays on it (md5anims, IQM animation files), in the order given or found. */
  companions: Companion[];
  /** Every file read. */
  files: VfsFile[];
  /** The side files its format reads beside it that are there (`ModelFormat.sideFiles`), whole (at most `maxScriptBytes` each). */
  sideFiles: { path: string; origin: string; bytes: Uint8Array }[];
  /** Parse warnings per file; `unpositioned` ones (a companion left out) point at no byte of it. */
  warnings: (FileWarnings & { unpositioned?: boolean })[];
  /**
   * The model a source port draws in its place when its files are there (`ModelFormat.replacedBy`: a re-release's
   * MD5 model beside an MD2 or MDL), opened as a set of its own; the original stays `data`. Absent when there is none,
   * or when it did not load (a warning on this set says why: the engine then draws the original).
   */
  replacement?: ReplacementSet;
}

/** A replacement opened (`ModelSet.replacement`): its own set, and who loads it in place of what. */
export interface ReplacementSet {
  set: ModelSet;
  /** Who loads it so (`Replacement.by`). */
  by: string;
  /** The original it replaces (the model set's origin). */
  replaces: string;
  /** The images the engine skins it with, as it names them (`Replacement.skins`, or what `Replacement.skinOf` named). */
  skins?: string[];
}

export interface ModelSetOptions<F extends ModelFormat = ModelFormat> extends Omit<ReadOptions, 'sizeHint'> {
  /** The formats to recognise, in the order they are tried. */
  formats: readonly F[];
  /** The format of `path` when the caller has already detected it. */
  format?: F;
  /**
   * What to play on the model: paths in the file system (or clip references), `'beside'` (what its format finds beside
   * it: the md5anims in an md5mesh's folder, the animations an IQM's iqm.cfg names) or none (the default; a format
   * with `companionsByDefault`, IQM, then plays what is beside it, as its engine does).
   */
  companions?: readonly CompanionRef[] | 'beside';
  /** A companion that does not fit the model: `'fail'` (ANIM_MESH_MISMATCH, the default) or `'skip'` it with a warning. */
  onMismatch?: 'fail' | 'skip';
  /**
   * The game's root in `fs`: what the model's format finds beside it (an IQM's iqm.cfg and what it names) is read
   * under it only. Default: the file system's root for a relative path, the model's own folder for a path from the
   * disk's root (a loose model: `gameFolderRoot` in `game-folder.ts` finds the game folder it sits in).
   */
  root?: string;
}

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const refPath = (r: CompanionRef) => (typeof r === 'string' ? r : r.path);
/** The file name without folder and extension: what a companion's clip is called. */
export const companionName = (path: string): string => nameOf(path.replace(/\\/g, '/')).replace(/\.[^.]*$/, '');

/**
 * The format of `file` by its name, else by its first bytes; null when no format claims it. A name several formats
 * claim (`.mdl`) is decided by the first bytes among them (`selectFormat`).
 */
export async function detectFile<F extends ModelFormat>(file: VfsFile, formats: readonly F[], signal?: AbortSignal): Promise<F | null> {
  if (!nameIsAmbiguous(file.path, formats)) {
    const named = formatForName(file.path, formats);
    if (named) return named;
  }
  return selectFormat(file.path, await readingFile(file.origin, () => fileHead(file, 4096, signal)), formats) as F | null;
}

/** The direct children of `folder` (any case), by lower-case name. */
export async function folderChildren(fs: FileSystem, folder: string): Promise<Map<string, VfsFile>> {
  const prefix = folder.replace(/\/+$/, '');
  const cut = prefix ? prefix.length + 1 : 0;
  const out = new Map<string, VfsFile>();
  for (const f of await fs.list(prefix)) {
    const rest = f.path.slice(cut);
    if (!rest.includes('/')) out.set(rest.toLowerCase(), f);
  }
  return out;
}

/** The folder formats a folder's children make (a file system that cannot list is probed for the names they need). */
async function folderFormat<F extends ModelFormat>(fs: FileSystem, folder: string, formats: readonly F[], seed?: VfsFile): Promise<{ format: F; children: Map<string, VfsFile> } | null> {
  const children = await folderChildren(fs, folder);
  if (seed && !children.has(nameOf(seed.path).toLowerCase())) children.set(nameOf(seed.path).toLowerCase(), seed);
  const prefix = folder.replace(/\/+$/, '');
  for (const format of formats) {
    const form = format.folder;
    if (!form) continue;
    for (const name of [...form.required, ...form.optional, ...(form.probes?.(prefix) ?? [])]) {
      if (children.has(name)) continue;
      const probed = await fs.file(prefix ? `${prefix}/${name}` : name);
      if (probed) children.set(name, probed);
    }
    if (form.matches(children)) return { format, children };
  }
  return null;
}

/** The folder format's model read from its folder. */
async function openFolder<F extends ModelFormat>(fs: FileSystem, path: string, found: { format: F; children: Map<string, VfsFile> }, options: ModelSetOptions<F>): Promise<ModelSet<unknown, F>> {
  const form = found.format.folder!;
  const files = form.files(found.children);
  const { data, warnings } = await form.load(found.children, path, { signal: options.signal, onProgress: options.onProgress }, { fs, root: options.root });
  const origin = files[0] ? files[0].origin.replace(/[\\/][^\\/]*$/, '') : path;
  return { format: found.format.id, registration: found.format, path: path.replace(/\/+$/, ''), origin, data, companions: [], files, sideFiles: [], warnings };
}

/**
 * The folder format a file opens as (`FolderForm.opensFrom`: Tremulous' nonseg.md3, a buildable's models), with its
 * folder, or null when the file opens alone: only a form that claims the file's name is asked, so opening any other
 * file reads nothing more.
 */
export async function folderOpening<F extends ModelFormat>(fs: FileSystem, file: VfsFile, formats: readonly F[], signal?: AbortSignal): Promise<{ format: F; folder: string; children: Map<string, VfsFile> } | null> {
  const path = file.path;
  const name = nameOf(path).toLowerCase();
  const claiming = formats.filter((f) => f.folder?.opensFrom?.(name, path));
  if (!claiming.length) return null;
  signal?.throwIfAborted();
  const folder = path.slice(0, Math.max(0, path.lastIndexOf('/')));
  const found = await folderFormat(fs, folder, formats, file);
  if (!found || !claiming.includes(found.format)) return null;
  if (!found.format.folder!.files(found.children).some((f) => f.path.toLowerCase() === path.toLowerCase())) return null;
  return { format: found.format, folder, children: found.children };
}

/** Why a file of `format` cannot be opened as a model on its own, or null when it can. */
export function notAModel(format: ModelFormat, formats: readonly ModelFormat[]): string | null {
  if (format.role === 'refused') return format.refusal ?? `a ${format.title}, which is not read here`;
  if (format.role === 'animation') {
    const on = formats.find((f) => f.id === format.playsOn);
    return `${format.title} plays on ${on ? on.title : `a ${format.playsOn}`}: open them together`;
  }
  return null;
}

function unknownFormat(file: string, formats: readonly ModelFormat[]): ModelParseError {
  const known = formats.filter((f) => f.role !== 'refused').flatMap((f) => f.extensions).join(', ');
  return new ModelParseError(ErrorCode.UnknownFormat, `not a model file this reads (${known}): no known extension, and its first bytes are none of theirs`, { offset: 0 }).inFile(file);
}

/**
 * The model at `path` in `fs` (a model file, or a folder holding a folder format), with its companions. Fails with
 * a ModelParseError naming the file: READ_FAILED for a missing file, UNKNOWN_FORMAT for one no format reads (or an
 * animation opened without its model), the parser's error for bad bytes, ANIM_MESH_MISMATCH for a companion that
 * does not fit (with `onMismatch: 'fail'`).
 */
export async function openModelSet<F extends ModelFormat>(fs: FileSystem, path: string, options: ModelSetOptions<F>): Promise<ModelSet<unknown, F>> {
  const { formats, signal } = options;
  const file = path ? await fs.file(path) : null;
  if (!file) {
    const found = await folderFormat(fs, path, formats);
    if (!found) {
      const forms = formats.filter((f) => f.folder).map((f) => `${f.title}: ${f.folder!.describes}`);
      throw new ModelParseError(ErrorCode.ReadFailed, `no model file${forms.length ? ` and no folder of one (${forms.join('; ')})` : ''} at ${path || 'the root'}`, { offset: 0 });
    }
    return openFolder(fs, path, found, options);
  }
  const whole = await folderOpening(fs, file, formats, signal);
  if (whole) return openFolder(fs, whole.folder, whole, options);
  const format = options.format ?? (await detectFile(file, formats, signal));
  if (!format) throw unknownFormat(file.origin, formats);
  const refusal = notAModel(format, formats);
  if (refusal) {
    // what plays on a model names the models beside it it plays on, where its format can tell (ET's .mdx: its .mdm)
    const on = format.role === 'animation' ? ((await format.playedBy?.(fs, file.path, { root: options.root, signal })) ?? []) : [];
    throw new ModelParseError(ErrorCode.UnknownFormat, on.length ? `${refusal} (it plays on ${on.slice(0, 3).join(', ')}${on.length > 3 ? ` and ${on.length - 3} more` : ''})` : refusal, { offset: 0 }).inFile(file.origin);
  }
  if (format.animationOnly?.(await readingFile(file.origin, () => fileHead(file, 256, signal)))) {
    const on = (await format.playedBy?.(fs, file.path, { root: options.root, signal })) ?? [];
    const shown = on.slice(0, 3).join(', ') + (on.length > 3 ? ` and ${on.length - 3} more` : '');
    const plays = on.length ? `it plays on ${shown}: open one of them (its iqm.cfg names this file), or` : 'no model beside it names it:';
    throw new ModelParseError(ErrorCode.UnknownFormat, `an animation-only ${format.title} (no meshes, only poses and frames): ${plays} open a model together with this file as its animation (--anim)`, { offset: 0 }).inFile(file.origin);
  }
  const data = await parseFile(file, format, options);
  const set: ModelSet<unknown, F> = { format: format.id, registration: format, path: file.path, origin: file.origin, data, companions: [], files: [file], sideFiles: [], warnings: [{ file: file.origin, warnings: format.warnings?.(data) ?? [] }] };
  for (const p of format.sideFiles?.(file.path) ?? []) {
    const side = await fs.file(p);
    if (!side) continue;
    // read with a bound, checked on its declared size before a byte is read (a sparse 600 MB .framegroups aborted the process)
    set.sideFiles.push({ path: side.path, origin: side.origin, bytes: await readingFile(side.origin, () => readScriptFile(side, { signal })) });
    set.files.push(side);
  }

  await addReplacement(fs, set, format, options);

  const named = options.companions;
  const beside = named === 'beside' || (format.companionsByDefault === true && (named === undefined || named.length === 0));
  // what the lookup refused (a config's path out of the root) is told by the file that named it
  const onWarning = (from: string, w: ParseWarning) => set.warnings.push({ file: from, warnings: [w], unpositioned: true });
  const wanted = beside ? ((await format.companionsBeside?.(fs, file.path, { root: options.root, signal, onWarning })) ?? []) : ((named as readonly CompanionRef[] | undefined) ?? []);
  // a file named by several references is read once; one that did not fit is left out of every one. A reference to
  // the model's own file plays the model's own data, not read again (Tesseract's `iqmanim "fastidle|dance"
  // "mrfixit.iqm" …` finds the anims loaded with the mesh: skelmodel.h setanim → loadanim)
  const read = new Map<string, { file: VfsFile; data: unknown } | null>([[pathKey(file.path), { file, data }]]);
  for (const ref of wanted) {
    const r = typeof ref === 'string' ? { path: ref } : ref;
    const key = pathKey(r.path);
    if (!read.has(key)) read.set(key, await readCompanion(fs, r.path, format, file, data, set, options));
    const got = read.get(key);
    if (!got) continue;
    set.companions.push({ name: r.name ?? companionName(got.file.path), path: got.file.path, origin: got.file.origin, data: got.data, ...(r.fps !== undefined ? { fps: r.fps } : {}), ...(r.detail !== undefined ? { detail: r.detail } : {}) });
  }
  return set;
}

/** A companion read and checked against the model; null when it does not fit and `onMismatch` is `skip` (warned). */
async function readCompanion<F extends ModelFormat>(fs: FileSystem, p: string, format: ModelFormat, file: VfsFile, data: unknown, set: ModelSet<unknown, F>, options: ModelSetOptions<F>): Promise<{ file: VfsFile; data: unknown } | null> {
  const { formats, signal } = options;
  const cf = await fs.file(p);
  if (!cf) throw new ModelParseError(ErrorCode.ReadFailed, `no file ${p}`, { offset: 0 }).inFile(p);
  const cformat = await detectFile(cf, formats, signal);
  if (!cformat) throw unknownFormat(cf.origin, formats);
  const companion = await parseFile(cf, cformat, options);
  const accepts: ParseWarning[] = [];
  const why = format.acceptsCompanion
    ? format.acceptsCompanion(data, companion, cformat.id, accepts)
    : cformat.role === 'animation' && cformat.playsOn === format.id
      ? null
      : `${cformat.title} does not play on ${format.title}`;
  if (why !== null) {
    if (options.onMismatch === 'skip') {
      set.warnings.push({ file: cf.origin, warnings: [{ code: ErrorCode.AnimMeshMismatch, message: `${why}: not played on ${file.path}`, offset: 0 }], unpositioned: true });
      return null;
    }
    throw new ModelParseError(ErrorCode.AnimMeshMismatch, why, { offset: 0 }).inFile(cf.origin, file.origin);
  }
  set.files.push(cf);
  const own = cformat.warnings?.(companion) ?? [];
  if (own.length) set.warnings.push({ file: cf.origin, warnings: own });
  if (accepts.length) set.warnings.push({ file: cf.origin, warnings: accepts, unpositioned: true });
  return { file: cf, data: companion };
}

/** `file` parsed by `format`, its size the parser's size hint, any error naming the file. */
function parseFile(file: VfsFile, format: ModelFormat, options: ModelSetOptions<ModelFormat>): Promise<unknown> {
  if (!format.parseStream) throw new ModelParseError(ErrorCode.UnknownFormat, `${format.title}: no parser here reads it`, { offset: 0 }).inFile(file.origin);
  const parse = format.parseStream.bind(format);
  return readingFile(file.origin, () => parse(file.stream({ signal: options.signal }), { signal: options.signal, onProgress: options.onProgress, sizeHint: file.size }));
}

/**
 * Looks in `fs` for the model a source port draws in place of `set`'s (`ModelFormat.replacedBy`) and opens it as
 * `set.replacement` when its files are there. `openModelSet` does it in the set's own file system; a caller whose set
 * was read from named files alone (three's loader given file names) asks again in the folder they came from.
 */
export async function addReplacement(fs: FileSystem, set: ModelSet, format: ModelFormat, options: ModelSetOptions): Promise<void> {
  const replacement = format.replacedBy?.(set.path, set.data);
  if (replacement) await openReplacement(fs, replacement, set, options);
}

/**
 * The replacement's files opened as a set of their own when every one is there (as q2pro's MOD_LoadMD5 and vkQuake
 * draw the original otherwise); one that fails to load is a warning on `set`, and the original stays what is drawn
 * (q2pro frees a replacement that fails to parse and keeps the MD2).
 */
async function openReplacement(fs: FileSystem, r: Replacement, set: ModelSet, options: ModelSetOptions): Promise<void> {
  // a probe that fails (a server answering 403 for what it does not have) is a file that is not there: the original
  // is what the engine draws then, and its load must not fail for it
  const there = async (p: string) => {
    try {
      return (await fs.file(p)) !== null;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      return false;
    }
  };
  if (!(await there(r.model))) return;
  if (r.notFromLowerSearchPath && fs.searchPath) {
    const [mine, original] = await Promise.all([fs.searchPath(r.model), fs.searchPath(set.path)]);
    if (mine !== null && original !== null && mine < original) return; // a lower search path's: the engine draws the original
  }
  let companions: CompanionRef[] = r.companions;
  for (const p of new Set(r.companions.map(refPath))) {
    if (await there(p)) continue;
    if (!r.companionsOptional) return;
    companions = []; // vkQuake: the md5mesh without its md5anim, in its bind pose
    break;
  }
  try {
    const sub = await openModelSet(fs, r.model, { ...options, format: undefined, companions, onMismatch: 'fail' });
    for (const p of r.sideFiles ?? []) {
      const side = await fs.file(p);
      if (!side) continue;
      sub.sideFiles.push({ path: side.path, origin: side.origin, bytes: await readingFile(side.origin, () => readScriptFile(side, { signal: options.signal })) });
      sub.files.push(side);
    }
    // the engine skins the replacement by its own rule, not with the md5mesh's materials: the original's skins (q2pro's
    // MD5_LoadSkins), or an image named after each material (QuakeSpasm-Spiked's progs/<shader>_00_00)
    const subFormat = options.formats.find((f) => f.id === sub.format);
    const skinOf = r.skinOf ?? (r.skins?.length ? () => r.skins![0] : null);
    const used: string[] = [];
    if (skinOf && subFormat?.skinnedWith) {
      sub.data = subFormat.skinnedWith(sub.data, (material) => {
        const image = skinOf(material);
        if (!used.includes(image)) used.push(image);
        return image;
      });
    }
    const skins = r.skins ?? (r.skinOf && used.length ? used : undefined);
    const own = r.check?.(sub) ?? [];
    if (own.length) sub.warnings.push({ file: sub.companions[0]?.origin ?? sub.origin, warnings: own, unpositioned: true });
    set.replacement = { set: sub, by: r.by, replaces: set.origin, ...(skins ? { skins } : {}) };
  } catch (e) {
    if (!(e instanceof ModelParseError) || options.signal?.aborted) throw e;
    set.warnings.push({ file: e.file ?? r.model, warnings: [{ code: 'REPLACEMENT_FAILED', message: `${e.message}: ${r.by} draws ${set.path} instead`, offset: 0 }], unpositioned: true });
  }
}
