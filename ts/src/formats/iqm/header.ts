/**
 * The 124-byte IQM header: magic, version, filesize, and every count and offset as stored. Validated on its own
 * (magic, version 2, filesize inside what arrived and at least a header); what the counts promise about the blocks
 * is checked by `blocks.ts` once the file's bytes are in.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { H, HEADER_BYTES, IQM_MAGIC, IQM_VERSION } from './layout.js';

export interface IqmHeader {
  version: number;
  filesize: number;
  flags: number;
  numText: number;
  ofsText: number;
  numMeshes: number;
  ofsMeshes: number;
  numVertexArrays: number;
  numVertexes: number;
  ofsVertexArrays: number;
  numTriangles: number;
  ofsTriangles: number;
  ofsAdjacency: number;
  numJoints: number;
  ofsJoints: number;
  numPoses: number;
  ofsPoses: number;
  numAnims: number;
  ofsAnims: number;
  numFrames: number;
  numFrameChannels: number;
  ofsFrames: number;
  ofsBounds: number;
  numComment: number;
  ofsComment: number;
  numExtensions: number;
  ofsExtensions: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** Whether `head` starts with the IQM magic (`INTERQUAKEMODEL\0`). */
export function isIqm(head: Uint8Array): boolean {
  if (head.length < IQM_MAGIC.length) return false;
  for (let i = 0; i < IQM_MAGIC.length; i++) if (head[i] !== IQM_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Checks what has arrived of a header (`available` bytes): the magic once 16 bytes are in, the version at 20. */
export function checkIqmHeaderPrefix(bytes: Uint8Array, available: number): void {
  const n = Math.min(available, IQM_MAGIC.length);
  for (let i = 0; i < n; i++) {
    if (bytes[i] !== IQM_MAGIC.charCodeAt(i)) {
      const got = String.fromCharCode(...bytes.subarray(0, n));
      fail(ErrorCode.BadMagic, `magic is ${JSON.stringify(got)}, not "INTERQUAKEMODEL\\0"`, i);
    }
  }
  if (available >= H.version + 4) {
    const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(H.version, true);
    if (version !== IQM_VERSION) fail(ErrorCode.BadVersion, `IQM version ${version} is not supported (want ${IQM_VERSION}, as ioquake3 and Tesseract)`, H.version);
  }
}

/**
 * Reads the header from the first `available` bytes of `bytes`. `filesize` must hold at least the header; whether
 * the input holds `filesize` bytes is the caller's check (the stream parser learns it only at the end).
 */
export function readIqmHeader(bytes: Uint8Array, available: number): IqmHeader {
  checkIqmHeaderPrefix(bytes, available);
  if (available < HEADER_BYTES) fail(ErrorCode.Truncated, `input ended inside the ${HEADER_BYTES}-byte header`, available);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (field: number) => view.getUint32(field, true);
  const filesize = u(H.filesize);
  if (filesize < HEADER_BYTES) fail(ErrorCode.BadOffset, `filesize ${filesize} is below the ${HEADER_BYTES}-byte header`, H.filesize);
  return {
    version: u(H.version),
    filesize,
    flags: u(H.flags),
    numText: u(H.numText),
    ofsText: u(H.ofsText),
    numMeshes: u(H.numMeshes),
    ofsMeshes: u(H.ofsMeshes),
    numVertexArrays: u(H.numVertexArrays),
    numVertexes: u(H.numVertexes),
    ofsVertexArrays: u(H.ofsVertexArrays),
    numTriangles: u(H.numTriangles),
    ofsTriangles: u(H.ofsTriangles),
    ofsAdjacency: u(H.ofsAdjacency),
    numJoints: u(H.numJoints),
    ofsJoints: u(H.ofsJoints),
    numPoses: u(H.numPoses),
    ofsPoses: u(H.ofsPoses),
    numAnims: u(H.numAnims),
    ofsAnims: u(H.ofsAnims),
    numFrames: u(H.numFrames),
    numFrameChannels: u(H.numFrameChannels),
    ofsFrames: u(H.ofsFrames),
    ofsBounds: u(H.ofsBounds),
    numComment: u(H.numComment),
    ofsComment: u(H.ofsComment),
    numExtensions: u(H.numExtensions),
    ofsExtensions: u(H.ofsExtensions),
  };
}
