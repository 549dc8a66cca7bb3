/**
 * IQM version 2 out: an {@link IqmModel} → the bytes of a file, laid out as the IQM SDK's exporter lays it out
 * (iqm.cpp `writeiqm`: header, text, meshes, vertex arrays and their data, triangles, adjacency, joints, poses, anims,
 * frames, bounds, comment, extensions), every block at a 4-byte-aligned offset (iqm.txt), `ofs_*` 0 for an empty one.
 * parse → write → parse gives the same model: the text block is written as it was (each name at the offset where the
 * text holds it; a name it lacks is appended), and every vertex array as stored, custom ones included.
 *
 * A model built by hand (the glTF and MD5 imports) may leave `vertexArrays` empty: the standard arrays are then
 * written in iqm.txt's order (position, texcoord, normal, tangent, blend indexes, blend weights, colour).
 * What the format cannot hold, or counts the arrays do not back, is UNWRITABLE.
 */
import { IqmArrayType, IqmFormat, type IqmArrayData, type IqmModel, type IqmVertexArray } from '../../base/model.js';
import { unwritable, need } from '../../write/out.js';

const MAGIC = 'INTERQUAKEMODEL\0';
const HEADER_BYTES = 124;
/** The IQM format of each typed array's constructor (a table built by a pure call: a bundler drops it where unused). */
const FORMAT_OF = /* @__PURE__ */ formatsOfArrays();

function formatsOfArrays() {
  return new Map<Function, number>([
    [Int8Array, IqmFormat.Byte],
    [Uint8Array, IqmFormat.Ubyte],
    [Int16Array, IqmFormat.Short],
    [Int32Array, IqmFormat.Int],
    [Uint32Array, IqmFormat.Uint],
    [Float32Array, IqmFormat.Float],
    [Float64Array, IqmFormat.Double],
  ]);
}

const FORMAT_BYTES = [1, 1, 2, 2, 4, 4, 2, 4, 8];

/** The standard arrays of `model` as records, in iqm.txt's order. */
export function standardVertexArrays(model: Pick<IqmModel, 'positions' | 'texcoords' | 'normals' | 'tangents' | 'blendIndexes' | 'blendWeights' | 'colors'>): IqmVertexArray[] {
  const out: IqmVertexArray[] = [];
  const add = (type: number, name: string, size: number, data: IqmArrayData | null) => {
    if (data) out.push({ type, name, flags: 0, format: data instanceof Float32Array ? IqmFormat.Float : IqmFormat.Ubyte, size, data });
  };
  add(IqmArrayType.Position, 'position', 3, model.positions);
  add(IqmArrayType.Texcoord, 'texcoord', 2, model.texcoords);
  add(IqmArrayType.Normal, 'normal', 3, model.normals);
  add(IqmArrayType.Tangent, 'tangent', 4, model.tangents);
  add(IqmArrayType.BlendIndexes, 'blendindexes', 4, model.blendIndexes);
  add(IqmArrayType.BlendWeights, 'blendweights', 4, model.blendWeights);
  add(IqmArrayType.Color, 'color', 4, model.colors);
  return out;
}

/** The text block and each name's offset in it. */
class TextTable {
  private readonly parts: number[];
  private readonly index = new Map<string, number>();
  constructor(text: Uint8Array) {
    this.parts = Array.from(text);
    if (this.parts.length && this.parts[this.parts.length - 1] !== 0) this.parts.push(0);
    let start = 0;
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i] !== 0) continue;
      const s = String.fromCharCode(...this.parts.slice(start, i));
      if (!this.index.has(s)) this.index.set(s, start);
      start = i + 1;
    }
  }
  /** The offset of `s` (a NUL-terminated run ending at a string's end, else appended). */
  offset(s: string, what: string): number {
    const known = this.index.get(s);
    if (known !== undefined) return known;
    if (s === '' && this.parts.length === 0) return 0; // a file without text names everything by offset 0
    // a suffix of a stored string also names it (exporters share tails)
    for (const [k, at] of this.index) if (k.endsWith(s)) return at + k.length - s.length;
    const at = this.parts.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0 || c > 0xff) unwritable(`${what} ${JSON.stringify(s)} has a character the text block cannot hold (U+${c.toString(16).padStart(4, '0')})`);
      this.parts.push(c);
    }
    this.parts.push(0);
    this.index.set(s, at);
    return at;
  }
  get bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

const align4 = (n: number) => (n + 3) & ~3;

