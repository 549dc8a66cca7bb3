/**
 * The engines' material lookups behind `MaterialResolver` (resolver.ts), which loads this module on its first
 * resolution: each surface's skin entry, shader or material definition and image files, with the caches a resolver
 * keeps (the library, every probed path, every read text). docs/materials.md gives the engine rules with their
 * sources.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import type { IqmModel, Md2Model, Md3Model, Md5Mesh } from '../base/model.js';
import type { FileSystem } from '../vfs/file-system.js';
import { readScriptFile } from '../vfs/bounded-read.js';
import { implicitLook, mtrLook, shaderLook, type ImageName, type Look } from './appearance.js';
import { md5MeshNamesFromText, parseCubeModelConfig, type CubeModelConfig } from './cube-config.js';
import { loadMaterialLibrary, type MaterialLibrary } from './library.js';
import {
  builtinImage, declKey, doom3DdsName, triedPattern, fileNameOf, folderOf, joinPath, quake3ImageCandidates, QUAKE3_IMAGE_EXTENSIONS, shaderKey, stripExtension, tesseractDdsName,
} from './names.js';
import type { IqmCfgMaterials, IqmOptions, MaterialResolverOptions, MaterialSet, Md3Options, PlayerPart } from './resolve-options.js';
import { md3SurfaceKey, parseSkin, skinShaderFor, type SkinFile } from './skin-file.js';
import type { DefinitionSource, MaterialWarning, NameSource, ResolvedImage, ResolvedMaterial, WrittenAt } from './types.js';

/** Found file of a lookup (cached per path). */
interface Probe {
  path: string | null;
  origin: string | null;
}

/** A look whose definition came from somewhere. */
interface Defined {
  look: Look;
  definition: DefinitionSource;
  /** The file the look's names were written in (their paths), null for implicit names. */
  file: string | null;
}

class Collector {
  readonly warnings: MaterialWarning[] = [];
  private readonly seen = new Map<string, MaterialWarning>();
  /**
   * Add a warning unless one with the same key was added already ("one clear warning per missing name"); a repeat
   * of a missing name adds its user to the first warning's `missing.usedBy`.
   */
  once(key: string, w: MaterialWarning): void {
    const had = this.seen.get(key);
    if (!had) {
      this.seen.set(key, w);
      this.warnings.push(w);
      return;
    }
    for (const user of w.missing?.usedBy ?? []) if (had.missing && !had.missing.usedBy.includes(user)) had.missing.usedBy.push(user);
  }
}

const lowerNames = (names: readonly string[]) => names.map((n) => n.toLowerCase());

/**
 * The paths a lookup tried, as a message lists them: one name with its extensions as a pattern
 * (`x.{tga,jpg,png}`), else each path cut by `shortName`, at most 8 (a long name tried with every extension would
 * otherwise be quoted whole once per extension).
 */
function triedText(tried: readonly string[]): string {
  const p = triedPattern(tried);
  if (p) return `${shortName(p.stem)}.{${p.extensions.join(',')}}`;
  return tried.slice(0, 8).map(shortName).join(', ') + (tried.length > 8 ? `, … (${tried.length} in all)` : '');
}

export class MaterialLookup {
  private libraryPromise: Promise<MaterialLibrary> | null;
  private readonly probes = new Map<string, Promise<Probe>>();
  private readonly texts = new Map<string, Promise<Uint8Array | null>>();
  /** Files not read for their size (SCRIPT_TOO_LARGE), reported with every result. */
  private readonly tooLarge: MaterialWarning[] = [];
  private readonly extensions: readonly string[];

  constructor(
    readonly fs: FileSystem,
    private readonly options: MaterialResolverOptions = {},
  ) {
    this.libraryPromise = options.library ? Promise.resolve(options.library) : null;
    this.extensions = lowerNames(options.imageExtensions ?? QUAKE3_IMAGE_EXTENSIONS);
  }

  /** Every shader script and material file of the file system, read once. */
  library(): Promise<MaterialLibrary> {
    this.libraryPromise ??= loadMaterialLibrary(this.fs, { signal: this.options.signal, maxScriptBytes: this.options.maxScriptBytes });
    return this.libraryPromise;
  }

  // --- models --------------------------------------------------------------------------------------------------

