/**
 * glTF → Md3Model (write it with `writeMd3`). What becomes what:
 *
 * - surfaces: every triangle primitive of every mesh node of the default scene, in scene order; named after the
 *   mesh (`mesh_p` when a mesh has several primitives); its shader is the material's name (no shader without one).
 * - frames: with animations, each is sampled at `fps` (default 15, the rate our exporter writes MD3 clips at)
 *   from 0 to its last key, one after the other; frames are named after their animation (16 bytes). Without
 *   animations, one frame: the document as it stands (node TRS, morph weights). Morph targets, node transforms
 *   and skins all apply (`gltf-sample.ts`).
 * - tags: nodes named `tag_*`, their world transform per frame: origin and the rotation's columns as axis[0..2].
 * - axes: the inverse of the exporter's (`export/gltf-axes.ts`): glTF (x, y, z) → id (x, −z, y); winding
 *   turned back to id's clockwise; texture coordinates as they are (the exporter writes MD3 st unchanged).
 * - quantisation: positions × 64 rounded to int16 (UNWRITABLE, naming surface, frame and vertex, when one falls
 *   outside ±512 units); normals to the nearest lat/lng byte pair of ioquake3's decode (high byte the angle about
 *   z, low byte the angle from +z, both in steps of 2π/256); per frame the bounds of the quantised vertices,
 *   local origin 0 and radius the bounds' farthest corner (RadiusFromBounds). A model spanning fewer than 256 steps
 *   of 1/64 (a character in metres) is MD3_GRID_COARSE, naming the `scale` that fixes it (md3-grid.ts).
 */
import type { Material, Node } from '@gltf-transform/core';
import { mat4Multiply } from '../../base/mat4.js';
import { unit } from '../../base/vec3.js';
import type { Md3Model } from '../../base/model.js';
import type { ParseWarning } from '../../base/errors.js';
import { MD3_LIMITS } from './limits.js';
import { readGltfDocument, type GltfInput } from '../../import/gltf.js';
import { PrimitivePoser, restPose, transformInPlace, WorldMatrices } from '../../import/gltf-sample.js';
import { materialNames } from '../../import/gltf-textures.js';
import { animationRates, checkImportBytes, checkSampling, field, importBounds, nameOf, sampleFrames, sceneNodes, toId, trianglePrimitives, unwritable, type SampleFrame } from '../../import/gltf-scene.js';
import { md3Extent, md3GridWarning } from './grid.js';
import type { GltfToMd3Options, ImportedMd3 } from '../../import/gltf-targets.js';
// what `importGltf` takes and gives for an MD3 (its overloads name them: import/gltf-targets.ts)
export type { GltfToMd3Options, ImportedMd3 };



/** The packed lat/lng normal nearest to unit `n` under ioquake3's decode (x = cos a·sin b, y = sin a·sin b, z = cos b). */
export function packMd3Normal(x: number, y: number, z: number): number {
  const len = Math.hypot(x, y, z);
  if (!(len > 0)) return 0;
  const b = Math.round((Math.acos(Math.max(-1, Math.min(1, z / len))) * 256) / (2 * Math.PI)) & 255;
  const a = Math.round((Math.atan2(y, x) * 256) / (2 * Math.PI)) & 255;
  return (a << 8) | b;
}

/** A surface's shader list: the one name, whole (writeMd3 refuses one that does not fit MD3's 64-byte field). */
const shaderList = (name: string): Md3Model['surfaces'][number]['shaders'] => (name ? [{ name: field(name, Infinity), index: 0 }] : []);

export async function gltfToMd3(input: GltfInput, options: GltfToMd3Options = {}): Promise<ImportedMd3> {
  const doc = await readGltfDocument(input);
  checkSampling(options.fps, options.scale ?? 1);
  const order = sceneNodes(doc);
  const names = materialNames(doc, { texturePath: options.texturePath, extension: true });
  const bounds = importBounds(input, options);
  const rateWarnings: ParseWarning[] = [];
  const frames = sampleFrames(doc, animationRates(options.fps, 15, options.keyRate, rateWarnings), bounds.maxFrames);
  const model = sampleMd3(order, frames, { ...options, maxBytes: bounds.maxBytes, maxMorphTargetVertices: bounds.maxMorphTargetVertices, shaderOf: (m) => names.nameOf(m) });
  model.warnings.unshift(...rateWarnings);
  return Object.assign(model, { textures: names.files });
}

