/**
 * The exact MD5 mode: a plain `Mesh` whose vertices our kernels skin on the CPU (WASM or TS backend) from the same
 * bones three's AnimationMixer moves, with every weight of every vertex — the engine's formula, where three's GPU
 * skinning keeps four influences per vertex. Nothing about animation changes: clips, actions, cross-fades and
 * additive blending drive the bones as for a `SkinnedMesh`; before each draw (`onBeforeRender`, or `sync()` called
 * by hand, e.g. before a shadow pass or a raycast) the bones' object-space matrices — composed parent first, relative
 * to the model's Z-up group — are written into the poser's joint matrices and the poser's skinning job runs. Joint
 * matrices that did not change since the last sync skip the work.
 */
import { BufferAttribute, DynamicDrawUsage, Mesh, type Bone, type BufferGeometry, type Material } from 'three';
import { MATRIX_STRIDE } from '../kernels/layout.js';
import type { Md5Poser } from '../pose/md5-poser.js';
import { boneObjectMatrices } from './bone-space.js';

export class Md5PoserMesh extends Mesh {
  /** Marks meshes whose vertices the adapter writes (`IdTechModel.update` syncs every one). */
  readonly isPoserMesh = true;
  readonly poser: Md5Poser;
  /** One per joint, in joint order (the skeleton's bones). */
  readonly bones: readonly Bone[];
  private readonly parents: Int32Array;
  private readonly last: Float32Array;
  private readonly object: Float64Array;

  constructor(geometry: BufferGeometry, material: Material | Material[], poser: Md5Poser, bones: readonly Bone[]) {
    super(geometry, material);
    this.poser = poser;
    this.bones = bones;
    this.parents = Int32Array.from(poser.mesh.joints.parents);
    this.last = new Float32Array(bones.length * MATRIX_STRIDE).fill(NaN);
    this.object = new Float64Array(bones.length * 16);
    for (const name of ['position', 'normal'] as const) (geometry.getAttribute(name) as BufferAttribute).setUsage(DynamicDrawUsage);
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
      // The kernels' joint matrix: row-major 3×4 (rows m·0 m·1 m·2 t·) padded to 16 floats.
      const d = j * MATRIX_STRIDE;
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 4; c++) {
          const v = Math.fround(obj[o + c * 4 + r]);
          if (v !== this.last[d + r * 4 + c]) changed = true;
          next[d + r * 4 + c] = v;
        }
      }
    }
    if (!changed) return false;
    this.last.set(next);
    this.poser.skin(true);
    const positions = this.geometry.getAttribute('position') as BufferAttribute;
    const normals = this.geometry.getAttribute('normal') as BufferAttribute;
    (positions.array as Float32Array).set(this.poser.positions);
    (normals.array as Float32Array).set(this.poser.normals);
    positions.needsUpdate = true;
    normals.needsUpdate = true;
    return true;
  }

  /** Frees the poser's kernel buffers (geometry and materials are freed separately, as three's own objects' are). */
  override dispose(): void {
    super.dispose();
    this.poser.dispose();
  }
}
