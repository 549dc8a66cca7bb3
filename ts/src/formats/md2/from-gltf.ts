/**
 * glTF → Md2Model (write it with `writeMd2`). What becomes what:
 *
 * - the mesh: MD2 has one. Every triangle primitive of every mesh node of the default scene, in scene order, is
 *   merged into one vertex list (winding turned back to id's clockwise, as gltf-md3 does). MD2 has one skin set for
 *   the whole model, so primitives with different materials get a GLTF_MATERIALS_MERGED warning and the first
 *   primitive's material is the skin.
 * - frames: each animation sampled at `fps` (default 10, Quake 2's rate) from 0 to its last key, one after the
 *   other; without animations one frame, the document as it stands (`gltf-sample.ts`). Frame f of an animation is
 *   named `<animation><NN>` as qdata named them (`run01`, `run02` …; NN from 01, as many digits as the count needs),
 *   the animation's name made safe for the 16-byte field and for clip detection (`formats/md2/clips.ts` strips
 *   trailing digits): letters other than A–Z, a–z, 0–9, `_`, `-` become `_`, a name ending in a digit gets a `_`,
 *   an empty one is `frame`, and two animations that would read the same get `_b`, `_c` … — so every animation
 *   reads back as one clip.
 * - quantisation, per frame: translate = the frame's minimum (id axes, after `scale`), scale = (max − min) / 255
 *   (a zero extent gets scale 1/255: any finite scale decodes byte 0 to the minimum), each coordinate
 *   round((p − translate) / scale), so within half a step of the frame's grid; the normal index is the nearest of
 *   Quake 2's 162 anorms (largest dot product). A primitive without normals gets area-weighted vertex normals of
 *   the frame's posed triangles. Vertices that are identical in every frame (bytes and normal index) are merged:
 *   glTF splits a vertex at every texture seam, MD2 indexes positions and st separately.
 * - st: pixels of the skin, st = round(uv · size) — the inverse of the exporter's uv = st / size. The size is the
 *   first material's baseColor texture image size when it has one, else `skinSize` (default 256 × 256). Unique
 *   (s, t) pairs are the st table; triangles index positions and st separately.
 * - skin: the baseColor texture's uri (not a data: uri) or name, else the material's name; none without either.
 *   Longer than the 64-byte field or with a character outside Latin-1 is UNWRITABLE (not cut).
 * - glcmds: none (`glCommands: null`): `writeMd2` builds strips and fans for it (`formats/md2/write-glcmds.ts`; import and
 *   write are rooms of one floor, docs/architecture.md).
 *
 * Only what the format cannot hold is refused (UNWRITABLE): more than MAX_VERTS (2048) merged vertices, which
 * Quake 2's loader and our parser refuse (docs/limits.md); more than 32768 st pairs or an st outside int16
 * (dtriangle_t's index_st and dstvert_t are signed shorts); no triangle at all (num_xyz must be ≥ 1). Each is
 * checked as early as it can be: st before any frame is sampled, the vertex count after frame 0 (merging keeps
 * vertices distinct in one frame apart), so a 32,561-vertex model is refused after one frame, not all of them.
 */
import type { Material, Node } from '@gltf-transform/core';
import type { ParseWarning } from '../../base/errors.js';
import type { Md2Model } from '../../base/model.js';
import { groupClips } from './clips.js';
import { LIMITS } from './limits.js';
import { readGltfDocument, type GltfInput } from '../../import/gltf.js';
import { faceNormals, frameLayout, md2FrameNames, mergeVertices, nearestMd2Normal } from '../../import/quake-frames.js';
import { PrimitivePoser, restPose, WorldMatrices } from '../../import/gltf-sample.js';
import { atlasWarnings, buildAtlas } from '../../import/gltf-atlas.js';
import { encodePng } from '../../images/png-encode.js';
import { materialNames, type TextureFile } from '../../import/gltf-textures.js';
import { animationRates, checkSampling, importBounds, nameOf, sceneNodes, toId, trianglePrimitives, unwritable, type TrianglePrimitive } from '../../import/gltf-scene.js';
import type { GltfToMd2Options, ImportedMd2 } from '../../import/gltf-targets.js';
// what `importGltf` takes and gives for an MD2 (its overloads name them: import/gltf-targets.ts)
export type { GltfToMd2Options, ImportedMd2 };


