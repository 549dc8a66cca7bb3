/**
 * MDM and MDX bytes → `MdmModel` / `MdxModel`, offset-driven and bounds-checked as the MDS reader (formats/mds):
 * every count × record size against the file's end before anything is allocated, every index against what it names
 * (an MDM's bone indices are checked against its MDX when the two are paired: `pairing.ts`).
 */
import { latin1Field } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { firstLoopingBone, type WolfBone } from '../../pose/wolf-skeleton.js';
import { fail, type WolfHead } from './header.js';
import { MAX_QPATH, MDM_MAX, MDM_SIZE, MDX_MAX_BONES, MDX_SIZE } from './limits.js';
import type { MdmModel, MdmSurface, MdmTag, MdxModel } from './model.js';

class Reader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array, readonly end: number) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  i32 = (at: number) => this.view.getInt32(at, true);
  f32 = (at: number) => this.view.getFloat32(at, true);
  name = (at: number) => latin1Field(this.bytes, at, MAX_QPATH);
  real(at: number, what: string): number {
    const v = this.f32(at);
    if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} is ${v}`, at);
    return v;
  }
  vec(at: number, n: number, what: string): Float32Array {
    return Float32Array.from({ length: n }, (_, k) => this.real(at + 4 * k, what));
  }
  check(count: number, at: number, size: number, what: string, countAt: number, offsetAt: number): number {
    if (count < 0) fail(ErrorCode.BadCount, `${what}: count is ${count}`, countAt);
    if (count === 0) return 0;
    if (at < 0 || at > this.end) fail(ErrorCode.BadOffset, `${what}: offset ${at} is outside the file's ${this.end} bytes`, offsetAt);
    if (count > (this.end - at) / size) fail(ErrorCode.BadCount, `${what}: ${count} records of ${size} bytes from offset ${at} run past the file's ${this.end} bytes`, countAt);
    return count;
  }
  /** `count` int32 bone indices at `at`, each ≥ 0 (what they name is checked against the MDX when paired). */
  boneList(count: number, at: number, what: string): Int32Array {
    const out = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const b = this.i32(at + 4 * k);
      if (b < 0 || b >= MDX_MAX_BONES) fail(ErrorCode.IndexOutOfRange, `${what} ${k} is bone ${b}; ET's skeletons hold ${MDX_MAX_BONES} (qfiles.h MDX_MAX_BONES)`, at + 4 * k);
      out[k] = b;
    }
    return out;
  }
}

const engineLimit = (warnings: ParseWarning[], what: string, count: number, limit: number, name: string, at: number) => {
  if (count > limit) warnings.push({ code: 'ENGINE_LIMIT', message: `${what} ${count} is over ET's ${name} (${limit}): the engine's tools never write more`, offset: at });
};

/** The records surfaces and tags hold in all, counted before each is read (maxMeshRecords: they may share blocks). */
class RecordBudget {
  private used = 0;
  private readonly max = resourceLimits().maxMeshRecords;
  take(count: number, what: string, at: number): void {
    this.used += count;
    if (this.used > this.max) throw overLimit(`${what} bring the records of the surfaces and tags to ${this.used}`, 'maxMeshRecords', this.max, at);
  }
}

