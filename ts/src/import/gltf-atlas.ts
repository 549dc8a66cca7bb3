/**
 * One skin for a model whose surfaces have different materials: MD2 and MDL draw every triangle with one skin set,
 * so each material's base colour image is copied into its own rectangle of one atlas and each surface's texture
 * coordinates are moved into its material's rectangle. What the surfaces show is kept; how sharp depends on the
 * skin limits below.
 *
 * - Packing: potpack (mapbox, ISC; a shelf packer into a near-square container). Every rectangle has `PAD` texels
 *   of border sampled as its sampler would wrap (repeat, mirror, clamp), so bilinear filtering at a rectangle's edge
 *   does not bleed the neighbour in.
 * - Texture coordinates outside 0..1: a material's rectangle holds every whole tile its surfaces reach — the
 *   repeat is baked (uv 0..3 becomes three copies of the image side by side, in the sampler's wrap mode). More than
 *   `MAX_BAKED_TILES` tiles is not baked: the atlas is refused with GLTF_ATLAS_REFUSED and the model keeps one
 *   material's skin (GLTF_MATERIALS_MERGED), as before.
 * - A material without a base colour image gets a `SWATCH`² rectangle of its base colour factor, and every uv of
 *   its surfaces the rectangle's centre. An image's texels are multiplied by the factor (glTF's base colour).
 * - Size: texel for texel when the packed atlas fits `maxHeight` (the engines' MAX_LBM_HEIGHT, 480), `maxWidth`
 *   and `maxImagePixels`; else every image is scaled by the same factor (box-filtered: each atlas texel the mean of
 *   the source texels it covers) until it does. The width is rounded up to `widthMultiple` (MDL: 4).
 * - Refused (null, with a warning; the caller merges as before): an image that does not decode here (JPEG), a base
 *   colour texture read through another TEXCOORD than 0 or with KHR_texture_transform, too many tiles.
 */
import potpack from 'potpack';
import type { Material, Texture, TextureInfo } from '@gltf-transform/core';
import type { ParseWarning } from '../base/errors.js';
import { texturePixels, type Pixels } from './gltf-pixels.js';
import { nameOf, type TrianglePrimitive } from './gltf-scene.js';

/** Border texels around each rectangle. */
const PAD = 2;
/** The most whole tiles of one image a material's rectangle bakes. */
export const MAX_BAKED_TILES = 16;
/** The side of an untextured material's rectangle. */
const SWATCH = 4;
/** UVs this close past a whole number do not reach the next tile (float noise on a uv of exactly 1). */
const EPS = 1e-4;

const REPEAT = 10497, MIRRORED_REPEAT = 33648;

export interface AtlasOptions {
  /** The tallest skin the engines load (MAX_LBM_HEIGHT). */
  maxHeight: number;
  /** The widest skin the format can address (MD2: int16 st; MDL: DarkPlaces' bound). */
  maxWidth: number;
  /** The width is a multiple of this (MDL: 4, WinQuake's "skinwidth not multiple of 4"). */
  widthMultiple?: number;
  /** `maxImagePixels`: the most pixels one image decodes to, and the atlas may have. */
  maxImagePixels: number;
  /** `maxAtlasPixels`: the most pixels decoded and texels baked, in all. */
  maxAtlasPixels: number;
  /** Also build the emissive layer (MDL's fullbright texels). */
  emissive?: boolean;
  /**
   * No atlas unless at least two materials have a base colour image (MD2: its skin is a path, and a material
   * without an image names one the game may hold — a merge keeps that name, an atlas would draw a flat swatch).
   */
  needImages?: boolean;
}

/** The packed skin: its pixels and where each material went. */
export interface Atlas {
  width: number;
  height: number;
  /** RGBA8, top row first. */
  rgba: Uint8Array;
  /** The emissive images in the same rectangles (black elsewhere), when asked for and some material has one. */
  glow: Uint8Array | null;
  /** Each primitive's TEXCOORD_0 moved into its material's rectangle (same order as the primitives). */
  uvs: Float32Array[];
  /** How many materials were packed. */
  materials: number;
  /** The factor every image was scaled by (1: texel for texel). */
  scale: number;
}

