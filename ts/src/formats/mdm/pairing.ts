/**
 * An MDM played on an MDX, as ET pairs them: a `.char` file names the mesh and its animation group; here the MDX
 * beside the mesh with its name (`body.mdm` ↔ `body.mdx`), or any one given. The pair fits when every bone the mesh's
 * weights, bone references and tags name is a bone of the skeleton (the renderer reads bones[index] unchecked).
 */
import type { WolfDrawable } from '../../pose/wolf-bind.js';
import type { MdmModel, MdxModel } from './model.js';

export const mdxPathOf = (path: string) => path.replace(/\.[^./\\]*$/, '.mdx');

/** Why `mdx` cannot play `mdm`, or null. */
export function pairMismatch(mdm: MdmModel, mdx: MdxModel): string | null {
  return mdm.bonesNamed > mdx.bones.length ? `the mesh names bone ${mdm.bonesNamed - 1}; the skeleton has ${mdx.bones.length}` : null;
}

export function pairDrawable(mdm: MdmModel, mdx: MdxModel): WolfDrawable {
  return { skeleton: mdx, surfaces: mdm.surfaces, tags: mdm.tags };
}

/** The MDX among a set's companions, if any. */
export function mdxOf(companions: readonly { data: unknown }[]): MdxModel | null {
  return (companions.find((c) => (c.data as MdxModel | null)?.format === 'mdx')?.data as MdxModel | undefined) ?? null;
}
