/**
 * glTF → MdlModel (write it with `writeMdl`). What becomes what:
 *
 * - the mesh: MDL has one, with one skin set: every triangle primitive of the default scene is merged (winding
 *   turned back to id's clockwise, as for MD2), and primitives with other materials get GLTF_MATERIALS_MERGED.
 * - frames: each animation sampled at `fps` (default 10, Quake's rate) from 0 to its last key, one after the other,
 *   as single frames named `<animation><NN>` (MD2's naming, formats/md2/from-gltf.ts `md2FrameNames`, so each animation
 *   reads back as one clip); without animations one frame, the document as it stands.
 * - positions: one scale and origin for every frame (MDL has no per-frame ones): origin = the minimum over all
 *   frames (id axes, after `scale`), scale = (max − min) / 255 per axis (a zero extent 1/255), each coordinate
 *   round((p − origin) / scale); the normal index the nearest of the 162 anorms (largest dot product). A primitive
 *   without normals gets area-weighted normals of its posed triangles.
 * - st: texels of the skin, s = round(u · w − 0.5), t = round(v · h − 0.5): the inverse of the engine's
 *   ((s + 0.5) / w, (t + 0.5) / h). MDL gives a vertex one st (IDPO indexes st with the vertex), so a position used
 *   with two texture coordinates becomes two vertices — the seam split; every triangle is written facing front
 *   (DT_FACES_FRONT), so none needs the onseam shift. Vertices equal in every frame and in st are merged.
 * - skin: the material's base colour image (PNG; TGA, PCX, BMP), quantised to the palette (`palette`, default
 *   LibreQuake's): each texel the nearest lit colour (indices 0–223), and the nearest fullbright (224–255) only where
 *   the emissive image is not black (images/quake-palette.ts `quantizeQuakeSkin`), so fullbright texels come only
 *   from what the source draws unlit. Without an image, one skin of `skinSize` (default 256 × 256) in the colour
 *   nearest the base colour factor; a JPEG (not decoded here) gets that too, with GLTF_SKIN_NOT_DECODED.
 * - header: flags, synctype, eye position, radius and size from the node's `extras.quake` when the glTF came from
 *   this package's exporter; else flags and synctype 0 (or `flags`), the eye at the origin, the radius the largest
 *   distance of a decoded position from the origin, size 0.
 *
 * UNWRITABLE: no triangle; more than 65,535 vertices after merging (no engine loads them: DarkPlaces' limit).
 */
import type { Material } from '@gltf-transform/core';
import type { ParseWarning } from '../../base/errors.js';
import type { MdlFrame, MdlModel } from '../../base/model.js';
import { mdlClips } from './clips.js';
import { MDL_LIMITS, MDL_POSE_NAME_BYTES, MDL_VERSION } from './limits.js';
import { DEFAULT_QUAKE_PALETTE, quantizeQuakeSkin } from '../../images/quake-palette.js';
import { readGltfDocument, type GltfInput } from '../../import/gltf.js';
import { faceNormals, frameLayout, md2FrameNames, mergeVertices, nearestMd2Normal } from '../../import/quake-frames.js';
import { PrimitivePoser, restPose } from '../../import/gltf-sample.js';
import { texturePixels } from '../../import/gltf-pixels.js';
import { atlasWarnings, buildAtlas, type AtlasSummary } from '../../import/gltf-atlas.js';
import { animationRates, checkSampling, importBounds, nameOf, sceneNodes, toId, trianglePrimitives, unwritable, type TrianglePrimitive } from '../../import/gltf-scene.js';

