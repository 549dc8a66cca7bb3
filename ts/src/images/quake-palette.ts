/**
 * Quake's 8-bit pictures: a palette (`gfx/palette.lmp`, 256 RGB triples) and pixels that index it — an MDL's skins.
 * Decoding sits on the image floor (not in formats/mdl) because it is a pixel codec that needs no model: the
 * materials floor above resolves which palette applies, and the exporters and viewers take the pixels.
 *
 * Fullbright colours: Quake's palette ends with 32 colours the engines draw unlit (indices 224–255). QuakeSpasm
 * (gl_texmgr.c TexMgr_LoadPalette: `d_8to24table_fbright`, `d_8to24table_nobright`; gl_model.c Mod_LoadAllSkins:
 * TEXPREF_NOBRIGHT and TEXPREF_FULLBRIGHT) loads a skin that has any as two textures: the skin with those pixels
 * black, lit as usual, and a glow texture with only those pixels (black elsewhere) added on top unlit. `decodeQuakeSkin`
 * gives both, plus the plain palette lookup (what the software renderer shows fully lit, and what tools show).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { LIBREQUAKE_PALETTE } from './quake-default-palette.js';

/** The first fullbright index of Quake's palette (224–255: VID_SetPalette's fullbright range). */
export const QUAKE_FULLBRIGHT_FIRST = 224;
/** A palette file's size: 256 RGB triples. */
export const QUAKE_PALETTE_BYTES = 768;

/** The palette used when no `gfx/palette.lmp` is found: LibreQuake's (BSD-3-Clause, docs/mdl.md). */
export const DEFAULT_QUAKE_PALETTE: Uint8Array = LIBREQUAKE_PALETTE;

/**
 * `gfx/palette.lmp` → its 768 bytes (a copy). Quake reads the file whole and uses its first 768 bytes
 * (host.c `host_basepal`); a shorter one is TRUNCATED.
 */
export function parseQuakePalette(bytes: Uint8Array): Uint8Array {
  if (bytes.length < QUAKE_PALETTE_BYTES) {
    throw new ModelParseError(ErrorCode.Truncated, `a Quake palette is ${QUAKE_PALETTE_BYTES} bytes (256 RGB triples); this one is ${bytes.length}`, { offset: bytes.length });
  }
  return bytes.slice(0, QUAKE_PALETTE_BYTES);
}

export interface QuakeSkinOptions {
  /** First fullbright index (default 224, Quake's); 256 for none. */
  fullbrightFirst?: number;
  /** An index drawn transparent (alpha 0): 255 for models flagged MF_HOLEY (QuakeSpasm-Spiked / MarkV, Ironwail). */
  transparentIndex?: number;
}

export interface QuakeSkin {
  width: number;
  height: number;
  /** The palette lookup of every pixel, RGBA8, top row first. */
  rgba: Uint8Array;
  /** What the engine lights: `rgba` with fullbright pixels black (`rgba` itself when there are none). */
  base: Uint8Array;
  /** What the engine adds unlit: fullbright pixels' colours, black elsewhere (alpha 255); null when there are none. */
  glow: Uint8Array | null;
}

/** Decodes `width × height` palette indices (top row first) with `palette` (768 bytes). */
export function decodeQuakeSkin(indices: Uint8Array, width: number, height: number, palette: Uint8Array, options: QuakeSkinOptions = {}): QuakeSkin {
  const n = width * height;
  if (indices.length < n) {
    throw new ModelParseError(ErrorCode.Truncated, `a ${width}×${height} picture needs ${n} indices, ${indices.length} given`, { offset: indices.length });
  }
  if (palette.length < QUAKE_PALETTE_BYTES) {
    throw new ModelParseError(ErrorCode.Truncated, `a Quake palette is ${QUAKE_PALETTE_BYTES} bytes; this one is ${palette.length}`, { offset: palette.length });
  }
  const bright = options.fullbrightFirst ?? QUAKE_FULLBRIGHT_FIRST;
  const clear = options.transparentIndex ?? -1;
  const rgba = new Uint8Array(4 * n);
  let fullbrights = 0;
  for (let i = 0; i < n; i++) {
    const c = indices[i];
    rgba[4 * i] = palette[3 * c];
    rgba[4 * i + 1] = palette[3 * c + 1];
    rgba[4 * i + 2] = palette[3 * c + 2];
    rgba[4 * i + 3] = c === clear ? 0 : 255;
    if (c >= bright) fullbrights++;
  }
  if (fullbrights === 0) return { width, height, rgba, base: rgba, glow: null };
  const base = rgba.slice();
  const glow = new Uint8Array(4 * n);
  for (let i = 0; i < n; i++) {
    glow[4 * i + 3] = 255;
    if (indices[i] < bright) continue;
    glow[4 * i] = rgba[4 * i];
    glow[4 * i + 1] = rgba[4 * i + 1];
    glow[4 * i + 2] = rgba[4 * i + 2];
    base[4 * i] = base[4 * i + 1] = base[4 * i + 2] = 0;
  }
  return { width, height, rgba, base, glow };
}

/** The palette index nearest to (r, g, b) among [first, end) (squared RGB distance; the lowest index on a tie). */
function nearestIndex(palette: Uint8Array, r: number, g: number, b: number, first: number, end: number): number {
  let best = first, bestD = Infinity;
  for (let i = first; i < end; i++) {
    const dr = palette[3 * i] - r, dg = palette[3 * i + 1] - g, db = palette[3 * i + 2] - b;
    const d = dr * dr + dg * dg + db * db;
    if (d < bestD) (bestD = d), (best = i);
  }
  return best;
}

/**
 * RGBA8 pixels → palette indices, the inverse of `decodeQuakeSkin`: a texel whose `glow` is not black takes the
 * fullbright index nearest to its glow colour (Quake draws those unlit), any other the nearest of the lit indices
 * (0 … fullbrightFirst − 1) to its colour. So fullbright indices appear only where the source glows, and a skin this
 * package decoded comes back index for index (up to palette entries of the same colour). Alpha is ignored.
 */
export function quantizeQuakeSkin(rgba: Uint8Array, glow: Uint8Array | null, width: number, height: number, palette: Uint8Array, options: Pick<QuakeSkinOptions, 'fullbrightFirst'> = {}): Uint8Array {
  const n = width * height;
  const bright = Math.min(256, options.fullbrightFirst ?? QUAKE_FULLBRIGHT_FIRST);
  const out = new Uint8Array(n);
  const lit = new Map<number, number>(), glowing = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const glows = glow !== null && bright < 256 && (glow[4 * i] | glow[4 * i + 1] | glow[4 * i + 2]) !== 0;
    const src = glows ? glow! : rgba;
    const r = src[4 * i], g = src[4 * i + 1], b = src[4 * i + 2];
    const key = (r << 16) | (g << 8) | b;
    const cache = glows ? glowing : lit;
    let c = cache.get(key);
    if (c === undefined) cache.set(key, (c = glows ? nearestIndex(palette, r, g, b, bright, 256) : nearestIndex(palette, r, g, b, 0, Math.max(1, bright))));
    out[i] = c;
  }
  return out;
}
