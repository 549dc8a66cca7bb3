/** An MDM surface's look, as ET's renderer finds it (R_MDM_AddAnimSurfaces): a skin's entry for its name, else its shader — MD3's rule. */
import type { Md3Model } from '../../base/model.js';
import type { MaterialResolver, MaterialSet } from '../../materials/resolver.js';

export function resolveMdmMaterials(resolver: MaterialResolver, surfaces: readonly { name: string; shader: string }[], path: string, skin?: string): Promise<MaterialSet> {
  const asMd3 = { format: 'md3', surfaces: surfaces.map((s) => ({ name: s.name, shaders: [{ name: s.shader, index: 0 }] })) } as unknown as Md3Model;
  return resolver.md3(asMd3, path, skin ? { skin } : {});
}