export interface GltfToMdlOptions {
  /** Frames per second animations are sampled at (default 10, Quake's). */
  fps?: number;
  /** Without `fps`: each animation at its own even key rate (every key kept), else at 10 (`animationRates`). */
  keyRate?: boolean;
  /** Uniform scale applied to positions (default 1). */
  scale?: number;
  /** The palette the skin is quantised to (768 bytes; default LibreQuake's). */
  palette?: Uint8Array;
  /**
   * Primitives with different materials: pack their base colour (and emissive) images into one skin
   * (`import/gltf-atlas.ts`; default true). false: the first primitive's material is the skin of all
   * (GLTF_MATERIALS_MERGED), as MDL's one skin set draws them.
   */
  atlas?: boolean;
  /** The skin's size when the material has no decodable image (default 256 × 256). */
  skinSize?: { width: number; height: number };
  /** flags and synctype to write (default: the glTF's `extras.quake`, else 0). */
  flags?: number;
  synctype?: number;
  /**
   * At most this many frames in all (default: `maxImportFrames` of the input's `limits` or the process's
   * `ResourceLimits`, 65,536): more is UNWRITABLE, naming the limit, before any frame is sampled.
   */
  maxFrames?: number;
  /**
   * At most this many bytes of sampled frames (52 × glTF vertices × frames: every frame's posed positions and normals,
   * in float64, and its quantised bytes; default: `maxImportBytes`, 64 MiB): more is UNWRITABLE, naming the limit,
   * before anything is sampled.
   */
  maxBytes?: number;
}

/** modelgen.h DT_FACES_FRONT: the value modelgen writes for a triangle facing front. */
const DT_FACES_FRONT = 0x10;

/** The skin: the base colour image (and the emissive one) quantised to the palette, or one colour. */
function skinOf(material: Material | null, palette: Uint8Array, options: GltfToMdlOptions, maxImagePixels: number, warnings: ParseWarning[]): { width: number; height: number; indices: Uint8Array } {
  const base = texturePixels(material?.getBaseColorTexture() ?? null, 'base colour', maxImagePixels, warnings);
  if (base) {
    let glow = texturePixels(material?.getEmissiveTexture() ?? null, 'emissive', maxImagePixels, warnings);
    if (glow && (glow.width !== base.width || glow.height !== base.height)) {
      warnings.push({ code: 'GLTF_EMISSIVE_SIZE', message: `the emissive image is ${glow.width}×${glow.height}, the base colour ${base.width}×${base.height}: no fullbright texels written`, offset: 0 });
      glow = null;
    }
    const factor = material?.getEmissiveFactor() ?? [0, 0, 0];
    if (glow && factor.every((f) => f === 0)) glow = null;
    return { width: base.width, height: base.height, indices: quantizeQuakeSkin(base.rgba, glow?.rgba ?? null, base.width, base.height, palette) };
  }
  const { width, height } = options.skinSize ?? { width: 256, height: 256 };
  const c = (material?.getBaseColorFactor() ?? [1, 1, 1, 1]).map((x) => Math.round(Math.max(0, Math.min(1, x)) * 255));
  const one = quantizeQuakeSkin(Uint8Array.of(c[0], c[1], c[2], 255), null, 1, 1, palette)[0];
  return { width, height, indices: new Uint8Array(width * height).fill(one) };
}

/** What this package's exporter put in the mesh node's `extras.quake` (gltf-mdl.ts), where present. */
function quakeExtras(prims: TrianglePrimitive[]): { flags?: number; synctype?: number; eyePosition?: number[]; radius?: number; size?: number } {
  for (const p of prims) {
    const q = (p.node.getExtras() as { quake?: Record<string, unknown> } | null)?.quake;
    if (q && typeof q === 'object') return q as ReturnType<typeof quakeExtras>;
  }
  return {};
}

export async function gltfToMdl(input: GltfInput, options: GltfToMdlOptions = {}): Promise<MdlModel> {
  return (await importMdl(input, options)).model;
}

