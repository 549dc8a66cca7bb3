/**
 * The exact skinning mode: a plain `Mesh` whose vertices our kernels skin on the CPU (WASM or TS backend) from the
 * same bones three's AnimationMixer moves, with every weight of every vertex (a skinned view's `exact` skinner:
 * MD5's formula, where three's GPU skinning keeps four influences per vertex). Nothing about animation changes:
 * clips, actions, cross-fades and additive blending drive the bones as for a `SkinnedMesh`; before each draw
 * (`onBeforeRender`, or `sync()` called by hand, e.g. before a shadow pass or a raycast) the bones' object-space
 * matrices — composed parent first, relative to the model's Z-up group — are written into the skinner's joint
 * matrices and it skins. Joint matrices that did not change since the last sync skip the work.
 */
import { BufferAttribute, DynamicDrawUsage, Mesh, type Bone, type BufferGeometry, type Material } from 'three';
import type { JointSkinner } from '../formats/model-view.js';
import { boneObjectMatrices } from './bone-space.js';

export class SkinnedPoserMesh extends Mesh {
  /** Marks meshes whose vertices the adapter writes (`IdTechModel.update` syncs every one). */
  readonly isPoserMesh = true;
  readonly skinner: JointSkinner;
  /** One per joint, in joint order (the skeleton's bones). */
  readonly bones: readonly Bone[];
  private readonly parents: Int32Array;
  private readonly last: Float32Array;
  private readonly object: Float64Array;
  /** One per skinned joint: the weights' scales its scale bone holds (`JointSkinner.scaleJoints`), 1 for none; null without such bones. */
  private readonly scales: Float32Array | null;

  constructor(geometry: BufferGeometry, material: Material | Material[], skinner: JointSkinner, bones: readonly Bone[], parents: ArrayLike<number>) {
    super(geometry, material);
    this.skinner = skinner;
    this.bones = bones;
    this.parents = Int32Array.from(parents);
    this.last = new Float32Array(bones.length * skinner.stride).fill(NaN);
    this.object = new Float64Array(bones.length * 16);
    this.scales = skinner.scaleJoints?.length ? new Float32Array(skinner.joints ?? bones.length).fill(1) : null;
    for (const name of ['position', 'normal'] as const) (geometry.getAttribute(name) as BufferAttribute).setUsage(DynamicDrawUsage);
    this.onBeforeRender = () => {
      this.sync();
    };
  }

  /** Skins the vertices for the bones' current pose; false when nothing moved since the last call. */
  sync(): boolean {
    const n = Math.min(this.bones.length, this.skinner.joints ?? Infinity);
    const obj = this.object;
    const next = this.skinner.jointMatrices;
    const stride = this.skinner.stride;
    let changed = false;
    boneObjectMatrices(this.bones, this.parents, obj);
    for (let j = 0; j < n; j++) {
      const o = j * 16;
      // The skinner's joint matrix: row-major 3×4 (rows m·0 m·1 m·2 t·).
      const d = j * stride;
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 4; c++) {
          const v = Math.fround(obj[o + c * 4 + r]);
          if (v !== this.last[d + r * 4 + c]) changed = true;
          next[d + r * 4 + c] = v;
        }
      }
    }
    // a scale bone (an md5mesh's `<joint>_md5scale`, at rest under its joint, formats/md5/view.ts) holds its joint's
    // weights' scale as its own: the ratio of the two bones' object-space 3×3 determinants is its cube (sign kept)
    const sj = this.skinner.scaleJoints, scales = this.scales;
    if (sj && scales) {
      for (let k = 0; k < sj.length && n + k < this.bones.length; k++) {
        const j = sj[k];
        const s = Math.fround(Math.cbrt(det3(obj, (n + k) * 16) / det3(obj, j * 16)));
        if (s !== scales[j]) {
          scales[j] = s;
          changed = true;
        }
      }
    }
    if (!changed) return false;
    this.last.set(next.subarray(0, this.last.length));
    const out = scales ? this.skinner.skin(scales) : this.skinner.skin();
    const positions = this.geometry.getAttribute('position') as BufferAttribute;
    const normals = this.geometry.getAttribute('normal') as BufferAttribute;
    (positions.array as Float32Array).set(out.positions);
    (normals.array as Float32Array).set(out.normals);
    positions.needsUpdate = true;
    normals.needsUpdate = true;
    return true;
  }

  /** Frees the skinner's kernel buffers (geometry and materials are freed separately, as three's own objects' are). */
  override dispose(): void {
    super.dispose();
    this.skinner.dispose();
  }
}

/** The determinant of the 3×3 part of the column-major 4×4 at `o`. */
function det3(m: Float64Array, o: number): number {
  return (
    m[o] * (m[o + 5] * m[o + 10] - m[o + 9] * m[o + 6]) -
    m[o + 4] * (m[o + 1] * m[o + 10] - m[o + 9] * m[o + 2]) +
    m[o + 8] * (m[o + 1] * m[o + 6] - m[o + 5] * m[o + 2])
  );
}
