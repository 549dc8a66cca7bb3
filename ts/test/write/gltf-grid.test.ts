/**
 * The scale trap: MD3's grid is a fixed 1/64 unit, so a glTF model in metres lands on ~100 steps and moves in jumps
 * (formats/md3/grid.ts: fewer than 256 steps along its largest extent is MD3_GRID_COARSE, naming the scale that fixes
 * it). CesiumMan (the Khronos sample, in metres, ~1.5 tall) is the real case; Fox (in centimetres) is not. MD2 has
 * no such trap: each frame is quantised to its own bounds, so its bytes are the same at any scale.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Md3Model } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { gltfToMd3 } from '../../src/formats/md3/from-gltf.js';
import { gltfToPlayer } from '../../src/formats/md3/player-from-gltf.js';
import { SHARED_MODELS } from '../helpers/models.js';

const glb = (p: string) => ({ bytes: new Uint8Array(readFileSync(join(SHARED_MODELS, 'gltf-samples', p))) });
const CESIUM = 'mjolnir-zig/assets/CesiumMan.glb';
const FOX = 'bevy/assets/models/animated/Fox.glb';

/** Steps the written vertices span along their largest axis: from the int16 values themselves (independent of the box). */
function stepsSpanned(m: Md3Model): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const s of m.surfaces) for (let i = 0; i < s.xyzNormals.length; i += 4) for (let k = 0; k < 3; k++) (lo[k] = Math.min(lo[k], s.xyzNormals[i + k])), (hi[k] = Math.max(hi[k], s.xyzNormals[i + k]));
  return Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

describe('MD3_GRID_COARSE', () => {
  it('CesiumMan in metres: one warning with the steps it spans and a --scale that keeps 256; at that scale, none', async () => {
    const m = await gltfToMd3(glb(CESIUM), { fps: 2 });
    const steps = stepsSpanned(m);
    expect(steps).toBeLessThan(256);
    const coarse = m.warnings.filter((w) => w.code === 'MD3_GRID_COARSE');
    expect(coarse).toHaveLength(1);
    expect(coarse[0].message).toContain(`, ${steps} steps of MD3's 1/64-unit grid`);
    const keep = Number(/--scale ([\d.]+) keeps 256 steps/.exec(coarse[0].message)?.[1]);
    const player = Number(/--scale ([\d.]+) makes it as tall as a Quake 3 player/.exec(coarse[0].message)?.[1]);
    expect(keep).toBeGreaterThan(1);
    const kept = await gltfToMd3(glb(CESIUM), { fps: 2, scale: keep });
    expect(stepsSpanned(kept)).toBeGreaterThanOrEqual(256);
    expect(kept.warnings.map((w) => w.code)).not.toContain('MD3_GRID_COARSE');
    const sized = await gltfToMd3(glb(CESIUM), { fps: 2, scale: player });
    expect(Math.abs(stepsSpanned(sized) / 64 - 56)).toBeLessThan(0.5);
  });

  it('Fox (centimetres) spans thousands of steps: no warning', async () => {
    const m = await gltfToMd3(glb(FOX), { fps: 2 });
    expect(stepsSpanned(m)).toBeGreaterThan(256);
    expect(m.warnings.map((w) => w.code)).not.toContain('MD3_GRID_COARSE');
  });

  it('a player: one warning, for its smallest part (here the head of human_bsuit shrunk to metres)', async () => {
    const dir = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');
    const part = (f: string) => parseMd3(new Uint8Array(readFileSync(join(dir, f))));
    const r = await gltfToPlayer({ bytes: await toGlb({ models: { lower: part('lower.md3'), upper: part('upper.md3'), head: part('head.md3') } }) }, { scale: 1 / 40, fps: 1 });
    const coarse = r.warnings.filter((w) => w.code === 'MD3_GRID_COARSE');
    expect(coarse).toHaveLength(1);
    expect(coarse[0].message).toMatch(/^head spans /);
    expect(coarse[0].message).not.toContain('Quake 3 player');
  });
});

describe('MD2 has no scale trap', () => {
  it('Fox in centimetres and in metres (scale 1/100): the same vertex bytes in every frame (each frame is quantised to its own bounds)', async () => {
    const a = await gltfToMd2(glb(FOX), { fps: 2 });
    const b = await gltfToMd2(glb(FOX), { fps: 2, scale: 1 / 100 });
    expect(a.warnings.map((w) => w.code)).not.toContain('MD3_GRID_COARSE');
    let differ = 0;
    for (let i = 0; i < a.frameVertices.length; i++) if (a.frameVertices[i] !== b.frameVertices[i]) differ++;
    expect(differ / a.frameVertices.length).toBeLessThan(1e-3);
  });
});
