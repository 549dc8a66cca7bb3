/**
 * Opening a model in the worker, all through its format's registration (no format named here): the model set
 * (`openModelSet`: the model file with what plays on it, or a folder format's files), timed; its view
 * (`entry.view`) made into data for the page (`view-data.ts`: frames decoded, influences chosen, here); its
 * materials as its engine finds them (`entry.materials`) and the bytes of the images they show. Files are counted
 * as they are read, for the page's progress bar.
 */
import { openModelSet, type FileSystem, type FormatEntry, type ModelSet, type PoseBackend, type VfsFile } from 'idtech-models';
import { entryFor } from 'idtech-models/files';
import { MaterialResolver } from 'idtech-models/textures';
import type { ModelEntry, Opened, ViewControls } from '../protocol.js';
import { viewToData } from '../view-data.js';

/** The open model: what the page's later requests (inspect, images, bench, export) work on. */
export interface OpenModel {
  entry: FormatEntry;
  set: ModelSet;
  fs: FileSystem;
  skin: string | undefined;
  materials: Opened['materials'];
  name: string;
}

/** `fs` whose files report the bytes read through `count` (each file counted once, up to its size). */
function countingFileSystem(fs: FileSystem, count: (n: number) => void): FileSystem {
  const counted = (f: VfsFile): VfsFile => {
    let reached = 0;
    return {
      path: f.path,
      size: f.size,
      origin: f.origin,
      mtimeMs: f.mtimeMs,
      stream: (o) =>
        (async function* () {
          let at = 0;
          for await (const c of f.stream(o)) {
            at += c.length;
            if (at > reached) {
              count(at - reached);
              reached = at;
            }
            yield c;
          }
        })(),
      bytes: (o) => f.bytes(o),
    };
  };
  return { ...fs, file: async (p) => ((f) => (f ? counted(f) : null))(await fs.file(p)), list: (folder, ext) => fs.list(folder, ext) };
}

const baseName = (path: string) => path.replace(/\/+$/, '').replace(/^.*\//, '').replace(/\.[^.]*$/, '') || 'model';

/**
 * The model's set as the CLI opens it: what its format finds beside it (`'beside'`: an IQM's iqm.cfg with its clips'
 * names, cuts and rates — the catalog's `anims` are only those files' paths, so opening with them played each file
 * whole under its file's name), then the animations picked or dropped since (paths the format did not find), after them.
 */
export async function openSet(fs: FileSystem, model: ModelEntry, entry: FormatEntry, formats: readonly FormatEntry[], signal: AbortSignal): Promise<ModelSet<unknown, FormatEntry>> {
  const format = entry.folder ? undefined : entry;
  if (!entry.companionsBeside) return openModelSet(fs, model.path, { formats, format, companions: model.anims, signal });
  const set = await openModelSet(fs, model.path, { formats, format, companions: 'beside', signal });
  const found = new Set([set.path, ...set.companions.map((c) => c.path)].map((p) => p.toLowerCase()));
  const added = model.anims.filter((p) => !found.has(p.toLowerCase()));
  if (!added.length) return set;
  const refs = set.companions.map((c) => ({ path: c.path, name: c.name, fps: c.fps, detail: c.detail }));
  const again = await openModelSet(fs, model.path, { formats, format, companions: [...refs, ...added], signal });
  // what the lookup beside it warned of (a config's path out of the root), which naming the companions does not repeat
  again.warnings.push(...set.warnings.filter((w) => w.unpositioned));
  return again;
}

export async function openModel(
  fs: FileSystem,
  model: ModelEntry,
  skinAsked: string | undefined,
  formats: readonly FormatEntry[],
  backend: PoseBackend,
  signal: AbortSignal,
  progress: (done: number, total: number, what: string) => void,
  replacementAsked = false,
  controls?: ViewControls,
): Promise<{ opened: Opened; open: OpenModel; transfer: Transferable[] }> {
  const original = entryFor(model.kind, formats);
  if (!original) throw new Error(`${model.path}: no registered format ${model.kind}`);
  let read = 0;
  const t0 = performance.now();
  const counting = countingFileSystem(fs, (n) => progress((read += n), model.size, `reading ${model.path}`));
  const whole = await openSet(counting, model, original, formats, signal);
  // a re-release's MD5 drawn in the original's place (docs/md5-replacements.md): its own set, drawn through its own
  // format's registration, playing the clips the library gave it (the MD2's); inspect and export then work on it too
  const r = whole.replacement;
  const replacementEntry = r ? (r.set.registration as FormatEntry) : undefined;
  const shown = replacementAsked && r && replacementEntry ? r : undefined;
  const set = shown ? (shown.set as ModelSet<unknown, FormatEntry>) : whole;
  const entry = shown && replacementEntry ? replacementEntry : original;
  const t1 = performance.now();
  if (!entry.view) throw new Error(`${entry.title}: its registration has no view to draw`);
  progress(read, model.size, 'posing');
  // the controls a format offers (extras.controls) baked into its clips; shown only on the model they were set for
  const view = await entry.view(set, backend, shown ? undefined : controls);
  // the replacement shows the skins the engine gives it (its shaders are already those images: ReplacementSet.skins)
  const skins = [...new Set([...(shown ? [] : model.skins), ...(view.extras?.skins ?? [])])];
  const transfer: Transferable[] = [];
  const data = viewToData(view, transfer);
  const t2 = performance.now();
  // a model's skin files or the skins it carries: the one asked for, else `default`, else the first (the engines' default skin is `default`)
  const skin = shown ? undefined : skinAsked ?? (skins.includes('default') ? 'default' : skins[0]);
  progress(read, model.size, 'finding textures');
  // the materials of the meshes the body value draws (a Half-Life model's submodels), as the view's groups are
  const body = shown ? undefined : controls?.body;
  const materials = entry.materials ? await entry.materials(new MaterialResolver(fs, { signal }), set.data, set.path, { skin, ...(body ? { body } : {}) }) : { materials: [], warnings: [] };
  const t3 = performance.now();
  const images: Opened['images'] = [];
  for (const m of materials.materials) {
    const path = m.diffuse?.path;
    if (!path || m.diffuse?.builtin || images.some((i) => i.path === path)) continue;
    const f = await fs.file(path);
    if (!f) continue;
    const got = await f.bytes({ signal });
    const bytes = got.byteOffset === 0 && got.byteLength === got.buffer.byteLength ? got : got.slice();
    images.push({ path, bytes });
    transfer.push(bytes.buffer);
  }
  const t4 = performance.now();
  const name = baseName(set.path);
  const writers = formats.flatMap((f) => (f.id !== entry.id && f.writer && f.writer.extensions.length && !f.writer.folderFlag ? [{ id: f.id, title: f.title, extension: f.writer.extensions[0] }] : []));
  const opened: Opened = {
    format: entry.id,
    title: entry.title,
    path: set.path,
    name,
    view: data,
    materials,
    images,
    warnings: (shown ? [whole, set] : [set]).flatMap((s) => s.warnings.map((w) => ({ file: w.file, warnings: w.warnings }))),
    files: (shown ? [whole, set] : [set]).flatMap((s) => s.files.map((f) => ({ path: f.path, origin: f.origin, size: f.size }))),
    skins,
    skin,
    writers,
    times: { parse: t1 - t0, view: t2 - t1, materials: t3 - t2, images: t4 - t3 },
    ...(r && replacementEntry ? { replacement: { by: r.by, path: r.set.path, title: replacementEntry.title, shown: !!shown } } : {}),
  };
  return { opened, open: { entry, set, fs, skin, materials, name }, transfer };
}
