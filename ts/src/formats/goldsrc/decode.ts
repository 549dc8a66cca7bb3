/**
 * A studio model's bytes → `GoldsrcModel`, offset-driven (every table is where the header's index says, in any
 * order) and bounds-checked: each table's count × record size is checked against the file's length before anything
 * is allocated or looped over, so a count that lies is BAD_COUNT / BAD_OFFSET at its header field, never an
 * allocation. The strips and fans of each mesh (StudioModelRenderer's / r_studio.c's tricmd loop) are walked once to
 * count and check them, then unrolled into triangles as GL draws them.
 */
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { fail, type GoldsrcHead } from './header.js';
import { MAXSTUDIO, SIZE, XASH_UNSUPPORTED } from './limits.js';
import type {
  GoldsrcAttachment, GoldsrcBodyPart, GoldsrcBone, GoldsrcController, GoldsrcHitbox, GoldsrcMesh, GoldsrcModel, GoldsrcSeqGroup,
  GoldsrcSequence, GoldsrcSubmodel, GoldsrcTexture,
} from './model.js';

class Reader {
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array, readonly end: number) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  i32 = (at: number) => this.view.getInt32(at, true);
  u16 = (at: number) => this.view.getUint16(at, true);
  i16 = (at: number) => this.view.getInt16(at, true);
  f32 = (at: number) => this.view.getFloat32(at, true);
  vec3 = (at: number) => Float32Array.of(this.f32(at), this.f32(at + 4), this.f32(at + 8));
  floats = (at: number, n: number) => Float32Array.from({ length: n }, (_, k) => this.f32(at + 4 * k));
  /** A NUL-terminated name of at most `size` bytes (Latin-1: the engine's bytes, one character each). */
  name(at: number, size: number): string {
    let s = '';
    for (let k = 0; k < size; k++) {
      const c = this.bytes[at + k];
      if (c === 0) break;
      s += String.fromCharCode(c);
    }
    return s;
  }
  /**
   * The start of a table of `count` records of `size` bytes named by the header fields at `countAt` / `indexAt`:
   * checked to lie inside the file before anything reads it.
   */
  table(countAt: number, indexAt: number, size: number, what: string): { count: number; at: number } {
    const count = this.i32(countAt);
    const at = this.i32(indexAt);
    return { count: this.check(count, at, size, what, countAt, indexAt), at };
  }
  check(count: number, at: number, size: number, what: string, countAt: number, indexAt: number): number {
    if (count < 0) fail(ErrorCode.BadCount, `${what}: count is ${count}`, countAt);
    if (count === 0) return 0;
    if (at < 0 || at > this.end) fail(ErrorCode.BadOffset, `${what}: offset ${at} is outside the file's ${this.end} bytes`, indexAt);
    if (count > (this.end - at) / size) fail(ErrorCode.BadCount, `${what}: ${count} records of ${size} bytes from offset ${at} run past the file's ${this.end} bytes`, countAt);
    return count;
  }
}

/** Refuses a NaN or an infinity among `values` (BAD_NUMBER at its byte). */
function finite(values: Float32Array, at: number, what: string): void {
  for (let k = 0; k < values.length; k++) if (!Number.isFinite(values[k])) fail(ErrorCode.BadNumber, `${what}: value ${k} is ${values[k]}`, at + 4 * k);
}

function bones(r: Reader): GoldsrcBone[] {
  const t = r.table(140, 144, SIZE.bone, 'bones');
  // the engine's bone arrays hold MAXSTUDIOBONES (bonetransform[MAXSTUDIOBONES]): more cannot be posed
  if (t.count > MAXSTUDIO.BONES) fail(ErrorCode.BadCount, `numbones is ${t.count}; Half-Life's bone arrays hold ${MAXSTUDIO.BONES} (studio.h MAXSTUDIOBONES)`, 140);
  const out: GoldsrcBone[] = [];
  for (let i = 0; i < t.count; i++) {
    const at = t.at + i * SIZE.bone;
    const parent = r.i32(at + 32);
    // StudioSetupBones composes bone i on bonetransform[parent], which must have been made already
    if (parent < -1 || parent >= i) fail(ErrorCode.IndexOutOfRange, `bone ${i} has parent ${parent}, not a bone before it`, at + 32);
    const controllers = Int32Array.from({ length: 6 }, (_, k) => r.i32(at + 40 + 4 * k));
    const value = r.floats(at + 64, 6), scale = r.floats(at + 88, 6);
    // every pose of the bone and of what hangs on it is made from these: a NaN or an infinity would be in all of them
    finite(value, at + 64, `bone ${i}'s default values`);
    finite(scale, at + 88, `bone ${i}'s scales`);
    out.push({ name: r.name(at, 32), parent, flags: r.i32(at + 36), controllers, value, scale });
  }
  return out;
}