interface Region {
  material: Material | null;
  prims: number[];
  base: Pixels | null;
  glow: Pixels | null;
  factor: number[];
  /** Whole tiles the surfaces reach: u0 ≤ u ≤ u1, v0 ≤ v ≤ v1. */
  u0: number;
  u1: number;
  v0: number;
  v1: number;
  wrapS: number;
  wrapT: number;
  /** Texels at scale 1. */
  w: number;
  h: number;
}

const wrap = (i: number, n: number, mode: number): number => {
  if (mode === REPEAT) return ((i % n) + n) % n;
  if (mode === MIRRORED_REPEAT) {
    const m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  return Math.max(0, Math.min(n - 1, i));
};

const refuse = (warnings: ParseWarning[], message: string): null => {
  warnings.push({ code: 'GLTF_ATLAS_REFUSED', message: `${message}: the surfaces are not packed into one skin`, offset: 0 });
  return null;
};

/** The whole tiles `prims`' used texture coordinates reach, per axis. */
function tileRange(prims: TrianglePrimitive[]): [number, number, number, number] {
  const lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  for (const p of prims) {
    for (const v of p.triangles) {
      for (let k = 0; k < 2; k++) {
        const x = p.uvs[2 * v + k];
        if (Number.isFinite(x)) (lo[k] = Math.min(lo[k], x)), (hi[k] = Math.max(hi[k], x));
      }
    }
  }
  const range = (k: number): [number, number] => {
    if (!(lo[k] <= hi[k])) return [0, 1];
    const a = Math.floor(lo[k] + EPS), b = Math.max(a + 1, Math.ceil(hi[k] - EPS));
    return [a, b];
  };
  return [...range(0), ...range(1)];
}

/**
 * The atlas of `prims`' materials, or null: one material (nothing to pack), or refused (a warning says why).
 * Bounded: each image is decoded under `maxImagePixels`, the images' pixels and the texels baked at most
 * `maxAtlasPixels` in all, at most MAX_BAKED_TILES tiles of one image, and the atlas is scaled down until it has at
 * most `maxImagePixels` texels.
 */
export function buildAtlas(prims: TrianglePrimitive[], options: AtlasOptions, warnings: ParseWarning[]): Atlas | null {
  const byMaterial = new Map<Material | null, number[]>();
  prims.forEach((p, i) => {
    const m = p.prim.getMaterial();
    byMaterial.set(m, [...(byMaterial.get(m) ?? []), i]);
  });
  if (byMaterial.size < 2) return null;
  if (options.needImages && [...byMaterial.keys()].filter((m) => m?.getBaseColorTexture()?.getImage()).length < 2) return null;

  const regions: Region[] = [];
  // Each image decoded once; the distinct images' pixels and the texels baked (tiles included) at most maxAtlasPixels
  // in all, checked before decoding (from the sizes their headers declare) and before baking.
  const decoded = new Map<Texture, Pixels | null>();
  let declared = 0, baked = 0;
  const limit = `maxAtlasPixels ${options.maxAtlasPixels} (raise it with --limit maxAtlasPixels=N)`;
  const sizeOf = (t: Texture): [number, number] | null => {
    try {
      return t.getSize();
    } catch {
      return null; // a header glTF Transform cannot read: the decoder says why
    }
  };
  // the emissive images too (MDL's fullbright layer): each is decoded beside its base colour's
  const glows = (m: Material | null) => (options.emissive && m?.getEmissiveFactor().some((f) => f !== 0) ? [m.getEmissiveTexture()] : []);
  const textures = new Set([...byMaterial.keys()].flatMap((m) => [m?.getBaseColorTexture(), ...glows(m)]).filter((t): t is Texture => !!t?.getImage()));
  for (const t of textures) {
    const size = sizeOf(t);
    declared += size ? size[0] * size[1] : 0;
  }
  if (declared > options.maxAtlasPixels) return refuse(warnings, `the materials' images have more than ${limit} pixels in all`);
  for (const [material, members] of byMaterial) {
    const label = `material "${nameOf(material)}"`;
    const factor = material?.getBaseColorFactor() ?? [1, 1, 1, 1];
    const texture = material?.getBaseColorTexture() ?? null;
    const info: TextureInfo | null = material?.getBaseColorTextureInfo() ?? null;
    let base: Pixels | null = null, glow: Pixels | null = null;
    let [u0, u1, v0, v1] = [0, 1, 0, 1];
    if (texture && texture.getImage()) {
      if (info && info.getTexCoord() !== 0) return refuse(warnings, `${label} reads its base colour through TEXCOORD_${info.getTexCoord()}`);
      if (info?.getExtension('KHR_texture_transform')) return refuse(warnings, `${label} moves its base colour with KHR_texture_transform`);
      if (!decoded.has(texture)) {
        const size = sizeOf(texture);
        const pixels = texturePixels(texture, 'base colour', options.maxImagePixels, warnings, 'the surfaces are not packed into one skin');
        // an image whose header glTF Transform does not read (TGA, BMP …) is counted once decoded: one at most over
        declared += !size && pixels ? pixels.width * pixels.height : 0;
        if (declared > options.maxAtlasPixels) return refuse(warnings, `the materials' images have more than ${limit} pixels in all`);
        decoded.set(texture, pixels);
      }
      base = decoded.get(texture) ?? null;
      if (!base) return null;
      [u0, u1, v0, v1] = tileRange(members.map((i) => prims[i]));
      const tiles = (u1 - u0) * (v1 - v0);
      if (tiles > MAX_BAKED_TILES) {
        return refuse(warnings, `${label}'s texture coordinates reach ${u1 - u0}×${v1 - v0} repeats of its image (u ${u0}..${u1}, v ${v0}..${v1}); at most ${MAX_BAKED_TILES} are baked into the atlas`);
      }
      baked += tiles * base.width * base.height;
      if (baked > options.maxAtlasPixels) return refuse(warnings, `the materials' images, repeats baked, have more than ${limit} texels in all`);
      if (options.emissive && material && material.getEmissiveFactor().some((f) => f !== 0)) {
        const emissive = material.getEmissiveTexture();
        const size = emissive ? sizeOf(emissive) : null;
        glow = texturePixels(emissive, 'emissive', options.maxImagePixels, warnings, 'no fullbright texels for it');
        declared += !size && glow ? glow.width * glow.height : 0;
        if (declared > options.maxAtlasPixels) return refuse(warnings, `the materials' images have more than ${limit} pixels in all`);
        if (glow && (glow.width !== base.width || glow.height !== base.height)) glow = null;
      }
    }
    regions.push({
      material,
      prims: members,
      base,
      glow,
      factor,
      u0, u1, v0, v1,
      wrapS: info?.getWrapS() ?? REPEAT,
      wrapT: info?.getWrapT() ?? REPEAT,
      w: base ? base.width * (u1 - u0) : SWATCH,
      h: base ? base.height * (v1 - v0) : SWATCH,
    });
  }

  // Pack at scale 1, then smaller until the engines' height, the format's width and maxImagePixels all hold.
  const multiple = options.widthMultiple ?? 1;
  let scale = 1;
  let boxes: { w: number; h: number; x?: number; y?: number; r: Region }[] = [];
  let width = 0, height = 0;
  for (let attempt = 0; ; attempt++) {
    const side = (n: number, r: Region) => (r.base ? Math.max(1, Math.ceil(n * scale)) : n) + 2 * PAD;
    boxes = regions.map((r) => ({ w: side(r.w, r), h: side(r.h, r), r }));
    const packed = potpack(boxes);
    width = Math.ceil(packed.w / multiple) * multiple;
    height = packed.h;
    const over = Math.max(height / options.maxHeight, width / options.maxWidth, Math.sqrt((width * height) / options.maxImagePixels));
    if (over <= 1) break;
    if (attempt === 40) return refuse(warnings, `the materials' images do not fit a ${options.maxWidth}×${options.maxHeight} skin even scaled down`);
    scale *= Math.min(0.95, 1 / over);
  }

  const rgba = new Uint8Array(4 * width * height);
  const glow = options.emissive && regions.some((r) => r.glow) ? new Uint8Array(4 * width * height).fill(0) : null;
  if (glow) for (let i = 3; i < glow.length; i += 4) glow[i] = 255;
  const uvs: Float32Array[] = prims.map((p) => p.uvs);
  for (const box of boxes) {
    const r = box.r;
    const rx = box.x! + PAD, ry = box.y! + PAD, rw = box.w - 2 * PAD, rh = box.h - 2 * PAD;
    const f = r.factor.map((x) => Math.max(0, Math.min(1, x)));
    if (!r.base) {
      const c = [f[0] * 255, f[1] * 255, f[2] * 255, f[3] * 255].map(Math.round);
      for (let y = box.y!; y < box.y! + box.h; y++) for (let x = box.x!; x < box.x! + box.w; x++) rgba.set(c, 4 * (y * width + x));
      for (const i of r.prims) uvs[i] = new Float32Array(prims[i].uvs.length).map((_, k) => (k % 2 === 0 ? (rx + rw / 2) / width : (ry + rh / 2) / height));
      continue;
    }
    const img = r.base;
    // source texels per atlas texel on each axis: samples per axis for the box filter
    const tw = img.width * (r.u1 - r.u0), th = img.height * (r.v1 - r.v0);
    const nx = Math.max(1, Math.ceil(tw / rw - 1e-9)), ny = Math.max(1, Math.ceil(th / rh - 1e-9));
    for (let dy = -PAD; dy < rh + PAD; dy++) {
      for (let dx = -PAD; dx < rw + PAD; dx++) {
        const sum = [0, 0, 0, 0], lit = [0, 0, 0];
        for (let j = 0; j < ny; j++) {
          const sy = wrap(Math.floor(r.v0 * img.height + ((dy + (j + 0.5) / ny) / rh) * th), img.height, r.wrapT);
          for (let i = 0; i < nx; i++) {
            const sx = wrap(Math.floor(r.u0 * img.width + ((dx + (i + 0.5) / nx) / rw) * tw), img.width, r.wrapS);
            const o = 4 * (sy * img.width + sx);
            for (let k = 0; k < 4; k++) sum[k] += img.rgba[o + k];
            if (r.glow) for (let k = 0; k < 3; k++) lit[k] += r.glow.rgba[o + k];
          }
        }
        const o = 4 * ((ry + dy) * width + rx + dx);
        for (let k = 0; k < 4; k++) rgba[o + k] = Math.round((sum[k] / (nx * ny)) * f[k]);
        if (glow && r.glow) for (let k = 0; k < 3; k++) glow[o + k] = Math.round(lit[k] / (nx * ny));
      }
    }
    for (const i of r.prims) {
      const src = prims[i].uvs, out = new Float32Array(src.length);
      for (let k = 0; k < src.length; k += 2) {
        out[k] = (rx + ((src[k] - r.u0) / (r.u1 - r.u0)) * rw) / width;
        out[k + 1] = (ry + ((src[k + 1] - r.v0) / (r.v1 - r.v0)) * rh) / height;
      }
      uvs[i] = out;
    }
  }
  return { width, height, rgba, glow, uvs, materials: regions.length, scale };
}

export type { AtlasSummary } from './gltf-targets.js';

/** GLTF_ATLAS_SCALED when the images had to shrink to fit the skin (every surface is then drawn less sharp). */
export function atlasWarnings(atlas: Atlas, format: string, maxHeight: number, warnings: ParseWarning[]): void {
  if (atlas.scale < 1) {
    warnings.push({ code: 'GLTF_ATLAS_SCALED', message: `the ${atlas.materials} materials' images are packed into one ${atlas.width}×${atlas.height} skin scaled by ${atlas.scale.toFixed(3)}: ${format}'s engines load skins at most ${maxHeight} texels tall (MAX_LBM_HEIGHT)`, offset: 0 });
  }
}
