/**
 * An MDS file's bytes → `MdsModel`, offset-driven (frames, bones, surfaces and tags are where the header says, in any
 * order; each surface's parts where its own header says, relative to the surface) and bounds-checked: every count ×
 * record size is checked against the file's end before anything is allocated or looped over, every index against
 * what it names, so a lying file is a typed error at the field that lies, never an allocation or a wrong pose.
 *
 * Where the engine would read past its arrays (more than MDS_MAX_BONES bones or MDS_MAX_VERTS vertices on a surface,
 * a weight, tag or bone reference naming no bone, a triangle naming no vertex, a bone whose parents loop) the file
 * is refused; the sizes only qfiles.h declares (surfaces, triangles, tags) are warnings.
 */
import { latin1Field } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { firstLoopingBone } from '../../pose/wolf-skeleton.js';
import { fail, type MdsHead } from './header.js';
import { MAX_QPATH, MDS_MAX, MDS_SIZE } from './limits.js';
import type { MdsModel, MdsSurface, MdsTag, WolfBone, WolfFrameTable } from './model.js';

class Reader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array, readonly end: number) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  i32 = (at: number) => this.view.getInt32(at, true);
  f32 = (at: number) => this.view.getFloat32(at, true);
  name = (at: number) => latin1Field(this.bytes, at, MAX_QPATH);
  /** A finite float at `at` (a NaN or an infinity would be in every pose made from it). */
  real(at: number, what: string): number {
    const v = this.f32(at);
    if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} is ${v}`, at);
    return v;
  }
  vec3(at: number, what: string): Float32Array {
    return Float32Array.of(this.real(at, what), this.real(at + 4, what), this.real(at + 8, what));
  }
  /** `count` records of `size` bytes from `at`, checked to lie inside [0, end) before anything reads them. */
  check(count: number, at: number, size: number, what: string, countAt: number, offsetAt: number): number {
    if (count < 0) fail(ErrorCode.BadCount, `${what}: count is ${count}`, countAt);
    if (count === 0) return 0;
    if (at < 0 || at > this.end) fail(ErrorCode.BadOffset, `${what}: offset ${at} is outside the file's ${this.end} bytes`, offsetAt);
    if (count > (this.end - at) / size) fail(ErrorCode.BadCount, `${what}: ${count} records of ${size} bytes from offset ${at} run past the file's ${this.end} bytes`, countAt);
    return count;
  }
}

function engineLimit(warnings: ParseWarning[], what: string, count: number, limit: number, name: string, at: number): void {
  if (count > limit) warnings.push({ code: 'ENGINE_LIMIT', message: `${what} ${count} is over RtCW's ${name} (${limit}): the engine's tools never write more`, offset: at });
}

function bonesOf(r: Reader): WolfBone[] {
  const count = r.check(r.i32(84), r.i32(92), MDS_SIZE.bone, 'bones', 84, 92);
  // the renderer's bone arrays hold MDS_MAX_BONES (tr_animation.c bones[MDS_MAX_BONES])
  if (count > MDS_MAX.BONES) fail(ErrorCode.BadCount, `numBones is ${count}; RtCW's bone arrays hold ${MDS_MAX.BONES} (qfiles.h MDS_MAX_BONES)`, 84);
  const at0 = r.i32(92);
  const bones: WolfBone[] = [];
  for (let i = 0; i < count; i++) {
    const at = at0 + i * MDS_SIZE.bone;
    const parent = r.i32(at + 64);
    if (parent < -1 || parent >= count) fail(ErrorCode.IndexOutOfRange, `bone ${i}'s parent is ${parent}, not a bone of ${count} (or -1)`, at + 64);
    bones.push({ name: r.name(at), parent, torsoWeight: r.real(at + 68, `bone ${i}'s torsoWeight`), parentDist: r.real(at + 72, `bone ${i}'s parentDist`), flags: r.i32(at + 76) });
  }
  const loop = firstLoopingBone(bones);
  if (loop >= 0) fail(ErrorCode.IndexOutOfRange, `bone ${loop}'s parents loop (no root above it)`, at0 + loop * MDS_SIZE.bone + 64);
  return bones;
}