function surfaceOf(r: Reader, at: number, index: number, warnings: ParseWarning[], budget: RecordBudget): MdmSurface {
  const what = `surface ${index}`;
  const vertexCount = r.i32(at + 144), ofsVerts = r.i32(at + 148);
  if (vertexCount < 0) fail(ErrorCode.BadCount, `${what}: numVerts is ${vertexCount}`, at + 144);
  // RB_MDM_SurfaceAnim's collapse[MDM_MAX_VERTS]
  if (vertexCount > MDM_MAX.VERTS) fail(ErrorCode.BadCount, `${what}: numVerts is ${vertexCount}; ET's renderer holds ${MDM_MAX.VERTS} (qfiles.h MDM_MAX_VERTS)`, at + 144);
  r.check(vertexCount, at + ofsVerts, MDM_SIZE.vertex + MDM_SIZE.weight, `${what}'s vertices`, at + 144, at + 148);
  budget.take(2 * vertexCount, `${what}'s ${vertexCount} vertices and collapse map`, at + 144);
  const normals = new Float32Array(vertexCount * 3), texCoords = new Float32Array(vertexCount * 2), weightStart = new Uint32Array(vertexCount + 1);
  let p = at + ofsVerts, total = 0;
  for (let v = 0; v < vertexCount; v++) {
    if (p + MDM_SIZE.vertex > r.end) fail(ErrorCode.Truncated, `${what}: vertex ${v} starts at ${p}, past the file's ${r.end} bytes`, p);
    const n = r.i32(p + 20);
    if (n < 1) fail(ErrorCode.BadCount, `${what}: vertex ${v} has ${n} weights (at least 1: the renderer reads its first)`, p + 20);
    if (n > (r.end - p - MDM_SIZE.vertex) / MDM_SIZE.weight) fail(ErrorCode.BadCount, `${what}: vertex ${v}'s ${n} weights run past the file's ${r.end} bytes`, p + 20);
    total += n;
    weightStart[v + 1] = total;
    p += MDM_SIZE.vertex + n * MDM_SIZE.weight;
  }
  budget.take(total, `${what}'s ${total} weights`, at + 148);
  const weightBones = new Uint32Array(total), weights = new Float32Array(total), offsets = new Float32Array(total * 3);
  p = at + ofsVerts;
  for (let v = 0; v < vertexCount; v++) {
    const vw = `${what} vertex ${v}`;
    normals.set(r.vec(p, 3, `${vw}'s normal`), v * 3);
    texCoords.set(r.vec(p + 12, 2, `${vw}'s texCoords`), v * 2);
    p += MDM_SIZE.vertex;
    for (let k = weightStart[v]; k < weightStart[v + 1]; k++, p += MDM_SIZE.weight) {
      const bone = r.i32(p);
      if (bone < 0 || bone >= MDX_MAX_BONES) fail(ErrorCode.IndexOutOfRange, `${vw}: weight ${k - weightStart[v]} names bone ${bone}; ET's skeletons hold ${MDX_MAX_BONES}`, p);
      weightBones[k] = bone;
      weights[k] = r.real(p + 4, `${vw}'s boneWeight`);
      offsets.set(r.vec(p + 8, 3, `${vw}'s weight offset`), k * 3);
    }
  }
  const triCount = r.check(r.i32(at + 152), at + r.i32(at + 156), MDM_SIZE.triangle, `${what}'s triangles`, at + 152, at + 156);
  engineLimit(warnings, `${what}: numTriangles`, triCount, MDM_MAX.TRIANGLES, 'MDM_MAX_TRIANGLES', at + 152);
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
    if (c < 0 || c > v) fail(ErrorCode.IndexOutOfRange, `${what}: vertex ${v} collapses to ${c}, not a vertex before it (or itself)`, mapAt + 4 * v);
    collapseMap[v] = c;
  }
  const refCount = r.check(r.i32(at + 164), at + r.i32(at + 168), 4, `${what}'s bone references`, at + 164, at + 168);
  budget.take(refCount, `${what}'s ${refCount} bone references`, at + 164);
  const boneRefs = r.boneList(refCount, at + r.i32(at + 168), `${what}: bone reference`);
  const ofsHeader = r.i32(at + 140);
  if (ofsHeader !== -at) warnings.push({ code: 'BAD_OFFSET', message: `${what}: ofsHeader is ${ofsHeader}, not ${-at} (the header is at 0)`, offset: at + 140 });
  return { ident: r.i32(at), name: r.name(at + 4), shader: r.name(at + 68), shaderIndex: r.i32(at + 132), minLod: r.i32(at + 136), ofsHeader, vertexCount, normals, texCoords, weightStart, weightBones, weights, offsets, triangles, collapseMap, boneRefs, offset: at };
}

/** Surfaces and tags follow one another by their ofsEnd (R_LoadMDM): a step shorter than a record would revisit it. */
function chained<T>(r: Reader, count: number, first: number, size: number, what: string, read: (at: number, i: number) => T, endAt: number): T[] {
  const out: T[] = [];
  let at = first;
  for (let i = 0; i < count; i++) {
    if (at < 0 || at + size > r.end) fail(ErrorCode.BadOffset, `${what} ${i} starts at ${at}, outside the file's ${r.end} bytes`, at);
    out.push(read(at, i));
    const next = r.i32(at + endAt);
    if (i + 1 < count && next < size) fail(ErrorCode.BadOffset, `${what} ${i}: ofsEnd is ${next}, shorter than its ${size}-byte record`, at + endAt);
    at += next;
  }
  return out;
}

function tagOf(r: Reader, at: number, i: number, budget: RecordBudget): MdmTag {
  const boneIndex = r.i32(at + 100);
  if (boneIndex < 0 || boneIndex >= MDX_MAX_BONES) fail(ErrorCode.IndexOutOfRange, `tag ${i}'s boneIndex is ${boneIndex}; ET's skeletons hold ${MDX_MAX_BONES}`, at + 100);
  const refs = r.check(r.i32(at + 116), at + r.i32(at + 120), 4, `tag ${i}'s bone references`, at + 116, at + 120);
  budget.take(refs, `tag ${i}'s ${refs} bone references`, at + 116);
  return { name: r.name(at), axis: r.vec(at + 64, 9, `tag ${i}'s axis`), boneIndex, offset: r.vec(at + 104, 3, `tag ${i}'s offset`), boneRefs: r.boneList(refs, at + r.i32(at + 120), `tag ${i}: bone reference`) };
}

