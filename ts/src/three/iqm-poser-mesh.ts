/**
 * The exact IQM mode: a plain `Mesh` whose vertices our LBS kernel skins (WASM or TS backend) from the bones three's
 * AnimationMixer moves — ioquake3's blended-matrix skinning with cofactor normals, where three's shader skins each
 * position by its four matrices and each normal by the blended matrix. Before each draw (`onBeforeRender`, or
 * `sync()` by hand) each bone's object-space matrix (parent first, relative to the model's Z-up group) times its
 * inverse bind matrix is written as the poser's joint matrix (column-major, as three stores it) and the poser skins.
 * Matrices that did not change since the last sync skip the work.
 */
import { BufferAttribute, DynamicDrawUsage, Mesh, type Bone, type BufferGeometry, type Material, type Matrix4 } from 'three';
import { LBS_MATRIX_STRIDE } from '../kernels/layout.js';
import type { IqmPoser } from '../pose/iqm-poser.js';
import { boneObjectMatrices } from './bone-space.js';

export class IqmPoserMesh extends Mesh {
  /** Marks meshes whose vertices the adapter writes (`IdTechModel.update` syncs every one). */
  readonly isPoserMesh = true;
  readonly poser: IqmPoser;
  readonly bones: readonly Bone[];
  private readonly parents: Int32Array;
  private readonly inverses: readonly Matrix4[];
  private readonly last: Float32Array;
  private readonly object: Float64Array;

  constructor(geometry: BufferGeometry, material: Material | Material[], poser: IqmPoser, bones: readonly Bone[], inverses: readonly Matrix4[]) {
    super(geometry, material);
    this.poser = poser;
    this.bones = bones;
    this.inverses = inverses;
    this.parents = Int32Array.from(poser.mesh.joints.parents);
    this.last = new Float32Array(bones.length * LBS_MATRIX_STRIDE).fill(NaN);
    this.object = new Float64Array(bones.length * 16);
    for (const name of ['position', 'normal'] as const) (geometry.getAttribute(name) as BufferAttribute | undefined)?.setUsage(DynamicDrawUsage);
    this.onBeforeRender = () => {
      this.sync();
    };
  }

  /** Skins the vertices for the bones' current pose; false when nothing moved since the last call. */
  sync(): boolean {
    const n = this.bones.length;
    const obj = this.object;
    const next = this.poser.jointMatrices;
    let changed = false;
    boneObjectMatrices(this.bones, this.parents, obj);
    for (let j = 0; j < n; j++) {
      const o = j * 16;
      // skinning matrix = object · inverse bind, column-major (the LBS kernel's layout)
      const inv = this.inverses[j].elements;
      const d = j * LBS_MATRIX_STRIDE;
      for (let c = 0; c < 4; c++) {
        for (let r = 0; r < 4; r++) {
          const v = Math.fround(obj[o + r] * inv[c * 4] + obj[o + 4 + r] * inv[c * 4 + 1] + obj[o + 8 + r] * inv[c * 4 + 2] + obj[o + 12 + r] * inv[c * 4 + 3]);
          if (v !== this.last[d + c * 4 + r]) changed = true;
          next[d + c * 4 + r] = v;
        }
      }
    }
    if (!changed) return false;
    this.last.set(next.subarray(0, n * LBS_MATRIX_STRIDE));
    this.poser.skin();
    const positions = this.geometry.getAttribute('position') as BufferAttribute;
    (positions.array as Float32Array).set(this.poser.positions);
    positions.needsUpdate = true;
    const normals = this.geometry.getAttribute('normal') as BufferAttribute | undefined;
    if (normals && this.poser.normals.length) {
      (normals.array as Float32Array).set(this.poser.normals);
      normals.needsUpdate = true;
    }
    return true;
  }

  /** Frees the poser's kernel buffers (geometry and materials are freed separately, as three's own objects' are). */
  override dispose(): void {
    super.dispose();
    this.poser.dispose();
  }
}
