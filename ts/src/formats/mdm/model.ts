/**
 * ET's skeletal mesh (MDM, `MDMW` v3) and skeleton (MDX, `MDXW` v2) as plain data, every field kept. An MDM's
 * weights name the bones of the MDX it is played with (ET pairs them through a `.char` file's mesh and
 * animation group; here the MDX beside it with the same name, or the one given).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { WolfBone, WolfFrameTable, WolfSurfaceVertices } from '../../pose/wolf-skeleton.js';

export interface MdmSurface extends WolfSurfaceVertices {
  ident: number;
  name: string;
  shader: string;
  shaderIndex: number;
  minLod: number;
  ofsHeader: number;
  triangles: Uint32Array;
  collapseMap: Int32Array;
  boneRefs: Int32Array;
  offset: number;
}

export interface MdmTag {
  name: string;
  /** axis[3] as stored, rows. */
  axis: Float32Array;
  boneIndex: number;
  /** The tag's origin in its bone's space. */
  offset: Float32Array;
  boneRefs: Int32Array;
}

export interface MdmModel {
  format: 'mdm';
  name: string;
  version: number;
  lodScale: number;
  lodBias: number;
  surfaces: MdmSurface[];
  tags: MdmTag[];
  /** The most bones any weight, tag or bone reference names (+1): what an MDX must have to play it. */
  bonesNamed: number;
  offsets: { surfaces: number; tags: number; end: number };
  warnings: ParseWarning[];
}


export interface MdxModel {
  format: 'mdx';
  name: string;
  version: number;
  frames: WolfFrameTable;
  /** Per frame, per bone: angles[4] then ofsAngles[2] as stored. */
  boneFrames: Int16Array;
  bones: WolfBone[];
  torsoParent: number;
  offsets: { frames: number; bones: number; end: number };
  warnings: ParseWarning[];
}