/** What `sampleMd3` samples besides the frames: which nodes, which tags, in whose coordinates. @internal */
export interface Md3SampleOptions extends GltfToMd3Options {
  /** The nodes whose triangle primitives become surfaces (default: every node of the scene). */
  nodes?: Node[];
  /** The tag nodes, in tag order (default: the nodes of `nodes` named `tag_*`). */
  tags?: Node[];
  /**
   * Called after each frame is posed: the 4×4 column-major matrix (glTF axes) taking world coordinates into the
   * frame vertices and tags are written in, or null for world coordinates. A Quake 3 player part is written in
   * the coordinates of the tag it hangs from (`gltf-player.ts`).
   */
  reference?: (frame: number) => ArrayLike<number> | null;
  /** A surface's shader from its primitive's material (default: the material's name). */
  shaderOf?: (material: Material | null) => string;
  /** Morph target vertices read at most (default: the process's `maxMorphTargetVertices`; gltf-scene.ts). */
  maxMorphTargetVertices?: number;
}

/**
 * The MD3 of `options.nodes` (default all of `scene`, the scene's nodes parents first) sampled at `frames`: every
 * frame restores the rest pose of the whole scene, plays its animation, then reads each primitive's posed vertices
 * and each tag's world transform, moved into `reference`'s coordinates.
 * @internal
 */
