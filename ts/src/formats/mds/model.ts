/**
 * An MDS file (RtCW's skeletal model, `MDSW` version 4) as plain data: every header field, each frame's bounds and
 * its bones' compressed angles as stored (shorts, decoded when posed: pose/wolf-skeleton.ts), the bones, the
 * surfaces with their weighted vertices, triangles, collapse maps and bone references, the tags bound to bones.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { WolfBone, WolfFrameTable, WolfSurfaceVertices } from '../../pose/wolf-skeleton.js';

export type { WolfBone, WolfFrameTable, WolfSurfaceVertices };




export interface MdsSurface extends WolfSurfaceVertices {
  /** The surface's ident as stored (the renderer overwrites it with its surface type on load). */
  ident: number;
  name: string;
  shader: string;
  shaderIndex: number;
  /** The fewest vertices the LOD may draw. */
  minLod: number;
  /** The offset back to the header (negative), as stored. */
  ofsHeader: number;
  /** Per vertex: the parent it stays equidistant from, and that distance (stored; no renderer reads them). */
  fixedParents: Int32Array;
  fixedDists: Float32Array;
  triangles: Uint32Array;
  /** Per vertex: the vertex it collapses to when the LOD drops it. */
  collapseMap: Int32Array;
  /** The bones this surface's weights name (the ones the renderer computes for it). */
  boneRefs: Int32Array;
  /** Where the surface starts in the file. */
  offset: number;
}

export interface MdsTag {
  name: string;
  torsoWeight: number;
  boneIndex: number;
}

export interface MdsModel {
  format: 'mds';
  name: string;
  version: number;
  lodScale: number;
  lodBias: number;
  /** Each frame's bounds (of every surface of every LOD), local origin and radius (the engine's culling) and root position. */
  frames: WolfFrameTable;
  /** Per frame, per bone: angles[4] then ofsAngles[2] as stored (6 shorts a bone, frame f at f · bones · 6). */
  boneFrames: Int16Array;
  bones: WolfBone[];
  torsoParent: number;
  surfaces: MdsSurface[];
  tags: MdsTag[];
  /** The header's offsets, as stored. */
  offsets: { frames: number; bones: number; surfaces: number; tags: number; end: number };
  warnings: ParseWarning[];
}