function framesOf(r: Reader, boneCount: number): { frames: WolfFrameTable; boneFrames: Int16Array } {
  const size = MDS_SIZE.frame + boneCount * MDS_SIZE.boneFrame;
  const count = r.check(r.i32(80), r.i32(88), size, 'frames', 80, 88);
  // the renderer indexes frame 0 whatever the entity asks; a model without frames cannot be posed
  if (count < 1) fail(ErrorCode.BadCount, 'numFrames is 0: the renderer poses every model from its frames', 80);
  const at0 = r.i32(88);
  const frames = { length: count, bounds: new Float32Array(count * 6), localOrigins: new Float32Array(count * 3), radii: new Float32Array(count), parentOffsets: new Float32Array(count * 3) };
  const boneFrames = new Int16Array(count * boneCount * 6);
  for (let f = 0; f < count; f++) {
    const at = at0 + f * size;
    const what = `frame ${f}`;
    for (let k = 0; k < 6; k++) frames.bounds[f * 6 + k] = r.real(at + 4 * k, `${what}'s bounds`);
    for (let k = 0; k < 3; k++) frames.localOrigins[f * 3 + k] = r.real(at + 24 + 4 * k, `${what}'s localOrigin`);
    frames.radii[f] = r.real(at + 36, `${what}'s radius`);
    for (let k = 0; k < 3; k++) frames.parentOffsets[f * 3 + k] = r.real(at + 40 + 4 * k, `${what}'s parentOffset`);
    for (let k = 0; k < boneCount * 6; k++) boneFrames[f * boneCount * 6 + k] = r.view.getInt16(at + MDS_SIZE.frame + 2 * k, true);
  }
  return { frames, boneFrames };
}

/**
 * The records surfaces (and tags) hold in all, counted before each is read: they are placed by offsets of their own,
 * so many may share one block of the file (maxMeshRecords).
 */
export class RecordBudget {
  private used = 0;
  private readonly max = resourceLimits().maxMeshRecords;
  take(count: number, what: string, at: number): void {
    this.used += count;
    if (this.used > this.max) throw overLimit(`${what} bring the records of the surfaces and tags to ${this.used}`, 'maxMeshRecords', this.max, at);
  }
}

