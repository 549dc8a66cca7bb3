/**
 * `maxMorphVertices` (export/gltf-morph.ts `boundMorphVertices`): an MDL's or MD2's triangles pair positions with
 * texture coordinates apart, so a few stored vertices can be drawn once per st — and a morph export holds every drawn
 * vertex in every frame. Issue 36's inputs (fixtures/generate-unwelded.mjs): a 411 KB Hexen II RAPO of 1 vertex,
 * 20,000 st and 2,000 poses (40 million vertex positions, 5.8 GB before) and a 372 KB MD2 of 30,000 st and 3,000
 * frames (90 million, 7.8 GB) are UNWRITABLE before any frame is decoded. Drawn vertices up to twice the stored ones
 * are the file's own size and pass whatever the limit; every real MDL and MD2 passes with room.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESOURCE_LIMITS as D, resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { md2Unwelded } from '../../src/formats/md2/geometry.js';
import { parseMdl } from '../../src/formats/mdl/parser.js';
import { mdlDrawVertices } from '../../src/formats/mdl/geometry.js';
import { md2ManySt, rapoManySt } from '../../../fixtures/generate-unwelded.mjs';
import { manifest, read } from '../helpers/models.js';
import { failure } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

const limitText = (n: number) => `over the limit maxMorphVertices = ${n} (raise it with --limit maxMorphVertices=N, or the maxMorphVertices option)`;

describe('maxMorphVertices', () => {
  it('the RAPO MDL of 1 vertex, 20,000 st and 2,000 poses is UNWRITABLE before a frame is decoded', async () => {
    const model = parseMdl(rapoManySt());
    expect([model.variant, model.vertexCount, model.stCount, model.poseCount]).toEqual(['RAPO', 1, 20000, 2000]);
    const before = process.memoryUsage().arrayBuffers;
    const e = await failure(toGlb(model, { name: 'rapo' }));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', `the model: 20000 drawn vertices (the file stores 1) × 2000 frames are 40000000 vertex positions: ${limitText(1 << 21)}`]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('the MD2 of 30,000 st and 3,000 frames is UNWRITABLE before a frame is decoded', async () => {
    const model = parseMd2(md2ManySt());
    expect([model.vertexCount, model.stCount, model.frameCount]).toEqual([1, 30000, 3000]);
    const e = await failure(toGlb(model));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', `the model: 30000 drawn vertices (the file stores 1) × 3000 frames are 90000000 vertex positions: ${limitText(1 << 21)}`]);
  });

  it('the bound counts drawn vertices × frames: at the limit the export is written, one under it refused (MDL and MD2, and the MD2 as frame nodes)', async () => {
    const mdl = parseMdl(rapoManySt({ st: 300, frames: 20 }));
    const md2 = parseMd2(md2ManySt({ st: 300, frames: 20 }));
    expect([mdlDrawVertices(mdl).sourceVertex.length, md2Unwelded(md2).sourceVertex.length]).toEqual([300, 300]);
    setResourceLimits({ maxMorphVertices: 6000 });
    expect((await toGlb(mdl)).length).toBeGreaterThan(0);
    expect((await toGlb(md2)).length).toBeGreaterThan(0);
    expect((await toGlb(md2, { md2Frames: 'nodes' })).length).toBeGreaterThan(0);
    setResourceLimits({ maxMorphVertices: 5999 });
    for (const f of [() => toGlb(mdl), () => toGlb(md2), () => toGlb(md2, { md2Frames: 'nodes' })]) {
      expect((await failure(f())).detail).toBe(`the model: 300 drawn vertices (the file stores 1) × 20 frames are 6000 vertex positions: ${limitText(5999)}`);
    }
  });

  it('drawn vertices up to twice the stored ones are in proportion to the file: written whatever the limit', async () => {
    // 300 st over 150 stored vertices: each drawn twice
    const md2 = parseMd2(md2ManySt({ st: 300, frames: 20, vertices: 150 }));
    expect(md2Unwelded(md2).sourceVertex.length).toBe(300);
    setResourceLimits({ maxMorphVertices: 1 });
    expect((await toGlb(md2)).length).toBeGreaterThan(0);
    // 303 st over 150: three more than twice
    const over = parseMd2(md2ManySt({ st: 303, frames: 20, vertices: 150 }));
    expect((await failure(toGlb(over))).detail).toMatch(/^the model: 303 drawn vertices \(the file stores 150\) × 20 frames are 6060 vertex positions: over the limit maxMorphVertices = 1 /);
  });

  it('every real MDL and MD2 exports its drawn vertices × frames with ≥ 18× room (the most: LibreQuake\'s player.mdl, 801 × 143)', async () => {
    let worst = { n: 0, path: '' };
    const amplified: string[] = []; // drawing more than twice the stored vertices: the only files the bound counts
    for (const r of manifest().filter((x) => /\.(mdl|md2)$/i.test(x.path) && !x.path.includes('/invalid/'))) {
      let n: number, drawn: number, stored: number;
      try {
        if (/\.mdl$/i.test(r.path)) {
          const m = parseMdl(read(r.absPath));
          [drawn, stored] = [mdlDrawVertices(m).sourceVertex.length, m.vertexCount];
          n = drawn * m.poseCount;
        } else {
          const m = parseMd2(read(r.absPath));
          [drawn, stored] = [md2Unwelded(m).sourceVertex.length, m.vertexCount];
          n = drawn * m.frameCount;
        }
      } catch {
        continue; // Half-Life MDLs and the broken test files: not this reader's
      }
      if (drawn > 2 * stored) amplified.push(r.path);
      if (n > worst.n) worst = { n, path: r.path };
    }
    console.log(`most drawn vertices × frames of a corpus MDL/MD2: ${worst.n} (${worst.path}); maxMorphVertices ${D.maxMorphVertices}`);
    expect(worst).toEqual({ n: 801 * 143, path: 'LibreQuake/lq1/progs/player.mdl' });
    expect(worst.n * 18).toBeLessThanOrEqual(D.maxMorphVertices);
    expect(amplified).toEqual(['assimp/test/models-nonbsd/MD2/flag.md2']);
  });
});