  /**
   * An MD3's surfaces (ioquake3 tr_mesh.c R_AddMD3Surfaces): with a skin, the skin's entry for the surface's name
   * (lower-cased, `_1` cut: skin-file.ts `md3SurfaceKey`), and no entry means the default shader; without one,
   * the surface's own shader `skinNum % count`. The name then goes through R_FindShader: a script definition,
   * else the image of that name.
   */
  async md3(model: Md3Model, modelPath: string, options: Md3Options = {}): Promise<MaterialSet> {
    const out = new Collector();
    const skin = await this.md3Skin(modelPath, options, out);
    const materials = await this.md3Surfaces(model, modelPath, skin, options.skinNum ?? 0, out);
    return this.finish(materials, out);
  }

  /**
   * A Quake 3 player (`models/players/<name>/`): each part with `<part>_<skin>.skin` (ioquake3 cgame
   * cg_players.c CG_RegisterClientSkin). A missing skin falls back to `_default` with a warning, as the game
   * falls back to a default; with no skin at all a part uses its own shader names.
   */
  async player(parts: Partial<Record<PlayerPart, Md3Model>>, folder: string, options: { skin?: string } = {}): Promise<MaterialSet> {
    const out = new Collector();
    const skinName = options.skin ?? 'default';
    const materials: ResolvedMaterial[] = [];
    for (const part of ['lower', 'upper', 'head'] as const) {
      const model = parts[part];
      if (!model) continue;
      let skin = await this.readSkin(joinPath(folder, `${part}_${skinName}.skin`), out, skinName === 'default');
      if (!skin && skinName !== 'default') skin = await this.readSkin(joinPath(folder, `${part}_default.skin`), out, true);
      const file = joinPath(folder, `${part}.md3`);
      for (const m of await this.md3Surfaces(model, (await this.probe(file)).path ?? file, skin, 0, out)) materials.push({ ...m, part });
    }
    return this.finish(materials, out);
  }

  /**
   * An MD2's skin records. Quake 2 (ref_gl gl_model.c Mod_LoadAliasModel → gl_image.c GL_FindImage) loads each
   * name exactly as stored, from the game root. Where that file is missing we try, in order: the same name with
   * ioquake3's extensions (the replacement textures of Quake 2 ports), the name's file name beside the model
   * (skins exported with the modeller's own path), and `skin.jpg` / `skin.png` in the model's folder and then its
   * parent (AssaultCube / Cube rendermodel.cpp `loadskin`). A model with no skin record gets the last rule only.
   */
  async md2(model: Md2Model, modelPath: string): Promise<MaterialSet> {
    const out = new Collector();
    const folder = folderOf(modelPath);
    const beside = [joinPath(folder, 'skin.jpg'), joinPath(folder, 'skin.png')];
    if (folder) beside.push(joinPath(folderOf(folder), 'skin.jpg'), joinPath(folderOf(folder), 'skin.png'));
    const records = model.skins.length > 0 ? model.skins.map((s) => s.name) : [''];
    const materials: ResolvedMaterial[] = [];
    for (let i = 0; i < records.length; i++) {
      const name = records[i];
      const exact = name ? [name, ...quake3ImageCandidates(name, this.extensions).filter((c) => c !== name)] : [];
      const besideName = name ? quake3ImageCandidates(joinPath(folder, fileNameOf(name)), this.extensions) : [];
      const tried: string[] = [];
      let found: Probe | null = null;
      let fromBeside = false;
      for (const [list, isBeside] of [[exact, false], [besideName, true], [beside, true]] as const) {
        for (const c of list) {
          if (tried.includes(c)) continue;
          tried.push(c);
          const p = await this.probe(c);
          if (p.path) {
            found = p;
            fromBeside = isBeside;
            break;
          }
        }
        if (found) break;
      }
      const image: ResolvedImage = { role: 'diffuse', name, path: found?.path ?? null, origin: found?.origin ?? null, builtin: null, program: null, writtenAt: null, tried };
      if (!found) {
        out.once(`md2:${name}`, { code: 'IMAGE_NOT_FOUND', message: name ? `MD2 skin '${shortName(name)}' not found (tried ${triedText(tried)})` : `the MD2 has no skin record and no skin.jpg/skin.png beside it (tried ${triedText(tried)})`, path: modelPath });
      } else if (fromBeside && name) {
        out.once(`md2-beside:${name}`, { code: 'IMAGE_BESIDE_MODEL', message: `MD2 skin '${shortName(name)}' is not where the model names it; using ${shortName(found.path ?? '')} beside the model`, path: modelPath });
      }
      const nameSource: NameSource = !name && !found ? { kind: 'none' } : fromBeside ? { kind: 'beside-model' } : { kind: 'model' };
      materials.push({
        ...this.material(implicitLook(name, 'quake3'), i, '', name, nameSource, found ? { kind: 'implicit' } : { kind: 'none' }),
        diffuse: image,
      });
    }
    return this.finish(materials, out);
  }

