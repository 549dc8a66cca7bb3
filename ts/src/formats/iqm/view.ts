/**
 * An IQM with what plays on it as a skinned view (`model-view.ts`):
 * - joints at rest as the file stores them (parent-relative translation, rotation, scale), inverse bind matrices as
 *   the kernels make them (`iqmBindMatrices`: ioquake3 R_LoadIQM's joint matrices inverted);
 * - the vertices as stored (IQM vertices are the bind pose), one group per IQM mesh (its material);
 * - one clip per anim — the model's own, then each animation file's (named after the file, `file/anim` for a file of
 *   several) — or, with a DarkPlaces `.framegroups` beside the model, its groups over the model's frames instead: key
 *   k at k / framerate (Tesseract's 10 fps when none), holding frame first + k's decoded channels, and one more key
 *   at the first frame again (the engines' loop blends back into the start);
 * - bounds over the bind pose and every frame of every file (skinned by our kernel, nothing kept);
 * - four influences per vertex as the glTF exporter writes them (`formats/iqm/influences.ts` `iqmInfluences`);
 * - `exact`: our LBS kernel skinning from the bones' object matrices (ioquake3's formula, cofactor normals).
 */
import type { IqmModel } from '../../base/model.js';
import { iqmInfluences } from './influences.js';
import { IQM_DEFAULT_FPS } from '../../pose/iqm-anim-match.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { IQM_BIND_STRIDE, IQM_CHANNELS, LBS_MATRIX_STRIDE } from '../../kernels/layout.js';
import { iqmBindMatrices, iqmDecodeFrame } from '../../kernels/ts-iqm-kernels.js';
import type { ModelSet } from '../../load/model-set.js';
import { IqmPoser } from '../../pose/iqm-poser.js';
import { iqmClipSources, type IqmClipSource } from './playable.js';
import { growBounds, type SkinnedClipView, type SkinnedModelView, type ViewGroup } from '../model-view.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';

/**
 * A clip of `source`: every joint's decoded channels at each of its frames, and the first again. Its frames are
 * clamped to what the file stores (`viewedClips` keeps only clips with at least one).
 */
function clipOf(source: IqmClipSource, joints: number): SkinnedClipView {
  const { file, firstFrame: first, clip } = source;
  const count = storedFrames(source);
  const fps = clip.frameRate > 0 ? clip.frameRate : IQM_DEFAULT_FPS;
  const keys = count + 1;
  const times = Float32Array.from({ length: keys }, (_, k) => k / fps);
  const out = Array.from({ length: joints }, () => ({ translation: new Float32Array(keys * 3), rotation: new Float32Array(keys * 4), scale: new Float32Array(keys * 3) }));
  const decoded = new Float32Array(file.poses.count * IQM_CHANNELS);
  for (let k = 0; k < keys; k++) {
    iqmDecodeFrame(file.poses.masks, file.poses.offsets, file.poses.scales, file.frames, (first + (k % count)) * file.frameChannels, decoded);
    for (let j = 0; j < joints; j++) {
      const o = j * IQM_CHANNELS;
      out[j].translation.set(decoded.subarray(o, o + 3), k * 3);
      const [x, y, z, w] = [decoded[o + 3], decoded[o + 4], decoded[o + 5], decoded[o + 6]];
      const len = Math.hypot(x, y, z, w) || 1;
      out[j].rotation.set([x / len, y / len, z / len, w / len], k * 4);
      out[j].scale.set(decoded.subarray(o + 7, o + 10), k * 3);
    }
  }
  return { name: clip.name, frameRate: fps, frameCount: count, times, joints: out, loop: source.loop ? 'repeat' : 'once' };
}

/** How many of a clip's frames its file stores (0 when its first frame is past them). */
const storedFrames = (s: IqmClipSource) => Math.max(0, Math.min(s.clip.frameCount, s.file.frameCount - s.firstFrame));

/**
 * The clips the view can show: those with frames the file stores, of a file whose poses cover the joints (else a
 * key would read a frame or pose the file lacks: NaN); their keys (frames + 1, × joints) bounded by maxAnimationKeys
 * before any is made.
 */
function viewedClips(sources: IqmClipSource[], joints: number): IqmClipSource[] {
  const shown = sources.filter((s) => s.file.poses.count >= joints && storedFrames(s) > 0);
  const keys = shown.reduce((k, s) => k + (storedFrames(s) + 1) * joints, 0);
  const max = resourceLimits().maxAnimationKeys;
  if (keys > max) throw overLimit(`${shown.length} clip(s) of ${keys / joints} keys in all × ${joints} joints are ${keys} joint poses`, 'maxAnimationKeys', max);
  return shown;
}

