/**
 * The bounds that keep memory proportional to what the caller handed us (docs/security.md): a small file must not
 * make us allocate much, whatever it declares. Each is checked before the bytes or pixels it guards are made, and a
 * refusal is a RESOURCE_LIMIT (INFLATE_LIMIT for archives) naming the file, the limit and how to raise it.
 *
 * The defaults pass every real file of the test corpus with room (docs/security.md gives each margin), and stay far
 * above what the engines load. They are process-wide defaults: each room also takes its own per-call option
 * (`openArchive(…, { limits })`, `decodeImage(…, { maxPixels })`, `new MaterialResolver(fs, { maxScriptBytes })`,
 * `importGltf({ …, limits })`), which wins; `setResourceLimits` changes the defaults for the whole process, which is
 * what the CLI's `--limit NAME=N` does.
 */
import { ErrorCode, ModelParseError } from './errors.js';

export interface ResourceLimits {
  /**
   * Archives: the sum of the members' declared sizes may be at most this many times the archive's own size, plus
   * {@link ARCHIVE_ALLOWANCE_BYTES}; checked when the archive is opened. No member inflates past its declared size,
   * so this bounds every byte an archive can make.
   */
  maxTotalRatio: number;
  /** Archives: the largest declared size of one member. */
  maxMemberBytes: number;
  /** Decoded images (TGA, PCX, BMP): the most pixels one image may decode to (4 bytes each). */
  maxImagePixels: number;
  /** Shader scripts, .mtr, .skin, animation.cfg, md5.cfg, an IQM's iqm.cfg and .framegroups: the largest such file read. */
  maxScriptBytes: number;
  /** glTF: the most nodes a document may have. */
  maxGltfNodes: number;
  /** glTF: the deepest a node may sit below its scene's root (a root node is at depth 0). */
  maxGltfDepth: number;
  /** glTF: the largest image file a `.gltf` names (buffers are bounded by their declared byteLength). */
  maxGltfFileBytes: number;
  /**
   * glTF export of MD2/MD3: the most morph weights one clip's animation may hold (keyframes × targets, one target a
   * frame: quadratic in the frame count, so an MD3 of 60,000 tiny frames would ask for 3.6 GB).
   */
  maxMorphWeights: number;
  /**
   * glTF export of MD5: the most joint poses (frames × joints, summed over the animations) one glTF holds. An
   * md5anim frame with nothing animated is a dozen bytes of text but a pose of every joint in the output: 70 MB
   * of two million empty frames for a 27-joint mesh took 7 GB to export.
   */
  maxAnimationKeys: number;
  /**
   * IQM: the most clips one model's side files may name — an `iqm.cfg`'s `iqmanim` names (through its `exec`s) or a
   * `.framegroups` file's groups. Each clip is an animation of every joint in every door (glTF, view, playable): an
   * 800 KB `.framegroups` of 200,000 one-frame groups made 200,000 glTF animations and took 1.2 GB.
   */
  maxAnimationClips: number;
  // ——— issue 36 (IQM, MDL, MD2): amplification by the exports of MDL and MD2 ———
  /**
   * glTF export of MDL and MD2: the most drawn vertices × frames (each a decoded position and normal per morph
   * target) one export holds, where the drawn vertices are more than twice the vertices the file stores. MDL's and
   * MD2's triangles may name a texture coordinate apart from the position, so one stored vertex can be drawn once
   * per st it is paired with: a 517 KB Hexen II model of 1 vertex, 20,000 st and 2,000 poses asked for 40 million.
   */
  maxMorphVertices: number;
  /**
   * glTF export of IQM: the most animations one glTF holds. An IQM anim record is 20 bytes of the file, a glTF
   * animation ~8 KB of the exporter's memory (its accessors, buffer views and JSON) whatever its frames: 140,000 anims
   * of 2 frames took 955 MiB.
   */
  maxGltfAnimations: number;

  // ——— glTF → id formats (import/ → write/: MD3, MD2, MDL, MD5, IQM; issue 36). What one glTF may make an import
  // sample, counted before the loop or the copy each guards. A per-call option wins: `maxFrames` / `maxBytes` of
  // the import's options, or `importGltf({ bytes, limits: { … } })` for all three. ———
  /**
   * glTF import: the most frames sampled from a glTF's animations in all (each ⌊duration × rate⌋ + 1), counted before
   * any is sampled: two keys 4,360 s apart are 65,401 frames at 15 fps, whatever the file's size.
   */
  maxImportFrames: number;
  /**
   * glTF import: the most bytes the sampled frames take in the model being built, counted before any is sampled
   * (per frame: MD3 56 + 112 per tag + 8 per vertex; MD2 4 per vertex; MDL 52 per vertex, every frame posed before its
   * one grid is chosen; MD5 48 per joint and 4 per vertex posed for the bounds, IQM 128 per joint: its float64 channels too). 4,095 vertices moved over
   * 4,360 s asked for a 2 GB MD3 (6 GB to build) from a 50 KB glb.
   */
  maxImportBytes: number;
  /**
   * glTF import: the most morph target vertices (targets × vertices, over every primitive of every mesh node) an
   * import reads, each copied as 24 bytes and weighed each frame: counted before any is copied, whatever accessors
   * the targets share (50,000 targets naming one 3,072-vertex accessor asked for 1.8 GB).
   */
  maxMorphTargetVertices: number;

