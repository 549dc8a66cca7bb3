/**
 * The parsers under fuzz, one table entry each. Adding a parser is one entry: its name, the MANIFEST formats whose
 * real files seed it, a one-shot parse, optionally a push parser (for chunk-split checks), a structure scan (where
 * the counts, offsets and block boundaries are), an independent check of what it accepts, and its memory bound.
 */
import { toGlbNow } from '../helpers/glb-now.js';
import type { IqmModel, Md2Model, Md3Model, Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { IqmParser, parseIqm } from '../../src/formats/iqm/parser.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { iqmToGlb } from '../../src/formats/iqm/gltf.js';
import { Md2Parser, md2Unwelded, parseMd2 } from '../../src/formats/md2/index.js';
import { Md3Parser, parseMd3 } from '../../src/formats/md3/index.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { Md5AnimParser, Md5MeshParser, parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { toObj } from '../../src/export/obj.js';
import { parseMtr, parseShaderScript, parseSkin, md3SurfaceKey, skinShaderFor, type MtrFile, type ShaderScript, type SkinFile } from '../../src/materials/index.js';
import { mtrLook, shaderLook } from '../../src/materials/appearance.js';
import { checkZip, readZipSync, ZIP_MEMORY_BOUND, zipSeeds, zipStructure } from './zip-target.js';
import { inflationTarget, namesTarget } from './security-targets.js';
import { checkMdl, mdlExtraSeeds, mdlStructure, useMdl } from './mdl-target.js';
import { checkPak, PAK_MEMORY_BOUND, pakSeeds, pakStructure, readPakSync } from './pak-target.js';
import { MdlParser, parseMdl } from '../../src/formats/mdl/index.js';
import { decodeImage } from '../../src/images/decode.js';
import { encodePng } from '../../src/images/png-encode.js';
import { pngInfo } from '../../src/images/png-info.js';
import type { DecodedImage } from '../../src/images/types.js';
import { ddsFixtures } from '../../../fixtures/generate-dds.mjs';
import { imageFixtures } from '../../../fixtures/generate-images.mjs';
import { IMAGE_MEMORY_BOUND, PARSER_MEMORY_BOUND, type MemoryBound } from './bounds.js';
import { fingerprint } from './invariant.js';
import type { Rng } from './rng.js';
import { ddsStructure, imageStructure, iqmStructure, md2Structure, md3Structure, md5Structure, pcxStructure, scriptStructure, tgaStructure, type Structure } from './structure.js';

export interface FuzzTarget {
  name: string;
  /** MANIFEST `format` values whose files seed this target (other formats' files are used as foreign inputs). */
  formats: readonly string[];
  /** Of those files, the ones that seed it (by path; all when absent): the image targets split `image` by extension. */
  seedFilter?: (path: string) => boolean;
  /** Seeds the project makes (generated fixtures for the variants the corpus lacks). */
  extraSeeds?: () => { name: string; bytes: Uint8Array }[];
  /** Text formats report line:column and get text-aware mutations. */
  text: boolean;
  parse(bytes: Uint8Array): unknown;
  /**
   * The same parse fed chunk by chunk, when the parser has a push interface; `rng` may pick one of its modes (MD5's
   * mesh-by-mesh and frame-by-frame callbacks), each reassembled into the one-shot result.
   */
  parseChunks?(chunks: readonly Uint8Array[], rng: Rng): unknown;
  structure(bytes: Uint8Array): Structure;
  /** What is wrong with an accepted model ('' when nothing): an independent re-check of every index and float. */
  check(model: unknown, bytes: Uint8Array): string;
  /** Drive the accepted model one stage further (pose it); anything but a typed error escaping is a bug. */
  use?(model: unknown, seedName: string): void;
  memory: MemoryBound;
  /**
   * Distinct error codes the fixed-budget campaign must see (default 5): how many ways the grammar has to fail.
   * A `.skin` has none (the engine reads anything), a shader script two (a missing `{`, an unclosed section).
   */
  minErrorCodes?: number;
  /** Seeds made from the corpus files (archives built of them), instead of the files of `formats`. */
  seeds?(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[];
}

// --- independent checks ------------------------------------------------------------------------------------------

/** First non-finite float in a typed array, as a message, or ''. */
function finite(name: string, a: ArrayLike<number>): string {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return `${name}[${i}] = ${a[i]}`;
  return '';
}

function lengthIs(name: string, a: { length: number }, n: number): string {
  return a.length === n ? '' : `${name}.length ${a.length}, want ${n}`;
}

function parentsBelow(parents: Int32Array): string {
  for (let j = 0; j < parents.length; j++) if (parents[j] < -1 || parents[j] >= j) return `parent of joint ${j} is ${parents[j]}`;
  return '';
}

export function checkMd5Mesh(model: unknown): string {
  const m = model as Md5Mesh;
  const j = m.joints;
  const c = j.count;
  const first =
    lengthIs('names', j.names, c) ||
    lengthIs('parents', j.parents, c) ||
    lengthIs('positions', j.positions, c * 3) ||
    lengthIs('orientations', j.orientations, c * 4) ||
    parentsBelow(j.parents) ||
    finite('joint positions', j.positions) ||
    finite('joint orientations', j.orientations);
  if (first) return first;
  for (let k = 0; k < m.meshes.length; k++) {
    const p = m.meshes[k];
    const v = p.vertexCount;
    const bad =
      lengthIs(`mesh ${k} uvs`, p.uvs, v * 2) ||
      lengthIs(`mesh ${k} weightStart`, p.weightStart, v) ||
      lengthIs(`mesh ${k} weightCount`, p.weightCount, v) ||
      lengthIs(`mesh ${k} triangles`, p.triangles, p.triangleCount * 3) ||
      lengthIs(`mesh ${k} weightJoints`, p.weightJoints, p.weightTotal) ||
      lengthIs(`mesh ${k} weightBiases`, p.weightBiases, p.weightTotal) ||
      lengthIs(`mesh ${k} weightPositions`, p.weightPositions, p.weightTotal * 3) ||
      finite(`mesh ${k} uvs`, p.uvs) ||
      finite(`mesh ${k} weightBiases`, p.weightBiases) ||
      finite(`mesh ${k} weightPositions`, p.weightPositions);
    if (bad) return bad;
    for (let i = 0; i < p.triangles.length; i++) if (p.triangles[i] >= v) return `mesh ${k} triangle corner ${i} = ${p.triangles[i]} ≥ ${v}`;
    for (let i = 0; i < v; i++) {
      if (p.weightCount[i] < 1 || p.weightStart[i] + p.weightCount[i] > p.weightTotal) {
        return `mesh ${k} vertex ${i} weights ${p.weightStart[i]}+${p.weightCount[i]} outside ${p.weightTotal}`;
      }
    }
    for (let i = 0; i < p.weightTotal; i++) if (p.weightJoints[i] >= c) return `mesh ${k} weight ${i} joint ${p.weightJoints[i]} ≥ ${c}`;
  }
  return '';
}

const popcount6 = (x: number) => ((x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1) + ((x >> 3) & 1) + ((x >> 4) & 1) + ((x >> 5) & 1));

export function checkMd5Anim(model: unknown): string {
  const a = model as Md5Anim;
  const j = a.jointCount;
  const first =
    lengthIs('names', a.names, j) ||
    lengthIs('parents', a.parents, j) ||
    lengthIs('flags', a.flags, j) ||
    lengthIs('startIndices', a.startIndices, j) ||
    lengthIs('baseframe', a.baseframe, j * 6) ||
    lengthIs('bounds', a.bounds, a.frameCount * 6) ||
    lengthIs('frames', a.frames, a.frameCount * a.componentCount) ||
    parentsBelow(a.parents) ||
    (Number.isFinite(a.frameRate) && a.frameRate > 0 ? '' : `frameRate ${a.frameRate}`) ||
    finite('baseframe', a.baseframe) ||
    finite('bounds', a.bounds) ||
    finite('frames', a.frames);
  if (first) return first;
  for (let k = 0; k < j; k++) {
    if (a.flags[k] > 63 || a.startIndices[k] + popcount6(a.flags[k]) > a.componentCount) {
      return `joint ${k} flags ${a.flags[k]} start ${a.startIndices[k]} past ${a.componentCount} components`;
    }
  }
  return '';
}

export function checkMd2(model: unknown): string {
  const m = model as Md2Model;
  const [f, v, t] = [m.frameCount, m.vertexCount, m.triangleCount];
  const first =
    lengthIs('frameNames', m.frameNames, f) ||
    lengthIs('frameScales', m.frameScales, f * 3) ||
    lengthIs('frameTranslates', m.frameTranslates, f * 3) ||
    lengthIs('frameVertices', m.frameVertices, f * v * 4) ||
    lengthIs('st', m.st, m.stCount * 2) ||
    lengthIs('trianglePositionIndices', m.trianglePositionIndices, t * 3) ||
    lengthIs('triangleStIndices', m.triangleStIndices, t * 3) ||
    finite('frameScales', m.frameScales) ||
    finite('frameTranslates', m.frameTranslates);
  if (first) return first;
  // 162: the size of Quake 2's anorms.h normal table.
  for (let i = 3; i < m.frameVertices.length; i += 4) if (m.frameVertices[i] >= 162) return `vertex record ${i >> 2} normal index ${m.frameVertices[i]}`;
  for (let i = 0; i < t * 3; i++) {
    if (m.trianglePositionIndices[i] >= v) return `triangle corner ${i} xyz index ${m.trianglePositionIndices[i]} ≥ ${v}`;
    if (m.triangleStIndices[i] >= m.stCount) return `triangle corner ${i} st index ${m.triangleStIndices[i]} ≥ ${m.stCount}`;
  }
  const gl = m.glCommands;
  if (gl) {
    const total = gl.firstVertex[gl.commandCount];
    const bad =
      lengthIs('glCommands.kinds', gl.kinds, gl.commandCount) ||
      lengthIs('glCommands.firstVertex', gl.firstVertex, gl.commandCount + 1) ||
      lengthIs('glCommands.vertices', gl.vertices, total) ||
      lengthIs('glCommands.st', gl.st, total * 2);
    if (bad) return bad;
    for (let i = 0; i < total; i++) if (gl.vertices[i] >= v) return `glcmd vertex ${i} index ${gl.vertices[i]} ≥ ${v}`;
    for (let c = 0; c < gl.commandCount; c++) if (gl.firstVertex[c] > gl.firstVertex[c + 1]) return `glcmd ${c} runs backwards`;
  }
  return '';
}

export function checkMd3(model: unknown): string {
  const m = model as Md3Model;
  const f = m.frameCount;
  const first =
    lengthIs('frameNames', m.frameNames, f) ||
    lengthIs('frameMins', m.frameMins, f * 3) ||
    lengthIs('frameMaxs', m.frameMaxs, f * 3) ||
    lengthIs('frameLocalOrigins', m.frameLocalOrigins, f * 3) ||
    lengthIs('frameRadii', m.frameRadii, f) ||
    lengthIs('tagNames', m.tagNames, m.tagCount) ||
    lengthIs('tagOrigins', m.tagOrigins, f * m.tagCount * 3) ||
    lengthIs('tagAxes', m.tagAxes, f * m.tagCount * 9);
  if (first) return first;
  for (let k = 0; k < m.surfaces.length; k++) {
    const s = m.surfaces[k];
    const bad =
      lengthIs(`surface ${k} triangles`, s.triangles, s.triangleCount * 3) ||
      lengthIs(`surface ${k} st`, s.st, s.vertexCount * 2) ||
      lengthIs(`surface ${k} xyzNormals`, s.xyzNormals, f * s.vertexCount * 4);
    if (bad) return bad;
    for (let i = 0; i < s.triangles.length; i++) if (s.triangles[i] >= s.vertexCount) return `surface ${k} triangle corner ${i} = ${s.triangles[i]} ≥ ${s.vertexCount}`;
  }
  return '';
}

/**
 * Every float anywhere in the result is finite, and warnings are well-formed: the catch-all after the MD2/MD3
 * checks, which look only at the arrays they name.
 */
export function checkGeneric(model: unknown, bytes: Uint8Array): string {
  const seen = new Set<unknown>();
  const walk = (x: unknown, path: string): string => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return typeof x === 'number' && !Number.isFinite(x) ? `${path} = ${x}` : '';
    seen.add(x);
    if (x instanceof Float32Array || x instanceof Float64Array) return finite(path, x);
    if (ArrayBuffer.isView(x)) return '';
    for (const [k, v] of Object.entries(x)) {
      const bad = walk(v, `${path}.${k}`);
      if (bad) return bad;
    }
    return '';
  };
  return walk(model, '$') || checkWarnings(model, bytes);
}

/** A result's `warnings`, if it has any: `{ code, message, offset }` with the offset inside the input. */
export function checkWarnings(model: unknown, bytes: Uint8Array): string {
  const ws = (model as { warnings?: unknown }).warnings;
  if (ws === undefined) return '';
  if (!Array.isArray(ws)) return 'warnings is not an array';
  for (const w of ws as { code?: unknown; message?: unknown; offset?: unknown }[]) {
    if (typeof w.code !== 'string' || typeof w.message !== 'string' || !Number.isInteger(w.offset) || (w.offset as number) < 0 || (w.offset as number) > bytes.length) {
      return `malformed warning ${JSON.stringify(w)}`;
    }
  }
  return '';
}

/**
 * Script parsers return plain objects, not typed arrays, so the allocation meter does not see them: their size is
 * held to the input's here instead — at most 4 objects and 40 characters of strings per input byte (names are kept
 * once plus a lower-cased key; warning messages quote names at most 64 characters long), plus a constant.
 */
export function checkScriptSize(model: unknown, bytes: Uint8Array): string {
  let chars = 0;
  let objects = 0;
  const seen = new Set<unknown>();
  const walk = (x: unknown): void => {
    if (typeof x === 'string') chars += x.length;
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    objects++;
    for (const v of Object.values(x)) walk(v);
  };
  walk(model);
  const n = bytes.length;
  if (objects > 4 * n + 64) return `${objects} objects for ${n} input bytes`;
  if (chars > 40 * n + 4096) return `${chars} string characters for ${n} input bytes`;
  return '';
}

// --- using accepted models -----------------------------------------------------------------------------------------

const tsBackend = createTsBackend();

/** Pose an accepted mesh's bind pose on the TS backend (builds the skin stream, validates, skins); export it. */
function poseMesh(model: unknown): void {
  const poser = new Md5Poser(tsBackend, model as Md5Mesh);
  poser.poseBind();
  toObj(model as Md5Mesh, { positions: poser.positions, normals: poser.normals });
  poser.dispose();
  toGlbNow(model);
}

/** The mesh each real anim belongs to (parsed once), to attach fuzzed anims to. */
const pairedMeshes = new Map<string, Md5Mesh>();

/** Register the mesh an anim seed pairs with (MANIFEST "pairs with"). */
export function setPairedMesh(animSeed: string, mesh: Md5Mesh): void {
  pairedMeshes.set(animSeed, mesh);
}

/** Attach an accepted anim to its seed's mesh and pose its first and last frame (a mismatch is a typed error). */
function poseAnim(model: unknown, seedName: string): void {
  const mesh = pairedMeshes.get(seedName);
  if (!mesh) return;
  const anim = model as Md5Anim;
  const poser = new Md5Poser(tsBackend, mesh);
  try {
    poser.setAnim(anim);
    if (anim.frameCount > 0) {
      poser.poseFrame(0);
      poser.poseFrame(anim.frameCount - 1);
    }
  } finally {
    poser.dispose();
  }
}

/** Un-weld an accepted MD2 (the shape a renderer asks for), export it to glTF, pose its last frame. */
function poseMd2(model: unknown): void {
  const m = model as Md2Model;
  md2Unwelded(m);
  toGlbNow(m);
  if (m.frameCount === 0) return;
  const poser = new Md2Poser(tsBackend, m);
  poser.poseFrame(m.frameCount - 1);
  poser.dispose();
}

/** Export an accepted MD3 to glTF and pose its last frame (all surfaces). */
function poseMd3(model: unknown): void {
  const m = model as Md3Model;
  toGlbNow(m);
  const poser = new Md3Poser(tsBackend, m);
  if (m.frameCount > 0) poser.poseFrame(m.frameCount - 1);
  poser.dispose();
}

/**
 * An accepted IQM re-checked on its own: array lengths against the counts, every index the posers follow. The
 * per-vertex arrays the readers use (`positions` … `colors`) are V × their size; the posers take V from `positions`,
 * so none of the others is there without it. Every vertex array record's data is V × its size values (what writeIqm
 * writes back).
 */
export function checkIqm(model: unknown): string {
  const m = model as IqmModel;
  const V = m.vertexCount, J = m.joints.count, P = m.poses.count;
  const perVertex = [['texcoords', m.texcoords, 2], ['normals', m.normals, 3], ['tangents', m.tangents, 4], ['blend indexes', m.blendIndexes, 4], ['blend weights', m.blendWeights, 4], ['colors', m.colors, 4]] as const;
  const first =
    lengthIs('triangles', m.triangles, m.triangleCount * 3) ||
    lengthIs('frames', m.frames, m.frameCount * m.frameChannels) ||
    lengthIs('joint parents', m.joints.parents, J) ||
    lengthIs('joint rotate', m.joints.rotate, J * 4) ||
    lengthIs('pose offsets', m.poses.offsets, P * 10) ||
    (m.positions ? lengthIs('positions', m.positions, V * 3) : '') ||
    perVertex.map(([name, a, size]) => (a === null ? '' : m.positions === null ? `${name} without positions` : lengthIs(name, a, V * size))).find((x) => x) ||
    m.vertexArrays.map((a, i) => (a.data === null ? '' : lengthIs(`vertex array ${i} (${a.name})`, a.data, V * a.size))).find((x) => x) ||
    (m.bounds ? lengthIs('bounds', m.bounds, m.frameCount * 8) : '') ||
    parentsBelow(m.joints.parents) ||
    parentsBelow(m.poses.parents);
  if (first) return first;
  for (let i = 0; i < m.triangles.length; i++) if (m.triangles[i] >= V) return `triangle corner ${i} = ${m.triangles[i]} ≥ ${V}`;
  for (const [k, x] of m.meshes.entries()) {
    if (x.firstVertex + x.vertexCount > V || x.firstTriangle + x.triangleCount > m.triangleCount) return `mesh ${k} runs past the vertices or triangles`;
  }
  if (J > 0 && m.blendIndexes && m.blendWeights) {
    for (let i = 0; i < m.blendIndexes.length; i++) if (m.blendWeights[i] > 0 && m.blendIndexes[i] >= J) return `weighted blend index ${i} = ${m.blendIndexes[i]} ≥ ${J}`;
  }
  let used = 0;
  for (let p = 0; p < P; p++) for (let c = 0; c < 10; c++) if (m.poses.masks[p] & (1 << c)) used++;
  if (m.frameCount > 0 && used > m.frameChannels) return `masks take ${used} channels, frames hold ${m.frameChannels}`;
  return '';
}

/**
 * An accepted IQM without its vertex arrays' stored values, for `checkGeneric`'s every-float-finite walk: those are
 * the file's, as stored, read by nothing but writeIqm (custom arrays, arrays of a standard type in a format or size
 * the engines ignore — DarkPlaces skips them, ioquake3 refuses the file — HALF as raw bits the walk cannot see
 * anyway). The arrays the readers do use stay in the walk under their own names (`positions` … `colors`: the same
 * objects), and `checkIqm` holds every record's length.
 */
export function iqmAsRead(model: unknown): unknown {
  const m = model as IqmModel;
  return { ...m, vertexArrays: m.vertexArrays.map(({ data, ...record }) => ({ ...record, values: data === null ? 0 : data.length })) };
}

/** Pose an accepted IQM at its last frame (its own frames on its joints), export it to glTF, write and read it back. */
function poseIqm(model: unknown): void {
  const m = model as IqmModel;
  iqmToGlb(m);
  parseIqm(writeIqm(m));
  const poser = new IqmPoser(tsBackend, m);
  if (poser.animation && m.frameCount > 0) poser.poseFrame(m.frameCount - 1);
  poser.dispose();
}

// --- the table ---------------------------------------------------------------------------------------------------

interface PushParser<T> {
  write(c: Uint8Array): void;
  end(): T;
}

function feed<T>(p: PushParser<T>, chunks: readonly Uint8Array[]): T {
  for (const c of chunks) p.write(c);
  return p.end();
}

function pushParse(make: () => PushParser<unknown>) {
  return (chunks: readonly Uint8Array[]) => feed(make(), chunks);
}

/** md5mesh in chunks: plain, or in mesh mode (meshes handed over one by one, collected back into the model). */
function md5MeshChunks(chunks: readonly Uint8Array[], rng: Rng): unknown {
  if (rng.chance(0.5)) return feed(new Md5MeshParser(), chunks);
  const meshes: Md5Mesh['meshes'] = [];
  const m = feed(new Md5MeshParser({ onMesh: (mesh) => meshes.push(mesh) }), chunks);
  return { ...m, meshes };
}

/**
 * md5anim in chunks: plain, or in frame mode (each frame's values copied out as they pass, bounds kept or only
 * checked), reassembled into the one-shot result.
 */
function md5AnimChunks(chunks: readonly Uint8Array[], rng: Rng): unknown {
  const mode = rng.below(3);
  if (mode === 0) return feed(new Md5AnimParser(), chunks);
  const keepBounds = mode === 1;
  const frames: number[] = [];
  const bounds: number[] = [];
  const a = feed(
    new Md5AnimParser({
      keepBounds,
      onFrame: (_, components, b) => {
        frames.push(...components);
        if (b) bounds.push(...b);
        else if (keepBounds) throw new Error('frame mode with keepBounds gave no bounds');
      },
    }),
    chunks,
  );
  if (keepBounds) {
    if (fingerprint(Float32Array.from(bounds)) !== fingerprint(a.bounds)) throw new Error('frame mode: per-frame bounds differ from the header bounds');
    return { ...a, frames: Float32Array.from(frames) };
  }
  // Bounds were only checked: take them from a plain parse (which must accept what frame mode accepted).
  return { ...a, frames: Float32Array.from(frames), bounds: feed(new Md5AnimParser(), chunks).bounds };
}

const md5: FuzzTarget[] = [
  {
    name: 'md5mesh',
    formats: ['md5mesh'],
    text: true,
    parse: parseMd5Mesh,
    parseChunks: md5MeshChunks,
    structure: md5Structure,
    check: (m, b) => checkMd5Mesh(m) || checkWarnings(m, b),
    use: poseMesh,
    memory: PARSER_MEMORY_BOUND,
  },
  {
    name: 'md5anim',
    formats: ['md5anim'],
    text: true,
    parse: parseMd5Anim,
    parseChunks: md5AnimChunks,
    structure: md5Structure,
    check: (m, b) => checkMd5Anim(m) || checkWarnings(m, b),
    use: poseAnim,
    memory: PARSER_MEMORY_BOUND,
  },
];

const md2: FuzzTarget = {
  name: 'md2',
  formats: ['md2'],
  text: false,
  parse: parseMd2,
  parseChunks: pushParse(() => new Md2Parser()),
  structure: md2Structure,
  check: (m, b) => checkMd2(m) || checkGeneric(m, b),
  use: poseMd2,
  memory: PARSER_MEMORY_BOUND,
};

const md3: FuzzTarget = {
  name: 'md3',
  formats: ['md3'],
  text: false,
  parse: parseMd3,
  parseChunks: pushParse(() => new Md3Parser()),
  structure: md3Structure,
  check: (m, b) => checkMd3(m) || checkGeneric(m, b),
  use: poseMd3,
  memory: PARSER_MEMORY_BOUND,
};

/** Look up every surface of an accepted skin, as the resolver does. */
function useSkin(model: unknown): void {
  const skin = model as SkinFile;
  for (const e of skin.entries) skinShaderFor(skin, md3SurfaceKey(e.surface));
}

const scripts: FuzzTarget[] = [
  {
    name: 'skin',
    formats: ['skin'],
    text: true,
    parse: parseSkin,
    structure: scriptStructure,
    check: (m, b) => checkScriptSize(m, b) || checkGeneric(m, b),
    use: useSkin,
    memory: PARSER_MEMORY_BOUND,
    minErrorCodes: 0,
  },
  {
    name: 'shader',
    formats: ['shader'],
    text: true,
    parse: parseShaderScript,
    structure: scriptStructure,
    check: (m, b) => checkScriptSize(m, b) || checkGeneric(m, b),
    use: (m) => (m as ShaderScript).shaders.forEach(shaderLook),
    memory: PARSER_MEMORY_BOUND,
    minErrorCodes: 2,
  },
  {
    name: 'mtr',
    formats: ['mtr'],
    text: true,
    parse: parseMtr,
    structure: scriptStructure,
    check: (m, b) => checkScriptSize(m, b) || checkGeneric(m, b),
    use: (m) => (m as MtrFile).materials.forEach(mtrLook),
    memory: PARSER_MEMORY_BOUND,
    minErrorCodes: 2,
  },
];

/** Zip archives (.pk3/.pk4/.dpk): the directory, every member located, inflated and checked (zip-target.ts). */
const zip: FuzzTarget = {
  name: 'zip',
  formats: [],
  text: false,
  parse: readZipSync,
  structure: zipStructure,
  check: checkZip,
  memory: ZIP_MEMORY_BOUND,
  seeds: zipSeeds,
};

/** Quake's MDL (mdl-target.ts): LibreQuake's models and made-up variants. */
const mdl: FuzzTarget = {
  name: 'mdl',
  formats: ['mdl'],
  extraSeeds: mdlExtraSeeds,
  text: false,
  parse: parseMdl,
  parseChunks: pushParse(() => new MdlParser()),
  structure: mdlStructure,
  check: (m, b) => checkMdl(m) || checkGeneric(m, b),
  use: useMdl,
  memory: PARSER_MEMORY_BOUND,
};

/** Quake .pak archives (pak-target.ts): the header, the directory, every member's bytes. */
const pak: FuzzTarget = {
  name: 'pak',
  formats: [],
  text: false,
  parse: readPakSync,
  structure: pakStructure,
  check: checkPak,
  memory: PAK_MEMORY_BOUND,
  seeds: pakSeeds,
  // BAD_MAGIC, TRUNCATED, BAD_OFFSET, OVERLAPPING_ENTRIES (INFLATE_LIMIT needs a 4 MiB directory)
  minErrorCodes: 4,
};

// --- images ---------------------------------------------------------------------------------------------------

/** A decoded image's shape: RGBA of exactly width × height pixels, or the input itself passed through. */
export function checkImage(image: unknown, bytes: Uint8Array): string {
  const img = image as DecodedImage;
  if (!Number.isInteger(img.width) || !Number.isInteger(img.height) || img.width < 1 || img.height < 1) return `size ${img.width}×${img.height}`;
  if (img.kind === 'rgba') {
    if (!(img.rgba instanceof Uint8Array)) return 'rgba is not a Uint8Array';
    if (img.rgba.length !== img.width * img.height * 4) return `rgba.length ${img.rgba.length} for ${img.width}×${img.height}`;
  } else if (img.kind === 'passthrough') {
    if (img.bytes !== bytes) return 'passthrough bytes are not the input';
  } else return `kind ${(img as { kind: string }).kind}`;
  return checkWarnings(img, bytes);
}

/**
 * Re-encode a decoded image as PNG (what the glTF exporter will do with it) and read the PNG's header back: it must
 * be a PNG of the same size. Large images are skipped (encoding costs ~10 ns a byte, the budget is better spent on
 * more inputs).
 */
function useImage(image: unknown): void {
  const img = image as DecodedImage;
  if (img.kind !== 'rgba' || img.width * img.height > 1 << 16) return;
  const info = pngInfo(encodePng(img.rgba, img.width, img.height));
  if (info.width !== img.width || info.height !== img.height) throw new Error(`encodePng wrote ${info.width}×${info.height} for ${img.width}×${img.height}`);
}

const fixtureSeeds = (ext: string) => () =>
  (imageFixtures() as { name: string; bytes: Uint8Array }[]).filter((f) => f.name.endsWith(ext)).map((f) => ({ name: `fixtures:${f.name}`, bytes: f.bytes }));

/**
 * DDS seeds: the corpus's DXT1/DXT5 files cut to their top-left 64×64 (the header with the size changed, and the
 * first 16 blocks of the first 16 block rows: a real texture's blocks at a cost per input the budget can carry),
 * and every generated variant (fixtures/generate-dds.mjs).
 */
function ddsSeeds(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  for (const f of files.filter((x) => /\.dds$/i.test(x.name))) {
    const b = f.bytes;
    const width = (b[16] | (b[17] << 8) | (b[18] << 16)) >>> 0;
    const block = b[84 + 3] === 0x31 ? 8 : 16; // DXT1 : DXT3/5
    const perRow = Math.ceil(width / 4) * block;
    const crop = new Uint8Array(128 + 16 * 16 * block);
    crop.set(b.subarray(0, 128));
    new DataView(crop.buffer).setUint32(12, 64, true);
    new DataView(crop.buffer).setUint32(16, 64, true);
    new DataView(crop.buffer).setUint32(28, 1, true);
    for (let r = 0; r < 16; r++) crop.set(b.subarray(128 + r * perRow, 128 + r * perRow + 16 * block), 128 + r * 16 * block);
    out.push({ name: `${f.name} (64×64)`, bytes: crop });
  }
  return out;
}

const images: FuzzTarget[] = [
  {
    name: 'tga',
    formats: ['image'],
    seedFilter: (p) => /\.tga$/i.test(p),
    extraSeeds: fixtureSeeds('.tga'),
    text: false,
    parse: (b) => decodeImage(b, 'fuzz.tga'),
    structure: tgaStructure,
    check: checkImage,
    use: useImage,
    memory: IMAGE_MEMORY_BOUND,
  },
  {
    name: 'pcx',
    formats: ['image'],
    seedFilter: (p) => /\.pcx$/i.test(p),
    extraSeeds: fixtureSeeds('.pcx'),
    text: false,
    parse: (b) => decodeImage(b, 'fuzz.pcx'),
    structure: pcxStructure,
    check: checkImage,
    use: useImage,
    memory: IMAGE_MEMORY_BOUND,
  },
  {
    name: 'dds',
    formats: ['image'],
    seedFilter: (p) => /\.dds$/i.test(p),
    seeds: ddsSeeds,
    extraSeeds: () => (ddsFixtures() as { name: string; bytes: Uint8Array }[]).map((f) => ({ name: `fixtures:${f.name}`, bytes: f.bytes })),
    text: false,
    parse: (b) => decodeImage(b, 'fuzz.dds'),
    structure: ddsStructure,
    check: checkImage,
    use: useImage,
    memory: IMAGE_MEMORY_BOUND,
    // A DDS fails in four ways: not "DDS " (BAD_MAGIC), cut short (TRUNCATED), a variant not read (UNSUPPORTED), a size out of bounds (BAD_COUNT).
    minErrorCodes: 4,
  },
  {
    // No name: the format comes from the bytes (BMP, PNG and JPEG headers, and TGA/PCX when they look like one).
    name: 'image',
    formats: ['image'],
    seedFilter: (p) => /\.(bmp|png|jpe?g)$/i.test(p),
    extraSeeds: fixtureSeeds('.bmp'),
    text: false,
    parse: (b) => decodeImage(b),
    structure: imageStructure,
    check: checkImage,
    use: useImage,
    memory: IMAGE_MEMORY_BOUND,
  },
];

const iqm: FuzzTarget = {
  name: 'iqm',
  formats: ['iqm'],
  // the small files: a corpus of 178 would spend the fixed budget mostly on re-reading large meshes
  seedFilter: (path) => /(turret_sphere|mine_pose|idle|janitor\/lod2\/lod2|boost_up)\.iqm$/.test(path),
  text: false,
  parse: parseIqm,
  parseChunks: pushParse(() => new IqmParser()),
  structure: iqmStructure,
  check: (m, b) => checkIqm(m) || checkGeneric(iqmAsRead(m), b),
  use: poseIqm,
  memory: PARSER_MEMORY_BOUND,
};

export const TARGETS: readonly FuzzTarget[] = [...md5, md2, md3, mdl, iqm, ...scripts, zip, pak, ...images, inflationTarget, namesTarget];