export function decodeMdm(bytes: Uint8Array, head: WolfHead, received: number): MdmModel {
  const r = new Reader(bytes, head.end);
  const warnings: ParseWarning[] = [];
  const surfaceCount = r.check(r.i32(80), r.i32(84), MDM_SIZE.surface, 'surfaces', 80, 84);
  engineLimit(warnings, 'numSurfaces', surfaceCount, MDM_MAX.SURFACES, 'MDM_MAX_SURFACES', 80);
  const budget = new RecordBudget();
  const surfaces = chained(r, surfaceCount, r.i32(84), MDM_SIZE.surface, 'surface', (at, i) => surfaceOf(r, at, i, warnings, budget), 172);
  const tagCount = r.check(r.i32(88), r.i32(92), MDM_SIZE.tag, 'tags', 88, 92);
  engineLimit(warnings, 'numTags', tagCount, MDM_MAX.TAGS, 'MDM_MAX_TAGS', 88);
  const tags = chained(r, tagCount, r.i32(92), MDM_SIZE.tag, 'tag', (at, i) => tagOf(r, at, i, budget), 124);
  let named = 0;
  for (const s of surfaces) {
    for (const b of s.weightBones) named = Math.max(named, b + 1);
    for (const b of s.boneRefs) named = Math.max(named, b + 1);
  }
  for (const t of tags) named = Math.max(named, t.boneIndex + 1, ...t.boneRefs.map((b) => b + 1));
  if (received > head.end) warnings.push({ code: 'TRAILING_BYTES', message: `${received - head.end} bytes after ofsEnd (${head.end}) are not part of the model`, offset: head.end });
  return { format: 'mdm', name: r.name(8), version: r.i32(4), lodScale: r.real(72, 'lodScale'), lodBias: r.real(76, 'lodBias'), surfaces, tags, bonesNamed: named, offsets: { surfaces: r.i32(84), tags: r.i32(92), end: head.end }, warnings };
}

export function decodeMdx(bytes: Uint8Array, head: WolfHead, received: number): MdxModel {
  const r = new Reader(bytes, head.end);
  const warnings: ParseWarning[] = [];
  const boneCount = r.check(r.i32(76), r.i32(84), MDX_SIZE.bone, 'bones', 76, 84);
  if (boneCount > MDX_MAX_BONES) fail(ErrorCode.BadCount, `numBones is ${boneCount}; ET's bone arrays hold ${MDX_MAX_BONES} (qfiles.h MDX_MAX_BONES)`, 76);
  const bonesAt = r.i32(84);
  const bones: WolfBone[] = [];
  for (let i = 0; i < boneCount; i++) {
    const at = bonesAt + i * MDX_SIZE.bone;
    const parent = r.i32(at + 64);
    if (parent < -1 || parent >= boneCount) fail(ErrorCode.IndexOutOfRange, `bone ${i}'s parent is ${parent}, not a bone of ${boneCount} (or -1)`, at + 64);
    bones.push({ name: r.name(at), parent, torsoWeight: r.real(at + 68, `bone ${i}'s torsoWeight`), parentDist: r.real(at + 72, `bone ${i}'s parentDist`), flags: r.i32(at + 76) });
  }
  const loop = firstLoopingBone(bones);
  if (loop >= 0) fail(ErrorCode.IndexOutOfRange, `bone ${loop}'s parents loop (no root above it)`, bonesAt + loop * MDX_SIZE.bone + 64);
  const size = MDX_SIZE.frame + boneCount * MDX_SIZE.boneFrame;
  const frameCount = r.check(r.i32(72), r.i32(80), size, 'frames', 72, 80);
  if (frameCount < 1) fail(ErrorCode.BadCount, 'numFrames is 0: the renderer poses every mesh from its skeleton\'s frames', 72);
  const framesAt = r.i32(80);
  const frames = { length: frameCount, bounds: new Float32Array(frameCount * 6), localOrigins: new Float32Array(frameCount * 3), radii: new Float32Array(frameCount), parentOffsets: new Float32Array(frameCount * 3) };
  const boneFrames = new Int16Array(frameCount * boneCount * 6);
  for (let f = 0; f < frameCount; f++) {
    const at = framesAt + f * size, w = `frame ${f}`;
    for (let k = 0; k < 6; k++) frames.bounds[f * 6 + k] = r.real(at + 4 * k, `${w}'s bounds`);
    for (let k = 0; k < 3; k++) frames.localOrigins[f * 3 + k] = r.real(at + 24 + 4 * k, `${w}'s localOrigin`);
    frames.radii[f] = r.real(at + 36, `${w}'s radius`);
    for (let k = 0; k < 3; k++) frames.parentOffsets[f * 3 + k] = r.real(at + 40 + 4 * k, `${w}'s parentOffset`);
    for (let k = 0; k < boneCount * 6; k++) boneFrames[f * boneCount * 6 + k] = r.view.getInt16(at + MDX_SIZE.frame + 2 * k, true);
  }
  const torsoParent = r.i32(88);
  if (torsoParent < 0 || torsoParent >= boneCount) warnings.push({ code: 'INDEX_OUT_OF_RANGE', message: `torsoParent is ${torsoParent}, not a bone of ${boneCount}: the torso turns about the origin`, offset: 88 });
  if (received > head.end) warnings.push({ code: 'TRAILING_BYTES', message: `${received - head.end} bytes after ofsEnd (${head.end}) are not part of the skeleton`, offset: head.end });
  return { format: 'mdx', name: r.name(8), version: r.i32(4), frames, boneFrames, bones, torsoParent, offsets: { frames: framesAt, bones: bonesAt, end: head.end }, warnings };
}