  // ——— issue 39 (RTCW/ET MDC) ———
  /**
   * MDC: the most bytes its frames decode to (vertices × frames × 8, over the surfaces: formats/mdc/to-md3.ts), counted
   * before any is decoded. A frame of an MDC can be two int16 of frame table naming a base frame of every vertex, so a
   * small file can ask for frames of thousands of vertices each: a 1 MB file of 10,000-vertex surfaces and 250,000
   * frames would decode to 20 GB.
   */
  maxMdcFrameBytes: number;
  // ——— glTF → MD2 / MDL atlas (issue 41) ———
  /**
   * glTF import to MD2 / MDL: the most pixels of the materials' images packed into one skin (import/gltf-atlas.ts):
   * the images decoded, in all, and the texels baked (an image repeated 3 times counts 3 times), checked before each
   * decode (from the size the PNG / JPEG header declares) and before baking. 100 materials naming 4096² PNGs of
   * 22 KB in all asked for 6.7 GB of RGBA. Over it the atlas is refused (a warning) and the model keeps one skin.
   */
  maxAtlasPixels: number;
  // ——— issue 39 (RtCW's MDS, ET's MDM): records several surfaces or tags may share ———
  /**
   * MDS and MDM: the most records (vertices, weights, triangle indices, collapse-map entries, bone references) one
   * file's surfaces and tags hold in all, counted before each surface or tag is read. Each surface and tag places its
   * records by offsets of its own, so many may name one block of the file: 4,000 surfaces of 176 bytes naming one
   * 312 KB block of 6,000 vertices would ask for 24 million vertices from a 1 MB file.
   */
  maxMeshRecords: number;
}

/** Archives' fixed allowance on top of `maxTotalRatio` × their size: a tiny archive of ordinary files always opens. */
export const ARCHIVE_ALLOWANCE_BYTES = 1 << 20;

/** The built-in limits (made by a call marked pure: a bundler keeps a table of products such as `256 * 1024 * 1024` otherwise). */
export const DEFAULT_RESOURCE_LIMITS: Readonly<ResourceLimits> = /* @__PURE__ */ defaultLimits();

function defaultLimits(): Readonly<ResourceLimits> {
  return Object.freeze({
    maxTotalRatio: 64,
    maxMemberBytes: 256 * 1024 * 1024,
    maxImagePixels: 8192 * 8192,
    maxScriptBytes: 8 * 1024 * 1024,
    maxGltfNodes: 16384,
    maxGltfDepth: 256,
    maxGltfFileBytes: 256 * 1024 * 1024,
    maxMorphWeights: 1 << 26,
    maxAnimationKeys: 1 << 24,
    maxAnimationClips: 4096,
    // issue 36
    maxMorphVertices: 1 << 21,
    maxGltfAnimations: 1 << 14,
    // glTF → id formats (see the interface)
    maxImportFrames: 65536,
    maxImportBytes: 64 * 1024 * 1024,
    maxMorphTargetVertices: 1 << 22,
    // issue 39
    maxMdcFrameBytes: 256 * 1024 * 1024,
    // glTF → MD2 / MDL atlas (issue 41)
    maxAtlasPixels: 4096 * 4096,
    maxMeshRecords: 1 << 21,
  });
}

let current: Readonly<ResourceLimits> = DEFAULT_RESOURCE_LIMITS;

/** The limits in force for this process: the defaults, or what `setResourceLimits` set. */
export function resourceLimits(): Readonly<ResourceLimits> {
  return current;
}

/**
 * Changes the process-wide defaults (the ones not given are left as they are; `{}` after `resetResourceLimits()`
 * gives the built-in ones). Each value must be a positive number (Infinity lifts the limit); else a RangeError.
 */
export function setResourceLimits(limits: Partial<ResourceLimits>): void {
  for (const [name, v] of Object.entries(limits)) {
    if (!Object.hasOwn(DEFAULT_RESOURCE_LIMITS, name)) throw new RangeError(`no resource limit ${name} (limits: ${Object.keys(DEFAULT_RESOURCE_LIMITS).join(', ')})`);
    if (typeof v !== 'number' || !(v > 0)) throw new RangeError(`resource limit ${name} must be a number > 0, not ${String(v)}`);
  }
  current = Object.freeze({ ...current, ...limits });
}

/** Back to the built-in defaults. */
export function resetResourceLimits(): void {
  current = DEFAULT_RESOURCE_LIMITS;
}

/**
 * The refusal: `what` (the file or element, with its value) is over `limit` = `value`. The detail says which
 * option raises it, by the name `setResourceLimits` and the CLI's `--limit` take.
 */
export function overLimit(what: string, limit: keyof ResourceLimits, value: number, offset = 0, code: ErrorCode = ErrorCode.ResourceLimit): ModelParseError {
  return new ModelParseError(code, `${what}: over the limit ${limit} = ${value} (raise it with --limit ${limit}=N, or the ${limit} option)`, { offset });
}
