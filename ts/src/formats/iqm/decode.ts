/**
 * Bytes [0, filesize) of an IQM whose header is read → an {@link IqmModel}. Every block is checked to lie inside the
 * file before anything is allocated for it (ioquake3 R_LoadIQM's IQM_CheckRange: a non-empty block needs an offset
 * above 0 and its end inside `filesize`), so every allocation is bounded by bytes that are really in the file. The
 * records are then copied out with their indices checked (INDEX_OUT_OF_RANGE) and the floats the posers read checked
 * finite (BAD_NUMBER). What one engine refuses and another loads is a warning (`engine-limits.ts`).
 *
 * The model owns every array (no view into the input).
 */
import { hostOrderCopy } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { shortName } from '../../base/message-name.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import {
  IqmArrayType,
  IqmFormat,
  IQM_LOOP,
  type IqmAnim,
  type IqmArrayData,
  type IqmExtension,
  type IqmJoints,
  type IqmMesh,
  type IqmModel,
  type IqmPoses,
  type IqmVertexArray,
} from '../../base/model.js';
import { engineLimit, iqmHeaderEngineWarnings, iqmMeshEngineWarnings } from './engine-limits.js';
import { fail, type IqmHeader } from './header.js';
import { TakenRanges } from './taken-ranges.js';
import {
  ADJACENCY_BYTES,
  ANIM_BYTES,
  ARRAY_TYPE_NAMES,
  BOUNDS_BYTES,
  EXTENSION_BYTES,
  FORMAT_BYTES,
  H,
  JOINT_BYTES,
  MESH_BYTES,
  POSE_BYTES,
  POSE_CHANNELS,
  TRIANGLE_BYTES,
  VERTEX_ARRAY_BYTES,
} from './layout.js';

type Ctor = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): IqmArrayData; readonly BYTES_PER_ELEMENT: number };
/** Typed array per format (HALF as its raw uint16 bits). */
const FORMAT_ARRAYS: readonly Ctor[] = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Uint16Array, Float32Array, Float64Array];

/** Bits set in the low 10 bits (the channels a pose stores per frame). */
export function channelCount(mask: number): number {
  let n = 0;
  for (let c = 0; c < POSE_CHANNELS; c++) if (mask & (1 << c)) n++;
  return n;
}

/**
 * The vertex arrays to skip because their bytes overlap: of each run of arrays whose ranges overlap (sorted by
 * offset), all but the one listed first. So every byte of the file is copied into at most one array, whatever the
 * records say (no engine needs overlapping arrays; a hostile file could otherwise ask for the file's size once per
 * record). O(n log n) in the number of records.
 */
function overlappingArrays(view: DataView, h: IqmHeader): Set<number> {
  const ranges: { start: number; end: number; index: number }[] = [];
  for (let i = 0; i < h.numVertexArrays; i++) {
    const at = h.ofsVertexArrays + i * VERTEX_ARRAY_BYTES;
    const format = view.getUint32(at + 8, true), size = view.getUint32(at + 12, true), offset = view.getUint32(at + 16, true);
    if (format >= FORMAT_BYTES.length) continue;
    const length = h.numVertexes * size * FORMAT_BYTES[format];
    if (length > 0 && offset > 0 && offset + length <= h.filesize) ranges.push({ start: offset, end: offset + length, index: i });
  }
  ranges.sort((a, b) => a.start - b.start || a.index - b.index);
  const skip = new Set<number>();
  let run: typeof ranges = [];
  let runEnd = -1;
  const close = () => {
    if (run.length > 1) {
      const keep = run.reduce((m, r) => Math.min(m, r.index), Infinity);
      for (const r of run) if (r.index !== keep) skip.add(r.index);
    }
  };
  for (const r of ranges) {
    if (r.start >= runEnd) {
      close();
      run = [];
    }
    run.push(r);
    runEnd = Math.max(runEnd, r.end);
  }
  close();
  return skip;
}

