/**
 * A crowd (`crowd/`: many instances of one model, each in its own clip at its own time) as three.js objects: **one
 * `InstancedMesh` per surface** for the whole crowd, so a frame costs as many draw calls as the model has surfaces,
 * not surfaces × instances. The model's own materials, cloned and patched (`crowd-shader.ts`), pose each vertex on the
 * GPU from one float texture updated once per frame:
 *
 * - a skinned crowd's joint palettes (`SkinnedCrowd.palettes()`, one kernel job for every instance) copied as they are
 *   into the palette texture, and four influences per vertex (the view's `influences()`) as attributes;
 * - a morph crowd's frames decoded once into the frame texture (`morphFrameTable`); per frame only each instance's two
 *   frames and blend (an instanced attribute) change.
 *
 * Per-instance transform (`setMatrixAt`, in three's Y-up world: the model's Z-up turned as `space.ts` turns it) and
 * colour (`setColorAt`, three's instance colour). `update(dt)` moves the crowd's clocks, poses it and uploads.
 */
import {
  BufferAttribute, BufferGeometry, Color, DataTexture, FloatType, Group, InstancedBufferAttribute, InstancedMesh, Matrix4, MeshStandardMaterial, Quaternion, RGBAFormat, Sphere, Vector3,
  type Material,
} from 'three';
import type { Crowd, MorphCrowd, SkinnedCrowd } from '../crowd/index.js';
import { morphFrameTable } from '../crowd/index.js';
import type { ModelView, MorphModelView, SkinnedModelView, ViewGroup } from '../formats/model-view.js';
import { crowdMaterial, type CrowdUniforms } from './crowd-shader.js';
import { box3, indexAttribute, uvAttribute } from './space.js';

/** Texels per row of a crowd's texture (far below every WebGL2's MAX_TEXTURE_SIZE; rows grow with the crowd). */
export const CROWD_TEXTURE_WIDTH = 1024;

export interface CrowdThreeOptions {
  /** One per view group (surface), in order; default: a plain standard material each. */
  materials?: Material[];
  name?: string;
}

/** id's Z-up (+X forward) → three's Y-up: (x, y, z) → (x, z, −y), as `space.ts` `zUpGroup` turns a model. */
const zUpMatrix = (): Matrix4 => new Matrix4().makeRotationFromQuaternion(new Quaternion(-Math.SQRT1_2, 0, 0, Math.SQRT1_2));

/** A float RGBA texture of `texels` texels, CROWD_TEXTURE_WIDTH wide. */
function floatTexture(texels: number): DataTexture {
  const height = Math.max(1, Math.ceil(texels / CROWD_TEXTURE_WIDTH));
  const t = new DataTexture(new Float32Array(CROWD_TEXTURE_WIDTH * height * 4), CROWD_TEXTURE_WIDTH, height, RGBAFormat, FloatType);
  t.needsUpdate = true;
  return t;
}

export class CrowdMesh extends Group {
  /** One per surface (view group with triangles), each drawing every instance in one call. */
  readonly meshes: InstancedMesh[];
  /** The palette texture (skinned) or the frame texture (morph). */
  readonly texture: DataTexture;
  readonly crowd: Crowd;
  private readonly frameAttribute: InstancedBufferAttribute | null;
  private readonly placement = new Matrix4();
  private readonly zUp = zUpMatrix();

