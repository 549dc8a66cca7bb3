/**
 * Tremulous' MD3 model sets as folder formats (`load/format.ts` FolderForm), read the way its cgame reads them
 * (Tremulous 1.1/1.2 and GPP `src/cgame`; docs/md3.md, "Tremulous"):
 *
 * - the non-segmented player (cg_players.c CG_RegisterClientModelname): the folder's animation.cfg is read first;
 *   with the `nonsegmented` keyword the model is `nonseg.md3` alone, its NSPA_* lines frames of that file. Opening
 *   nonseg.md3 itself opens its folder (`opensFrom`): the game never draws it without the cfg.
 * - the buildable (cg_buildable.c CG_InitBuildables, bg_misc.c BG_ParseBuildableFile): `models/buildables/<name>/`
 *   holding animation.cfg (14 BANIM_* lines, always read as a buildable's); the models are those of
 *   `configs/buildables/<name>.cfg` under the game's root (`model 0..3 PATH`, `modelScale`, `zOffset`): model 0 at
 *   the origin, models 1 and 2 on model 0's `tag_turret` (CG_Buildable; model 3 is loaded but never drawn, so it is
 *   left out with a warning). Without that config every model of the folder plays the cfg at the origin. A model of
 *   such a folder opened on its own opens the folder.
 *
 * A folder is a buildable's when it sits in a folder named `buildables` (Tremulous' `models/buildables/`, the
 * Unvanquished port's `models/tremulous/buildables/`) and holds animation.cfg and an MD3: the game finds its
 * buildables by name, never by what a folder holds.
 */
import { ErrorCode, ModelParseError, readingFile } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import type { ReadOptions } from '../../base/source.js';
import type { FileSystem, VfsFile } from '../../vfs/file-system.js';
import { readScriptFile } from '../../vfs/bounded-read.js';
import { isUnderRoot, scriptPathProblem } from '../../vfs/safe-path.js';
import type { FileWarnings, FolderContext, FolderForm, ModelFormat } from '../../load/format.js';
import type { Md3AnimationCfg } from './animation-cfg.js';
import { gameRootOf, type TremulousModel, type TremulousPart } from './tremulous-parts.js';

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const SEGMENTED = ['lower.md3', 'upper.md3', 'head.md3'];

async function parseModel(f: VfsFile, options: ReadOptions): Promise<Md3Model> {
  const { parseMd3Stream } = await import('./index.js');
  return readingFile(f.origin, () => parseMd3Stream(f.stream({ signal: options.signal }), { ...options, sizeHint: f.size }));
}

async function readCfg(f: VfsFile, form: 'nonsegmented' | 'buildable' | undefined, options: ReadOptions): Promise<Md3AnimationCfg> {
  const { parseAnimationCfg } = await import('./animation-cfg.js');
  return readingFile(f.origin, async () => parseAnimationCfg(await readScriptFile(f, { signal: options.signal }), form ? { form } : {}));
}

const nonsegFolder: FolderForm<TremulousModel> = {
  describes: 'nonseg.md3 and an animation.cfg that says nonsegmented',
  noun: 'Tremulous non-segmented player folder',
  required: ['nonseg.md3', 'animation.cfg'],
  optional: [],
  matches: (children) => children.has('nonseg.md3') && children.has('animation.cfg'),
  files: (children) => [children.get('nonseg.md3')!, children.get('animation.cfg')!],
  opensFrom: (name) => name === 'nonseg.md3',
  async load(children, _folder, options: ReadOptions = {}) {
    const cfgFile = children.get('animation.cfg')!;
    const animations = await readCfg(cfgFile, undefined, options);
    if (animations.form !== 'nonsegmented') {
      // CG_RegisterClientModelname: without the keyword the game loads lower/upper/head.md3 instead
      throw new ModelParseError(ErrorCode.UnknownFormat, `no \`nonsegmented\` keyword: Tremulous reads this folder as a segmented player (lower.md3, upper.md3, head.md3), not through nonseg.md3`, { offset: 0 }).inFile(cfgFile.origin);
    }
    const f = children.get('nonseg.md3')!;
    const model = await parseModel(f, options);
    const warnings: FileWarnings[] = [{ file: f.origin, warnings: model.warnings }, { file: cfgFile.origin, warnings: animations.warnings }];
    return { data: { format: 'nonseg', parts: [{ name: 'nonseg', path: f.path, model }], animations, scale: 1, zOffset: 0 }, warnings };
  },
};

/** Whether `folder` (a path) is a buildable's: its parent folder is named `buildables`. */
function inBuildables(folder: string): boolean {
  const segments = folder.split('/');
  return segments.length >= 2 && segments[segments.length - 2].toLowerCase() === 'buildables';
}

const md3Children = (children: ReadonlyMap<string, VfsFile>) => [...children].filter(([n]) => n.endsWith('.md3')).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, f]) => f);
const folderPath = (children: ReadonlyMap<string, VfsFile>) => folderOf(children.values().next().value?.path ?? '');

