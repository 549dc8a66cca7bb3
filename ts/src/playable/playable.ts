/**
 * Any model format reduced to what a player needs: triangles to draw, clips to pick, and a poser per backend
 * that writes positions and normals. The demo page and the worker both open files through `openPlayable`
 * (`open.ts`), one dispatch by format, so a new format is one adapter and nothing changes in the page or the worker.
 */
import type { PoseBackend } from '../kernels/backend.js';
import type { ByteSource } from '../base/source.js';
import { backToBackIndices } from '../pose/morph-poser.js';
import { checkTime } from '../pose/timing.js';
import type { Md2Model, Md3Model, Md5Mesh, MdlModel } from '../base/model.js';
import type { MaterialWarning } from '../materials/types.js';
import type { PlayableMaterial, PlayableTextureOptions } from './materials.js';
import type { PlayablePart } from './part.js';

export type { PlayableMaterial, PlayableImage, PlayableTextureOptions } from './materials.js';

/** One file to open: its name (for the format and the clip name), its bytes, and its size when known. */
export interface ModelFile {
  name: string;
  source: ByteSource;
  /** Bytes, for the progress total (a File's `size`, a response's Content-Length). */
  size?: number;
}

/**
 * A named run of frames. `closesOnLastFrame`: MD5 semantics, where a cycle lasts (frameCount − 1) / frameRate
 * and the last frame is where it wraps; otherwise (MD2, MD3) the last frame blends back into the first.
 */
export interface Clip {
  name: string;
  frameCount: number;
  frameRate: number;
  closesOnLastFrame: boolean;
}

export type { PlayablePart } from './part.js';

/** What the main thread needs to draw a model it does not pose itself (all plain data: posts to a worker). */
export interface PlayableInfo {
  /** The id of the model's format (`md5mesh`, `md2`, `md3` …; a Quake 3 player's is `md3`). */
  format: string;
  vertexCount: number;
  /** 3 indices per triangle into the posed vertex arrays. Winding differs by format: draw both faces. */
  indices: Uint32Array;
  parts: PlayablePart[];
  clips: Clip[];
  /** One line for people: counts of joints, meshes, vertices, triangles. */
  summary: string;
  /**
   * Texture coordinates, 2 per vertex (u, v with v down the image, as the formats store them). An MD2's vertices
   * are its (position, texture coordinate) pairs, welded, so `vertexCount` may exceed the file's num_xyz.
   */
  uvs: Float32Array;
  /** Per part, when `openPlayable` was given `textures`: its image and render state. Else empty. */
  materials: PlayableMaterial[];
  /** What was not found or not decoded while texturing (one per missing name). */
  textureWarnings: MaterialWarning[];
}

/**
 * What an entity sets on a model besides its clip and frame, for formats that have it (a Half-Life model's bone
 * controllers, index → degrees or units, and its blending bytes: formats/goldsrc/controls.ts).
 */
export interface PoseControls {
  controllers?: ReadonlyMap<number, number> | Readonly<Record<number, number>>;
  blend?: readonly number[];
}

/** Poses one model on one backend. Frame indices are local to the current clip. */
export interface ModelPlayer {
  readonly backend: PoseBackend;
  setClip(index: number): void;
  /** The controls the next poses use, where the format has them (absent elsewhere). */
  setControls?(controls: PoseControls): void;
  /** Frames `frame1` and `frame2` of the current clip blended by `t` (frame2's weight), skinned. */
  poseBlend(frame1: number, frame2: number, t: number): void;
  /** Views valid until the next pose call (see `Md5Poser.positions`). */
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  dispose(): void;
}

/** What a player reads off its poser, whatever the format (`Md5Poser`, `Md2Poser`, `Md3Poser`). */
export interface PlayerPoser {
  readonly backend: PoseBackend;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  dispose(): void;
}