  /**
   * An md5mesh's meshes. With an `md5.cfg` beside the model (Cube engines), its `md5skin` / `md5bumpmap` lines
   * give the images of the meshes they name (cube-config.ts; a `<dds>` name tries its .dds first, as Tesseract
   * does). Otherwise the mesh's shader name: a Doom 3 material
   * (`materials/*.mtr`), else a Quake 3 / Daemon shader (Daemon draws md5meshes with shader scripts), else the
   * image of that name — as Doom 3 draws an implicit material (blended, clamped) in a folder with Doom 3
   * materials, as ioquake3/Daemon do (opaque) in one without.
   */
  async md5(mesh: Md5Mesh, modelPath: string): Promise<MaterialSet> {
    const out = new Collector();
    const lib = await this.library();
    const folder = folderOf(modelPath);
    const cfgPath = joinPath(folder, 'md5.cfg');
    const cfgBytes = await this.read(cfgPath);
    const cfg: CubeModelConfig | null = cfgBytes ? parseCubeModelConfig(cfgBytes) : null;
    let names = mesh.meshes.map((m) => m.name);
    if (cfg) {
      const text = await this.read(modelPath, true);
      const fromComments = text ? md5MeshNamesFromText(text) : [];
      names = names.map((n, i) => fromComments[i] || n);
    }
    const flavour = lib.doom3 ? 'doom3' : 'quake3';
    const materials: ResolvedMaterial[] = [];
    for (let i = 0; i < mesh.meshes.length; i++) {
      const name = names[i];
      const skin = cfg ? [...cfg.skins].reverse().find((s) => s.mesh === name || s.mesh === '*') : undefined;
      if (cfg && skin) {
        // Later lines override earlier ones: Cube runs the config's commands in order.
        const bump = [...cfg.bumpmaps].reverse().find((b) => b.mesh === name || b.mesh === '*');
        const at: WrittenAt = { path: cfgPath, line: skin.line, column: skin.column };
        const look = implicitLook(skin.diffuse, 'quake3');
        const dds = (on: boolean) => (on ? { precompressed: 'tesseract' as const } : {});
        look.diffuse = { name: skin.diffuse, role: 'diffuse', program: null, line: skin.line, column: skin.column, ...dds(skin.diffuseDds) };
        if (bump) look.normal = { name: bump.normal, role: 'normal', program: null, line: bump.line, column: bump.column, ...dds(bump.normalDds) };
        if (skin.masks) look.others = [{ name: skin.masks, role: 'mask', program: null, line: skin.line, column: skin.column, ...dds(skin.masksDds) }];
        const m = this.material(look, i, name, mesh.meshes[i].shader, { kind: 'cube-cfg', at }, { kind: 'cube-cfg', at });
        await this.findLookImages(m, look, cfgPath, 'exact', folder, out);
        materials.push(m);
        continue;
      }
      materials.push(await this.byName(mesh.meshes[i].shader, i, name, { kind: 'model' }, 'doom3', flavour, out, modelPath));
    }
    return this.finish(materials, out);
  }