function surfaceOf(r: Reader, at: number, index: number, boneCount: number, warnings: ParseWarning[], budget: RecordBudget): MdsSurface {
  const what = `surface ${index}`;
  const vertexCount = r.i32(at + 144);
  const ofsVerts = r.i32(at + 148);
  if (vertexCount < 0) fail(ErrorCode.BadCount, `${what}: numVerts is ${vertexCount}`, at + 144);
  // RB_SurfaceAnim's collapse[MDS_MAX_VERTS]
  if (vertexCount > MDS_MAX.VERTS) fail(ErrorCode.BadCount, `${what}: numVerts is ${vertexCount}; RtCW's renderer holds ${MDS_MAX.VERTS} (qfiles.h MDS_MAX_VERTS)`, at + 144);
  // each vertex is at least its 32-byte head and one weight
  r.check(vertexCount, at + ofsVerts, MDS_SIZE.vertex + MDS_SIZE.weight, `${what}'s vertices`, at + 144, at + 148);
  budget.take(2 * vertexCount, `${what}'s ${vertexCount} vertices and collapse map`, at + 144);
  const normals = new Float32Array(vertexCount * 3);
  const texCoords = new Float32Array(vertexCount * 2);
  const fixedParents = new Int32Array(vertexCount);
  const fixedDists = new Float32Array(vertexCount);
  const weightStart = new Uint32Array(vertexCount + 1);
  // first pass: the weight counts, each vertex checked to fit before the next is read
  let p = at + ofsVerts;
  let total = 0;
  for (let v = 0; v < vertexCount; v++) {
    if (p + MDS_SIZE.vertex > r.end) fail(ErrorCode.Truncated, `${what}: vertex ${v} starts at ${p}, past the file's ${r.end} bytes`, p);
    const n = r.i32(p + 20);
    // the renderer reads weights[0] of every vertex (its normal's bone)
    if (n < 1) fail(ErrorCode.BadCount, `${what}: vertex ${v} has ${n} weights (at least 1: the renderer reads its first)`, p + 20);
    if (n > (r.end - p - MDS_SIZE.vertex) / MDS_SIZE.weight) fail(ErrorCode.BadCount, `${what}: vertex ${v}'s ${n} weights run past the file's ${r.end} bytes`, p + 20);
    total += n;
    weightStart[v + 1] = total;
    p += MDS_SIZE.vertex + n * MDS_SIZE.weight;
  }
  budget.take(total, `${what}'s ${total} weights`, at + 148);
  const weightBones = new Uint32Array(total);
  const weights = new Float32Array(total);
  const offsets = new Float32Array(total * 3);
  p = at + ofsVerts;
  for (let v = 0; v < vertexCount; v++) {
    const vw = `${what} vertex ${v}`;
    normals.set(r.vec3(p, `${vw}'s normal`), v * 3);
    texCoords[v * 2] = r.real(p + 12, `${vw}'s texCoords`);
    texCoords[v * 2 + 1] = r.real(p + 16, `${vw}'s texCoords`);
    fixedParents[v] = r.i32(p + 24);
    fixedDists[v] = r.f32(p + 28);
    p += MDS_SIZE.vertex;
    for (let k = weightStart[v]; k < weightStart[v + 1]; k++, p += MDS_SIZE.weight) {
      const bone = r.i32(p);
      // the renderer reads bones[boneIndex] (the model's bones, whatever qfiles.h's comment says)
      if (bone < 0 || bone >= boneCount) fail(ErrorCode.IndexOutOfRange, `${vw}: weight ${k - weightStart[v]} names bone ${bone} of ${boneCount}`, p);
      weightBones[k] = bone;
      weights[k] = r.real(p + 4, `${vw}'s boneWeight`);
      offsets.set(r.vec3(p + 8, `${vw}'s weight offset`), k * 3);
    }
  }
  const triCount = r.check(r.i32(at + 152), at + r.i32(at + 156), MDS_SIZE.triangle, `${what}'s triangles`, at + 152, at + 156);
  engineLimit(warnings, `${what}: numTriangles`, triCount, MDS_MAX.TRIANGLES, 'MDS_MAX_TRIANGLES', at + 152);
  budget.take(triCount * 3, `${what}'s ${triCount} triangles`, at + 152);
  const triAt = at + r.i32(at + 156);
  const triangles = new Uint32Array(triCount * 3);
  for (let k = 0; k < triCount * 3; k++) {
    const i = r.i32(triAt + 4 * k);
    if (i < 0 || i >= vertexCount) fail(ErrorCode.IndexOutOfRange, `${what}: triangle ${Math.floor(k / 3)} names vertex ${i} of ${vertexCount}`, triAt + 4 * k);
    triangles[k] = i;
  }
  r.check(vertexCount, at + r.i32(at + 160), 4, `${what}'s collapse map`, at + 144, at + 160);
  const mapAt = at + r.i32(at + 160);
  const collapseMap = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const c = r.i32(mapAt + 4 * v);
    // RB_SurfaceAnim: a dropped vertex takes the collapse of an earlier one (collapse[collapse_map[j]], filled in order)
    if (c < 0 || c >= vertexCount || c > v) fail(ErrorCode.IndexOutOfRange, `${what}: vertex ${v} collapses to ${c}, not a vertex before it (or itself)`, mapAt + 4 * v);
    collapseMap[v] = c;
  }
  const refCount = r.check(r.i32(at + 164), at + r.i32(at + 168), 4, `${what}'s bone references`, at + 164, at + 168);
  budget.take(refCount, `${what}'s ${refCount} bone references`, at + 164);
  const refAt = at + r.i32(at + 168);
  const boneRefs = new Int32Array(refCount);
  for (let k = 0; k < refCount; k++) {
    const b = r.i32(refAt + 4 * k);
    if (b < 0 || b >= boneCount) fail(ErrorCode.IndexOutOfRange, `${what}: bone reference ${k} is ${b}, not a bone of ${boneCount}`, refAt + 4 * k);
    boneRefs[k] = b;
  }
  const minLod = r.i32(at + 136);
  const ofsHeader = r.i32(at + 140);
  // the renderer finds the header by it (RB_SurfaceAnim); the add-on and the tools write -offset
  if (ofsHeader !== -at) warnings.push({ code: 'BAD_OFFSET', message: `${what}: ofsHeader is ${ofsHeader}, not ${-at} (the header is at 0)`, offset: at + 140 });
  return {
    ident: r.i32(at), name: r.name(at + 4), shader: r.name(at + 68), shaderIndex: r.i32(at + 132), minLod, ofsHeader,
    vertexCount, normals, texCoords, weightStart, weightBones, weights, offsets, fixedParents, fixedDists, triangles, collapseMap, boneRefs, offset: at,
  };
}

