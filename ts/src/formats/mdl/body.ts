/**
 * The model from a validated header, its layout (every record placed and present) and the file's bytes up to the
 * end of its last frame. Every array is a fresh copy (nothing keeps the input alive) and poses stay quantised, so
 * the model takes about what its records take in the file. What is still checked per record: triangle indices
 * (errors), normal indices and intervals (warnings).
 */
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import type { MdlFrame, MdlModel, MdlSkin, MdlTrailing } from '../../base/model.js';
import { hostOrder, latin1Field } from '../../base/binary.js';
import { mdlClips } from './clips.js';
import { mdlHeaderEngineWarnings, mdlIntervalWarning, mdlPoseEngineWarnings } from './engine-limits.js';
import { fail, finiteOr0, type MdlHeader } from './header.js';
import type { MdlLayout } from './layout.js';
import { MDL_NORMAL_COUNT, MDL_POSE_HEADER_BYTES, MDL_POSE_NAME_BYTES, MDL_TRIANGLE_BYTES, MDL_VERTEX_BYTES } from './limits.js';

/** The last entry of the normal table: where an index past it is clamped (as for MD2). */
const LAST_NORMAL = MDL_NORMAL_COUNT - 1;

/** The tag of the 2021 re-release's block after the frames. */
const QMEX = 'QMEX';

/** `n` stored intervals; a non-finite one (no engine can play it) read as 0, which the timing then replaces. */
function intervalsAt(view: DataView, at: number, n: number, what: string, warnings: ParseWarning[]): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = finiteOr0(view.getFloat32(at + 4 * i, true), `${what} interval ${i}`, at + 4 * i, warnings);
  return out;
}

/** Positive and increasing, as Quake's R_AliasSetupFrame needs them: a warning for the first that is not. */
function checkIntervals(what: string, intervals: Float32Array, at: number, warnings: ParseWarning[]): void {
  for (let i = 0; i < intervals.length; i++) {
    if (!(intervals[i] > 0)) {
      warnings.push(mdlIntervalWarning(`${what} ${i}`, intervals[i], at + 4 * i));
      return;
    }
  }
}

function readSkins(bytes: Uint8Array, view: DataView, layout: MdlLayout, warnings: ParseWarning[]): { skins: MdlSkin[]; pixels: Uint8Array } {
  const size = layout.pictureBytes;
  const pixels = new Uint8Array(layout.pictureCount * size);
  const skins: MdlSkin[] = [];
  let picture = 0;
  layout.skins.forEach((r, s) => {
    const intervals = r.intervalsAt < 0 ? new Float32Array(0) : intervalsAt(view, r.intervalsAt, r.pictureCount, `skin group ${s}`, warnings);
    if (r.intervalsAt >= 0) {
      checkIntervals(`skin group ${s} picture`, intervals, r.intervalsAt, warnings);
      if (r.pictureCount === 0) {
        warnings.push({ code: 'EMPTY_SKIN_GROUP', message: `skin ${s} is a group of no pictures: the engines draw it untextured`, offset: r.at + 4 });
      }
    }
    pixels.set(bytes.subarray(r.picturesAt, r.picturesAt + r.pictureCount * size), picture * size);
    skins.push({ type: r.type, firstPicture: picture, pictureCount: r.pictureCount, intervals });
    picture += r.pictureCount;
  });
  return { skins, pixels };
}

function readSt(bytes: Uint8Array, h: MdlHeader, at: number): { onseam: Int32Array; st: Int32Array } {
  const words = hostOrder(bytes, at, h.stCount * 3, Int32Array);
  const onseam = new Int32Array(h.stCount);
  const st = new Int32Array(h.stCount * 2);
  for (let i = 0, w = 0; i < h.stCount; i++, w += 3) {
    onseam[i] = words[w];
    st[2 * i] = words[w + 1];
    st[2 * i + 1] = words[w + 2];
  }
  return { onseam, st };
}