  /**
   * An IQM's meshes, as the engine that ships the model would draw them:
   * - an `iqm.cfg` beside the model (Tesseract / Red Eclipse, iqm-cfg.ts, `exec`s followed) that gives a mesh an
   *   `iqmskin` (by its name or `*`, the last line winning, as the commands run in order): that diffuse, its masks
   *   and its `iqmbumpmap`, relative to the model's folder;
   * - else a `.skin` file: `options.skin` / `skinPath` (ioquake3 R_AddIQMSurfaces: the skin entry whose name is the
   *   lower-cased mesh name, the default shader when none), or DarkPlaces' `<model path>_<skinNum>.skin`
   *   (Mod_LoadSkinFiles) when it exists;
   * - else the mesh's material name through R_FindShader: a shader script, else the image of that name with
   *   ioquake3's extension fallback.
   */
  async iqm(model: IqmModel, modelPath: string, options: IqmOptions = {}): Promise<MaterialSet> {
    const out = new Collector();
    const folder = folderOf(modelPath);
    const cfgPath = joinPath(folder, 'iqm.cfg');
    let cfg: IqmCfgMaterials | null = null;
    if (options.readConfig && (await this.probe(cfgPath)).path) {
      try {
        cfg = await options.readConfig(this.fs, (await this.probe(cfgPath)).path!);
      } catch (e) {
        if (!(e instanceof ModelParseError)) throw e;
        // a config that cannot be read (over maxScriptBytes): the model's own materials, as without one
        out.once(`cfg:${cfgPath}`, { code: e.code, message: e.message, path: cfgPath });
      }
      for (const w of (cfg?.warnings ?? []).filter((x) => x.code === 'IQM_CFG_MISSING' && /iqmskin|iqmbumpmap/.test(x.message))) out.once(`cfg:${w.message}`, { code: w.code, message: w.message, path: cfgPath });
    }
    let skin: { file: SkinFile; path: string } | null = null;
    if (options.skin || options.skinPath) skin = await this.md3Skin(modelPath, options, out);
    else if (!cfg?.skins.length) {
      const dp = `${modelPath}_${options.skinNum ?? 0}.skin`;
      if ((await this.probe(dp)).path) skin = await this.readSkin(dp, out, false);
    }
    const materials: ResolvedMaterial[] = [];
    for (let i = 0; i < model.meshes.length; i++) {
      const mesh = model.meshes[i];
      const cfgSkin = cfg ? [...cfg.skins].reverse().find((s) => s.mesh === mesh.name || s.mesh === '*') : undefined;
      if (cfg && cfgSkin && !skin) {
        const bump = [...cfg.bumpmaps].reverse().find((b) => b.mesh === mesh.name || b.mesh === '*');
        const at: WrittenAt = { path: cfgSkin.cfg, line: cfgSkin.line, column: 1 };
        const look = implicitLook(cfgSkin.diffuse, 'quake3');
        look.diffuse = { name: cfgSkin.diffuse, role: 'diffuse', program: null, line: cfgSkin.line, column: 1 };
        if (bump) look.normal = { name: bump.normal, role: 'normal', program: null, line: bump.line, column: 1 };
        if (cfgSkin.masks) look.others = [{ name: cfgSkin.masks, role: 'mask', program: null, line: cfgSkin.line, column: 1 }];
        const m = this.material(look, i, mesh.name, mesh.material, { kind: 'cube-cfg', at }, { kind: 'cube-cfg', at });
        // the config's paths are already resolved against the model's folder (and the FileSystem's root)
        await this.findLookImages(m, look, cfgSkin.cfg, 'exact', '', out);
        materials.push(m);
        continue;
      }
      if (skin) {
        const entry = skinShaderFor(skin.file, mesh.name.toLowerCase());
        if (!entry) {
          out.once(`noskin:${skin.path}:${mesh.name}`, { code: 'SKIN_SURFACE_MISSING', message: `skin ${skin.path} has no entry for mesh '${mesh.name}'; the engine draws its default shader`, path: skin.path });
          materials.push(this.material(implicitLook('', 'quake3'), i, mesh.name, '', { kind: 'none' }, { kind: 'none' }, true));
          continue;
        }
        const at: WrittenAt = { path: skin.path, line: entry.line, column: entry.column };
        materials.push(await this.byName(entry.shader, i, mesh.name, { kind: 'skin', at }, 'quake3', 'quake3', out, skin.path));
        continue;
      }
      materials.push(await this.byName(mesh.material, i, mesh.name, { kind: 'model' }, 'quake3', 'quake3', out, null));
    }
    return this.finish(materials, out);
  }

  // --- shared steps --------------------------------------------------------------------------------------------

