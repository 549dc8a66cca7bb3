/**
 * A resolved surface's look in the few terms our drawers share — the glTF exporter, the OBJ exporter's `.mtl`, the
 * demo page through `openPlayable`, the three.js adapter — so the page, the .glb and three agree on each surface
 * (docs/gltf.md, "Textures and materials"; docs/materials.md):
 *
 * - alpha test → `MASK`: such a drawer keeps a fragment when alpha ≥ cutoff, so `≥ c` (Quake 3 GE128) is c and
 *   `> c` (GT0, Doom 3 alphaTest) is c + half an 8-bit step; `< c` (LT128) has no such form: drawn opaque with
 *   `ALPHA_TEST_UNSUPPORTED`;
 * - blend SRC_ALPHA, ONE_MINUS_SRC_ALPHA → `BLEND`; additive (ONE ONE, SRC_ALPHA ONE: glows, fire) → the image as
 *   emissive over a black base, `OPAQUE`; multiply and other pairs → `OPAQUE` with `BLEND_APPROXIMATED` (the three.js
 *   adapter draws any blend pair as it is, from the resolved material);
 * - `cull none` / `twoSided` → doubleSided; `surfaceparm nodraw` → `BLEND` with alpha 0 (present, invisible).
 *
 * Which resolved material a surface has, and which images it shows, are here too: every drawer asks the same way.
 */
import type { ParseWarning } from '../base/errors.js';
import type { AlphaTest, ResolvedImage, ResolvedMaterial } from './types.js';

/**
 * The resolved material of a surface: by index, and by player part when the materials are a player's (a lone MD3
 * whose node happens to be named `head` still matches its own materials).
 */
export function materialForSlot(materials: readonly ResolvedMaterial[], index: number, part: string | undefined): ResolvedMaterial | undefined {
  const wanted = materials.some((m) => m.part) ? part : undefined;
  return materials.find((m) => m.index === index && m.part === wanted);
}

/** The image a surface shows, or null: the found diffuse file (its first frame for an animMap). */
export const foundPath = (image: ResolvedImage | null): string | null => (image?.path && !image.builtin ? image.path : null);

/**
 * The normal map a drawer can take as is, or null: a plain image or Doom 3's `addnormals(normalmap, …)` (its first
 * image); another image program (`heightmap(…)` alone, …) is skipped with NORMAL_PROGRAM_SKIPPED.
 */
export function normalPath(m: ResolvedMaterial, warnings: ParseWarning[]): string | null {
  const path = foundPath(m.normal);
  if (!path) return null;
  const program = m.normal?.program;
  if (program && !/^\s*addnormals\s*\(/i.test(program)) {
    warnings.push({ code: 'NORMAL_PROGRAM_SKIPPED', message: `${m.shaderName}: normal map ${program} is an image program glTF cannot run: exported without a normal map`, offset: 0 });
    return null;
  }
  return path;
}

/**
 * The alpha a fragment needs to be kept by a drawer that keeps alpha ≥ cutoff (glTF `MASK`, three.js `alphaTest`):
 * `≥ c` is c, `> c` is c plus half an 8-bit step; null for `< c`, which such a drawer cannot say.
 */
export function keptFromAlpha(test: AlphaTest): number | null {
  if (test.op === '>=') return test.cutoff;
  if (test.op === '>') return test.cutoff + 1 / 510;
  return null;
}

/** How a surface meets the framebuffer (see the file comment). */
export interface AlphaLook {
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff?: number;
  /** The diffuse image as emissive over a black base (additive blends). */
  emissive: boolean;
  /** Base colour alpha 0: drawn invisible (`surfaceparm nodraw`). */
  invisible: boolean;
  doubleSided: boolean;
}

export function alphaLook(m: ResolvedMaterial, warnings: ParseWarning[]): AlphaLook {
  const name = m.shaderName || m.surface;
  const look: AlphaLook = { alphaMode: 'OPAQUE', emissive: false, invisible: false, doubleSided: m.sides !== 'front' };
  if (m.sides === 'back') warnings.push({ code: 'CULL_FRONT_APPROXIMATED', message: `${name}: culls front faces (cull back), which glTF cannot say: exported double-sided`, offset: 0 });
  if (m.nodraw) return { ...look, alphaMode: 'BLEND', invisible: true };
  if (m.alphaTest) {
    const cutoff = keptFromAlpha(m.alphaTest);
    // at most 1 in glTF terms: a Doom 3 alphaTest near 1 plus the half step keeps the fully opaque texels
    if (cutoff !== null) return { ...look, alphaMode: 'MASK', alphaCutoff: m.alphaTest.op === '>' ? Math.min(1, cutoff) : cutoff };
    const { cutoff: c, written } = m.alphaTest;
    warnings.push({ code: 'ALPHA_TEST_UNSUPPORTED', message: `${name}: alpha test ${written} keeps alpha < ${c}, which glTF cannot say: exported without it`, offset: 0 });
  }
  switch (m.blendMode) {
    case 'opaque':
      return look;
    case 'alpha':
      return { ...look, alphaMode: 'BLEND' };
    case 'additive':
      return { ...look, emissive: true };
    default:
      warnings.push({ code: 'BLEND_APPROXIMATED', message: `${name}: blendFunc ${m.blend?.src} ${m.blend?.dst} (${m.blendMode}) has no glTF form: exported opaque`, offset: 0 });
      return look;
  }
}
