/**
 * The material resolver: for a parsed model and the file system of its game folder, each surface's (MD3), mesh's
 * (MD5) or skin record's (MD2) images and render states, found the way the engine that loads the model finds
 * them. Missing files are warnings (one per name), never exceptions; only an aborted signal throws (ABORTED).
 * The file system is taken to stay as it is while a resolver lives: lookups are cached.
 *
 *   const resolver = new MaterialResolver(fs);
 *   const { materials, warnings } = await resolver.md3(model, 'models/mapobjects/stasis/stasis.md3');
 *   const player = await resolver.player({ lower, upper, head }, 'models/players/sarge', { skin: 'red' });
 *
 * A resolver caches the shader/material library and every file lookup, so resolving many models of one folder
 * (a player's three parts, every skin it offers) reads each script and probes each path once. docs/materials.md
 * gives the engine rules with their sources.
 *
 * The lookups themselves (lookup.ts, and the script, skin and material parsers under it) load on the first call: every
 * call is async anyway, so an app that never resolves materials does not fetch them (docs/package.md, "What an app
 * carries").
 */
import type { IqmModel, Md2Model, Md3Model, Md5Mesh } from '../base/model.js';
import type { ParseWarning } from '../base/errors.js';
import type { FileSystem } from '../vfs/file-system.js';
import type { MaterialLibrary } from './library.js';
import type { MaterialLookup } from './lookup.js';
import type { EmbeddedPixels, MaterialWarning, ResolvedMaterial } from './types.js';

export interface MaterialResolverOptions {
  signal?: AbortSignal;
  /** Image extensions tried in order, for names resolved by the Quake 3 rule (default: ioquake3's, names.ts). */
  imageExtensions?: readonly string[];
  /** A library loaded before (e.g. shared by several resolvers over one file system). */
  library?: MaterialLibrary;
  /**
   * Largest shader script, .mtr, .skin or md5.cfg read; a larger one is not read (SCRIPT_TOO_LARGE warning). Default
   * the process's `maxScriptBytes` (8 MiB; docs/security.md).
   */
  maxScriptBytes?: number;
}

export interface MaterialSet {
  /** One per surface / mesh / skin record, in the model's order (player: lower, then upper, then head). */
  materials: ResolvedMaterial[];
  /** This resolution's warnings (one per missing name), plus the script files the engine would ignore. */
  warnings: MaterialWarning[];
  /** Decoded pictures of the embedded images the materials name (`ResolvedImage.embedded`: an MDL's skins), by path. */
  pixels?: Map<string, EmbeddedPixels>;
}

export interface Md3Options {
  /** A skin by name: `<model base>_<skin>.skin` beside the model (`portals_blue.skin` for skin 'blue'). */
  skin?: string;
  /** A `.skin` file by path (wins over `skin`). */
  skinPath?: string;
  /** Which of a surface's own shaders to use without a skin (the entity's skinNum: shaders[skinNum % count]). */
  skinNum?: number;
}

export interface IqmOptions {
  /** A Quake 3 skin by name: `<model base>_<skin>.skin` beside the model (ioquake3's customSkin). */
  skin?: string;
  /** A `.skin` file by path (wins over `skin`). */
  skinPath?: string;
  /** DarkPlaces' skin number: `<model path>_<N>.skin` (`player.iqm_0.skin`) is read when it exists (default 0). */
  skinNum?: number;
  /**
   * Reads Tesseract's `iqm.cfg` beside the model (`iqmskin`, `iqmbumpmap`, `exec`s followed): the IQM format passes
   * its reader (formats/iqm/iqm-cfg.ts), so this floor knows no Cubescript. Without it no cfg is read.
   */
  readConfig?: (fs: FileSystem, path: string) => Promise<IqmCfgMaterials>;
}

/** What an `iqm.cfg` says about a model's materials (the IQM format's reader returns more). */
export interface IqmCfgMaterials {
  skins: readonly { mesh: string; diffuse: string; masks?: string | null; cfg: string; line: number }[];
  bumpmaps: readonly { mesh: string; normal: string; line: number }[];
  warnings: readonly ParseWarning[];
}

export type PlayerPart = 'lower' | 'upper' | 'head';

export class MaterialResolver {
  private lookups: Promise<MaterialLookup> | null = null;

  constructor(
    readonly fs: FileSystem,
    private readonly options: MaterialResolverOptions = {},
  ) {}

  /** The lookups and their caches, made on the first call (one per resolver). */
  private lookup(): Promise<MaterialLookup> {
    this.lookups ??= import('./lookup.js').then((m) => new m.MaterialLookup(this.fs, this.options));
    return this.lookups;
  }

  /** Every shader script and material file of the file system, read once. */
  async library(): Promise<MaterialLibrary> {
    return (await this.lookup()).library();
  }

  /** An MD3's surfaces, through its skin or its own shader names (ioquake3 R_AddMD3Surfaces; lookup.ts `md3`). */
  async md3(model: Md3Model, modelPath: string, options: Md3Options = {}): Promise<MaterialSet> {
    return (await this.lookup()).md3(model, modelPath, options);
  }

  /** A Quake 3 player's parts, each through `<part>_<skin>.skin` (ioquake3 CG_RegisterClientSkin; lookup.ts `player`). */
  async player(parts: Partial<Record<PlayerPart, Md3Model>>, folder: string, options: { skin?: string } = {}): Promise<MaterialSet> {
    return (await this.lookup()).player(parts, folder, options);
  }

  /**
   * An MD2's skin records, as Quake 2 loads them (the name as stored, from the game root), with the fallbacks of its
   * ports and of Cube (lookup.ts `md2` gives them in order).
   */
  async md2(model: Md2Model, modelPath: string): Promise<MaterialSet> {
    return (await this.lookup()).md2(model, modelPath);
  }

  /** An md5mesh's meshes: Doom 3's `.mtr` materials and implicit names, Tesseract's `md5.cfg` (lookup.ts `md5`). */
  async md5(mesh: Md5Mesh, modelPath: string): Promise<MaterialSet> {
    return (await this.lookup()).md5(mesh, modelPath);
  }

  /**
   * An IQM's meshes: Tesseract's `iqm.cfg`, else a `.skin` (ioquake3 R_AddIQMSurfaces; DarkPlaces' `_<skinNum>.skin`),
   * else the mesh's material name through R_FindShader (lookup.ts `iqm`).
   */
  async iqm(model: IqmModel, modelPath: string, options: IqmOptions = {}): Promise<MaterialSet> {
    return (await this.lookup()).iqm(model, modelPath, options);
  }
}
