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
import type { FileSystem } from '../vfs/file-system.js';
import type { MaterialLibrary } from './library.js';
import type { MaterialLookup } from './lookup.js';
import type { IqmOptions, MaterialResolverOptions, MaterialSet, Md3Options, PlayerPart } from './resolve-options.js';

export type { IqmCfgMaterials, IqmOptions, MaterialResolverOptions, MaterialSet, Md3Options, PlayerPart } from './resolve-options.js';

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