function readTriangles(bytes: Uint8Array, h: MdlHeader, at: number) {
  const n = h.triangleCount;
  const facesFront = new Int32Array(n);
  const vertices = new Uint16Array(3 * n);
  let sts: Uint16Array;
  const V = h.vertexCount, S = h.stCount;
  if (h.variant === 'RAPO') {
    // dnewtriangle_t: int facesfront, unsigned short vertindex[3], stindex[3].
    const halves = hostOrder(bytes, at, n * 8, Uint16Array);
    const words = hostOrder(bytes, at, n * 4, Int32Array);
    sts = new Uint16Array(3 * n);
    for (let t = 0; t < n; t++) {
      facesFront[t] = words[4 * t];
      for (let k = 0; k < 3; k++) {
        const v = halves[8 * t + 2 + k], s = halves[8 * t + 5 + k];
        if (v >= V) fail(ErrorCode.IndexOutOfRange, `triangle ${t} vertex index ${v} is not in [0, ${V})`, at + MDL_TRIANGLE_BYTES * t + 4 + 2 * k);
        if (s >= S) fail(ErrorCode.IndexOutOfRange, `triangle ${t} st index ${s} is not in [0, ${S})`, at + MDL_TRIANGLE_BYTES * t + 10 + 2 * k);
        vertices[3 * t + k] = v;
        sts[3 * t + k] = s;
      }
    }
    return { facesFront, vertices, sts };
  }
  const words = hostOrder(bytes, at, n * 4, Int32Array);
  for (let t = 0, w = 0; t < n; t++, w += 4) {
    facesFront[t] = words[w];
    const a = words[w + 1], b = words[w + 2], c = words[w + 3];
    // QuakeSpasm and Ironwail follow these indices into their arrays unchecked; DarkPlaces replaces a bad one by 0
    // ("corrupt model elements"). Refused here, as for MD2.
    if ((a >>> 0) >= V || (b >>> 0) >= V || (c >>> 0) >= V) {
      const k = (a >>> 0) >= V ? 0 : (b >>> 0) >= V ? 1 : 2;
      fail(ErrorCode.IndexOutOfRange, `triangle ${t} vertex index ${words[w + 1 + k]} is not in [0, ${V})`, at + MDL_TRIANGLE_BYTES * t + 4 + 4 * k);
    }
    vertices[3 * t] = a;
    vertices[3 * t + 1] = b;
    vertices[3 * t + 2] = c;
  }
  // IDPO indexes st with the vertex index (stverts has numverts entries).
  return { facesFront, vertices, sts: vertices.slice() };
}

interface Poses {
  frames: MdlFrame[];
  names: string[];
  boundsMin: Uint8Array;
  boundsMax: Uint8Array;
  vertices: Uint8Array;
  low: Uint8Array | null;
}

function readFrames(bytes: Uint8Array, view: DataView, h: MdlHeader, layout: MdlLayout, warnings: ParseWarning[]): Poses {
  const V = h.vertexCount;
  const block = V * MDL_VERTEX_BYTES;
  const md16 = h.variant === 'MD16';
  const P = layout.poseCount;
  const names: string[] = [];
  const boundsMin = new Uint8Array(4 * P), boundsMax = new Uint8Array(4 * P);
  const vertices = new Uint8Array(P * block);
  const low = md16 ? new Uint8Array(P * block) : null;
  const frames: MdlFrame[] = [];
  let pose = 0;
  layout.frames.forEach((r, f) => {
    const first = pose;
    for (let j = 0; j < r.poseCount; j++, pose++) {
      const at = r.posesAt + j * layout.poseBytes;
      boundsMin.set(bytes.subarray(at, at + 4), 4 * pose);
      boundsMax.set(bytes.subarray(at + 4, at + 8), 4 * pose);
      names.push(latin1Field(bytes, at + 8, MDL_POSE_NAME_BYTES));
      const from = at + MDL_POSE_HEADER_BYTES;
      vertices.set(bytes.subarray(from, from + block), pose * block);
      if (low) low.set(bytes.subarray(from + block, from + 2 * block), pose * block);
    }
    const group = r.boundsAt >= 0;
    const intervals = group ? intervalsAt(view, r.intervalsAt, r.poseCount, `frame group ${f}`, warnings) : new Float32Array(0);
    if (group) checkIntervals(`frame group ${f} pose`, intervals, r.intervalsAt, warnings);
    frames.push({
      type: r.type,
      firstPose: first,
      poseCount: r.poseCount,
      boundsMin: group ? bytes.slice(r.boundsAt, r.boundsAt + 4) : boundsMin.slice(4 * first, 4 * first + 4),
      boundsMax: group ? bytes.slice(r.boundsAt + 4, r.boundsAt + 8) : boundsMax.slice(4 * first, 4 * first + 4),
      intervals,
    });
  });
  // Normal indices in one pass (as MD2): the engines light through a 256-entry row, the 162-entry table behind the
  // kernels and the reference decoders ends at 161; an index past it is read as 161, reported once.
  let clamped = 0, first = -1;
  for (let i = 3; i < vertices.length; i += 4) {
    if (vertices[i] > LAST_NORMAL) {
      if (clamped++ === 0) first = i;
      vertices[i] = LAST_NORMAL;
    }
  }
  if (clamped > 0) {
    const p = Math.floor(first / block), v = (first % block - 3) / 4;
    const f = frames.findIndex((fr) => p < fr.firstPose + fr.poseCount);
    const at = layout.frames[f].posesAt + (p - frames[f].firstPose) * layout.poseBytes + MDL_POSE_HEADER_BYTES + 4 * v + 3;
    warnings.push({ code: 'NORMAL_INDEX', message: `${clamped} normal index(es) not below ${MDL_NORMAL_COUNT}, the first ${bytes[at]} (pose ${p} vertex ${v}); each is read as ${LAST_NORMAL}`, offset: at });
  }
  return { frames, names, boundsMin, boundsMax, vertices, low };
}

