/**
 * Tangents for normal-mapped surfaces (export/gltf-tangents.ts): the derivation on made-up quads whose answer is
 * known (u along +x: tangent +x; u mirrored: w flips; no UV area: a unit tangent perpendicular to the normal), and on
 * real textured models the Khronos validator no longer warns MESH_PRIMITIVE_GENERATED_TANGENT_SPACE: every
 * normal-mapped primitive has a TANGENT of unit xyz, perpendicular to its normal, w = ±1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vertexTangents } from '../../src/export/gltf-tangents.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { readGlb } from '../helpers/textured.js';
import { validate } from './validate.js';

/** A unit quad in the z = 0 plane facing +z, two triangles wound counter-clockwise (glTF). */
const QUAD = { positions: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], normals: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1], indices: [0, 1, 2, 0, 2, 3] };

describe('vertexTangents', () => {
  it('u along +x: every tangent (1, 0, 0), w +1 (N × T = +y, the way v grows)', () => {
    const t = vertexTangents(QUAD.positions, QUAD.normals, [0, 0, 1, 0, 1, 1, 0, 1], QUAD.indices);
    for (let v = 0; v < 4; v++) expect([...t.subarray(v * 4, v * 4 + 4)].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 0, 0, 1]);
  });

  it('v mirrored (glTF v down): the same tangent, w −1; u mirrored: tangent −x', () => {
    const flippedV = vertexTangents(QUAD.positions, QUAD.normals, [0, 1, 1, 1, 1, 0, 0, 0], QUAD.indices);
    expect([...flippedV.subarray(0, 4)].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([1, 0, 0, -1]);
    const flippedU = vertexTangents(QUAD.positions, QUAD.normals, [1, 0, 0, 0, 0, 1, 1, 1], QUAD.indices);
    expect([...flippedU.subarray(0, 3)].map((x) => Math.round(x * 1e6) / 1e6)).toEqual([-1, 0, 0]);
  });

  it('no UV area (every uv the same): a unit tangent perpendicular to the normal, w ±1', () => {
    const t = vertexTangents(QUAD.positions, QUAD.normals, new Array(8).fill(0.5), QUAD.indices);
    for (let v = 0; v < 4; v++) {
      const [x, y, z, w] = t.subarray(v * 4, v * 4 + 4);
      expect(Math.hypot(x, y, z)).toBeCloseTo(1, 6);
      expect(z).toBeCloseTo(0, 6); // ⟂ (0, 0, 1)
      expect(Math.abs(w)).toBe(1);
    }
  });
});

describe('real normal-mapped models', () => {
  const tmp = cliTemp('tangents');
  // --float: the MD3's morph normals as floats, to read them here (the quantised export gets the same tangents)
  for (const [name, path, float] of [
    ['grenade.md5mesh (Daemon normalMap)', 'res-weapons_src.dpkdir/models/weapons/grenade/grenade.md5mesh', false],
    ['grenade_launcher.md3 (.mtr normalparallaxmap, morph targets)', 'aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3', true],
    ['drone mesh.md5mesh (md5.cfg md5bumpmap)', 'actors/drone/mesh.md5mesh', false],
  ] as const) {
    it(`${name}: TANGENT on every normal-mapped primitive, unit and ⟂ the normal; no validator warning`, async () => {
      const out = join(tmp, `${name.split(' ')[0]}.glb`);
      const r = await runCli('convert', shared(path), ...(float ? ['--float'] : []), '-o', out);
      expect(r.status, r.stderr).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      const s = await validate(bytes);
      expect(s.errors, s.sample.join('\n')).toBe(0);
      expect(s.codes.warnings).toEqual([]);
      const { json, bin } = readGlb(bytes);
      const floats = (i: number) => {
        const a = json.accessors[i], view = json.bufferViews[a.bufferView];
        const n = { VEC3: 3, VEC4: 4 }[a.type as 'VEC3' | 'VEC4'];
        return new Float32Array(bin.buffer.slice(bin.byteOffset + (view.byteOffset ?? 0) + (a.byteOffset ?? 0), bin.byteOffset + (view.byteOffset ?? 0) + (a.byteOffset ?? 0) + a.count * n * 4));
      };
      let mapped = 0;
      for (const mesh of json.meshes) {
        for (const p of mesh.primitives) {
          if (!json.materials[p.material]?.normalTexture) continue;
          mapped++;
          expect(p.attributes.TANGENT, mesh.name).toBeDefined();
          const t = floats(p.attributes.TANGENT), nrm = floats(p.attributes.NORMAL);
          for (let v = 0; v < t.length / 4; v++) {
            expect(Math.abs(Math.hypot(t[v * 4], t[v * 4 + 1], t[v * 4 + 2]) - 1)).toBeLessThan(1e-5);
            expect(Math.abs(t[v * 4] * nrm[v * 3] + t[v * 4 + 1] * nrm[v * 3 + 1] + t[v * 4 + 2] * nrm[v * 3 + 2])).toBeLessThan(1e-4);
            expect(Math.abs(t[v * 4 + 3])).toBe(1);
          }
        }
      }
      expect(mapped).toBeGreaterThan(0);
    });
  }
});
