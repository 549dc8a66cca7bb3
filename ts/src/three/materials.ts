/**
 * The resolver's materials (`materials/`, docs/materials.md: each surface's images and render states as its engine
 * finds them) as three.js materials: a `MeshStandardMaterial` (fully rough, not metallic) per surface, with
 * - `map`: the diffuse image (sRGB), `normalMap` when normal maps are asked for (the green channel's sense differs
 *   between engines and tools; docs/three.md) — the images the glTF exporter embeds (`foundPath`, `normalPath`: a
 *   normal map behind an image program other than `addnormals` is left out, with `NORMAL_PROGRAM_SKIPPED`);
 * - blending exactly as the first stage's blend factors say (`CustomBlending` with the matching three factors, which
 *   covers `alpha`, `additive`, `multiply` and any custom pair), transparent, no depth writes (ioquake3 turns depth
 *   writes off for blended stages unless told otherwise);
 * - `alphaTest`: three keeps a fragment when alpha ≥ alphaTest, so `≥ c` is c and `> c` is c + half an 8-bit step;
 *   `< c` (Quake 3 LT128) has no three form and is left out with `ALPHA_TEST_UNSUPPORTED`;
 * - `side`: front (back faces culled, the engines' default), back, or both (`cull none`, `twoSided`);
 * - `visible: false` for `surfaceparm nodraw`;
 * - `userData.idtech`: the resolved material itself (names, paths, where each was written).
 */
import {
  BackSide, CustomBlending, DoubleSide, DstAlphaFactor, DstColorFactor, FrontSide, MeshStandardMaterial, OneFactor, OneMinusDstAlphaFactor,
  OneMinusDstColorFactor, OneMinusSrcAlphaFactor, OneMinusSrcColorFactor, SrcAlphaFactor, SrcAlphaSaturateFactor, SrcColorFactor, ZeroFactor,
  type BlendingDstFactor, type BlendingSrcFactor, type Texture,
} from 'three';
import type { ParseWarning } from '../base/errors.js';
import { foundPath, keptFromAlpha, normalPath } from '../materials/look.js';
import type { BlendFactor, ResolvedMaterial } from '../materials/types.js';
import type { TextureRole } from './textures.js';

const FACTORS: Record<BlendFactor, BlendingSrcFactor> = {
  GL_ONE: OneFactor,
  GL_ZERO: ZeroFactor,
  GL_DST_COLOR: DstColorFactor,
  GL_ONE_MINUS_DST_COLOR: OneMinusDstColorFactor,
  GL_SRC_ALPHA: SrcAlphaFactor,
  GL_ONE_MINUS_SRC_ALPHA: OneMinusSrcAlphaFactor,
  GL_DST_ALPHA: DstAlphaFactor,
  GL_ONE_MINUS_DST_ALPHA: OneMinusDstAlphaFactor,
  GL_SRC_ALPHA_SATURATE: SrcAlphaSaturateFactor,
  GL_SRC_COLOR: SrcColorFactor,
  GL_ONE_MINUS_SRC_COLOR: OneMinusSrcColorFactor,
};

export type TextureGetter = (path: string, role: TextureRole, clamp: boolean) => Promise<Texture | null>;

export interface MaterialOptions {
  textures: TextureGetter | null;
  normalMaps: boolean;
  warnings: ParseWarning[];
}

/** An untextured material for a surface nothing was resolved for (no file system given). */
export function plainMaterial(name: string): MeshStandardMaterial {
  return new MeshStandardMaterial({ name, roughness: 1, metalness: 0, color: 0xb0b0b0 });
}

/** The three.js material of one resolved surface; its textures load in the returned promise. */
export async function threeMaterial(m: ResolvedMaterial, options: MaterialOptions): Promise<MeshStandardMaterial> {
  const mat = new MeshStandardMaterial({ name: m.shaderName || m.surface, roughness: 1, metalness: 0 });
  mat.userData.idtech = m;
  mat.side = m.sides === 'both' ? DoubleSide : m.sides === 'back' ? BackSide : FrontSide;
  mat.visible = !m.nodraw;
  if (m.blend) {
    mat.transparent = true;
    mat.depthWrite = false;
    mat.blending = CustomBlending;
    mat.blendSrc = FACTORS[m.blend.src];
    mat.blendDst = FACTORS[m.blend.dst] as BlendingDstFactor;
  }
  if (m.alphaTest) {
    const kept = keptFromAlpha(m.alphaTest);
    const { cutoff, written } = m.alphaTest;
    if (kept !== null) mat.alphaTest = kept;
    else options.warnings.push({ code: 'ALPHA_TEST_UNSUPPORTED', message: `${mat.name}: alpha test ${written} keeps alpha < ${cutoff}, which three.js cannot test: drawn without it`, offset: 0 });
  }
  const get = options.textures;
  if (get) {
    const diffuse = foundPath(m.diffuse);
    const normal = options.normalMaps ? normalPath(m, options.warnings) : null;
    const [map, normalMap] = await Promise.all([diffuse ? get(diffuse, 'color', m.clamp) : null, normal ? get(normal, 'data', m.clamp) : null]);
    if (map) mat.map = map;
    if (normalMap) mat.normalMap = normalMap;
  }
  if (!mat.map) mat.color.set(0xb0b0b0);
  return mat;
}