function controllers(r: Reader): GoldsrcController[] {
  const t = r.table(148, 152, SIZE.controller, 'bone controllers');
  return Array.from({ length: t.count }, (_, i) => {
    const at = t.at + i * SIZE.controller;
    return { bone: r.i32(at), type: r.i32(at + 4), start: r.f32(at + 8), end: r.f32(at + 12), rest: r.i32(at + 16), index: r.i32(at + 20) };
  });
}

function hitboxes(r: Reader): GoldsrcHitbox[] {
  const t = r.table(156, 160, SIZE.hitbox, 'hitboxes');
  return Array.from({ length: t.count }, (_, i) => {
    const at = t.at + i * SIZE.hitbox;
    return { bone: r.i32(at), group: r.i32(at + 4), min: r.vec3(at + 8), max: r.vec3(at + 20) };
  });
}

function sequences(r: Reader): GoldsrcSequence[] {
  const t = r.table(164, 168, SIZE.sequence, 'sequences');
  const out: GoldsrcSequence[] = [];
  for (let i = 0; i < t.count; i++) {
    const at = t.at + i * SIZE.sequence;
    const ev = { count: r.check(r.i32(at + 48), r.i32(at + 52), SIZE.event, `sequence ${i} events`, at + 48, at + 52), at: r.i32(at + 52) };
    const pv = { count: r.check(r.i32(at + 60), r.i32(at + 64), SIZE.pivot, `sequence ${i} pivots`, at + 60, at + 64), at: r.i32(at + 64) };
    const frameCount = r.i32(at + 56);
    if (frameCount < 0) fail(ErrorCode.BadCount, `sequence ${i}: numframes is ${frameCount}`, at + 56);
    const blendCount = r.i32(at + 120);
    if (blendCount < 0) fail(ErrorCode.BadCount, `sequence ${i}: numblends is ${blendCount}`, at + 120);
    out.push({
      label: r.name(at, 32),
      fps: r.f32(at + 32),
      flags: r.i32(at + 36),
      activity: r.i32(at + 40),
      actWeight: r.i32(at + 44),
      events: Array.from({ length: ev.count }, (_, k) => {
        const e = ev.at + k * SIZE.event;
        return { frame: r.i32(e), event: r.i32(e + 4), type: r.i32(e + 8), options: r.name(e + 12, 64) };
      }),
      frameCount,
      pivots: Array.from({ length: pv.count }, (_, k) => {
        const p = pv.at + k * SIZE.pivot;
        return { origin: r.vec3(p), start: r.i32(p + 12), end: r.i32(p + 16) };
      }),
      motionType: r.i32(at + 68),
      motionBone: r.i32(at + 72),
      linearMovement: r.vec3(at + 76),
      bbMin: r.vec3(at + 96),
      bbMax: r.vec3(at + 108),
      blendCount,
      animOffset: r.i32(at + 124),
      blendType: [r.i32(at + 128), r.i32(at + 132)],
      blendStart: [r.f32(at + 136), r.f32(at + 140)],
      blendEnd: [r.f32(at + 144), r.f32(at + 148)],
      blendParent: r.i32(at + 152),
      seqGroup: r.i32(at + 156),
      entryNode: r.i32(at + 160),
      exitNode: r.i32(at + 164),
      nodeFlags: r.i32(at + 168),
      nextSeq: r.i32(at + 172),
    });
  }
  return out;
}

function seqGroups(r: Reader): GoldsrcSeqGroup[] {
  const t = r.table(172, 176, SIZE.seqGroup, 'sequence groups');
  return Array.from({ length: t.count }, (_, i) => ({ label: r.name(t.at + i * SIZE.seqGroup, 32), name: r.name(t.at + i * SIZE.seqGroup + 32, 64) }));
}

