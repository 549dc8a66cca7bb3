/**
 * What the morph-target and poser-driven meshes need from a vertex-animated model (MD2, MD3), whatever its format:
 * the geometry's vertices and triangles, its frames decoded on a backend by the format's poser (two quantised frames
 * blended per call: `Md2Poser`, `Md3Poser`), the box every frame fits in, and a grid to keep positions on as int16.
 *
 * - MD3 positions are int16 in 1/64 units in the file: the grid is that one, exactly (no rounding at all).
 * - MD2 positions are bytes × a per-frame scale + translate, which no single three.js attribute can hold; the grid is
 *   one int16 lattice over the box of all frames, uniform (so normals need no correction), ≤ 1/65534 of the box's
 *   largest side per step — 256 times finer than the file's own per-frame byte steps, so nothing the file says is lost.
 * MD2 triangles index positions and texture coordinates separately: vertices are the distinct (xyz, st) pairs
 * (`md2Unwelded`), and a frame's positions are gathered from the poser's per-xyz outputs.
 */
import { Box3, Vector3 } from 'three';
import type { Md2Model, Md3Model } from '../base/model.js';
import { md2Unwelded } from '../formats/md2/geometry.js';
import type { PoseBackend } from '../kernels/backend.js';
import { Md2Poser } from '../pose/md2-poser.js';
import { Md3Poser } from '../pose/md3-poser.js';

export interface MorphSource {
  vertexCount: number;
  frameCount: number;
  frameNames: readonly string[];
  /** 3 per triangle, as the file winds them (clockwise), into the geometry's vertices. */
  triangles: Uint16Array | Uint32Array;
  /** 2 per vertex, as stored (t grows downward). */
  st: Float32Array;
  /** Pieces of the index drawn with their own material: MD3 surfaces; one for MD2. */
  groups: { name: string; start: number; count: number }[];
  /** Every frame's positions lie in this box. */
  bounds: Box3;
  /** The int16 grid: position = offset + q · step. */
  grid: { step: number; offset: [number, number, number] };
  poser: Md2Poser | Md3Poser;
  /** Frames blended by t into `positions` / `normals` (3 floats per geometry vertex); they may be the poser's. */
  pose(frame1: number, frame2: number, t: number): { positions: Float32Array; normals: Float32Array };
}

export function md2Source(backend: PoseBackend, model: Md2Model): MorphSource {
  const un = md2Unwelded(model);
  const n = un.sourceVertex.length;
  const bounds = new Box3();
  const v = model.frameVertices;
  for (let f = 0; f < model.frameCount; f++) {
    const lo = [255, 255, 255], hi = [0, 0, 0];
    for (let i = f * model.vertexCount * 4, end = i + model.vertexCount * 4; i < end; i += 4) {
      for (let k = 0; k < 3; k++) {
        if (v[i + k] < lo[k]) lo[k] = v[i + k];
        if (v[i + k] > hi[k]) hi[k] = v[i + k];
      }
    }
    if (model.vertexCount === 0) continue;
    const s = model.frameScales.subarray(f * 3, f * 3 + 3), tr = model.frameTranslates.subarray(f * 3, f * 3 + 3);
    // the scale may be negative: the two ends, whichever is smaller
    for (const q of [lo, hi]) bounds.expandByPoint(new Vector3(Math.fround(q[0] * s[0] + tr[0]), Math.fround(q[1] * s[1] + tr[1]), Math.fround(q[2] * s[2] + tr[2])));
  }
  const center = bounds.isEmpty() ? [0, 0, 0] : [0, 1, 2].map((k) => (bounds.min.getComponent(k) + bounds.max.getComponent(k)) / 2);
  const half = bounds.isEmpty() ? 0 : Math.max(...[0, 1, 2].map((k) => (bounds.max.getComponent(k) - bounds.min.getComponent(k)) / 2));
  const poser = new Md2Poser(backend, model);
  const positions = new Float32Array(n * 3), normals = new Float32Array(n * 3);
  return {
    vertexCount: n,
    frameCount: model.frameCount,
    frameNames: model.frameNames,
    triangles: un.indices,
    st: un.uvs,
    groups: [{ name: model.skins[0]?.name ?? '', start: 0, count: un.indices.length }],
    bounds,
    grid: { step: half > 0 ? half / 32767 : 1, offset: center as [number, number, number] },
    poser,
    pose(frame1, frame2, t) {
      poser.poseBlend(frame1, frame2, t);
      const p = poser.positions, nn = poser.normals;
      for (let i = 0; i < n; i++) {
        const s = un.sourceVertex[i] * 3;
        positions[i * 3] = p[s]; positions[i * 3 + 1] = p[s + 1]; positions[i * 3 + 2] = p[s + 2];
        normals[i * 3] = nn[s]; normals[i * 3 + 1] = nn[s + 1]; normals[i * 3 + 2] = nn[s + 2];
      }
      return { positions, normals };
    },
  };
}

export function md3Source(backend: PoseBackend, model: Md3Model): MorphSource {
  const poser = new Md3Poser(backend, model);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const s of model.surfaces) {
    const r = s.xyzNormals;
    for (let i = 0; i < r.length; i += 4) {
      for (let k = 0; k < 3; k++) {
        if (r[i + k] < lo[k]) lo[k] = r[i + k];
        if (r[i + k] > hi[k]) hi[k] = r[i + k];
      }
    }
  }
  const bounds = new Box3();
  if (lo[0] <= hi[0]) bounds.set(new Vector3(lo[0] / 64, lo[1] / 64, lo[2] / 64), new Vector3(hi[0] / 64, hi[1] / 64, hi[2] / 64));
  const groups: MorphSource['groups'] = [];
  let at = 0;
  for (const s of model.surfaces) {
    groups.push({ name: s.name, start: at, count: s.triangles.length });
    at += s.triangles.length;
  }
  const st = new Float32Array(poser.vertexCount * 2);
  model.surfaces.forEach((s, i) => st.set(s.st, poser.surfaceVertexStart[i] * 2));
  return {
    vertexCount: poser.vertexCount,
    frameCount: model.frameCount,
    frameNames: model.frameNames,
    triangles: poser.indices,
    st,
    groups,
    bounds,
    grid: { step: 1 / 64, offset: [0, 0, 0] },
    poser,
    pose(frame1, frame2, t) {
      poser.poseBlend(frame1, frame2, t);
      return { positions: poser.positions, normals: poser.normals };
    },
  };
}
