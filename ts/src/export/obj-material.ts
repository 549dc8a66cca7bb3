/**
 * A Wavefront `.mtl` for resolved materials (textures.ts), and the image files it names, written beside the OBJ:
 *
 *   newmtl <shader>      one per distinct look, named after the shader (spaces → `_`)
 *   Kd 1 1 1             white under a texture (the texture is the colour); 0.69 grey without one
 *   map_Kd <image>       the diffuse image (PNG re-encoded from TGA/PCX/BMP; JPEG and PNG as they are)
 *   map_Bump <image>     the normal map (Doom 3 bump / Daemon normalMap), as Blender and assimp read map_Bump
 *   d 1 + map_d <image>  where alpha matters (alpha test, alpha blend): the diffuse image's alpha is the coverage
 *   Kd 0 0 0, Ke 1 1 1, map_Ke <image>   additive blends (glows), as in glTF: the image as emission
 *   d 0                  `surfaceparm nodraw`
 *
 * MTL has no alpha cutoff, no blend modes and no face culling: those stay in the glTF export.
 */
import type { ParseWarning } from '../base/errors.js';
import { alphaLook, foundPath, normalPath } from '../materials/look.js';
import { addImageFile, type ImageFile, type ResolvedTextures } from './textures.js';
import { imageConverter } from './image-convert.js';

export interface ObjMaterialLibrary {
  /** The `.mtl` text. */
  mtl: string;
  /** Image files to write beside it (their `uri` is the file name the .mtl uses). */
  files: ImageFile[];
  /** The `usemtl` name of surface / mesh `index` (MD2: 0), or undefined when nothing was resolved for it. */
  nameFor(index: number): string | undefined;
}

const mtlName = (s: string) => s.replace(/\s+/g, '_') || 'default';

/**
 * The material library of one model's resolved materials (not a player's: OBJ holds one model). `filePrefix` starts
 * each image file's name (e.g. `stasis_` → `stasis_chamber.png`).
 */
export function objMaterialLibrary(textures: ResolvedTextures, options: { filePrefix?: string; warnings?: ParseWarning[] } = {}): ObjMaterialLibrary {
  const warnings = options.warnings ?? [];
  const converter = (textures.convert ?? imageConverter)(textures, warnings);
  const files: ImageFile[] = [];
  const uriOf = new Map<string, string | null>();
  const fileFor = (path: string | null): string | null => {
    if (!path) return null;
    if (!uriOf.has(path)) {
      const img = converter.get(path);
      uriOf.set(path, img ? addImageFile(files, options.filePrefix ?? '', img) : null);
    }
    return uriOf.get(path)!;
  };
  const out = ['# written by idtech-models'];
  const byIndex = new Map<number, string>();
  const byKey = new Map<string, string>();
  const used = new Set<string>();
  for (const m of textures.materials) {
    if (m.part) continue;
    const diffuse = fileFor(foundPath(m.diffuse));
    const normal = fileFor(normalPath(m, warnings));
    const key = JSON.stringify([m.shaderName, diffuse, normal, m.blendMode, m.alphaTest, m.nodraw]);
    let name = byKey.get(key);
    if (!name) {
      name = mtlName(m.shaderName || m.surface);
      for (let n = 2; used.has(name); n++) name = `${mtlName(m.shaderName || m.surface)}-${n}`;
      used.add(name);
      byKey.set(key, name);
      const look = alphaLook(m, []);
      out.push('', `newmtl ${name}`);
      if (look.emissive && diffuse) out.push('Kd 0 0 0', 'Ke 1 1 1', `map_Ke ${diffuse}`);
      else out.push(diffuse ? 'Kd 1 1 1' : 'Kd 0.69 0.69 0.69', ...(diffuse ? [`map_Kd ${diffuse}`] : []));
      out.push('Ks 0 0 0', 'illum 1');
      if (normal) out.push(`map_Bump ${normal}`);
      if (look.invisible) out.push('d 0');
      else if (look.alphaMode !== 'OPAQUE' && diffuse && !look.emissive) out.push('d 1', `map_d ${diffuse}`);
    }
    byIndex.set(m.index, name);
  }
  out.push('');
  return { mtl: out.join('\n'), files, nameFor: (index) => byIndex.get(index) };
}
