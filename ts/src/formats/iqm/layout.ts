/**
 * The IQM version 2 binary layout (the IQM SDK's iqm.txt / iqm.h, as ioquake3 `code/renderergl2/tr_model_iqm.c`
 * R_LoadIQM and DarkPlaces `model_alias.c` Mod_INTERQUAKEMODEL_Load read it). Little-endian throughout; every
 * `ofs_*` is from the start of the file. Record sizes and the byte offsets of the header fields, so errors can name
 * the exact field at fault.
 */

/** `INTERQUAKEMODEL` and its NUL: the 16-byte magic. */
export const IQM_MAGIC = 'INTERQUAKEMODEL\0';
export const IQM_VERSION = 2;

/** magic[16] then 27 uint32. */
export const HEADER_BYTES = 124;
/** name, material, first_vertex, num_vertexes, first_triangle, num_triangles. */
export const MESH_BYTES = 24;
/** type, flags, format, size, offset. */
export const VERTEX_ARRAY_BYTES = 20;
/** uint vertex[3]. */
export const TRIANGLE_BYTES = 12;
/** uint triangle[3]. */
export const ADJACENCY_BYTES = 12;
/** name, parent, translate[3], rotate[4], scale[3]. */
export const JOINT_BYTES = 48;
/** parent, channelmask, channeloffset[10], channelscale[10]. */
export const POSE_BYTES = 88;
/** name, first_frame, num_frames, framerate, flags. */
export const ANIM_BYTES = 20;
/** bbmins[3], bbmaxs[3], xyradius, radius. */
export const BOUNDS_BYTES = 32;
/** name, num_data, ofs_data, ofs_extensions (the next one). */
export const EXTENSION_BYTES = 16;
/** Channels of a pose: translate xyz, rotate xyzw, scale xyz. */
export const POSE_CHANNELS = 10;

/** Byte offsets of the header's uint32 fields. */
export const H = {
  version: 16,
  filesize: 20,
  flags: 24,
  numText: 28,
  ofsText: 32,
  numMeshes: 36,
  ofsMeshes: 40,
  numVertexArrays: 44,
  numVertexes: 48,
  ofsVertexArrays: 52,
  numTriangles: 56,
  ofsTriangles: 60,
  ofsAdjacency: 64,
  numJoints: 68,
  ofsJoints: 72,
  numPoses: 76,
  ofsPoses: 80,
  numAnims: 84,
  ofsAnims: 88,
  numFrames: 92,
  numFrameChannels: 96,
  ofsFrames: 100,
  ofsBounds: 104,
  numComment: 108,
  ofsComment: 112,
  numExtensions: 116,
  ofsExtensions: 120,
} as const;

/** Bytes per component of each format (iqm.h BYTE … DOUBLE); index = format. */
export const FORMAT_BYTES = [1, 1, 2, 2, 4, 4, 2, 4, 8] as const;

/** Names of the standard vertex array types (0…6). */
export const ARRAY_TYPE_NAMES = ['position', 'texcoord', 'normal', 'tangent', 'blendindexes', 'blendweights', 'color'] as const;
