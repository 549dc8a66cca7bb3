/**
 * The bundled default model (fixtures/default/worm.*, written by fixtures/generate-md5.mjs): the generator
 * computes each frame's bounds by skinning with its own independent math, so every skinned frame must fit
 * its bounds tightly here — on every backend — and the interpolation must pass through the frames.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { frameAtTime } from '../../src/pose/timing.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { maxAbsDiff } from '../helpers/compare.js';
import { FIXTURES } from '../helpers/models.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});
const mesh = parseMd5Mesh(readFileSync(join(FIXTURES, 'default/worm.md5mesh')));
const anim = parseMd5Anim(readFileSync(join(FIXTURES, 'default/worm.md5anim')));

describe('the default fixture model', () => {
  it('has the shape the generator promises', () => {
    expect(mesh.joints.count).toBe(8);
    expect(mesh.meshes.map((m) => m.name)).toEqual(['body', 'head']);
    expect(mesh.meshes[0].vertexCount).toBe(40 * 24);
    expect(anim.frameCount).toBe(60);
    expect(Array.from(anim.flags)).toEqual([7, 63, 63, 63, 63, 63, 63, 56]);
  });

  for (const name of ['ts', 'wasm-simd', 'wasm-scalar']) {
    it(`${name}: every skinned frame fits the generator's bounds to 1e-5`, () => {
      const p = new Md5Poser(backends.find((b) => b.name === name)!, mesh);
      p.setAnim(anim);
      for (let f = 0; f < anim.frameCount; f++) {
        p.poseFrame(f, false);
        const pos = p.positions;
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        for (let i = 0; i < pos.length; i += 3) {
          for (let k = 0; k < 3; k++) {
            lo[k] = Math.min(lo[k], pos[i + k]);
            hi[k] = Math.max(hi[k], pos[i + k]);
          }
        }
        const b = anim.bounds.subarray(f * 6, f * 6 + 6);
        for (let k = 0; k < 3; k++) {
          expect(Math.abs(lo[k] - b[k]), `frame ${f} min ${k}`).toBeLessThan(2e-5);
          expect(Math.abs(hi[k] - b[k + 3]), `frame ${f} max ${k}`).toBeLessThan(2e-5);
        }
      }
      p.dispose();
    });
  }

  it('time → frames follows the engine: the last frame closes the cycle', () => {
    expect(frameAtTime(anim, 0)).toEqual({ frame1: 0, frame2: 1, t: 0 });
    const b = frameAtTime(anim, 2.5 / 24);
    expect(b.frame1).toBe(2);
    expect(b.frame2).toBe(3);
    expect(b.t).toBeCloseTo(0.5, 10);
    expect(frameAtTime(anim, 59 / 24).frame1).toBe(0); // one full cycle = 59 frames
    expect(frameAtTime(anim, 100, false)).toEqual({ frame1: 59, frame2: 59, t: 0 });
  });

  it('an interpolated pose at an exact frame time equals that frame', () => {
    const p = new Md5Poser(backends[1], mesh);
    p.setAnim(anim);
    p.poseFrame(7, false);
    const exact = p.positions.slice();
    p.poseTime(7 / 24, true, false);
    expect(maxAbsDiff(p.positions, exact)).toBeLessThan(1e-4);
    p.poseTime(7.5 / 24, true, false);
    expect(maxAbsDiff(p.positions, exact)).toBeGreaterThan(1e-3);
    p.dispose();
  });

  it('bind-pose normals point out of the closed SimpleCube-like body (winding is clockwise)', () => {
    const p = new Md5Poser(backends[0], mesh);
    p.poseBind();
    const pos = p.positions, n = p.normals;
    // Body vertices: outward = away from the z axis.
    let inward = 0;
    for (let v = 0; v < mesh.meshes[0].vertexCount; v++) {
      if (pos[v * 3] * n[v * 3] + pos[v * 3 + 1] * n[v * 3 + 1] <= 0) inward++;
    }
    expect(inward).toBe(0);
    p.dispose();
  });
});

describe('skin stream bound', () => {
  it('refuses a mesh whose vertices all share one long weight run (quadratic stream), with BAD_COUNT', async () => {
    const { parseMd5Mesh } = await import('../../src/formats/md5/index.js');
    const { buildSkinStream, STREAM_WEIGHT_FACTOR } = await import('../../src/pose/skin-stream.js');
    // 60 vertices × 60 weights each over 60 declared weights: 3600 stream weights > 4 × 60.
    const n = 60;
    const verts = Array.from({ length: n }, (_, v) => `vert ${v} ( 0 0 ) 0 ${n}`).join('\n');
    const weights = Array.from({ length: n }, (_, w) => `weight ${w} 0 ${1 / n} ( ${w} 0 0 )`).join('\n');
    const text = `MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes 1\njoints {\n"root" -1 ( 0 0 0 ) ( 0 0 0 )\n}\nmesh {\nshader "s"\nnumverts ${n}\n${verts}\nnumtris 1\ntri 0 0 1 2\nnumweights ${n}\n${weights}\n}\n`;
    const mesh = parseMd5Mesh(new TextEncoder().encode(text));
    expect(n * n).toBeGreaterThan(STREAM_WEIGHT_FACTOR * n);
    expect(() => buildSkinStream(mesh)).toThrow(/BAD_COUNT: the vertices reference 3600 weights/);
  });
});
