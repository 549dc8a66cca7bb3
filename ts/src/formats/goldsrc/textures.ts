/**
 * A studio model's textures as the engine shows them: each 8-bit picture decoded through its own 256-colour palette
 * (R_StudioLoadTexture), masked ones (STUDIO_NF_MASKED) with palette index 255 transparent — alpha-tested, as the
 * renderer draws them —, additive ones (STUDIO_NF_ADDITIVE) blended GL_ONE GL_ONE. Chrome (STUDIO_NF_CHROME) is
 * drawn by the engine with texture coordinates made each frame from the view (sphere-mapped): here its stored
 * coordinates are kept, and the material's name says chrome. One material per mesh drawn, showing the texture its
 * skin reference names in skin family 0. The texture file (`<name>T.mdl`) supplies both
 * when the model has none.
 */
import { implicitLook } from '../../materials/appearance.js';
import type { EmbeddedPixels, ResolvedMaterial } from '../../materials/types.js';
import { goldsrcDraw } from './geometry.js';
import { NF_ADDITIVE, NF_CHROME, NF_MASKED } from './limits.js';
import type { GoldsrcModel, GoldsrcTexture } from './model.js';

/** The model whose textures and skin families are shown: its own, else its texture file's. */
export const textureSource = (model: GoldsrcModel, textures: GoldsrcModel | null): GoldsrcModel => (model.textures.length === 0 && textures ? textures : model);

/** Skin family k by the name a skin choice gives it (`family1`, as the view's `extras.skins` offers them); −1 for another name. */
export const familyOf = (skin: string | undefined): number => {
  const m = skin === undefined ? null : /^family(\d+)$/.exec(skin);
  return m ? Number(m[1]) : -1;
};

/** The skin names of `source`'s families (`family0` …), when it has more than one to choose from. */
export const familyNames = (source: GoldsrcModel): string[] => (source.skinFamilies.length > 1 ? source.skinFamilies.map((_, k) => `family${k}`) : []);

/** The texture a mesh's skin reference shows in `family` (clamped to the table as R_StudioSetupSkin does not: −1 when none). */
export function textureOf(source: GoldsrcModel, skinRef: number, family = 0): number {
  const row = source.skinFamilies[Math.min(Math.max(0, family), source.skinFamilies.length - 1)];
  const t = row && skinRef >= 0 && skinRef < row.length ? row[skinRef] : skinRef;
  return t >= 0 && t < source.textures.length ? t : -1;
}

/** RGBA of a texture through its palette; index 255 transparent where it is masked. */
export function decodeTexture(t: GoldsrcTexture): EmbeddedPixels {
  const n = t.width * t.height;
  const rgba = new Uint8Array(n * 4);
  const masked = (t.flags & NF_MASKED) !== 0;
  for (let i = 0; i < n; i++) {
    const c = t.pixels[i];
    rgba[i * 4] = t.palette[c * 3];
    rgba[i * 4 + 1] = t.palette[c * 3 + 1];
    rgba[i * 4 + 2] = t.palette[c * 3 + 2];
    rgba[i * 4 + 3] = masked && c === 255 ? 0 : 255;
  }
  return { width: t.width, height: t.height, rgba };
}

/**
 * The materials, one per mesh drawn (geometry.ts `goldsrcDraw(model, body)`'s order: every drawer's slot is its mesh), each
 * showing the texture its skin reference names in skin family `family` (0 unless a skin is asked for: the entity's
 * `skin`, StudioSetupSkin's row of the table) — the same texture once decoded, keyed `<model>/<texture name or index>`.
 */
export function goldsrcMaterials(model: GoldsrcModel, source: GoldsrcModel, modelName: string, family = 0, body = 0): { materials: ResolvedMaterial[]; pixels: Map<string, EmbeddedPixels> } {
  const pixels = new Map<string, EmbeddedPixels>();
  const materials = goldsrcDraw(model, body).meshes.map((mesh, i): ResolvedMaterial => {
    const ti = textureOf(source, mesh.skinRef, family);
    const t = ti >= 0 ? source.textures[ti] : null;
    const key = `${modelName}/${t ? t.name || `texture${ti}` : `skinref${mesh.skinRef}`}`;
    const flags = t?.flags ?? 0;
    const additive = (flags & NF_ADDITIVE) !== 0, masked = (flags & NF_MASKED) !== 0;
    const name = (flags & NF_CHROME) !== 0 ? `${key} (chrome)` : key;
    const look = implicitLook(name, 'quake3');
    const m: ResolvedMaterial = {
      index: i, surface: mesh.name, shaderName: name, nameSource: { kind: 'model' }, definition: { kind: 'implicit' },
      diffuse: null, normal: null, specular: null, animation: null, others: [], emissive: null,
      blend: additive ? { src: 'GL_ONE', dst: 'GL_ONE' } : null,
      blendMode: additive ? 'additive' : 'opaque',
      alphaTest: masked ? { op: '>=', cutoff: 0.5, written: 'STUDIO_NF_MASKED' } : null,
      sides: look.sides, doubleSided: false, nodraw: false, translucent: additive, clamp: false,
    };
    if (t && t.width > 0 && t.height > 0) {
      if (!pixels.has(key)) pixels.set(key, decodeTexture(t));
      m.diffuse = { role: 'diffuse', name: key, path: key, origin: modelName, builtin: null, program: null, writtenAt: null, tried: [], embedded: true };
    }
    return m;
  });
  return { materials, pixels };
}