export function iqmView(set: ModelSet<IqmModel>, backend: PoseBackend): SkinnedModelView {
  const model = set.data;
  const sources = iqmClipSources(set);
  const J = model.joints.count;
  const V = model.positions ? model.positions.length / 3 : 0;
  const poser = new IqmPoser(backend, model);
  let owned = true;
  try {
    const jt = model.joints;
    const bind = new Float32Array(Math.max(1, J) * IQM_BIND_STRIDE), inv = new Float32Array(Math.max(1, J) * IQM_BIND_STRIDE);
    iqmBindMatrices(jt.parents, jt.translate, jt.rotate, jt.scale, bind, inv);
    // row-major 3×4 → column-major 4×4
    const inverseBind = new Float64Array(J * 16);
    for (let j = 0; j < J; j++) {
      const r = j * IQM_BIND_STRIDE;
      for (let row = 0; row < 3; row++) for (let c = 0; c < 4; c++) inverseBind[j * 16 + c * 4 + row] = inv[r + row * 4 + c];
      inverseBind[j * 16 + 15] = 1;
    }
    let bounds = growBounds(null, poser.bindPose().positions);
    if (poser.skinned) {
      for (const file of new Set(sources.map((s) => s.file))) {
        poser.setAnimation(file);
        // frames of no channels are all the same pose (every mask empty): one is their box
        const distinct = file.frameChannels === 0 ? Math.min(1, file.frameCount) : file.frameCount;
        for (let f = 0; f < distinct; f++) bounds = growBounds(bounds, poser.poseFrame(f).positions);
      }
      poser.setAnimation(null);
    }
    poser.bindPose();
    const groups: ViewGroup[] = model.meshes.map((m, i) => ({ name: m.name, material: m.material || m.name || `mesh ${i}`, start: m.firstTriangle * 3, count: m.triangleCount * 3 }));
    const clips = J > 0 ? viewedClips(sources, J).map((s) => clipOf(s, J)) : [];
    const view: SkinnedModelView = {
      kind: 'skinned',
      joints: { names: jt.names, parents: jt.parents, translations: jt.translate, rotations: jt.rotate, scales: jt.scale, inverseBind },
      vertexCount: V,
      positions: model.positions ? model.positions.slice() : new Float32Array(0),
      normals: model.normals ? model.normals.slice() : new Float32Array(V * 3),
      st: model.texcoords ? model.texcoords.slice() : new Float32Array(V * 2),
      triangles: model.triangles,
      groups,
      bounds,
      clips,
      influences() {
        const inf = iqmInfluences(model, 0, V);
        return { joints: Uint16Array.from(inf.joints), weights: inf.weights, dropped: { vertices: 0, maxWeight: 0 }, unweighted: inf.unskinned };
      },
      dispose() {
        if (owned) poser.dispose();
        owned = false;
      },
      warnings: [],
    };
    if (poser.skinned) {
      view.exact = () => {
        owned = false;
        // the caller writes each joint's object matrix (row-major 3×4); the kernel wants object · inverse bind (column-major 4×4)
        const objects = new Float32Array(J * 12);
        return {
          jointMatrices: objects,
          stride: 12,
          skin() {
            const next = poser.jointMatrices;
            for (let j = 0; j < J; j++) {
              const a = j * 12, b = j * 16, d = j * LBS_MATRIX_STRIDE;
              for (let c = 0; c < 4; c++) {
                for (let r = 0; r < 3; r++) {
                  next[d + c * 4 + r] = Math.fround(objects[a + r * 4] * inverseBind[b + c * 4] + objects[a + r * 4 + 1] * inverseBind[b + c * 4 + 1] + objects[a + r * 4 + 2] * inverseBind[b + c * 4 + 2] + (c === 3 ? objects[a + r * 4 + 3] : 0));
                }
                next[d + c * 4 + 3] = c === 3 ? 1 : 0;
              }
            }
            poser.skin();
            return { positions: poser.positions, normals: poser.normals.length ? poser.normals : new Float32Array(V * 3) };
          },
          dispose: () => poser.dispose(),
        };
      };
    }
    return view;
  } catch (e) {
    poser.dispose();
    throw e;
  }
}
