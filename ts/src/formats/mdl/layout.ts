/**
 * Where each record of an MDL lies. MDL has no offsets: the skins, st vertices, triangles and frames follow the
 * header one after another, and a skin or frame group's size depends on its own count. The walk reads only the type
 * words and group counts, and records where everything starts; it resumes where it stopped when more bytes arrive
 * (a streamed file), so a record is looked at only once its bytes are there: memory follows the bytes received,
 * never a count's claim. What it checks is what decides the layout (group counts); the body reader does the rest.
 */
import { ErrorCode } from '../../base/errors.js';
import { fail, type MdlHeader } from './header.js';
import { MDL_FRAME_GROUP_BYTES, MDL_POSE_HEADER_BYTES, MDL_ST_BYTES, MDL_TRIANGLE_BYTES, MDL_VERTEX_BYTES } from './limits.js';

export interface SkinRecord {
  /** Where the record's type word is. */
  at: number;
  type: number;
  pictureCount: number;
  /** A group's intervals (pictureCount floats); -1 for a single picture. */
  intervalsAt: number;
  /** The first picture's texels. */
  picturesAt: number;
}

export interface FrameRecord {
  at: number;
  type: number;
  poseCount: number;
  /** A group's bboxmin (bboxmax follows); -1 for a single frame. */
  boundsAt: number;
  intervalsAt: number;
  /** The first pose (daliasframe_t, then its vertices). */
  posesAt: number;
}

/** The index of the last record starting at or before `at`, or -1. */
function lastAtOrBefore(records: readonly { at: number }[], at: number): number {
  let i = records.length - 1;
  while (i >= 0 && records[i].at > at) i--;
  return i;
}

type Section = 'skins' | 'st' | 'triangles' | 'frames' | 'done';

/** The layout found so far; `advance` moves it on over the bytes there are. */
export class MdlLayout {
  readonly skins: SkinRecord[] = [];
  readonly frames: FrameRecord[] = [];
  stAt = -1;
  trianglesAt = -1;
  /** One pose's bytes: its 24-byte header and numverts vertices (twice for MD16). */
  readonly poseBytes: number;
  readonly pictureBytes: number;
  pictureCount = 0;
  poseCount = 0;
  private section: Section = 'skins';
  /** Where the walk is. */
  cursor: number;

  constructor(readonly header: MdlHeader) {
    this.cursor = header.headerBytes;
    this.pictureBytes = header.skinWidth * header.skinHeight;
    this.poseBytes = MDL_POSE_HEADER_BYTES + header.vertexCount * MDL_VERTEX_BYTES * (header.variant === 'MD16' ? 2 : 1);
  }

  get done(): boolean {
    return this.section === 'done';
  }

  /** The end of the last frame (once done). */
  get end(): number {
    return this.cursor;
  }

  /** Which record the byte at `at` belongs to, for a TRUNCATED message (`at` being where the input ended). */
  whereIs(at: number): string {
    const h = this.header;
    if (at < h.headerBytes) return `the ${h.headerBytes}-byte header`;
    if (this.stAt < 0 || at < this.stAt) {
      const skin = lastAtOrBefore(this.skins, at);
      return skin >= 0 ? `skin ${skin} of ${h.skinCount}` : 'the skins';
    }
    if (at < this.trianglesAt) return `the ${h.stCount} st vertices`;
    const framesAt = this.trianglesAt + h.triangleCount * MDL_TRIANGLE_BYTES;
    if (at < framesAt) return `the ${h.triangleCount} triangles`;
    const frame = lastAtOrBefore(this.frames, at);
    return frame >= 0 ? `frame ${frame} of ${h.frameCount}` : 'the frames';
  }

  /** Walks as far as the first `available` bytes of `bytes` allow; true once every record is placed and its bytes are there. */
  advance(bytes: Uint8Array, available: number): boolean {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const int = (at: number) => view.getInt32(at, true);
    const h = this.header;
    while (this.section !== 'done') {
      const at = this.cursor;
      if (this.section === 'skins') {
        if (this.skins.length === h.skinCount) {
          this.section = 'st';
          continue;
        }
        if (at + 4 > available) return false;
        const type = int(at);
        if (type === 0) {
          // Sized by the header: placed now, its texels checked present at the end of the walk.
          this.skins.push({ at, type, pictureCount: 1, intervalsAt: -1, picturesAt: at + 4 });
          this.pictureCount++;
          this.cursor = at + 4 + this.pictureBytes;
          continue;
        }
        if (at + 8 > available) return false;
        const n = int(at + 4);
        if (n < 0) fail(ErrorCode.BadCount, `skin ${this.skins.length} is a group of ${n} pictures`, at + 4);
        this.skins.push({ at, type, pictureCount: n, intervalsAt: at + 8, picturesAt: at + 8 + 4 * n });
        this.pictureCount += n;
        this.cursor = at + 8 + 4 * n + n * this.pictureBytes;
        continue;
      }
      if (this.section === 'st') {
        this.stAt = at;
        this.cursor = at + h.stCount * MDL_ST_BYTES;
        this.section = 'triangles';
        continue;
      }
      if (this.section === 'triangles') {
        this.trianglesAt = at;
        this.cursor = at + h.triangleCount * MDL_TRIANGLE_BYTES;
        this.section = 'frames';
        continue;
      }
      // frames
      if (this.frames.length === h.frameCount) {
        // The last pose's bytes must be there too: then every record placed before lies inside them.
        if (this.cursor > available) return false;
        this.section = 'done';
        continue;
      }
      if (at + 4 > available) return false;
      const type = int(at);
      if (type === 0) {
        this.frames.push({ at, type, poseCount: 1, boundsAt: -1, intervalsAt: -1, posesAt: at + 4 });
        this.poseCount++;
        this.cursor = at + 4 + this.poseBytes;
        continue;
      }
      if (at + 8 > available) return false;
      const n = int(at + 4);
      // A group of no pose gives its frame nothing to draw (QuakeSpasm would draw the next frame's pose, or read
      // past the last): refused.
      if (n < 1) fail(ErrorCode.BadCount, `frame ${this.frames.length} is a group of ${n} poses; a frame group needs at least one`, at + 4);
      this.frames.push({ at, type, poseCount: n, boundsAt: at + 8, intervalsAt: at + 4 + MDL_FRAME_GROUP_BYTES, posesAt: at + 4 + MDL_FRAME_GROUP_BYTES + 4 * n });
      this.poseCount += n;
      this.cursor = at + 4 + MDL_FRAME_GROUP_BYTES + 4 * n + n * this.poseBytes;
    }
    return true;
  }
}