/** The MDL and, when its materials were packed into one skin, how (gltf-atlas.ts; the writer's summary says so). @internal */
export async function importMdl(input: GltfInput, options: GltfToMdlOptions = {}): Promise<{ model: MdlModel; atlas: AtlasSummary | null }> {
  const doc = await readGltfDocument(input);
  const scale = options.scale ?? 1;
  checkSampling(options.fps, scale);
  const warnings: ParseWarning[] = [];
  const fps = animationRates(options.fps, 10, options.keyRate, warnings);
  const bounds = importBounds(input, options);
  let prims = trianglePrimitives(sceneNodes(doc), warnings, bounds);
  if (prims.length === 0) unwritable('no triangle primitive to import: an MDL needs at least one vertex');
  const palette = options.palette ?? DEFAULT_QUAKE_PALETTE;
  // One skin set: the materials' images packed into one (gltf-atlas.ts), else the first primitive's material.
  const atlas = options.atlas === false ? null : buildAtlas(prims, { maxHeight: MDL_LIMITS.maxSkinHeight, maxWidth: MDL_LIMITS.darkplacesBound - 1, widthMultiple: 4, maxImagePixels: bounds.maxImagePixels, maxAtlasPixels: bounds.maxAtlasPixels, emissive: true }, warnings);
  const material = prims[0].prim.getMaterial();
  const others = atlas ? [] : [...new Set(prims.map((p) => p.prim.getMaterial()).filter((m) => m !== material))];
  if (others.length > 0) {
    warnings.push({ code: 'GLTF_MATERIALS_MERGED', message: `MDL has one mesh and one skin set: the primitives' materials ${others.map((m) => JSON.stringify(nameOf(m))).join(', ')} are drawn with "${nameOf(material)}"`, offset: 0 });
  }
  if (atlas) {
    atlasWarnings(atlas, 'MDL', MDL_LIMITS.maxSkinHeight, warnings);
    prims = prims.map((p, i) => ({ ...p, uvs: atlas.uvs[i] }));
  }
  const skin = atlas
    ? { width: atlas.width, height: atlas.height, indices: quantizeQuakeSkin(atlas.rgba, atlas.glow, atlas.width, atlas.height, palette) }
    : skinOf(material, palette, options, bounds.maxImagePixels, warnings);

  // every frame's float64 positions and normals (48 bytes a vertex) and quantised bytes (4), counted before sampling
  const { first, vertexCount: Vg, frames } = frameLayout(doc, prims, fps, bounds, 'MDL poses', 52);
  const F = frames.length;

  // Every frame posed first: one scale and origin must hold them all.
  const positions = new Float64Array(3 * Vg * F), normals = new Float64Array(3 * Vg * F);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const rest = restPose(sceneNodes(doc));
  const posers = prims.map((p) => new PrimitivePoser(p.node, p.mesh, p.prim));
  frames.forEach((frame, f) => {
    rest.restore();
    frame.play?.(frame.time);
    prims.forEach((s, i) => {
      const posed = posers[i].pose();
      const n = s.prim.getAttribute('NORMAL') ? posed.normals : faceNormals(posed.positions, s.triangles);
      for (let v = 0, o = 3 * (Vg * f + first[i]); v < s.vertexCount; v++, o += 3) {
        const p = toId(posed.positions[3 * v], posed.positions[3 * v + 1], posed.positions[3 * v + 2]);
        for (let k = 0; k < 3; k++) {
          positions[o + k] = p[k] * scale;
          lo[k] = Math.min(lo[k], positions[o + k]);
          hi[k] = Math.max(hi[k], positions[o + k]);
        }
        normals.set(toId(n[3 * v], n[3 * v + 1], n[3 * v + 2]), o);
      }
    });
  });
  rest.restore();
  const origin = Float32Array.from(lo);
  const step = Float32Array.from([0, 1, 2].map((k) => (hi[k] - lo[k]) / 255));
  for (let k = 0; k < 3; k++) {
    if (!(Number.isFinite(origin[k]) && Number.isFinite(step[k]))) unwritable(`positions from ${lo[k]} to ${hi[k]} on axis ${k} are past MDL's float32 scale and origin`);
    if (!(step[k] > 0)) step[k] = 1 / 255;
  }
  const all = new Uint8Array(4 * Vg * F);
  for (let i = 0; i < Vg * F; i++) {
    for (let k = 0; k < 3; k++) all[4 * i + k] = Math.max(0, Math.min(255, Math.round((positions[3 * i + k] - origin[k]) / step[k])));
    all[4 * i + 3] = nearestMd2Normal(normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]);
  }

  // st per glTF vertex: the vertex's tag, so a position used with two texture coordinates stays two vertices.
  const st = new Int32Array(2 * Vg);
  prims.forEach((p, i) => {
    for (let v = 0; v < p.vertexCount; v++) {
      st[2 * (first[i] + v)] = Math.round(p.uvs[2 * v] * skin.width - 0.5);
      st[2 * (first[i] + v) + 1] = Math.round(p.uvs[2 * v + 1] * skin.height - 0.5);
    }
  });
  const { xyzOf, kept } = mergeVertices(all, Vg, F, st);
  const V = kept.length;
  if (V === 0) unwritable('the triangle primitives have no vertices: an MDL needs at least one');
  if (V >= MDL_LIMITS.darkplacesBound) unwritable(`${V} vertices (after merging those equal in every frame and in st): no engine loads ${MDL_LIMITS.darkplacesBound} or more (docs/mdl.md)`);

  const frameVertices = new Uint8Array(4 * V * F);
  const boundsMin = new Uint8Array(4 * F).fill(255), boundsMax = new Uint8Array(4 * F);
  let radius = 0;
  for (let f = 0; f < F; f++) {
    for (let w = 0; w < V; w++) {
      const src = 4 * (Vg * f + kept[w]), dst = 4 * (V * f + w);
      frameVertices.set(all.subarray(src, src + 4), dst);
      let r2 = 0;
      for (let k = 0; k < 3; k++) {
        boundsMin[4 * f + k] = Math.min(boundsMin[4 * f + k], all[src + k]);
        boundsMax[4 * f + k] = Math.max(boundsMax[4 * f + k], all[src + k]);
        const p = Math.fround(all[src + k] * step[k] + origin[k]);
        r2 += p * p;
      }
      radius = Math.max(radius, Math.sqrt(r2));
    }
    boundsMin[4 * f + 3] = 0;
  }
  const triangleCount = prims.reduce((n, p) => n + p.triangles.length / 3, 0);
  const indices = new Uint16Array(3 * triangleCount);
  let c = 0;
  prims.forEach((p, i) => {
    for (const local of p.triangles) indices[c++] = xyzOf[first[i] + local];
  });
  const onseam = new Int32Array(V), vst = new Int32Array(2 * V);
  kept.forEach((v, w) => vst.set(st.subarray(2 * v, 2 * v + 2), 2 * w));

  const names = md2FrameNames(frames, warnings).map((n) => n.slice(0, MDL_POSE_NAME_BYTES));
  const poseFrames: MdlFrame[] = names.map((_, p) => ({
    type: 0,
    firstPose: p,
    poseCount: 1,
    boundsMin: boundsMin.slice(4 * p, 4 * p + 4),
    boundsMax: boundsMax.slice(4 * p, 4 * p + 4),
    intervals: new Float32Array(0),
  }));
  const extras = quakeExtras(prims);
  const eye = Array.isArray(extras.eyePosition) && extras.eyePosition.length === 3 ? extras.eyePosition : [0, 0, 0];
  const model: MdlModel = {
    format: 'mdl',
    variant: 'IDPO',
    version: MDL_VERSION,
    scale: step,
    origin,
    radius: typeof extras.radius === 'number' ? extras.radius : radius,
    eyePosition: Float32Array.from(eye),
    skinWidth: skin.width,
    skinHeight: skin.height,
    skins: [{ type: 0, firstPicture: 0, pictureCount: 1, intervals: new Float32Array(0) }],
    pictureCount: 1,
    skinPixels: skin.indices,
    vertexCount: V,
    stCount: V,
    onseam,
    st: vst,
    triangleCount,
    facesFront: new Int32Array(triangleCount).fill(DT_FACES_FRONT),
    triangleVertexIndices: indices,
    triangleStIndices: indices.slice(),
    frameCount: F,
    frames: poseFrames,
    poseCount: F,
    poseNames: names,
    poseBoundsMin: boundsMin,
    poseBoundsMax: boundsMax,
    frameVertices,
    frameVerticesLow: null,
    synctype: options.synctype ?? (typeof extras.synctype === 'number' ? extras.synctype : 0),
    flags: options.flags ?? (typeof extras.flags === 'number' ? extras.flags : 0),
    size: typeof extras.size === 'number' ? extras.size : 0,
    clips: mdlClips(names),
    trailing: null,
    warnings,
  };
  return { model, atlas: atlas ? { materials: atlas.materials, scale: atlas.scale } : null };
}
