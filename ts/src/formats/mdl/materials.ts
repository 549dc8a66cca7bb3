/**
 * An MDL's materials. Quake models carry their skins: 8-bit pictures decoded through the game's palette
 * (`gfx/palette.lmp`, found in the file system as the engine finds it, else LibreQuake's: images/quake-palette.ts).
 * The result has MaterialResolver's shapes (MaterialSet, ResolvedMaterial) with the decoded pictures handed out
 * beside it (`pixels`, keyed by the embedded images' paths), so the glTF exporter and a viewer take them as they
 * take found image files.
 *
 * - One material per skin record (its index), showing the record's picture `picture` (a group's first by
 *   default; `mdlSkinPicture` decodes any picture of any record).
 * - Fullbright texels (palette indices 224–255) are split off into the material's `glow` image, the skin's own being
 *   those texels black: QuakeSpasm's TEXPREF_NOBRIGHT / TEXPREF_FULLBRIGHT pair (gl_model.c Mod_LoadAllSkins).
 * - Replacement skins take precedence, looked up as vkQuake's Mod_LoadSkinTask does with `mdl_external_textures`
 *   on: for a single-picture record i, `<model>_<i>`, then `progs/<model>_<i>`, then `textures/<model>_<i>`
 *   (`<model>` being the model's path, `progs/ogre.mdl`), each with Image_LoadImage's extensions png, tga, jpg;
 *   with one found, its fullbrights are `<name>_glow`, then `<name>_luma`, in the same three places. A skin group
 *   has no replacement there. QuakeSpasm and the Ironwail sources read load only the embedded skins (docs/mdl.md).
 * - A model flagged MF_HOLEY (1 << 14: QuakeSpasm-Spiked, MarkV, Ironwail) draws index 255 transparent: an alpha test.
 */
import type { MdlModel } from '../../base/model.js';
import { decodeQuakeSkin, DEFAULT_QUAKE_PALETTE, parseQuakePalette, QUAKE_PALETTE_BYTES, type QuakeSkin } from '../../images/quake-palette.js';
import { fileHead, type FileSystem } from '../../vfs/file-system.js';
import { implicitLook } from '../../materials/appearance.js';
import { joinPath } from '../../materials/names.js';
import type { EmbeddedPixels, MaterialWarning, ResolvedImage, ResolvedMaterial } from '../../materials/types.js';
import type { MaterialResolver, MaterialSet } from '../../materials/resolver.js';

/** flags bit of MarkV / QuakeSpasm-Spiked / Ironwail: palette index 255 drawn transparent. */
export const MF_HOLEY = 1 << 14;
/** Where Quake keeps its palette (host.c Host_Init: `COM_LoadHunkFile ("gfx/palette.lmp")`). */
export const QUAKE_PALETTE_PATH = 'gfx/palette.lmp';
/** vkQuake Image_LoadImage's order for replacement skins. */
export const MDL_REPLACEMENT_EXTENSIONS: readonly string[] = ['png', 'tga', 'jpg'];

export interface MdlMaterialOptions {
  /** Which picture of each skin group the materials show (default 0; past a group's end, its last). */
  picture?: number;
  /** A palette to use (768 bytes) instead of looking for gfx/palette.lmp. */
  palette?: Uint8Array;
  /** Look for replacement skins (default true). */
  replacements?: boolean;
  signal?: AbortSignal;
}

/** The skin records by name, as a viewer offers them and the registration's `materials` takes them: `skin0`, `skin1` … */
export const mdlSkinNames = (model: Pick<MdlModel, 'skins'>): string[] => model.skins.map((_, i) => `skin${i}`);

/** MaterialResolver's MaterialSet, with the decoded embedded pictures by path. */
export interface MdlMaterialSet {
  materials: ResolvedMaterial[];
  warnings: MaterialWarning[];
  /** Decoded pictures of every embedded image the materials name (`ResolvedImage.embedded`), by path. */
  pixels: Map<string, EmbeddedPixels>;
  /** The palette file used, or null for the built-in one. */
  palettePath: string | null;
}

/** The key of record `skin`'s picture `picture`: `progs/ogre.mdl/skin0`, a group's `progs/flame.mdl/skin1_2`. */
export function mdlSkinKey(model: Pick<MdlModel, 'skins'>, modelPath: string, skin: number, picture: number): string {
  const grouped = (model.skins[skin]?.type ?? 0) !== 0;
  return `${modelPath}/skin${skin}${grouped ? `_${picture}` : ''}`;
}