function textures(r: Reader): GoldsrcTexture[] {
  const t = r.table(180, 184, SIZE.texture, 'textures');
  const out: GoldsrcTexture[] = [];
  for (let i = 0; i < t.count; i++) {
    const at = t.at + i * SIZE.texture;
    const width = r.i32(at + 68), height = r.i32(at + 72), index = r.i32(at + 76);
    if (width < 0 || height < 0) fail(ErrorCode.BadCount, `texture ${i} is ${width}×${height}`, at + 68);
    // the pixels then a 256-colour palette (studiomdl's WriteTextures; R_StudioLoadTexture reads both)
    if (index < 0 || index > r.end || width * height + 768 > r.end - index) {
      fail(ErrorCode.BadOffset, `texture ${i} (${width}×${height} and its palette) from offset ${index} runs past the file's ${r.end} bytes`, at + 76);
    }
    const n = width * height;
    out.push({ name: r.name(at, 64), flags: r.i32(at + 64), width, height, pixels: r.bytes.slice(index, index + n), palette: r.bytes.slice(index + n, index + n + 768) });
  }
  return out;
}

function skinFamilies(r: Reader): { refs: number; families: Int16Array[] } {
  const refs = r.i32(192), families = r.i32(196), at = r.i32(200);
  if (refs < 0) fail(ErrorCode.BadCount, `numskinref is ${refs}`, 192);
  if (families < 0) fail(ErrorCode.BadCount, `numskinfamilies is ${families}`, 196);
  if (refs === 0 || families === 0) return { refs, families: [] };
  r.check(families, at, 2 * refs, 'skin families', 196, 200);
  return { refs, families: Array.from({ length: families }, (_, f) => Int16Array.from({ length: refs }, (_, k) => r.i16(at + 2 * (f * refs + k)))) };
}

/** One mesh's tricmds: walked to count and check (every corner inside the file and naming a vertex and a normal), then unrolled. */
function meshCorners(r: Reader, at: number, vertexCount: number, normalCount: number, where: string): Int16Array {
  if (at < 0 || at > r.end) fail(ErrorCode.BadOffset, `${where}: triindex ${at} is outside the file`, at);
  let p = at, triangles = 0;
  for (;;) {
    if (p + 2 > r.end) fail(ErrorCode.BadOffset, `${where}: its strips and fans run past the file's end (no closing 0)`, p);
    const n = Math.abs(r.i16(p));
    p += 2;
    if (n === 0) break;
    if (n * 8 > r.end - p) fail(ErrorCode.BadOffset, `${where}: a strip of ${n} vertices at ${p - 2} runs past the file's end`, p - 2);
    for (let k = 0; k < n; k++) {
      const v = r.i16(p + 8 * k), nm = r.i16(p + 8 * k + 2);
      if (v < 0 || v >= vertexCount) fail(ErrorCode.IndexOutOfRange, `${where}: a corner names vertex ${v} of ${vertexCount}`, p + 8 * k);
      if (nm < 0 || nm >= normalCount) fail(ErrorCode.IndexOutOfRange, `${where}: a corner names normal ${nm} of ${normalCount}`, p + 8 * k + 2);
    }
    triangles += Math.max(0, n - 2);
    p += 8 * n;
  }
  const out = new Int16Array(triangles * 12);
  let o = 0;
  p = at;
  const put = (c: number) => {
    for (let k = 0; k < 4; k++) out[o++] = r.i16(c + 2 * k);
  };
  for (;;) {
    const count = r.i16(p);
    p += 2;
    if (count === 0) break;
    const n = Math.abs(count), fan = count < 0;
    for (let k = 2; k < n; k++) {
      const c = (i: number) => p + 8 * i;
      // GL's order: a fan (0, k−1, k); a strip's odd triangles swap their first two corners to keep one winding
      if (fan) { put(c(0)); put(c(k - 1)); put(c(k)); }
      else if (k % 2 === 0) { put(c(k - 2)); put(c(k - 1)); put(c(k)); }
      else { put(c(k - 1)); put(c(k - 2)); put(c(k)); }
    }
    p += 8 * n;
  }
  return out;
}