/**
 * Decodes a file whose header is `header` from `bytes`, which holds at least `header.filesize` bytes. `received` is
 * the input's full length (bytes past filesize → TRAILING_BYTES warning).
 */
export function decodeIqm(bytes: Uint8Array, header: IqmHeader, received: number): IqmModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const h = header;
  const end = h.filesize;
  const warnings: ParseWarning[] = iqmHeaderEngineWarnings(h);

  /** A block of `count` records of `size` bytes at `offset` (placed by header field `field`) must lie in the file. */
  const block = (field: number, what: string, offset: number, count: number, size: number): void => {
    if (count === 0) return;
    const length = count * size;
    if (offset <= 0 || offset + length > end) {
      fail(ErrorCode.BadOffset, `${what} [${offset}, ${offset + length}) is outside the file's [1, ${end}) (filesize)`, field);
    }
  };
  block(H.ofsText, 'the text', h.ofsText, h.numText, 1);
  block(H.ofsMeshes, 'the meshes', h.ofsMeshes, h.numMeshes, MESH_BYTES);
  block(H.ofsVertexArrays, 'the vertex arrays', h.ofsVertexArrays, h.numVertexArrays, VERTEX_ARRAY_BYTES);
  block(H.ofsTriangles, 'the triangles', h.ofsTriangles, h.numTriangles, TRIANGLE_BYTES);
  if (h.ofsAdjacency !== 0) block(H.ofsAdjacency, 'the adjacency', h.ofsAdjacency, h.numTriangles, ADJACENCY_BYTES);
  block(H.ofsJoints, 'the joints', h.ofsJoints, h.numJoints, JOINT_BYTES);
  block(H.ofsPoses, 'the poses', h.ofsPoses, h.numPoses, POSE_BYTES);
  block(H.ofsAnims, 'the anims', h.ofsAnims, h.numAnims, ANIM_BYTES);
  block(H.ofsFrames, 'the frames', h.ofsFrames, h.numFrames * h.numFrameChannels, 2);
  if (h.ofsBounds !== 0) block(H.ofsBounds, 'the bounds', h.ofsBounds, h.numFrames, BOUNDS_BYTES);
  block(H.ofsComment, 'the comment', h.ofsComment, h.numComment, 1);
  // Vertices are only counted here; each array is checked on its own below. Triangles can only name vertices the
  // arrays hold, so numVertexes is bounded by the checked arrays before anything is allocated per vertex.

  const text = hostOrderCopy(bytes, h.ofsText, h.numText, Uint8Array);
  // names are slices of one string (V8 shares the characters), so many names into a long text cost no more than it
  const textString = latin1(text, 0, text.length);
  const strings = new Map<number, string>();
  // Where each name ends: the text's NULs, found in one pass. A name is read up to the first NUL at or after it (or
  // the text's end), found by a binary search: 10,000 names at offsets into a NUL-free text used to scan it to its end
  // once each (300 KB of text: 3 billion steps).
  const nuls = textNuls(text);
  /** The string at text offset `at` (INDEX_OUT_OF_RANGE at `field` past the text, as R_LoadIQM refuses). */
  const str = (at: number, field: number, what: string): string => {
    let s = strings.get(at);
    if (s !== undefined) return s;
    if (at >= h.numText) {
      if (at === 0) return ''; // an empty text block: name 0 is the empty string every file starts with
      fail(ErrorCode.IndexOutOfRange, `${what} names text offset ${at}, past the ${h.numText}-byte text`, field);
    }
    s = textString.slice(at, nulAtOrAfter(nuls, at, text.length));
    strings.set(at, s);
    return s;
  };
  const float = (at: number, what: string): number => {
    const v = view.getFloat32(at, true);
    if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} is ${v}`, at);
    return v;
  };
  const u32 = (at: number) => view.getUint32(at, true);

  // ——— vertex arrays ———
  const V = h.numVertexes;
  const vertexArrays: IqmVertexArray[] = [];
  let positions: Float32Array | null = null;
  let texcoords: Float32Array | null = null;
  let normals: Float32Array | null = null;
  let tangents: Float32Array | null = null;
  let blendIndexes: Uint8Array | null = null;
  let blendWeights: Uint8Array | Float32Array | null = null;
  let colors: Uint8Array | Float32Array | null = null;
  const skipped = overlappingArrays(view, h);
  const finiteChecks = new Map<Float32Array, () => void>();
  for (let i = 0; i < h.numVertexArrays; i++) {
    const at = h.ofsVertexArrays + i * VERTEX_ARRAY_BYTES;
    const type = u32(at), flags = u32(at + 4), format = u32(at + 8), size = u32(at + 12), offset = u32(at + 16);
    const what = `vertex array ${i}`;
    const name = type < ARRAY_TYPE_NAMES.length ? ARRAY_TYPE_NAMES[type] : type >= IqmArrayType.Custom ? str(type - IqmArrayType.Custom, at, `${what}'s custom type`) : `unknown${type}`;
    // a custom array's name is the file's: its messages quote at most 64 characters of it (base/message-name.ts)
    const quoted = shortName(name);
    let data: IqmArrayData | null = null;
    if (format >= FORMAT_BYTES.length) {
      warnings.push({ code: 'IQM_ARRAY_SKIPPED', message: `${what} (${quoted}) has format ${format}, not one of iqm.h's: skipped, as DarkPlaces skips it (ioquake3 refuses the model)`, offset: at + 8 });
    } else {
      const length = V * size * FORMAT_BYTES[format];
      if (length > 0 && (offset <= 0 || offset + length > end)) {
        warnings.push({ code: 'IQM_ARRAY_SKIPPED', message: `${what} (${quoted}) [${offset}, ${offset + length}) is outside the file's [1, ${end}): skipped, as DarkPlaces skips it (ioquake3 refuses the model)`, offset: at + 16 });
      } else if (skipped.has(i)) {
        warnings.push({ code: 'IQM_ARRAY_SKIPPED', message: `${what} (${quoted}) [${offset}, ${offset + length}) overlaps another array's bytes: skipped (no exporter writes that; each byte is copied once)`, offset: at + 16 });
      } else {
        data = hostOrderCopy(bytes, offset, V * size, FORMAT_ARRAYS[format]);
      }
    }
    vertexArrays.push({ type, name, flags, format, size, data });
    if (data === null || type >= ARRAY_TYPE_NAMES.length) continue;
    if (size < 1 || size > 4) warnings.push(engineLimit(at + 12, `${what} (${quoted}) has ${size} components: ioquake3 refuses the model (R_LoadIQM: size outside 1..4)`));
    const isFloat = format === IqmFormat.Float;
    const isUbyte = format === IqmFormat.Ubyte;
    const want = (ok: boolean, expect: string) => {
      if (!ok) warnings.push(engineLimit(at + 8, `${what} (${quoted}) is format ${format} × ${size}, not ${expect}: ioquake3 refuses the model, DarkPlaces ignores the array; kept in vertexArrays only`));
      return ok;
    };
    /** `a`, its values to be checked finite once it is known to be read (below: an array replaced or unread is not). */
    const finite = (a: Float32Array) => {
      finiteChecks.set(a, () => {
        for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k])) fail(ErrorCode.BadNumber, `${what} (${quoted}) value ${k} is ${a[k]}`, offset + 4 * k);
      });
      return a;
    };
    switch (type) {
      case IqmArrayType.Position:
        if (want(isFloat && size === 3, 'float × 3')) positions = finite(data as Float32Array);
        break;
      case IqmArrayType.Texcoord:
        if (want(isFloat && size === 2, 'float × 2')) texcoords = finite(data as Float32Array);
        break;
      case IqmArrayType.Normal:
        if (want(isFloat && size === 3, 'float × 3')) normals = finite(data as Float32Array);
        break;
      case IqmArrayType.Tangent:
        if (want(isFloat && size === 4, 'float × 4')) tangents = finite(data as Float32Array);
        break;
      case IqmArrayType.BlendIndexes:
        if (want(isUbyte && size === 4, 'ubyte × 4')) blendIndexes = data as Uint8Array;
        break;
      case IqmArrayType.BlendWeights:
        if (want((isUbyte || isFloat) && size === 4, 'ubyte or float × 4')) blendWeights = isFloat ? finite(data as Float32Array) : (data as Uint8Array);
        break;
      case IqmArrayType.Color:
        if (want((isUbyte || isFloat) && size === 4, 'ubyte or float × 4')) colors = isFloat ? finite(data as Float32Array) : (data as Uint8Array);
        break;
    }
  }
  if (V > 0 && positions === null && h.numMeshes === 0) {
    // Tesseract's animation-only files (Red Eclipse's player/*.iqm) may declare vertices and hold no arrays.
    warnings.push(engineLimit(H.numVertexes, `num_vertexes ${V} without a position array: DarkPlaces refuses the model ("missing vertex array data"); ioquake3 and Tesseract read no vertices without meshes`));
    // Nor does anything here: every reader takes the vertex count from the positions (a poser of none sizes its
    // buffers for 0 vertices), so a normal or blend array of V vertices beside them would be read past those buffers
    // (a 560-byte file: a position array of 0 components, 9 normal floats, RangeError in `new IqmPoser`). R_LoadIQM
    // skips the vertex arrays of a file without meshes (`if (header->num_meshes)`), Tesseract builds vertices only
    // per mesh (loadiqmmeshes' `loopi(hdr.num_meshes)`): the arrays stay in vertexArrays only.
    const unread = [texcoords && 'texcoord', normals && 'normal', tangents && 'tangent', blendIndexes && 'blend indexes', blendWeights && 'blend weights', colors && 'color'].filter(Boolean);
    if (unread.length > 0) {
      warnings.push(engineLimit(H.ofsVertexArrays, `${unread.join(', ')} array(s) of ${V} vertices without a position array: read by no engine, kept in vertexArrays only`));
      texcoords = normals = tangents = null;
      blendIndexes = blendWeights = colors = null;
    }
  } else if (V > 0 && positions === null) fail(ErrorCode.MissingBlock, `${V} vertices without a float × 3 position array (ioquake3 and DarkPlaces refuse the model)`, H.numVertexArrays);
  // the floats read are finite, in the file's order (what is kept in vertexArrays only is the file's, as stored)
  const read = new Set<unknown>([positions, texcoords, normals, tangents, blendWeights, colors]);
  for (const [array, check] of finiteChecks) if (read.has(array)) check();
  if (V > 0 && positions !== null) {
    const missing = (array: unknown, name: string, who: string) => {
      if (array === null) warnings.push(engineLimit(H.ofsVertexArrays, `no ${name} array: ${who}`));
    };
    missing(texcoords, 'texcoord', 'ioquake3 and DarkPlaces refuse the model (Tesseract loads it)');
    missing(normals, 'normal', 'ioquake3 refuses the model (R_LoadIQM)');
    missing(tangents, 'tangent', "ioquake3's OpenGL 2 renderer refuses the model (R_LoadIQM)");
    if (h.numJoints > 0 && (blendIndexes === null || blendWeights === null)) {
      missing(null, 'blend indexes / weights', 'ioquake3 refuses a model with joints without them (R_LoadIQM); its vertices stay in the bind pose here');
    }
  }

  if (h.numJoints > 0 && blendIndexes !== null && blendWeights !== null) {
    // Neither engine checks these (ioquake3 would read past its pose matrices); a weighted index past the joints is
    // refused here. An unweighted one is read by nobody and kept.
    const bi: Uint8Array = blendIndexes, bw: Uint8Array | Float32Array = blendWeights;
    for (let k = 0; k < bi.length; k++) {
      if (bi[k] >= h.numJoints && bw[k] > 0) {
        const arrayAt = vertexArrays.findIndex((a) => a.data === bi);
        fail(ErrorCode.IndexOutOfRange, `vertex ${k >> 2} blend index ${bi[k]} (weight ${bw[k]}) is past the ${h.numJoints} joints`, h.ofsVertexArrays + arrayAt * VERTEX_ARRAY_BYTES + 16);
      }
    }
  }

  // ——— triangles, adjacency, meshes ———
  const triangles = hostOrderCopy(bytes, h.ofsTriangles, h.numTriangles * 3, Uint32Array);
  for (let i = 0; i < triangles.length; i++) {
    if (triangles[i] >= V) fail(ErrorCode.IndexOutOfRange, `triangle ${Math.floor(i / 3)} vertex ${triangles[i]} outside 0..${V - 1}`, h.ofsTriangles + 4 * i);
  }
  const adjacency = h.ofsAdjacency !== 0 ? hostOrderCopy(bytes, h.ofsAdjacency, h.numTriangles * 3, Uint32Array) : null;
  const meshes: IqmMesh[] = [];
  for (let i = 0; i < h.numMeshes; i++) {
    const at = h.ofsMeshes + i * MESH_BYTES;
    const mesh: IqmMesh = {
      name: str(u32(at), at, `mesh ${i}'s name`),
      material: str(u32(at + 4), at + 4, `mesh ${i}'s material`),
      firstVertex: u32(at + 8),
      vertexCount: u32(at + 12),
      firstTriangle: u32(at + 16),
      triangleCount: u32(at + 20),
    };
    if (mesh.firstVertex + mesh.vertexCount > V) fail(ErrorCode.IndexOutOfRange, `mesh ${i} vertices [${mesh.firstVertex}, ${mesh.firstVertex + mesh.vertexCount}) past num_vertexes ${V}`, at + 8);
    if (mesh.firstTriangle + mesh.triangleCount > h.numTriangles) fail(ErrorCode.IndexOutOfRange, `mesh ${i} triangles [${mesh.firstTriangle}, ${mesh.firstTriangle + mesh.triangleCount}) past num_triangles ${h.numTriangles}`, at + 16);
    for (const w of iqmMeshEngineWarnings(`mesh ${i} ("${shortName(mesh.name)}")`, at + 12, mesh.vertexCount, mesh.triangleCount)) warnings.push(w);
    meshes.push(mesh);
  }

  // ——— joints and poses ———
  const parentOf = (at: number, i: number, what: string): number => {
    const p = view.getInt32(at, true);
    if (p >= i) fail(ErrorCode.IndexOutOfRange, `${what} ${i}'s parent ${p} is not below it (DarkPlaces: "bone[i].parent >= i")`, at);
    if (p < -1) {
      warnings.push(engineLimit(at, `${what} ${i}'s parent ${p}: a root, as iqm.txt says of any parent < 0 (ioquake3 refuses the model)`));
      return -1;
    }
    return p;
  };
  const J = h.numJoints;
  const joints: IqmJoints = { count: J, names: [], parents: new Int32Array(J), translate: new Float32Array(J * 3), rotate: new Float32Array(J * 4), scale: new Float32Array(J * 3) };
  for (let i = 0; i < J; i++) {
    const at = h.ofsJoints + i * JOINT_BYTES;
    joints.names.push(str(u32(at), at, `joint ${i}'s name`));
    joints.parents[i] = parentOf(at + 4, i, 'joint');
    for (let c = 0; c < 3; c++) joints.translate[i * 3 + c] = float(at + 8 + 4 * c, `joint ${i} translate`);
    for (let c = 0; c < 4; c++) joints.rotate[i * 4 + c] = float(at + 20 + 4 * c, `joint ${i} rotate`);
    for (let c = 0; c < 3; c++) joints.scale[i * 3 + c] = float(at + 36 + 4 * c, `joint ${i} scale`);
  }
  const P = h.numPoses;
  const poses: IqmPoses = { count: P, parents: new Int32Array(P), masks: new Uint32Array(P), offsets: new Float32Array(P * POSE_CHANNELS), scales: new Float32Array(P * POSE_CHANNELS) };
  let channels = 0;
  for (let i = 0; i < P; i++) {
    const at = h.ofsPoses + i * POSE_BYTES;
    poses.parents[i] = parentOf(at, i, 'pose');
    poses.masks[i] = u32(at + 4);
    channels += channelCount(poses.masks[i]);
    for (let c = 0; c < POSE_CHANNELS; c++) {
      poses.offsets[i * POSE_CHANNELS + c] = float(at + 8 + 4 * c, `pose ${i} channel offset ${c}`);
      poses.scales[i * POSE_CHANNELS + c] = float(at + 48 + 4 * c, `pose ${i} channel scale ${c}`);
    }
  }
  if (h.numFrames > 0 && channels > h.numFrameChannels) {
    fail(ErrorCode.BadCount, `the poses' channel masks take ${channels} values per frame, num_framechannels is ${h.numFrameChannels}`, H.numFrameChannels);
  }
  if (h.numFrames > 0 && channels < h.numFrameChannels) {
    warnings.push({ code: 'IQM_FRAME_CHANNELS', message: `the poses' channel masks take ${channels} values per frame, num_framechannels is ${h.numFrameChannels}: frames are read ${h.numFrameChannels} values apart, as iqm.txt lays them out (ioquake3 and Tesseract read them as one running stream and misplace every frame after the first)`, offset: H.numFrameChannels });
  }

  // Frames of no channels are no bytes of the file (every pose static: Red Eclipse's idle poses have 2 or 3), yet
  // every reader of the model poses each one: a 448-byte file claimed 2³² − 1 of them. Such frames are counted as
  // their joint poses against maxAnimationKeys, before anything runs per frame (docs/security.md).
  if (h.numFrameChannels === 0 && h.numFrames > 0) {
    const keys = h.numFrames * Math.max(1, P), max = resourceLimits().maxAnimationKeys;
    if (keys > max) throw overLimit(`num_frames ${h.numFrames} of no frame channels (no bytes in the file) × ${Math.max(1, P)} poses are ${keys} joint poses`, 'maxAnimationKeys', max, H.numFrames);
  }

  // ——— anims, frames, bounds ———
  const anims: IqmAnim[] = [];
  for (let i = 0; i < h.numAnims; i++) {
    const at = h.ofsAnims + i * ANIM_BYTES;
    const flags = u32(at + 16);
    const anim: IqmAnim = {
      name: str(u32(at), at, `anim ${i}'s name`),
      firstFrame: u32(at + 4),
      frameCount: u32(at + 8),
      framerate: float(at + 12, `anim ${i} framerate`),
      flags,
      loop: (flags & IQM_LOOP) !== 0,
    };
    if (anim.firstFrame + anim.frameCount > h.numFrames) {
      warnings.push({ code: 'IQM_ANIM_RANGE', message: `anim ${i} ("${shortName(anim.name)}") frames [${anim.firstFrame}, ${anim.firstFrame + anim.frameCount}) run past num_frames ${h.numFrames}: posing clamps to the last frame`, offset: at + 4 });
    }
    anims.push(anim);
  }
  const frames = hostOrderCopy(bytes, h.ofsFrames, h.numFrames * h.numFrameChannels, Uint16Array);
  let bounds: Float32Array | null = null;
  if (h.ofsBounds !== 0) {
    bounds = new Float32Array(h.numFrames * 8);
    for (let i = 0; i < bounds.length; i++) bounds[i] = float(h.ofsBounds + 4 * i, `bounds of frame ${i >> 3}`);
  }
  const comment = latin1(bytes, h.ofsComment, h.ofsComment + h.numComment);

  // ——— extensions: a linked list of exactly num_extensions records ———
  // a list of distinct records: more than the file holds is refused, and a link back to a record read ends the list
  if (h.numExtensions * EXTENSION_BYTES > end) fail(ErrorCode.BadCount, `num_extensions ${h.numExtensions}: ${h.numExtensions} × ${EXTENSION_BYTES} bytes do not fit in the file`, H.numExtensions);
  const records: number[] = [];
  let next = h.ofsExtensions;
  let placedBy: number = H.ofsExtensions;
  const visited = new Set<number>();
  for (let i = 0; i < h.numExtensions; i++) {
    block(placedBy, `extension ${i}`, next, 1, EXTENSION_BYTES);
    if (visited.has(next)) {
      warnings.push({ code: 'IQM_EXTENSION_LOOP', message: `extension ${i} links back to the record at ${next}: the list ends there (${i} of ${h.numExtensions} read)`, offset: placedBy });
      break;
    }
    visited.add(next);
    block(next + 8, `extension ${i}'s data`, u32(next + 8), u32(next + 4), 1);
    records.push(next);
    placedBy = next + 12;
    next = u32(next + 12);
  }
  // like vertex arrays, extension data is copied once per byte: data overlapping an earlier extension's is refused
  const taken = new TakenRanges(records.map((at) => u32(at + 8)));
  const extensions: IqmExtension[] = records.map((at, i) => {
    const nameAt = u32(at), numData = u32(at + 4), ofsData = u32(at + 8);
    const overlapping = numData > 0 && !taken.take(ofsData, ofsData + numData);
    if (overlapping) warnings.push({ code: 'IQM_EXTENSION_SKIPPED', message: `extension ${i}'s data [${ofsData}, ${ofsData + numData}) overlaps an earlier extension's: kept empty (no engine reads extensions)`, offset: at + 8 });
    return { name: str(nameAt, at, `extension ${i}'s name`), data: overlapping ? new Uint8Array(0) : hostOrderCopy(bytes, ofsData, numData, Uint8Array) };
  });

  if (received > end) warnings.push({ code: 'TRAILING_BYTES', message: `${received - end} byte(s) after filesize ${end} are ignored`, offset: end });

  return {
    format: 'iqm',
    version: h.version,
    flags: h.flags,
    text,
    meshes,
    vertexCount: V,
    vertexArrays,
    positions,
    texcoords,
    normals,
    tangents,
    blendIndexes,
    blendWeights,
    colors,
    triangleCount: h.numTriangles,
    triangles,
    adjacency,
    joints,
    poses,
    anims,
    frameCount: h.numFrames,
    frameChannels: h.numFrameChannels,
    frames,
    bounds,
    comment,
    extensions,
    warnings,
  };
}

/** The offsets of the NULs in `text`, ascending. */
function textNuls(text: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = text.indexOf(0); i !== -1; i = text.indexOf(0, i + 1)) n++;
  const out = new Uint32Array(n);
  for (let i = text.indexOf(0), k = 0; i !== -1; i = text.indexOf(0, i + 1)) out[k++] = i;
  return out;
}

/** The first of `nuls` at or after `at`, else `end` (a name running to the text's end). */
function nulAtOrAfter(nuls: Uint32Array, at: number, end: number): number {
  let lo = 0, hi = nuls.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nuls[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < nuls.length ? nuls[lo] : end;
}

/** Bytes [from, to) as Latin-1 (one code unit per byte, so a name written back is the same bytes). */
export function latin1(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(to, i + 0x8000)) as unknown as number[]);
  return s;
}