/** Picture `picture` (numbered over every record, as `skinPixels` holds them) decoded through `palette`. */
export function mdlSkinPicture(model: Pick<MdlModel, 'skinWidth' | 'skinHeight' | 'pictureCount' | 'skinPixels' | 'flags'>, picture: number, palette: Uint8Array = DEFAULT_QUAKE_PALETTE): QuakeSkin {
  if (!Number.isInteger(picture) || picture < 0 || picture >= model.pictureCount) throw new RangeError(`picture ${picture}: the model has pictures 0..${model.pictureCount - 1}`);
  const size = model.skinWidth * model.skinHeight;
  const indices = model.skinPixels.subarray(picture * size, (picture + 1) * size);
  return decodeQuakeSkin(indices, model.skinWidth, model.skinHeight, palette, (model.flags & MF_HOLEY) !== 0 ? { transparentIndex: 255 } : {});
}

function embeddedImage(role: 'diffuse' | 'emissive', key: string, modelPath: string, tried: string[]): ResolvedImage {
  return { role, name: key, path: key, origin: modelPath, builtin: null, program: null, writtenAt: null, tried, embedded: true };
}

/** A material with Quake's render states: opaque, back faces culled; MF_HOLEY alpha-tests index 255 away. */
function quakeMaterial(model: Pick<MdlModel, 'flags'>, index: number, name: string): ResolvedMaterial {
  const look = implicitLook(name, 'quake3');
  return {
    index,
    surface: '',
    shaderName: name,
    nameSource: { kind: 'model' },
    definition: { kind: 'implicit' },
    diffuse: null,
    normal: null,
    specular: null,
    animation: null,
    others: [],
    emissive: null,
    blend: null,
    blendMode: 'opaque',
    alphaTest: (model.flags & MF_HOLEY) !== 0 ? { op: '>=', cutoff: 0.5, written: 'MF_HOLEY' } : null,
    sides: look.sides,
    doubleSided: false,
    nodraw: false,
    translucent: false,
    clamp: false,
  };
}

type SkinSource = Pick<MdlModel, 'skins' | 'skinWidth' | 'skinHeight' | 'pictureCount' | 'skinPixels' | 'flags'>;

/**
 * The embedded skins alone, decoded with `palette` (default LibreQuake's): what `resolveMdlMaterials` gives when
 * nothing replaces them, and what the glTF exporter embeds for a model given without textures. Synchronous.
 */
export function mdlEmbeddedMaterials(model: SkinSource, modelPath: string, palette: Uint8Array = DEFAULT_QUAKE_PALETTE, options: Pick<MdlMaterialOptions, 'picture'> = {}): { materials: ResolvedMaterial[]; pixels: Map<string, EmbeddedPixels> } {
  const pixels = new Map<string, EmbeddedPixels>();
  const materials = model.skins.map((skin, i) => {
    const j = Math.max(0, Math.min(skin.pictureCount - 1, options.picture ?? 0));
    const key = mdlSkinKey(model, modelPath, i, j);
    const m = quakeMaterial(model, i, key);
    // An empty group, or a skin of no texel: drawn untextured, as the engines do.
    if (skin.pictureCount === 0 || model.skinWidth * model.skinHeight === 0) return m;
    const pic = mdlSkinPicture(model, skin.firstPicture + j, palette);
    pixels.set(key, { width: pic.width, height: pic.height, rgba: pic.base });
    m.diffuse = embeddedImage('diffuse', key, modelPath, []);
    if (pic.glow) {
      pixels.set(`${key}_glow`, { width: pic.width, height: pic.height, rgba: pic.glow });
      m.emissive = embeddedImage('emissive', `${key}_glow`, modelPath, []);
    }
    return m;
  });
  return { materials, pixels };
}

/** The first of `names` × extensions that exists, and every path tried. */
async function firstFound(fs: FileSystem, names: readonly string[], tried: string[]): Promise<{ path: string; origin: string } | null> {
  for (const name of names) {
    for (const ext of MDL_REPLACEMENT_EXTENSIONS) {
      const path = `${name}.${ext}`;
      tried.push(path);
      const f = await fs.file(path);
      if (f) return { path: f.path, origin: f.origin };
    }
  }
  return null;
}

/** vkQuake's three places for `<model>_<i>` (and its `_glow` / `_luma`): beside the name, under progs/, under textures/. */
const places = (name: string) => [name, joinPath('progs', name), joinPath('textures', name)];