function submodel(r: Reader, at: number, boneCount: number, where: string, warnings: ParseWarning[]): GoldsrcSubmodel {
  const vertexCount = r.check(r.i32(at + 80), r.i32(at + 88), 12, `${where} vertices`, at + 80, at + 88);
  r.check(vertexCount, r.i32(at + 84), 1, `${where} vertex bones`, at + 80, at + 84);
  const normalCount = r.check(r.i32(at + 92), r.i32(at + 100), 12, `${where} normals`, at + 92, at + 100);
  r.check(normalCount, r.i32(at + 96), 1, `${where} normal bones`, at + 92, at + 96);
  const meshCount = r.check(r.i32(at + 72), r.i32(at + 76), SIZE.mesh, `${where} meshes`, at + 72, at + 76);
  if (vertexCount > MAXSTUDIO.VERTS) warnings.push({ code: 'ENGINE_LIMIT', message: `${where} has ${vertexCount} vertices; Half-Life draws ${MAXSTUDIO.VERTS} (studio.h MAXSTUDIOVERTS; Xash3D-FWGS 16384)`, offset: at + 80 });
  const vi = r.i32(at + 88), vb = r.i32(at + 84), ni = r.i32(at + 100), nb = r.i32(at + 96);
  const vertexBones = r.bytes.slice(vb, vb + vertexCount), normalBones = r.bytes.slice(nb, nb + normalCount);
  for (let k = 0; k < vertexCount; k++) if (vertexBones[k] >= boneCount) fail(ErrorCode.IndexOutOfRange, `${where}: vertex ${k} moves with bone ${vertexBones[k]} of ${boneCount}`, vb + k);
  for (let k = 0; k < normalCount; k++) if (normalBones[k] >= boneCount) fail(ErrorCode.IndexOutOfRange, `${where}: normal ${k} moves with bone ${normalBones[k]} of ${boneCount}`, nb + k);
  const meshes: GoldsrcMesh[] = [];
  for (let m = 0; m < meshCount; m++) {
    const ma = r.i32(at + 76) + m * SIZE.mesh;
    meshes.push({ skinRef: r.i32(ma + 8), normalCount: r.i32(ma + 12), declaredTriangles: r.i32(ma), corners: meshCorners(r, r.i32(ma + 4), vertexCount, normalCount, `${where} mesh ${m}`) });
  }
  const vertices = r.floats(vi, vertexCount * 3), normals = r.floats(ni, normalCount * 3);
  finite(vertices, vi, `${where} vertices`);
  finite(normals, ni, `${where} normals`);
  return { name: r.name(at, 64), type: r.i32(at + 64), radius: r.f32(at + 68), vertices, vertexBones, normals, normalBones, meshes };
}

function bodyParts(r: Reader, boneCount: number, warnings: ParseWarning[]): GoldsrcBodyPart[] {
  const t = r.table(204, 208, SIZE.bodyPart, 'body parts');
  const out: GoldsrcBodyPart[] = [];
  for (let i = 0; i < t.count; i++) {
    const at = t.at + i * SIZE.bodyPart;
    const n = r.check(r.i32(at + 64), r.i32(at + 72), SIZE.model, `body part ${i} models`, at + 64, at + 72);
    const models: GoldsrcSubmodel[] = [];
    for (let k = 0; k < n; k++) models.push(submodel(r, r.i32(at + 72) + k * SIZE.model, boneCount, `body part ${i} model ${k}`, warnings));
    out.push({ name: r.name(at, 64), base: r.i32(at + 68), models });
  }
  return out;
}

function attachments(r: Reader): GoldsrcAttachment[] {
  const t = r.table(212, 216, SIZE.attachment, 'attachments');
  return Array.from({ length: t.count }, (_, i) => {
    const at = t.at + i * SIZE.attachment;
    return { name: r.name(at, 32), type: r.i32(at + 32), bone: r.i32(at + 36), origin: r.vec3(at + 40), vectors: r.floats(at + 52, 9) };
  });
}

