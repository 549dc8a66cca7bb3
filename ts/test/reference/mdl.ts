/**
 * An independent reading of Quake's MDL, in plain TS, written from the format (modelgen.h: mdl_t, daliasskintype_t,
 * stvert_t, dtriangle_t, daliasframetype_t, daliasgroup_t, daliasframe_t, trivertx_t) and not from the parser: it
 * walks a file's bytes with a DataView record by record and decodes a pose as Quake does (byte · scale +
 * scale_origin; the normal the anorms.h entry of lightnormalindex). The kernels, posers and the parser are checked
 * against it. Positions are computed in double and rounded once to float32 (the correctly rounded value).
 * IDPO only (the variants are made up in the tests and checked field by field).
 */
import { MD2_NORMALS } from '../../src/kernels/quake-normals.js';

export interface ReferenceMdl {
  skinWidth: number;
  skinHeight: number;
  vertexCount: number;
  triangleCount: number;
  /** Every picture's offset in the file, in file order. */
  pictureOffsets: number[];
  /** Every pose's vertex block offset, in file order (groups expanded). */
  poseOffsets: number[];
  /** Every pose's name. */
  poseNames: string[];
  scale: [number, number, number];
  origin: [number, number, number];
  /** The file offset where st vertices start, and triangles. */
  stAt: number;
  trianglesAt: number;
  /** Where the last frame ends. */
  end: number;
}

export function referenceMdl(bytes: Uint8Array): ReferenceMdl {
  const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i32 = (at: number) => d.getInt32(at, true);
  const f32 = (at: number) => d.getFloat32(at, true);
  if (i32(0) !== 0x4f504449 || i32(4) !== 6) throw new Error('reference: not an IDPO version 6 file');
  const numskins = i32(48), skinwidth = i32(52), skinheight = i32(56), numverts = i32(60), numtris = i32(64), numframes = i32(68);
  const pictureOffsets: number[] = [];
  let at = 84;
  for (let s = 0; s < numskins; s++) {
    const type = i32(at);
    at += 4;
    const n = type === 0 ? 1 : i32(at);
    if (type !== 0) at += 4 + 4 * n;
    for (let k = 0; k < n; k++, at += skinwidth * skinheight) pictureOffsets.push(at);
  }
  const stAt = at;
  at += 12 * numverts;
  const trianglesAt = at;
  at += 16 * numtris;
  const poseOffsets: number[] = [], poseNames: string[] = [];
  for (let f = 0; f < numframes; f++) {
    const type = i32(at);
    at += 4;
    const n = type === 0 ? 1 : i32(at);
    if (type !== 0) at += 12 + 4 * n;
    for (let k = 0; k < n; k++) {
      const name = bytes.subarray(at + 8, at + 24);
      const nul = name.indexOf(0);
      poseNames.push(String.fromCharCode(...(nul < 0 ? name : name.subarray(0, nul))));
      poseOffsets.push(at + 24);
      at += 24 + 4 * numverts;
    }
  }
  return {
    skinWidth: skinwidth,
    skinHeight: skinheight,
    vertexCount: numverts,
    triangleCount: numtris,
    pictureOffsets,
    poseOffsets,
    poseNames,
    scale: [f32(8), f32(12), f32(16)],
    origin: [f32(20), f32(24), f32(28)],
    stAt,
    trianglesAt,
    end: at,
  };
}

/** Pose `pose`'s positions, 3 floats per vertex: byte · scale + scale_origin. */
export function referenceMdlPositions(bytes: Uint8Array, ref: ReferenceMdl, pose: number): Float32Array {
  const out = new Float32Array(3 * ref.vertexCount);
  const at = ref.poseOffsets[pose];
  for (let v = 0; v < ref.vertexCount; v++) {
    for (let k = 0; k < 3; k++) out[3 * v + k] = bytes[at + 4 * v + k] * ref.scale[k] + ref.origin[k];
  }
  return out;
}

/** Pose `pose`'s normals: anorms.h entry of each lightnormalindex (past 161 read as 161, as the parser documents). */
export function referenceMdlNormals(bytes: Uint8Array, ref: ReferenceMdl, pose: number): Float32Array {
  const out = new Float32Array(3 * ref.vertexCount);
  const at = ref.poseOffsets[pose];
  for (let v = 0; v < ref.vertexCount; v++) {
    const n = Math.min(161, bytes[at + 4 * v + 3]);
    for (let k = 0; k < 3; k++) out[3 * v + k] = MD2_NORMALS[3 * n + k];
  }
  return out;
}

/** Picture `picture` looked up in `palette` (768 bytes), RGBA8 with alpha 255. */
export function referenceMdlSkin(bytes: Uint8Array, ref: ReferenceMdl, picture: number, palette: Uint8Array): Uint8Array {
  const n = ref.skinWidth * ref.skinHeight;
  const out = new Uint8Array(4 * n);
  const at = ref.pictureOffsets[picture];
  for (let i = 0; i < n; i++) {
    const c = bytes[at + i];
    out[4 * i] = palette[3 * c];
    out[4 * i + 1] = palette[3 * c + 1];
    out[4 * i + 2] = palette[3 * c + 2];
    out[4 * i + 3] = 255;
  }
  return out;
}