  constructor(crowd: Crowd, view: ModelView, options: CrowdThreeOptions = {}) {
    super();
    if (view.kind === 'tagged' || view.kind !== crowd.kind) throw new TypeError(`a ${crowd.kind} crowd is drawn from a ${crowd.kind} view, not a ${view.kind} one`);
    this.name = options.name ?? 'crowd';
    this.crowd = crowd;
    const geometry = new BufferGeometry();
    geometry.setAttribute('uv', uvAttribute(view.st));
    let texture: DataTexture;
    let stride: number;
    let frameAttribute: InstancedBufferAttribute | null = null;
    if (view.kind === 'skinned') {
      const c = crowd as SkinnedCrowd;
      const v = view as SkinnedModelView;
      geometry.setAttribute('position', new BufferAttribute(v.positions.slice(), 3));
      geometry.setAttribute('normal', new BufferAttribute(v.normals.slice(), 3));
      const inf = v.influences();
      geometry.setAttribute('crowdJoint', new BufferAttribute(Float32Array.from(inf.joints), 4));
      geometry.setAttribute('crowdWeight', new BufferAttribute(inf.weights, 4));
      texture = floatTexture(c.count * c.joints * 3);
      stride = c.joints;
    } else {
      const c = crowd as MorphCrowd;
      const v = view as MorphModelView;
      const table = morphFrameTable(v);
      const n = v.vertexCount;
      texture = floatTexture(v.frameCount * n * 2);
      const data = texture.image.data as Float32Array;
      for (let i = 0; i < v.frameCount * n; i++) {
        data.set(table.positions.subarray(i * 3, i * 3 + 3), i * 8);
        data.set(table.normals.subarray(i * 3, i * 3 + 3), i * 8 + 4);
      }
      // frame 0 as the geometry's own positions (raycasts, bounds before the shader)
      geometry.setAttribute('position', new BufferAttribute(table.positions.slice(0, n * 3), 3));
      geometry.setAttribute('normal', new BufferAttribute(table.normals.slice(0, n * 3), 3));
      geometry.setAttribute('crowdVertex', new BufferAttribute(Float32Array.from({ length: n }, (_, i) => i), 1));
      frameAttribute = new InstancedBufferAttribute(new Float32Array(c.count * 3), 3);
      geometry.setAttribute('crowdFrame', frameAttribute);
      stride = n;
    }
    this.texture = texture;
    this.frameAttribute = frameAttribute;
    const uniforms: CrowdUniforms = { crowdData: { value: texture }, crowdWidth: { value: CROWD_TEXTURE_WIDTH }, crowdStride: { value: stride } };
    // every frame of every clip lies in the view's bounds: the shader never moves a vertex out of the culling box
    const box = box3(view.bounds);
    const sphere = box.getBoundingSphere(new Sphere());
    const index = indexAttribute(view.triangles, view.vertexCount);
    this.meshes = view.groups.flatMap((g: ViewGroup, gi: number) => {
      if (g.count <= 0) return [];
      const part = new BufferGeometry();
      for (const [name, attr] of Object.entries(geometry.attributes)) part.setAttribute(name, attr);
      part.setIndex(new BufferAttribute(index.array.slice(g.start, g.start + g.count), 1));
      part.boundingBox = box.clone();
      part.boundingSphere = sphere.clone();
      const material = crowdMaterial(options.materials?.[gi] ?? new MeshStandardMaterial({ name: g.material || g.name }), crowd.kind, uniforms);
      const mesh = new InstancedMesh(part, material, crowd.count);
      mesh.name = `${this.name}_${g.name || gi}`;
      return [mesh];
    });
    this.add(...this.meshes);
    for (let i = 0; i < crowd.count; i++) this.setMatrixAt(i, new Matrix4());
    crowd.pose();
    this.upload();
  }

  /** Instance `i` placed by `matrix` (three's Y-up world, relative to this group). */
  setMatrixAt(i: number, matrix: Matrix4): void {
    const m = this.placement.multiplyMatrices(matrix, this.zUp);
    for (const mesh of this.meshes) {
      mesh.setMatrixAt(i, m);
      mesh.instanceMatrix.needsUpdate = true;
    }
    for (const mesh of this.meshes) mesh.boundingSphere = null;
  }

  /** Instance `i` at `position`, turned `yaw` radians about three's up axis. */
  placeAt(i: number, position: Vector3, yaw = 0): void {
    this.setMatrixAt(i, new Matrix4().makeRotationY(yaw).setPosition(position));
  }

  /** Instance `i`'s colour (multiplies its material's). */
  setColorAt(i: number, color: Color): void {
    for (const mesh of this.meshes) {
      mesh.setColorAt(i, color);
      mesh.instanceColor!.needsUpdate = true;
    }
  }

  /** Every instance's clock moved on by `dt` seconds, the crowd posed (one job) and uploaded. */
  update(dt: number): void {
    this.crowd.update(dt);
    this.upload();
  }

  /** What the crowd posed last into the texture (skinned) or the frame attribute (morph). */
  upload(): void {
    if (this.crowd.kind === 'skinned') {
      (this.texture.image.data as Float32Array).set(this.crowd.palettes());
      this.texture.needsUpdate = true;
    } else {
      const a = this.frameAttribute!.array as Float32Array, c = this.crowd;
      for (let i = 0; i < c.count; i++) {
        a[i * 3] = c.frames[i * 2];
        a[i * 3 + 1] = c.frames[i * 2 + 1];
        a[i * 3 + 2] = c.blend[i];
      }
      this.frameAttribute!.needsUpdate = true;
    }
  }

  /** Releases the GPU resources (geometries, materials, texture) and the crowd. */
  override dispose(): void {
    for (const mesh of this.meshes) {
      mesh.geometry.dispose();
      (mesh.material as Material).dispose();
      mesh.dispose();
    }
    this.texture.dispose();
    this.crowd.dispose();
  }
}