/** Bytes [0, length) of a file whose first 76 bytes were `head`; `received` counts every byte given (past the end too). */
export function decodeGoldsrc(bytes: Uint8Array, head: GoldsrcHead, received: number): GoldsrcModel {
  const end = head.length;
  const r = new Reader(bytes, end);
  const warnings: ParseWarning[] = [];
  if (received > end) warnings.push({ code: 'TRAILING_BYTES', message: `${received - end} bytes past the header's length ${end}: not read`, offset: end });
  const empty = new Float32Array(3);
  const base = { format: 'hl1mdl' as const, version: head.version, name: r.name(8, 64), length: end, bytes: bytes.subarray(0, end), warnings };
  if (head.kind === 'seqgroup') {
    return {
      ...base, kind: 'seqgroup', eyePosition: empty, min: empty, max: empty, bbMin: empty, bbMax: empty, flags: 0, bones: [], controllers: [], hitboxes: [], sequences: [], seqGroups: [], textures: [],
      textureDataOffset: 0, skinRefCount: 0, skinFamilies: [], bodyParts: [], attachments: [], transitionCount: 0, transitions: new Uint8Array(0), soundTable: 0, soundIndex: 0, soundGroups: 0, soundGroupIndex: 0,
    };
  }
  const flags = r.i32(136);
  if (flags & XASH_UNSUPPORTED) warnings.push({ code: 'UNSUPPORTED', message: `flags 0x${flags.toString(16)} use Xash3D-FWGS's extensions (bone weights / half-float uvs): read as Half-Life's layout, not applied`, offset: 136 });
  const boneList = bones(r);
  const skins = skinFamilies(r);
  const nt = r.i32(236), ti = r.i32(240);
  if (nt < 0) fail(ErrorCode.BadCount, `numtransitions is ${nt}`, 236);
  if (nt > 0 && (ti < 0 || ti > end || nt * nt > end - ti)) fail(ErrorCode.BadOffset, `transitions: ${nt}×${nt} bytes from offset ${ti} run past the file's ${end} bytes`, 240);
  const model: GoldsrcModel = {
    ...base,
    kind: 'studio',
    eyePosition: r.vec3(76),
    min: r.vec3(88),
    max: r.vec3(100),
    bbMin: r.vec3(112),
    bbMax: r.vec3(124),
    flags,
    bones: boneList,
    controllers: controllers(r),
    hitboxes: hitboxes(r),
    sequences: sequences(r),
    seqGroups: seqGroups(r),
    textures: textures(r),
    textureDataOffset: r.i32(188),
    skinRefCount: skins.refs,
    skinFamilies: skins.families,
    bodyParts: bodyParts(r, boneList.length, warnings),
    attachments: attachments(r),
    transitionCount: nt,
    transitions: nt > 0 ? bytes.slice(ti, ti + nt * nt) : new Uint8Array(0),
    soundTable: r.i32(220),
    soundIndex: r.i32(224),
    soundGroups: r.i32(228),
    soundGroupIndex: r.i32(232),
  };
  const limit = (n: number, max: number, what: string, at: number) => {
    if (n > max) warnings.push({ code: 'ENGINE_LIMIT', message: `${n} ${what}; Half-Life's studio.h allows ${max}`, offset: at });
  };
  limit(model.sequences.length, MAXSTUDIO.SEQUENCES, 'sequences (MAXSTUDIOSEQUENCES)', 164);
  limit(model.seqGroups.length, MAXSTUDIO.GROUPS, 'sequence groups (MAXSTUDIOGROUPS)', 172);
  limit(model.textures.length, MAXSTUDIO.SKINS, 'textures (MAXSTUDIOSKINS)', 180);
  limit(model.bodyParts.length, MAXSTUDIO.BODYPARTS, 'body parts (MAXSTUDIOBODYPARTS)', 204);
  limit(model.controllers.length, MAXSTUDIO.CONTROLLERS, 'bone controllers (MAXSTUDIOCONTROLLERS)', 148);
  model.sequences.forEach((s, i) => {
    const at = r.i32(168) + i * SIZE.sequence;
    if (s.seqGroup < 0 || s.seqGroup >= Math.max(1, model.seqGroups.length)) warnings.push({ code: 'INDEX_OUT_OF_RANGE', message: `sequence ${i} ("${s.label}") is in group ${s.seqGroup} of ${model.seqGroups.length}: not played`, offset: at + 156 });
    else if (s.seqGroup === 0 && s.blendCount > 0 && boneList.length > 0) {
      // its animation table: numblends × numbones mstudioanim_t (the values they point to are checked as they are decoded)
      const need = s.blendCount * boneList.length * SIZE.anim;
      if (s.animOffset < 0 || s.animOffset > end || need > end - s.animOffset) fail(ErrorCode.BadOffset, `sequence ${i} ("${s.label}"): its ${s.blendCount}×${boneList.length} animation records from offset ${s.animOffset} run past the file's ${end} bytes`, at + 124);
    }
  });
  return model;
}
