/**
 * Tags (a morph view's `TagView`: MD3's) as three.js objects: one `Object3D` per tag, a child of its model's part,
 * whose position and rotation follow the tag frame by frame (tracks keyed with the clip's keys), so whatever hangs
 * under it — the next player part, a weapon, a muzzle flash — moves with it. A tag maps a point p of the attached
 * model to origin + Σ p[i] · axis[i] (ioquake3 CG_PositionEntityOnTag): the rotation whose columns are the stored
 * axes. Stored axes are made orthonormal first (the view's Gram–Schmidt) so the rotation is one; mirrored axes (a
 * negative determinant, which no quaternion holds) get their third axis flipped, with a warning (the glTF exporter's
 * rule, `formats/md3/gltf.ts`).
 *
 * Between frames three slerps the rotation; the engine lerps the axes and normalises each (R_LerpTag), which is not
 * a rotation: the two agree at every frame and differ mid-step by the lerp's shear (measured in docs/three.md).
 */
import { Object3D, QuaternionKeyframeTrack, VectorKeyframeTrack, type KeyframeTrack } from 'three';
import type { ParseWarning } from '../base/errors.js';
import { tagQuaternion } from '../pose/md3-tag.js';
import type { TagView } from '../formats/model-view.js';

/** Floats of a placed tag: origin, then three axes. */
const TAG_FLOATS = 12;

export interface TagTrs {
  position: [number, number, number];
  quaternion: [number, number, number, number];
}

/** Tag `k` at frame `f` as a translation and a rotation (the file's axes); `mirrored` collects tags warned about. */
export function tagTrs(tags: TagView, k: number, f: number, mirrored: Set<number>, warnings: ParseWarning[]): TagTrs {
  const tag = tags.place(k, f, f, 0, new Float32Array(TAG_FLOATS), true);
  const a = tag.subarray(3, 12);
  const det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
  if (det < 0) {
    if (!mirrored.has(k)) {
      mirrored.add(k);
      warnings.push({ code: 'TAG_MIRRORED', message: `tag "${tags.names[k]}" has mirrored axes (first at frame ${f}): placed by the rotation with its third axis flipped`, offset: 0 });
    }
    for (let i = 6; i < 9; i++) a[i] = -a[i];
  }
  return { position: [tag[0], tag[1], tag[2]], quaternion: tagQuaternion(a) };
}

/** One object per tag, named `names[k]`, at the tag's frame-0 placement (what the model shows at rest). */
export function tagObjects(tags: TagView, names: readonly string[], frameCount: number, warnings: ParseWarning[]): Object3D[] {
  const mirrored = new Set<number>();
  return names.map((name, k) => {
    const o = new Object3D();
    o.name = name;
    if (frameCount > 0) {
      const trs = tagTrs(tags, k, 0, mirrored, warnings);
      o.position.fromArray(trs.position);
      o.quaternion.fromArray(trs.quaternion);
    }
    o.userData.idtech = { tag: tags.names[k] };
    return o;
  });
}

/** Position and rotation tracks of every tag (objects named `names`) for a clip showing `frames`, one per key at `times`. */
export function tagTracks(tags: TagView, names: readonly string[], frames: readonly number[], times: Float32Array): KeyframeTrack[] {
  const mirrored = new Set(names.map((_, k) => k)); // warned once, when the objects were made
  const tracks: KeyframeTrack[] = [];
  names.forEach((name, k) => {
    const t = new Float32Array(frames.length * 3), r = new Float32Array(frames.length * 4);
    frames.forEach((f, i) => {
      const trs = tagTrs(tags, k, f, mirrored, []);
      t.set(trs.position, i * 3);
      r.set(trs.quaternion, i * 4);
    });
    tracks.push(new VectorKeyframeTrack(`${name}.position`, times, t).optimize());
    tracks.push(new QuaternionKeyframeTrack(`${name}.quaternion`, times, r).optimize());
  });
  return tracks;
}