  private async md3Skin(modelPath: string, options: Pick<Md3Options, 'skin' | 'skinPath'>, out: Collector): Promise<{ file: SkinFile; path: string } | null> {
    if (options.skinPath) return this.readSkin(options.skinPath, out, true);
    if (options.skin) {
      const base = stripExtension(fileNameOf(modelPath));
      return this.readSkin(joinPath(folderOf(modelPath), `${base}_${options.skin}.skin`), out, true);
    }
    return null;
  }

  private async readSkin(path: string, out: Collector, warnIfMissing: boolean): Promise<{ file: SkinFile; path: string } | null> {
    const bytes = await this.read(path);
    if (!bytes) {
      if (warnIfMissing) out.once(`skin:${path.toLowerCase()}`, { code: 'SKIN_NOT_FOUND', message: `skin file ${shortName(path)} not found`, path });
      else out.once(`skin:${path.toLowerCase()}`, { code: 'SKIN_NOT_FOUND', message: `skin file ${shortName(path)} not found; falling back to the default skin`, path });
      return null;
    }
    const file = parseSkin(bytes);
    for (const w of file.warnings) out.once(`skinw:${path}:${w.offset}`, { code: w.code, message: w.message, path, line: w.line, column: w.column });
    const stored = (await this.probe(path)).path ?? path;
    return { file, path: stored };
  }

  private async md3Surfaces(model: Md3Model, modelPath: string, skin: { file: SkinFile; path: string } | null, skinNum: number, out: Collector): Promise<ResolvedMaterial[]> {
    const materials: ResolvedMaterial[] = [];
    for (let i = 0; i < model.surfaces.length; i++) {
      const s = model.surfaces[i];
      const key = md3SurfaceKey(s.name);
      if (skin) {
        const entry = skinShaderFor(skin.file, key);
        if (!entry) {
          out.once(`noskin:${skin.path}:${key}`, { code: 'SKIN_SURFACE_MISSING', message: `skin ${shortName(skin.path)} has no entry for surface '${shortName(key)}'; the engine draws its default shader`, path: skin.path });
          materials.push(this.material(implicitLook('', 'quake3'), i, key, '', { kind: 'none' }, { kind: 'none' }, true));
          continue;
        }
        const at: WrittenAt = { path: skin.path, line: entry.line, column: entry.column };
        materials.push(await this.byName(entry.shader, i, key, { kind: 'skin', at }, 'quake3', 'quake3', out, skin.path));
        continue;
      }
      const own = s.shaders.length > 0 ? s.shaders[skinNum % s.shaders.length].name : '';
      materials.push(await this.byName(own, i, key, { kind: 'model' }, 'quake3', 'quake3', out, modelPath));
    }
    return materials;
  }

