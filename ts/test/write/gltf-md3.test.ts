/**
 * glTF → MD3: every real MD3 of the corpus → our glb (toGlb) → gltfToMd3 → writeMd3 → parseMd3 gives back the same
 * model within MD3's quantisation: every vertex coordinate within one 1/64 step, normals within the glb's snorm8
 * error plus one lat/lng rounding, same triangles, st, surface names and shaders, tags within 1e-3 units and 1e-3 on each axis component.
 */
import { describe, expect, it } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { gltfToMd3, packMd3Normal } from '../../src/formats/md3/from-gltf.js';
import { MD3_NORMAL_TABLE } from '../../src/kernels/tables.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { realMd3s } from '../md3/_helpers.js';

/**
 * The glb stores normals as snorm8 (KHR_mesh_quantization, docs/gltf.md): within asin(√3 / (254 · 0.42)) of the
 * file's; the importer then rounds latitude and longitude each to the nearest 2π/256 step, at most √2 · π/256 away.
 * (On the corpus: 0.0248 rad worst, one step.)
 */
const NORMAL_BOUND = Math.asin(Math.sqrt(3) / (254 * 0.42)) + (Math.SQRT2 * Math.PI) / 256;

/** ioquake3's decode of a packed normal (independent of the importer's encode). */
function unpack(p: number): number[] {
  const a = (p >> 8) & 255, b = p & 255;
  const t = MD3_NORMAL_TABLE, lat = a * 4, lng = 1024 + b * 4;
  return [t[lat] * t[lng], t[lat + 1] * t[lng + 1], t[lng + 2]];
}

describe('gltfToMd3: id MD3 → our glb → MD3 within the format\'s quantisation', () => {
  for (const row of realMd3s()) {
    it(row.path, async () => {
      const model = parseMd3(row.bytes);
      const back = parseMd3(writeMd3(await gltfToMd3({ bytes: await toGlb(model) })));
      expect(back.frameCount).toBe(model.frameCount);
      const kept = model.surfaces.filter((s) => s.vertexCount > 0 && s.triangleCount > 0);
      expect(back.surfaces.map((s) => s.name)).toEqual(kept.map((s) => s.name));
      let maxStep = 0, maxNormal = 0;
      kept.forEach((s, i) => {
        const b = back.surfaces[i];
        expect(b.triangles).toEqual(s.triangles);
        expect(b.st).toEqual(s.st);
        if (s.shaders[0]?.name) expect(b.shaders.map((x) => x.name)).toEqual([s.shaders[0].name]);
        for (let k = 0; k < s.xyzNormals.length; k += 4) {
          for (let c = 0; c < 3; c++) maxStep = Math.max(maxStep, Math.abs(s.xyzNormals[k + c] - b.xyzNormals[k + c]));
          const n0 = unpack(s.xyzNormals[k + 3]), n1 = unpack(b.xyzNormals[k + 3]);
          maxNormal = Math.max(maxNormal, Math.acos(Math.min(1, n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2])));
        }
      });
      expect(maxStep, 'int16 steps (1/64 unit)').toBeLessThanOrEqual(1);
      expect(maxNormal, 'normal angle (rad)').toBeLessThanOrEqual(NORMAL_BOUND);
      expect(back.tagNames).toEqual(model.tagNames);
      for (let i = 0; i < model.tagOrigins.length; i++) expect(Math.abs(back.tagOrigins[i] - model.tagOrigins[i])).toBeLessThan(1e-3);
      for (let i = 0; i < model.tagAxes.length; i++) expect(Math.abs(back.tagAxes[i] - model.tagAxes[i])).toBeLessThan(1e-3);
      for (let f = 0; f < back.frameCount; f++) {
        for (let k = 0; k < 3; k++) expect(back.frameMins[3 * f + k]).toBeLessThanOrEqual(back.frameMaxs[3 * f + k]);
      }
    });
  }

  it('packs a normal to the byte pair whose decode is nearest', () => {
    for (const n of [[0, 0, 1], [0, 0, -1], [1, 0, 0], [0, -1, 0], [0.6, 0, 0.8]]) {
      const d = unpack(packMd3Normal(n[0], n[1], n[2]));
      expect(Math.acos(Math.min(1, d[0] * n[0] + d[1] * n[1] + d[2] * n[2]))).toBeLessThan(0.02);
    }
  });
});