/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** The size of the material's base colour image, or null (none, or bytes whose header cannot be read: a warning). */
function imageSize(material: Material | null, warnings: ParseWarning[]): [number, number] | null {
  const texture = material?.getBaseColorTexture();
  try {
    return texture?.getSize() ?? null;
  } catch (e) {
    // glTF Transform reads the PNG/JPEG header for the size and throws plain errors on a broken one
    warnings.push({ code: 'GLTF_IMAGE_UNREADABLE', message: `the skin image "${nameOf(texture)}" has no readable size (${(e as Error).message}): st are counted in skinSize`, offset: 0 });
    return null;
  }
}

/** The skin path a material gives: its baseColor texture's uri or name, else its own name. */
function skinPath(material: Material | null): string {
  const tex = material?.getBaseColorTexture();
  const raw: unknown = tex?.getURI();
  const uri = typeof raw === 'string' ? raw : '';
  return (uri && !/^data:/i.test(uri) ? uri : nameOf(tex)) || nameOf(material) || '';
}

/**
 * st in skin pixels (round(uv · size)), unique pairs in order of first use by the triangles, and each triangle
 * corner's st index. Depends on the texture coordinates and triangles only, so its limits are checked before any
 * frame is sampled.
 */
function stTable(prims: TrianglePrimitive[], width: number, height: number) {
  const stIndex = new Map<number, number>();
  const stList: number[] = [];
  const triangleCount = prims.reduce((n, p) => n + p.triangles.length / 3, 0);
  const triangleStIndices = new Uint16Array(3 * triangleCount);
  let c = 0;
  prims.forEach((p, i) => {
    for (const local of p.triangles) {
      const s = Math.round(p.uvs[2 * local] * width), t = Math.round(p.uvs[2 * local + 1] * height);
      if (!(s >= -32768 && s <= 32767 && t >= -32768 && t <= 32767)) {
        unwritable(`primitive ${i} ("${p.name}") vertex ${local}: uv (${p.uvs[2 * local]}, ${p.uvs[2 * local + 1]}) is st (${s}, ${t}) pixels of a ${width}×${height} skin, outside MD2's int16 st`);
      }
      const key = (s + 32768) * 65536 + (t + 32768);
      let at = stIndex.get(key);
      if (at === undefined) {
        at = stList.length / 2;
        if (at > 0x7fff) unwritable(`more than ${0x8000} distinct st pairs: MD2's triangles index st with a signed short (dtriangle_t index_st)`);
        stIndex.set(key, at);
        stList.push(s, t);
      }
      triangleStIndices[c++] = at;
    }
  });
  return { stCount: stList.length / 2, st: Int16Array.from(stList), triangleCount, triangleStIndices };
}

/** Each triangle corner's index into the merged positions (`xyzOf`; primitive i's vertices start at first[i]). */
function trianglePositions(prims: TrianglePrimitive[], first: number[], xyzOf: Uint32Array, triangleCount: number): Uint16Array {
  const out = new Uint16Array(3 * triangleCount);
  let c = 0;
  prims.forEach((p, i) => {
    for (const local of p.triangles) out[c++] = xyzOf[first[i] + local];
  });
  return out;
}

/** Distinct 4-byte vertices (position bytes and normal index) among the first `V` of `all`. */
function distinctVertices(all: Uint8Array, V: number): number {
  const words = new Uint32Array(all.buffer, all.byteOffset, V);
  return new Set(words).size;
}