  /**
   * A shader/material name to a material: the definition the engine would use (`order` says which kind it
   * looks for first), images found, the other kind's normal/specular maps filling what the first lacks.
   */
  private async byName(
    name: string,
    index: number,
    surface: string,
    nameSource: NameSource,
    order: 'quake3' | 'doom3',
    implicit: 'quake3' | 'doom3',
    out: Collector,
    namedIn: string | null,
  ): Promise<ResolvedMaterial> {
    if (!name) {
      out.once(`noname:${namedIn}:${surface}`, {
        code: 'NO_SHADER',
        message: `${surface ? `'${shortName(surface)}'` : 'a surface'} has no shader name; the engine draws its default shader`,
        ...(namedIn ? { path: namedIn } : {}),
      });
      return this.material(implicitLook('', 'quake3'), index, surface, '', nameSource, { kind: 'none' }, true);
    }
    const lib = await this.library();
    const q3 = lib.shaders.get(shaderKey(name));
    const d3 = lib.materials.get(declKey(name));
    const fromQ3: Defined | null = q3 ? { look: shaderLook(q3), definition: { kind: 'shader', name: q3.name, at: { path: q3.path, line: q3.line, column: q3.column } }, file: q3.path } : null;
    const fromD3: Defined | null = d3 ? { look: mtrLook(d3), definition: { kind: 'mtr', name: d3.name, at: { path: d3.path, line: d3.line, column: d3.column } }, file: d3.path } : null;
    const [first, second] = order === 'quake3' ? [fromQ3, fromD3] : [fromD3, fromQ3];
    const main = first ?? second;
    const other = first ? second : null;

    if (main) {
      const m = this.material(main.look, index, surface, name, nameSource, main.definition);
      // Doom 3 (a material of `materials/`) looks for its precompressed `dds/…` file first (doom3DdsName).
      const doom3 = main === fromD3 && lib.doom3 && main.file!.toLowerCase().startsWith('materials/');
      await this.findLookImages(m, main.look, main.file!, 'quake3', '', out, doom3 ? 'doom3' : undefined);
      if (other) {
        // The other kind of definition of the same name fills the maps the first has not (corpus A4: a Quake 3
        // shader for the diffuse, an XreaL material beside it with the normal and specular maps).
        const extra = this.material(other.look, index, surface, name, nameSource, other.definition);
        await this.findLookImages(extra, { ...other.look, diffuse: null, emissive: null, animation: null, others: [], normal: m.normal ? null : other.look.normal, specular: m.specular ? null : other.look.specular }, other.file!, 'quake3', '', out);
        m.normal ??= extra.normal;
        m.specular ??= extra.specular;
      }
      return m;
    }

    // No definition: the image of that name (ioquake3 R_FindShader → R_FindImageFile(name); Doom 3's implicit material).
    const look = implicitLook(name, implicit);
    const m = this.material(look, index, surface, name, nameSource, { kind: 'implicit' });
    m.diffuse = await this.image({ name, role: 'diffuse', program: null, ...(implicit === 'doom3' && lib.doom3 ? { precompressed: 'doom3' as const } : {}) }, 'quake3', '', null);
    if (!m.diffuse.path && !m.diffuse.builtin) {
      m.definition = { kind: 'none' };
      out.once(`noshader:${name.toLowerCase()}`, {
        code: 'SHADER_NOT_FOUND',
        message: `no shader, material or image named '${shortName(name)}' (looked for ${triedText(m.diffuse.tried)})`,
        ...(namedIn ? { path: namedIn } : {}),
        missing: { name, tried: m.diffuse.tried, pattern: triedPattern(m.diffuse.tried), usedBy: [surface ? `surface ${surface}` : `surface #${index}`] },
      });
    }
    return m;
  }

  /** A material with a look's states and no images yet. */
  private material(look: Look, index: number, surface: string, shaderName: string, nameSource: NameSource, definition: DefinitionSource, defaultShader = false): ResolvedMaterial {
    return {
      index,
      surface,
      shaderName,
      nameSource,
      definition,
      diffuse: null,
      normal: null,
      specular: null,
      emissive: null,
      animation: null,
      others: [],
      blend: defaultShader ? null : look.blend,
      blendMode: defaultShader ? 'opaque' : look.blendMode,
      alphaTest: look.alphaTest,
      sides: look.sides,
      doubleSided: look.sides === 'both',
      nodraw: look.nodraw,
      translucent: look.translucent,
      clamp: look.clamp,
      ...(look.texMods && !defaultShader ? { texMods: look.texMods.map((x) => ({ kind: x.kind, args: [...x.args], ...(x.wave ? { wave: x.wave } : {}) })) } : {}),
    };
  }

  /** Find every image a look names; warn once per missing name. */
  private async findLookImages(m: ResolvedMaterial, look: Look, file: string, rule: 'quake3' | 'exact', relativeTo: string, out: Collector, precompressed?: 'doom3'): Promise<void> {
    const find = async (n: ImageName | null): Promise<ResolvedImage | null> => {
      if (!n) return null;
      const img = await this.image(precompressed ? { ...n, precompressed } : n, rule, relativeTo, n.line !== undefined ? { path: file, line: n.line, column: n.column ?? 0 } : null);
      if (!img.path && !img.builtin) {
        out.once(`img:${img.name.toLowerCase()}`, {
          code: 'IMAGE_NOT_FOUND',
          message: `image '${shortName(n.name)}' (${n.role}${m.shaderName ? ` of '${shortName(m.shaderName)}'` : ''}) not found (looked for ${triedText(img.tried)})`,
          path: file,
          missing: { name: n.name, tried: img.tried, pattern: triedPattern(img.tried), usedBy: [m.shaderName ? `${n.role} of ${m.shaderName}` : n.role] },
          ...(img.writtenAt ? { line: img.writtenAt.line, column: img.writtenAt.column } : {}),
        });
      }
      return img;
    };
    m.diffuse = await find(look.diffuse);
    m.normal = await find(look.normal);
    m.specular = await find(look.specular);
    m.emissive = await find(look.emissive);
    if (look.animation) {
      const frames: ResolvedImage[] = [];
      for (const f of look.animation.frames) frames.push((await find(f))!);
      m.animation = { fps: look.animation.fps, frames };
    }
    for (const o of look.others) m.others.push((await find(o))!);
  }