export function sampleMd3(scene: Node[], frames: SampleFrame[], options: Md3SampleOptions = {}): Md3Model {
  const scale = options.scale ?? 1;
  const warnings: ParseWarning[] = [];
  const nodes = options.nodes ?? scene;
  const shaderOf = options.shaderOf ?? ((m: Material | null) => nameOf(m));
  const maxBytes = options.maxBytes ?? importBounds({}).maxBytes;
  const sources = trianglePrimitives(nodes, warnings, { maxMorphTargetVertices: options.maxMorphTargetVertices, maxBytes }).map((t, i) => {
    const what = `surface ${i} ("${t.name}")`;
    const triangleCount = t.triangles.length / 3;
    if (t.vertexCount > MD3_LIMITS.maxVertsPerSurface) unwritable(`${what} has ${t.vertexCount} vertices, MD3 holds ${MD3_LIMITS.maxVertsPerSurface} per surface`);
    if (triangleCount > MD3_LIMITS.maxTrianglesPerSurface) unwritable(`${what} has ${triangleCount} triangles, MD3 holds ${MD3_LIMITS.maxTrianglesPerSurface} per surface`);
    return {
      ...t,
      surface: {
        name: field(t.name, 64),
        flags: 0,
        vertexCount: t.vertexCount,
        triangleCount,
        shaders: shaderList(shaderOf(t.prim.getMaterial())),
        triangles: t.triangles,
        st: t.uvs,
        xyzNormals: new Int16Array(0),
      },
    };
  });
  const tagNodes = options.tags ?? nodes.filter((n) => /^tag_/i.test(n.getName()));
  const F = frames.length;
  // per frame: a 56-byte frame record, a 112-byte tag record per tag, 8 bytes per vertex of every surface
  const frameBytes = 56 + 112 * tagNodes.length + 8 * sources.reduce((n, s) => n + s.vertexCount, 0);
  checkImportBytes(`${F} frames of ${sources.length} surfaces and ${tagNodes.length} tags of MD3`, F * frameBytes, maxBytes);
  // each primitive's attributes copied once the frames are known to fit (a mesh on many nodes is copied per node)
  const posers = sources.map((s) => new PrimitivePoser(s.node, s.mesh, s.prim));

  const xyz = sources.map((s) => new Int16Array(4 * s.surface.vertexCount * F));
  const frameMins = new Float32Array(3 * F), frameMaxs = new Float32Array(3 * F);
  const frameRadii = new Float32Array(F);
  const tagOrigins = new Float32Array(3 * tagNodes.length * F), tagAxes = new Float32Array(9 * tagNodes.length * F);
  const rest = restPose(scene);
  const worlds = new WorldMatrices(scene);
  frames.forEach((frame, f) => {
    rest.restore();
    frame.play?.(frame.time);
    worlds.update();
    const ref = options.reference?.(f) ?? null;
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    sources.forEach((s, i) => {
      const { positions, normals } = posers[i].pose(false, worlds.get);
      if (ref) transformInPlace(ref, positions, normals); // a tag's frame is rigid; the packing normalises normals
      const out = xyz[i];
      for (let v = 0, o = 4 * s.surface.vertexCount * f; v < s.surface.vertexCount; v++, o += 4) {
        const p = toId(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
        for (let k = 0; k < 3; k++) {
          const q = Math.round(p[k] * scale * 64);
          if (!(q >= -32768 && q <= 32767)) {
            const at = `surface ${i} ("${s.surface.name}") frame ${f} vertex ${v}`;
            unwritable(Number.isFinite(p[k]) ? `${at}: ${(p[k] * scale).toFixed(3)} is outside MD3's ±512 units (int16 × 1/64)` : `${at}: its position is ${p[k]}`);
          }
          out[o + k] = q;
          lo[k] = Math.min(lo[k], q / 64);
          hi[k] = Math.max(hi[k], q / 64);
        }
        out[o + 3] = packMd3Normal(...toId(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]));
      }
    });
    if (lo[0] === Infinity) lo.fill(0), hi.fill(0);
    frameMins.set(lo, 3 * f);
    frameMaxs.set(hi, 3 * f);
    frameRadii[f] = Math.hypot(...[0, 1, 2].map((k) => Math.max(Math.abs(lo[k]), Math.abs(hi[k]))));
    tagNodes.forEach((n, t) => {
      const m = ref ? mat4Multiply(ref, worlds.get(n)) : worlds.get(n);
      const at = f * tagNodes.length + t;
      tagOrigins.set(toId(m[12], m[13], m[14]).map((x) => x * scale), 3 * at);
      // id axis i = C⁻¹·M₃·C·e_i, normalised (C: id → glTF axes)
      const idBasis = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]; // C·e_i for i = x, y, z
      idBasis.forEach((g, i) => {
        const w = [0, 1, 2].map((r) => m[r] * g[0] + m[4 + r] * g[1] + m[8 + r] * g[2]);
        tagAxes.set(unit(toId(w[0], w[1], w[2])), 9 * at + 3 * i);
      });
      const bad = [...tagOrigins.subarray(3 * at, 3 * at + 3), ...tagAxes.subarray(9 * at, 9 * at + 9)].find((x) => !Number.isFinite(x));
      if (bad !== undefined) unwritable(`tag ${t} ("${field(n.getName(), 64)}") frame ${f}: its transform holds ${bad}`);
    });
  });
  rest.restore();
  // A player's parts are checked together (gltf-player.ts): one warning for the coarsest.
  const coarse = options.reference ? null : md3GridWarning(md3Extent(frameMins, frameMaxs), scale, options.name || 'the model');
  if (coarse) warnings.push(coarse);

  return {
    format: 'md3',
    version: 15,
    name: field(options.name ?? '', 64),
    flags: 0,
    frameCount: F,
    frameNames: frames.map((fr) => field(fr.name, 16)),
    frameMins,
    frameMaxs,
    frameLocalOrigins: new Float32Array(3 * F),
    frameRadii,
    tagCount: tagNodes.length,
    tagNames: tagNodes.map((n) => field(n.getName(), 64)),
    tagOrigins,
    tagAxes,
    surfaces: sources.map((s, i) => ({ ...s.surface, xyzNormals: xyz[i] })),
    warnings,
  };
}