/**
 * An MDL's materials as the engines find them in `fs` (a game folder, an archive; null: the embedded skins with the
 * built-in palette): the palette at gfx/palette.lmp, replacement skins over the embedded ones. `modelPath` is the
 * model's path in `fs` (`progs/ogre.mdl`). Missing files are warnings, never exceptions.
 */
export async function resolveMdlMaterials(fs: FileSystem | null, model: SkinSource, modelPath: string, options: MdlMaterialOptions = {}): Promise<MdlMaterialSet> {
  const warnings: MaterialWarning[] = [];
  let palette = options.palette ?? null;
  let palettePath: string | null = null;
  if (!palette && fs) {
    const f = await fs.file(QUAKE_PALETTE_PATH);
    if (f) {
      try {
        // its first 768 bytes, all the engine uses (a 1.5 GB palette.lmp was read whole for them: 3 GB)
        palette = parseQuakePalette(await fileHead(f, QUAKE_PALETTE_BYTES, options.signal));
        palettePath = f.path;
      } catch (e) {
        warnings.push({ code: 'PALETTE_UNREADABLE', message: `${f.origin}: ${(e as Error).message}; the skins are decoded with LibreQuake's palette`, path: f.path });
      }
    } else {
      warnings.push({ code: 'PALETTE_NOT_FOUND', message: `no ${QUAKE_PALETTE_PATH} in the file system: the skins are decoded with LibreQuake's palette`, path: QUAKE_PALETTE_PATH });
    }
  }
  const embedded = mdlEmbeddedMaterials(model, modelPath, palette ?? DEFAULT_QUAKE_PALETTE, options);
  if (fs && options.replacements !== false) {
    for (const m of embedded.materials) {
      const skin = model.skins[m.index];
      if (skin.type !== 0) continue; // vkQuake replaces single pictures only
      const tried: string[] = [];
      const name = `${modelPath}_${m.index}`;
      const base = await firstFound(fs, places(name), tried);
      if (!base) {
        if (m.diffuse) m.diffuse.tried = tried;
        continue;
      }
      // vkQuake's TRY_LOAD_FULLBRIGHTS order: _glow then _luma, beside the name, under progs/, under textures/.
      const glowTried: string[] = [];
      const glow = await firstFound(fs, places(name).flatMap((p) => [`${p}_glow`, `${p}_luma`]), glowTried);
      m.diffuse = { role: 'diffuse', name, path: base.path, origin: base.origin, builtin: null, program: null, writtenAt: null, tried };
      m.nameSource = { kind: 'beside-model' };
      m.emissive = glow ? { role: 'emissive', name: `${name}_glow`, path: glow.path, origin: glow.origin, builtin: null, program: null, writtenAt: null, tried: glowTried } : null;
      // The replaced embedded pictures are no longer named: not handed out.
      embedded.pixels.delete(mdlSkinKey(model, modelPath, m.index, 0));
      embedded.pixels.delete(`${mdlSkinKey(model, modelPath, m.index, 0)}_glow`);
    }
  }
  return { materials: embedded.materials, warnings, pixels: embedded.pixels, palettePath };
}

/**
 * The skin a drawing shows: record `skinN` of the file (the names the view's `extras.skins` offers; `--skin skin1`),
 * record 0 when none is asked for — as the engine draws `self.skin`, 0 unless QuakeC sets it. Its material comes
 * at index 0, the view's one group; the glTF exporter's `mdlSkin` picks among the carried skins when no textures are
 * handed in.
 */
export async function shownSkin(fs: MaterialResolver['fs'], model: MdlModel, path: string, skin: string | undefined): Promise<MaterialSet> {
  const set = await resolveMdlMaterials(fs, model, path);
  const names = mdlSkinNames(model);
  let record = skin === undefined ? 0 : names.indexOf(skin);
  if (record < 0) {
    set.warnings.push({ code: 'SKIN_NOT_FOUND', message: `skin ${skin}: the model carries ${names.length ? names.join(', ') : 'no skin'}; showing ${names[0] ?? 'none'}`, path });
    record = 0;
  }
  const shown = set.materials.filter((m) => m.index === record).map((m) => ({ ...m, index: 0 }));
  const used = new Set(shown.flatMap((m) => [m.diffuse?.path, m.emissive?.path]));
  const pixels = new Map([...set.pixels].filter(([key]) => used.has(key)));
  return { materials: shown, warnings: set.warnings, pixels };
}
