/**
 * An MDS surface's look, found as RtCW's renderer finds it (R_AddAnimSurfaces): a skin's entry for the surface's name,
 * else the surface's own shader name through R_FindShader — MD3's rule, so the MD3 lookup is asked with the surfaces
 * as it reads them (a name and one shader each).
 */
import type { Md3Model } from '../../base/model.js';
import type { MaterialResolver, MaterialSet } from '../../materials/resolver.js';

export function resolveWolfMaterials(resolver: MaterialResolver, surfaces: readonly { name: string; shader: string }[], path: string, skin?: string): Promise<MaterialSet> {
  const asMd3 = { format: 'md3', surfaces: surfaces.map((s) => ({ name: s.name, shaders: [{ name: s.shader, index: 0 }] })) } as unknown as Md3Model;
  return resolver.md3(asMd3, path, skin ? { skin } : {});
}