export async function gltfToMd2(input: GltfInput, options: GltfToMd2Options = {}): Promise<ImportedMd2> {
  const doc = await readGltfDocument(input);
  const scale = options.scale ?? 1;
  checkSampling(options.fps, scale);
  const warnings: ParseWarning[] = [];
  const fps = animationRates(options.fps, 10, options.keyRate, warnings);
  const order: Node[] = sceneNodes(doc);
  const bounds = importBounds(input, options);
  let prims: TrianglePrimitive[] = trianglePrimitives(order, warnings, bounds);
  if (prims.length === 0) unwritable('no triangle primitive to import: an MD2 needs at least one vertex (num_xyz ≥ 1)');

  // One skin set: the materials' images packed into one (gltf-atlas.ts), else the first primitive's material.
  const material = prims[0].prim.getMaterial();
  const atlas = options.atlas === false ? null : buildAtlas(prims, { maxHeight: LIMITS.maxSkinHeight, maxWidth: 0x7fff, needImages: true, maxImagePixels: bounds.maxImagePixels, maxAtlasPixels: bounds.maxAtlasPixels }, warnings);
  // with texturePath the skin names the image written under it (gltf-textures.ts), else the texture's own uri or name
  const names = options.texturePath === undefined || atlas ? null : materialNames(doc, { texturePath: options.texturePath, extension: true });
  const skinOf = (m: Material | null) => (names ? names.nameOf(m) : skinPath(m));
  const prefix = options.texturePath?.replace(/[\\/]+$/, '');
  const skin = atlas ? `${prefix ? `${prefix}/` : ''}${options.atlasName ?? 'skin'}.png` : skinOf(material);
  const others = atlas ? [] : [...new Set(prims.map((p) => skinOf(p.prim.getMaterial())))].filter((s) => s !== skin);
  if (others.length > 0) {
    warnings.push({ code: 'GLTF_MATERIALS_MERGED', message: `MD2 has one mesh and one skin set: the primitives' materials ${others.map((s) => JSON.stringify(s)).join(', ')} are drawn with "${skin}"`, offset: 0 });
  }
  if (skin.length > LIMITS.skinNameBytes) unwritable(`skin "${skin}" is ${skin.length} bytes, MD2's skin field holds ${LIMITS.skinNameBytes}`);
  if (/[^\x01-\xff]/.test(skin)) unwritable(`skin "${skin}" has a character Latin-1 cannot hold`);
  if (atlas) {
    atlasWarnings(atlas, 'MD2', LIMITS.maxSkinHeight, warnings);
    prims = prims.map((p, i) => ({ ...p, uvs: atlas.uvs[i] }));
  }
  const size = atlas ? ([atlas.width, atlas.height] as [number, number]) : imageSize(material, warnings);
  const [skinWidth, skinHeight] = size ?? [options.skinSize?.width ?? 256, options.skinSize?.height ?? 256];
  const textures: TextureFile[] = atlas ? [{ path: skin, bytes: encodePng(atlas.rgba, atlas.width, atlas.height), mimeType: 'image/png' }] : names ? names.files.filter((f) => f.path === skin) : [];

  // The merged vertex list: primitive i's vertices start at first[i].
  // What does not depend on the frames is checked before sampling them: the st table, and (after frame 0) the
  // vertex count — vertices distinct in one frame stay distinct after merging, so MAX_VERTS can refuse early.
  const stTab = stTable(prims, skinWidth, skinHeight);
  const { first, vertexCount: Vg, frames } = frameLayout(doc, prims, fps, bounds, 'MD2 frames');
  const F = frames.length;
  const frameScales = new Float32Array(3 * F), frameTranslates = new Float32Array(3 * F);
  // Every glTF vertex quantised, frame-major (4 bytes per vertex), before merging.
  const all = new Uint8Array(4 * Vg * F);
  const rest = restPose(order);
  const positions = new Float64Array(3 * Vg), normals = new Float64Array(3 * Vg);
  const posers = prims.map((p) => new PrimitivePoser(p.node, p.mesh, p.prim));
  const worlds = new WorldMatrices(order);
  frames.forEach((frame, f) => {
    rest.restore();
    frame.play?.(frame.time);
    worlds.update();
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    prims.forEach((s, i) => {
      const posed = posers[i].pose(false, worlds.get);
      const n = s.prim.getAttribute('NORMAL') ? posed.normals : faceNormals(posed.positions, s.triangles);
      for (let v = 0, o = 3 * first[i]; v < s.vertexCount; v++, o += 3) {
        const p = toId(posed.positions[3 * v], posed.positions[3 * v + 1], posed.positions[3 * v + 2]);
        positions.set(p.map((x) => x * scale), o);
        normals.set(toId(n[3 * v], n[3 * v + 1], n[3 * v + 2]), o);
        for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], positions[o + k])), (hi[k] = Math.max(hi[k], positions[o + k]));
      }
    });
    for (let k = 0; k < 3; k++) {
      // translate and scale are float32 and byte · scale + translate must stay finite (parseMd2 refuses it otherwise)
      if (!(Math.abs(lo[k]) + Math.abs(hi[k] - lo[k]) < FLOAT32_MAX)) unwritable(`frame ${f}: positions from ${lo[k]} to ${hi[k]} on axis ${k} are past MD2's float32 scale and translate`);
      const step = Math.fround((hi[k] - lo[k]) / 255);
      frameTranslates[3 * f + k] = lo[k];
      frameScales[3 * f + k] = step > 0 ? step : 1 / 255;
    }
    for (let v = 0, o = 4 * Vg * f; v < Vg; v++, o += 4) {
      for (let k = 0; k < 3; k++) {
        const q = Math.round((positions[3 * v + k] - frameTranslates[3 * f + k]) / frameScales[3 * f + k]);
        all[o + k] = Math.max(0, Math.min(255, q));
      }
      all[o + 3] = nearestMd2Normal(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]);
    }
    if (f === 0) {
      const distinct = distinctVertices(all, Vg);
      if (distinct > LIMITS.maxVertices) {
        unwritable(`at least ${distinct} vertices (frame 0 alone has ${distinct} distinct ones; merging keeps them apart): Quake 2 and our parser refuse num_xyz over MAX_VERTS ${LIMITS.maxVertices} (Mod_LoadAliasModel, docs/limits.md) — refused before sampling the other ${F - 1} frames`);
      }
    }
  });
  rest.restore();

  const { xyzOf, kept } = mergeVertices(all, Vg, F);
  const V = kept.length;
  if (V === 0) unwritable('the triangle primitives have no vertices: an MD2 needs at least one (num_xyz ≥ 1)');
  if (V > LIMITS.maxVertices) {
    unwritable(`${V} vertices (after merging those equal in every frame): Quake 2 and our parser refuse num_xyz over MAX_VERTS ${LIMITS.maxVertices} (Mod_LoadAliasModel, docs/limits.md)`);
  }
  const frameVertices = new Uint8Array(4 * V * F);
  for (let f = 0; f < F; f++) {
    kept.forEach((v, w) => frameVertices.set(all.subarray(4 * (Vg * f + v), 4 * (Vg * f + v) + 4), 4 * (V * f + w)));
  }

  const triangles = { ...stTab, trianglePositionIndices: trianglePositions(prims, first, xyzOf, stTab.triangleCount) };
  const model: Md2Model = {
    format: 'md2',
    version: 8,
    skinWidth,
    skinHeight,
    skins: skin ? [{ name: skin, bytes: new Uint8Array(0) }] : [],
    vertexCount: V,
    frameCount: F,
    frameNames: md2FrameNames(frames, warnings),
    frameScales,
    frameTranslates,
    frameVertices,
    ...triangles,
    glCommands: null,
    clips: [],
    warnings,
  };
  const imported: ImportedMd2 = Object.assign(model, { textures, atlas: atlas ? { materials: atlas.materials, scale: atlas.scale } : null });
  model.clips = groupClips(model.frameNames);
  return imported;
}