const buildableFolder: FolderForm<TremulousModel> = {
  describes: 'animation.cfg (14 BANIM_* lines) and its MD3s, in a folder named buildables (configs/buildables/<name>.cfg names the models to draw)',
  noun: 'Tremulous buildable folder',
  required: ['animation.cfg'],
  optional: [],
  matches: (children) =>
    children.has('animation.cfg') && !children.has('nonseg.md3') && !SEGMENTED.every((n) => children.has(n)) && md3Children(children).length > 0 && inBuildables(folderPath(children)),
  files: (children) => [...md3Children(children), children.get('animation.cfg')!],
  // over URLs (no listing): the game's own name for the model, models/buildables/<name>/<name>.md3
  probes: (folder) => (inBuildables(folder) ? [`${nameOf(folder).toLowerCase()}.md3`] : []),
  opensFrom: (name, path) => name.endsWith('.md3') && inBuildables(folderOf(path)),
  async load(children, folder, options: ReadOptions = {}, context?: FolderContext) {
    const warnings: FileWarnings[] = [];
    const cfgFile = children.get('animation.cfg')!;
    const animations = await readCfg(cfgFile, 'buildable', options);
    warnings.push({ file: cfgFile.origin, warnings: animations.warnings });
    const dir = folder.replace(/\/+$/, '') || folderPath(children);
    const found = context ? await configuredParts(context, dir, options, warnings) : null;
    const parts: TremulousPart[] = found?.parts ?? [];
    if (!found) {
      for (const f of md3Children(children)) {
        const model = await parseModel(f, options);
        warnings.push({ file: f.origin, warnings: model.warnings });
        parts.push({ name: nameOf(f.path).replace(/\.md3$/i, ''), path: f.path, model });
      }
    }
    const config = found?.config;
    const data: TremulousModel = {
      format: 'buildable', parts, animations, scale: config?.modelScale ?? 1, zOffset: config?.zOffset ?? 0,
      ...(found ? { config: found.config, configPath: found.path } : {}),
    };
    return { data, warnings };
  },
};

/** The parts `configs/buildables/<name>.cfg` names (null when the game root holds no such config). */
async function configuredParts(context: FolderContext, dir: string, options: ReadOptions, warnings: FileWarnings[]) {
  const { fs, root } = context;
  const name = nameOf(dir);
  const gameRoot = gameRootOf(dir);
  const join = (p: string) => (gameRoot ? `${gameRoot}/${p}` : p);
  const path = join(`configs/buildables/${name}.cfg`);
  if (root !== undefined && !isUnderRoot(root, path)) return null;
  const file = await fs.file(path);
  if (!file) return null;
  const { parseBuildableConfig } = await import('./buildable-config.js');
  const config = await readingFile(file.origin, async () => parseBuildableConfig(await readScriptFile(file, { signal: options.signal })));
  warnings.push({ file: file.origin, warnings: config.warnings });
  const parts: TremulousPart[] = [];
  const refuse = (detail: string) => new ModelParseError(ErrorCode.ReadFailed, detail, { offset: 0 }).inFile(file.origin);
  for (let i = 0; i < 3; i++) {
    const named = config.models[i];
    if (!named) {
      if (i === 0) throw refuse('no `model 0`: the buildable has nothing to draw');
      continue;
    }
    const problem = scriptPathProblem(named);
    const gamePath = named.replace(/\\/g, '/');
    const p = join(gamePath);
    if (problem || (root !== undefined && !isUnderRoot(root, p))) throw new ModelParseError(ErrorCode.UnsafePath, `model ${i} ${JSON.stringify(named)} is ${problem ?? 'outside the game folder'}: not read`, { offset: 0 }).inFile(file.origin);
    const f = await fileAnyCase(fs, p);
    if (!f) throw refuse(`model ${i} ${JSON.stringify(named)}: no such file`);
    const model = await parseModel(f, options);
    warnings.push({ file: f.origin, warnings: model.warnings });
    parts.push({ name: `model${i}`, path: f.path, gamePath, model, ...(i > 0 ? { on: { part: 'model0', tag: 'tag_turret' } } : {}) });
  }
  const base = parts[0].model;
  if (parts.length > 1 && !base.tagNames.includes('tag_turret')) {
    warnings.push({ file: parts[0].path, warnings: [{ code: 'MISSING_TAG', message: `no tag_turret (its tags: ${JSON.stringify(base.tagNames)}): models 1 and 2 are placed at model 0's origin, as the game does`, offset: 0 }], unpositioned: true });
  }
  if (config.models[3]) {
    warnings.push({ file: file.origin, warnings: [{ code: 'NOT_DRAWN', message: `model 3 ${JSON.stringify(config.models[3])}: the game loads it but CG_Buildable draws models 0 to 2 only: left out`, offset: 0 }], unpositioned: true });
  }
  return { parts, config, path: `configs/buildables/${name}.cfg` };
}

/** `path` in `fs`, else the same path in another case (a game's archives are looked up case-insensitively). */
async function fileAnyCase(fs: FileSystem, path: string): Promise<VfsFile | null> {
  const direct = await fs.file(path);
  if (direct) return direct;
  const want = path.toLowerCase();
  for (const f of await fs.list(folderOf(path))) if (f.path.toLowerCase() === want) return f;
  return null;
}

export const nonsegFormat: ModelFormat<TremulousModel> = {
  id: 'nonseg',
  title: 'Tremulous non-segmented player (nonseg.md3 and its animation.cfg)',
  name: 'MD3',
  description: "Tremulous' aliens: nonseg.md3, played by its animation.cfg",
  extensions: [],
  role: 'model',
  animation: 'vertex',
  folder: nonsegFolder,
  // cg_players.c CG_RegisterClientSkin: `models/players/%s/nonseg_%s.skin`
  skinNames: () => ['nonseg'],
};

export const buildableFormat: ModelFormat<TremulousModel> = {
  id: 'buildable',
  title: 'Tremulous buildable (its MD3s and animation.cfg)',
  name: 'MD3',
  description: "Tremulous' buildables: MD3s hung on tag_turret, played by animation.cfg",
  extensions: [],
  role: 'model',
  animation: 'vertex',
  folder: buildableFolder,
  skinNames: (path) => [nameOf(path.replace(/\/+$/, ''))],
};