/** A player over `poser`: clip choice and blending are the format's, backend, outputs and lifetime the poser's. */
export function poserPlayer(poser: PlayerPoser, play: Pick<ModelPlayer, 'setClip' | 'poseBlend'>): ModelPlayer {
  return {
    backend: poser.backend,
    setClip: play.setClip,
    poseBlend: play.poseBlend,
    get positions() {
      return poser.positions;
    },
    get normals() {
      return poser.normals;
    },
    dispose: () => poser.dispose(),
  };
}

export interface PlayableModel extends PlayableInfo {
  createPlayer(backend: PoseBackend): ModelPlayer;
  /** The parsed model the playable was made from (a Quake 3 player: its three parts). */
  readonly model: Md2Model | Md3Model | Md5Mesh | MdlModel | { lower: Md3Model; upper: Md3Model; head: Md3Model };
  /**
   * The model a source port draws in this one's place when its files were given too (a re-release's MD5 model beside
   * an MD2 or MDL: docs/md5-replacements.md), playable on its own; who loads it so, and what it replaces.
   */
  replacement?: { model: PlayableModel; by: string; replaces: string };
}

export interface OpenOptions {
  signal?: AbortSignal;
  /** Bytes read so far over all files, the total when every size is known, and the file being read. */
  onProgress?: (bytesRead: number, bytesTotal: number | undefined, fileName: string) => void;
  /** Texture the parts: the file system holding the model's skins, scripts and images, and the model's path in it. */
  textures?: Omit<PlayableTextureOptions, 'signal'>;
}

/**
 * The frames to show for a time in seconds, looping: MD5 clips wrap at their last frame, others wrap to the first.
 * NaN or ±Infinity is a RangeError, as for every poser's `poseTime` (pose/timing.ts).
 */
export function clipFrameAtTime(clip: Clip, seconds: number): { frame1: number; frame2: number; t: number } {
  checkTime(seconds);
  const span = clip.closesOnLastFrame ? clip.frameCount - 1 : clip.frameCount;
  if (span <= 0 || clip.frameRate <= 0) return { frame1: 0, frame2: 0, t: 0 };
  let ft = seconds * clip.frameRate;
  if (!Number.isFinite(ft)) ft = (seconds % (span / clip.frameRate)) * clip.frameRate; // overflowed: reduced by the clip's period
  const whole = Math.floor(ft);
  const frame1 = ((whole % span) + span) % span;
  const frame2 = clip.closesOnLastFrame ? frame1 + 1 : (frame1 + 1) % span;
  return { frame1, frame2: Math.min(frame2, clip.frameCount - 1), t: Math.max(0, ft - whole) };
}

/** A piece of a model drawn from the shared vertex arrays: an MD5 mesh, an MD3 surface. */
export interface PartSource {
  name: string;
  vertexCount: number;
  /** 3 per triangle, indices into the piece's own vertices. */
  triangles: ArrayLike<number>;
  slot?: PlayablePart['slot'];
}

/**
 * Pieces whose vertices the posers lay out back to back (MD5 meshes in `meshVertexStart` order, MD3 surfaces
 * as `Md3Poser` does): one index buffer over the combined vertices, and each piece's range of it.
 */
export function partsBackToBack(pieces: PartSource[]): { indices: Uint32Array; parts: PlayablePart[]; vertexCount: number } {
  const indices = backToBackIndices(pieces);
  const parts: PlayablePart[] = [];
  let vertexBase = 0, at = 0;
  for (const p of pieces) {
    parts.push({ name: p.name, firstIndex: at, indexCount: p.triangles.length, ...(p.slot ? { slot: p.slot } : {}) });
    at += p.triangles.length;
    vertexBase += p.vertexCount;
  }
  return { indices, parts, vertexCount: vertexBase };
}

/** Pieces' texture coordinates back to back, as their vertices are. */
export function concatUvs(pieces: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The plain-data part of a model, for posting to another thread. */
export function playableInfo(m: PlayableModel): PlayableInfo {
  return { format: m.format, vertexCount: m.vertexCount, indices: m.indices, parts: m.parts, clips: m.clips, summary: m.summary, uvs: m.uvs, materials: m.materials, textureWarnings: m.textureWarnings };
}