  /**
   * One image name to a file: built-ins are not looked for; the Quake 3 rule or the exact name (relative to a folder),
   * after the engine's precompressed file when the name asks for one (Tesseract `<dds>`; Doom 3 `dds/`, for a plain
   * name — an image program's file is named after the whole program text as Doom 3 tokenised it, not looked for).
   */
  private async image(n: ImageName, rule: 'quake3' | 'exact', relativeTo: string, writtenAt: WrittenAt | null): Promise<ResolvedImage> {
    const base: ResolvedImage = { role: n.role, name: n.name, path: null, origin: null, builtin: builtinImage(n.name), program: n.program, writtenAt, tried: [] };
    if (base.builtin) return base;
    // FS_FOpenFileRead drops a leading '/' or '\' ("qpaths are not supposed to have a leading slash").
    const plain = n.name.replace(/^[/\\]/, '');
    const exact = joinPath(relativeTo, plain);
    const candidates = rule === 'exact' ? [exact] : quake3ImageCandidates(plain, this.extensions);
    const dds = n.precompressed === 'tesseract' ? tesseractDdsName(exact) : n.precompressed === 'doom3' && !n.program ? doom3DdsName(plain) : null;
    if (dds && !candidates.some((c) => c.toLowerCase() === dds.toLowerCase())) candidates.unshift(dds);
    for (const c of candidates) {
      base.tried.push(c);
      const p = await this.probe(c);
      if (p.path) return { ...base, path: p.path, origin: p.origin };
    }
    return base;
  }

  private probe(path: string): Promise<Probe> {
    const key = path.toLowerCase();
    let p = this.probes.get(key);
    if (!p) {
      this.checkAborted();
      p = this.fs.file(path).then((f) => ({ path: f?.path ?? null, origin: f?.origin ?? null }));
      this.probes.set(key, p);
    }
    return p;
  }

  /**
   * A small file's bytes, or null when it is missing or over `maxScriptBytes` (then a SCRIPT_TOO_LARGE warning);
   * `whole` reads a model's own text without the bound (it is the input, not a script beside it).
   */
  private read(path: string, whole = false): Promise<Uint8Array | null> {
    const key = `${whole ? 'model' : 'script'}:${path.toLowerCase()}`;
    let p = this.texts.get(key);
    if (!p) {
      this.checkAborted();
      const signal = this.options.signal;
      p = this.fs.file(path).then(async (f) => {
        if (!f) return null;
        if (whole) return f.bytes({ signal });
        try {
          return await readScriptFile(f, { maxBytes: this.options.maxScriptBytes, signal });
        } catch (e) {
          if (!(e instanceof ModelParseError) || e.code !== ErrorCode.ResourceLimit) throw e;
          this.tooLarge.push({ code: 'SCRIPT_TOO_LARGE', message: `${shortName(f.path)} is not read: ${e.detail}`, path: f.path });
          return null;
        }
      });
      this.texts.set(key, p);
    }
    return p;
  }

  /** An aborted signal stops the work with the project's one error type (ErrorCode.Aborted). */
  private checkAborted(): void {
    if (this.options.signal?.aborted) throw new ModelParseError(ErrorCode.Aborted, 'material resolution was aborted', { offset: 0 });
  }

  private async finish(materials: ResolvedMaterial[], out: Collector): Promise<MaterialSet> {
    const lib = await this.library();
    const ignored = lib.warnings.filter((w) => w.code === 'SCRIPT_IGNORED' || w.code === 'SCRIPT_TOO_LARGE');
    return { materials, warnings: [...ignored, ...this.tooLarge, ...out.warnings] };
  }
}