/** `model` as an IQM file. */
export function writeIqm(model: IqmModel): Uint8Array {
  const V = model.vertexCount;
  const arrays = model.vertexArrays.length ? model.vertexArrays.filter((a) => a.data !== null) : standardVertexArrays(model);
  const T = model.triangleCount;
  const J = model.joints.count;
  const P = model.poses.count;
  const F = model.frameCount;
  const C = model.frameChannels;
  need('triangles', model.triangles, T * 3);
  for (let i = 0; i < T * 3; i++) if (model.triangles[i] >= V && V > 0) unwritable(`triangle ${Math.floor(i / 3)} names vertex ${model.triangles[i]} of ${V}`);
  need('frames', model.frames, F * C);
  if (model.adjacency) need('adjacency', model.adjacency, T * 3);
  if (model.bounds) need('bounds', model.bounds, F * 8);
  for (const [what, arr, n] of [['joint parents', model.joints.parents, J], ['joint translate', model.joints.translate, J * 3], ['joint rotate', model.joints.rotate, J * 4], ['joint scale', model.joints.scale, J * 3], ['pose parents', model.poses.parents, P], ['pose masks', model.poses.masks, P], ['pose offsets', model.poses.offsets, P * 10], ['pose scales', model.poses.scales, P * 10]] as const) need(what, arr, n);
  for (let j = 0; j < J; j++) if (model.joints.parents[j] >= j) unwritable(`joint ${j}'s parent ${model.joints.parents[j]} is not below it`);
  for (let p = 0; p < P; p++) if (model.poses.parents[p] >= p) unwritable(`pose ${p}'s parent ${model.poses.parents[p]} is not below it`);
  let used = 0;
  for (let p = 0; p < P; p++) for (let c = 0; c < 10; c++) if (model.poses.masks[p] & (1 << c)) used++;
  if (F > 0 && used > C) unwritable(`the poses' masks take ${used} values a frame, frameChannels is ${C}`);
  for (const m of model.meshes) {
    if (m.firstVertex + m.vertexCount > V || m.firstTriangle + m.triangleCount > T) unwritable(`mesh ${JSON.stringify(m.name)} runs past the vertices or triangles`);
  }

  const text = new TextTable(model.text);
  const meshNames = model.meshes.map((m, i) => [text.offset(m.name, `mesh ${i} name`), text.offset(m.material, `mesh ${i} material`)]);
  const arrayTypes = arrays.map((a, i) => {
    if (a.type < IqmArrayType.Custom) return a.type;
    return IqmArrayType.Custom + text.offset(a.name, `vertex array ${i} name`);
  });
  const jointNames = model.joints.names.map((n, i) => text.offset(n, `joint ${i} name`));
  const animNames = model.anims.map((a, i) => text.offset(a.name, `anim ${i} name`));
  const extNames = model.extensions.map((e, i) => text.offset(e.name, `extension ${i} name`));
  const textBytes = text.bytes;

  // ——— layout ———
  let at = HEADER_BYTES;
  const place = (bytes: number) => {
    if (bytes === 0) return 0;
    const o = at;
    at = align4(at + bytes);
    return o;
  };
  const ofsText = place(textBytes.length);
  const ofsMeshes = place(model.meshes.length * 24);
  const ofsVertexArrays = place(arrays.length * 20);
  const arrayOffsets = arrays.map((a, i) => {
    const data = a.data!;
    if (data.length !== V * a.size) unwritable(`vertex array ${i} (${a.name}) holds ${data.length} values, ${V} vertices × ${a.size} need ${V * a.size}`);
    const format = a.format;
    if (format >= FORMAT_BYTES.length || (format !== IqmFormat.Half && format !== IqmFormat.Ushort && FORMAT_OF.get(data.constructor) !== format)) {
      if (!((format === IqmFormat.Half || format === IqmFormat.Ushort) && data instanceof Uint16Array)) unwritable(`vertex array ${i} (${a.name}) is format ${format} but holds a ${data.constructor.name}`);
    }
    return place(data.length * FORMAT_BYTES[format]);
  });
  const ofsTriangles = place(T * 12);
  const ofsAdjacency = model.adjacency ? place(T * 12) : 0;
  const ofsJoints = place(J * 48);
  const ofsPoses = place(P * 88);
  const ofsAnims = place(model.anims.length * 20);
  const ofsFrames = place(F * C * 2);
  const ofsBounds = model.bounds ? place(F * 32) : 0;
  const comment = model.comment;
  const ofsComment = place(comment.length);
  const extAt = model.extensions.map((e) => {
    const rec = place(16);
    return { rec, data: place(e.data.length) };
  });
  const filesize = at;
  if (filesize > 0xffffffff) unwritable(`the file would take ${filesize} bytes, past IQM's 32-bit offsets`);

  // ——— bytes ———
  const bytes = new Uint8Array(filesize);
  const view = new DataView(bytes.buffer);
  const u32 = (o: number, v: number) => view.setUint32(o, v, true);
  const f32 = (o: number, v: number) => view.setFloat32(o, v, true);
  for (let i = 0; i < 16; i++) bytes[i] = MAGIC.charCodeAt(i);
  const header = [
    model.version || 2, filesize, model.flags,
    textBytes.length, ofsText,
    model.meshes.length, ofsMeshes,
    arrays.length, V, ofsVertexArrays,
    T, ofsTriangles, ofsAdjacency,
    J, ofsJoints,
    P, ofsPoses,
    model.anims.length, ofsAnims,
    F, C, ofsFrames, ofsBounds,
    comment.length, ofsComment,
    model.extensions.length, extAt.length ? extAt[0].rec : 0,
  ];
  header.forEach((v, i) => u32(16 + 4 * i, v));
  bytes.set(textBytes, ofsText);
  model.meshes.forEach((m, i) => {
    const o = ofsMeshes + 24 * i;
    [meshNames[i][0], meshNames[i][1], m.firstVertex, m.vertexCount, m.firstTriangle, m.triangleCount].forEach((v, k) => u32(o + 4 * k, v));
  });
  arrays.forEach((a, i) => {
    const o = ofsVertexArrays + 20 * i;
    [arrayTypes[i], a.flags, a.format, a.size, arrayOffsets[i]].forEach((v, k) => u32(o + 4 * k, v));
    const data = a.data!;
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    // little-endian hosts: the stored bytes as they are (every platform that runs this; see base/binary.ts)
    bytes.set(raw, arrayOffsets[i]);
  });
  for (let i = 0; i < T * 3; i++) u32(ofsTriangles + 4 * i, model.triangles[i]);
  if (model.adjacency) for (let i = 0; i < T * 3; i++) u32(ofsAdjacency + 4 * i, model.adjacency[i]);
  for (let j = 0; j < J; j++) {
    const o = ofsJoints + 48 * j;
    u32(o, jointNames[j]);
    view.setInt32(o + 4, model.joints.parents[j], true);
    for (let c = 0; c < 3; c++) f32(o + 8 + 4 * c, model.joints.translate[j * 3 + c]);
    for (let c = 0; c < 4; c++) f32(o + 20 + 4 * c, model.joints.rotate[j * 4 + c]);
    for (let c = 0; c < 3; c++) f32(o + 36 + 4 * c, model.joints.scale[j * 3 + c]);
  }
  for (let p = 0; p < P; p++) {
    const o = ofsPoses + 88 * p;
    view.setInt32(o, model.poses.parents[p], true);
    u32(o + 4, model.poses.masks[p]);
    for (let c = 0; c < 10; c++) {
      f32(o + 8 + 4 * c, model.poses.offsets[p * 10 + c]);
      f32(o + 48 + 4 * c, model.poses.scales[p * 10 + c]);
    }
  }
  model.anims.forEach((a, i) => {
    const o = ofsAnims + 20 * i;
    u32(o, animNames[i]);
    u32(o + 4, a.firstFrame);
    u32(o + 8, a.frameCount);
    f32(o + 12, a.framerate);
    u32(o + 16, a.flags);
  });
  for (let i = 0; i < F * C; i++) view.setUint16(ofsFrames + 2 * i, model.frames[i], true);
  if (model.bounds) for (let i = 0; i < F * 8; i++) f32(ofsBounds + 4 * i, model.bounds[i]);
  for (let i = 0; i < comment.length; i++) bytes[ofsComment + i] = comment.charCodeAt(i) & 0xff;
  model.extensions.forEach((e, i) => {
    const { rec, data } = extAt[i];
    u32(rec, extNames[i]);
    u32(rec + 4, e.data.length);
    u32(rec + 8, data);
    u32(rec + 12, i + 1 < extAt.length ? extAt[i + 1].rec : 0);
    bytes.set(e.data, data);
  });
  return bytes;
}