function surfacesOf(r: Reader, boneCount: number, warnings: ParseWarning[]): MdsSurface[] {
  const count = r.check(r.i32(100), r.i32(104), MDS_SIZE.surface, 'surfaces', 100, 104);
  engineLimit(warnings, 'numSurfaces', count, MDS_MAX.SURFACES, 'MDS_MAX_SURFACES', 100);
  const surfaces: MdsSurface[] = [];
  const budget = new RecordBudget();
  let at = r.i32(104);
  for (let i = 0; i < count; i++) {
    if (at < 0 || at + MDS_SIZE.surface > r.end) fail(ErrorCode.BadOffset, `surface ${i} starts at ${at}, outside the file's ${r.end} bytes`, at);
    surfaces.push(surfaceOf(r, at, i, boneCount, warnings, budget));
    const next = r.i32(at + 172);
    // each surface follows the one before (R_LoadMDS steps by ofsEnd): a step shorter than a header would revisit it
    if (i + 1 < count && next < MDS_SIZE.surface) fail(ErrorCode.BadOffset, `surface ${i}: ofsEnd is ${next}, shorter than its ${MDS_SIZE.surface}-byte header`, at + 172);
    at += next;
  }
  return surfaces;
}

function tagsOf(r: Reader, bones: readonly WolfBone[], warnings: ParseWarning[]): MdsTag[] {
  const count = r.check(r.i32(108), r.i32(112), MDS_SIZE.tag, 'tags', 108, 112);
  engineLimit(warnings, 'numTags', count, MDS_MAX.TAGS, 'MDS_MAX_TAGS', 108);
  const at0 = r.i32(112);
  const tags: MdsTag[] = [];
  for (let i = 0; i < count; i++) {
    const at = at0 + i * MDS_SIZE.tag;
    const boneIndex = r.i32(at + 68);
    // R_GetBoneTag computes the tag's bone and its parents
    if (boneIndex < 0 || boneIndex >= bones.length) fail(ErrorCode.IndexOutOfRange, `tag ${i}'s boneIndex is ${boneIndex}, not a bone of ${bones.length}`, at + 68);
    tags.push({ name: r.name(at), torsoWeight: r.real(at + 64, `tag ${i}'s torsoWeight`), boneIndex });
  }
  return tags;
}

export function decodeMds(bytes: Uint8Array, head: MdsHead, received: number): MdsModel {
  const r = new Reader(bytes, head.end);
  const warnings: ParseWarning[] = [];
  const bones = bonesOf(r);
  const { frames, boneFrames } = framesOf(r, bones.length);
  const torsoParent = r.i32(96);
  // R_CalcBones takes the torso parent's position when it computes that bone: another value leaves it at the origin
  if (torsoParent < 0 || torsoParent >= bones.length) warnings.push({ code: 'INDEX_OUT_OF_RANGE', message: `torsoParent is ${torsoParent}, not a bone of ${bones.length}: the torso turns about the origin`, offset: 96 });
  const surfaces = surfacesOf(r, bones.length, warnings);
  const tags = tagsOf(r, bones, warnings);
  if (received > head.end) warnings.push({ code: 'TRAILING_BYTES', message: `${received - head.end} bytes after ofsEnd (${head.end}) are not part of the model`, offset: head.end });
  return {
    format: 'mds', name: r.name(8), version: r.i32(4), lodScale: r.real(72, 'lodScale'), lodBias: r.real(76, 'lodBias'),
    frames, boneFrames, bones, torsoParent, surfaces, tags,
    offsets: { frames: r.i32(88), bones: r.i32(92), surfaces: r.i32(104), tags: r.i32(112), end: head.end },
    warnings,
  };
}