/**
 * The model from `bytes` (at least `layout.end` long: bytes past it are not read). `trailing` says how many bytes
 * the input had past the frames, and the first four of them (the tag).
 */
export function readMdlBody(bytes: Uint8Array, h: MdlHeader, layout: MdlLayout, trailingBytes: number, trailingHead: Uint8Array): MdlModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const warnings: ParseWarning[] = [...mdlHeaderEngineWarnings(h), ...h.warnings];
  const { skins, pixels } = readSkins(bytes, view, layout, warnings);
  const { onseam, st } = readSt(bytes, h, layout.stAt);
  const tris = readTriangles(bytes, h, layout.trianglesAt);
  const poses = readFrames(bytes, view, h, layout, warnings);
  warnings.push(...mdlPoseEngineWarnings(layout.poseCount, layout.frames[layout.frames.length - 1].at));
  if (h.variant === 'MD16') {
    warnings.push({ code: 'MD16_LOW_BYTES', message: 'MD16 (QuakeForge): every pose\'s low bytes are kept (frameVerticesLow) but the morph kernels pose the high bytes, one step of scale', offset: 0 });
  }
  let trailing: MdlTrailing | null = null;
  if (trailingBytes > 0) {
    const tag = trailingHead.length >= 4 && String.fromCharCode(...trailingHead.subarray(0, 4)) === QMEX ? QMEX : null;
    trailing = { offset: layout.end, bytes: trailingBytes, tag };
    // The re-release's block is known and every other engine steps over it; anything else is worth a word.
    if (!tag) warnings.push({ code: 'TRAILING_BYTES', message: `${trailingBytes} bytes after the last frame ignored (no engine's loader reads past the frames)`, offset: layout.end });
  }
  return {
    format: 'mdl',
    variant: h.variant,
    version: h.version,
    scale: h.scale,
    origin: h.origin,
    radius: h.radius,
    eyePosition: h.eyePosition,
    skinWidth: h.skinWidth,
    skinHeight: h.skinHeight,
    skins,
    pictureCount: layout.pictureCount,
    skinPixels: pixels,
    vertexCount: h.vertexCount,
    stCount: h.stCount,
    onseam,
    st,
    triangleCount: h.triangleCount,
    facesFront: tris.facesFront,
    triangleVertexIndices: tris.vertices,
    triangleStIndices: tris.sts,
    frameCount: h.frameCount,
    frames: poses.frames,
    poseCount: layout.poseCount,
    poseNames: poses.names,
    poseBoundsMin: poses.boundsMin,
    poseBoundsMax: poses.boundsMax,
    frameVertices: poses.vertices,
    frameVerticesLow: poses.low,
    synctype: h.synctype,
    flags: h.flags,
    size: h.size,
    clips: mdlClips(poses.names),
    trailing,
    warnings,
  };
}
