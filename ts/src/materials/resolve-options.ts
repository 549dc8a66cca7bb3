/**
 * What the material resolver takes and gives (its options, `MaterialSet`), in a module of their own: the resolver
 * (resolver.ts) and its lookups (lookup.ts, loaded on the first call) both read them, and neither imports the other
 * for them (the lookups importing the resolver's module was an import circle).
 */
import type { ParseWarning } from '../base/errors.js';
import type { FileSystem } from '../vfs/file-system.js';
import type { MaterialLibrary } from './library.js';
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
