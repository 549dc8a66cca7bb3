/**
 * MDL's morph view (formats/mdl/view.ts: what a renderer builds, `IdTechLoader` among them): the GL renderer's
 * drawn vertices posed by the view equal the posed model vertices they come from (against the independent reference
 * decoder, first/middle/last pose, every backend); the box holds every pose and is reached; clips are the pose-name
 * groups at 10 fps, a frame group's at its own intervals.
 */
import { beforeAll, describe, expect, it, test } from 'vitest';
import { mdlDrawVertices } from '../../src/formats/mdl/geometry.js';
import { parseMdl } from '../../src/formats/mdl/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { mdlView } from '../../src/formats/mdl/view.js';
import { referenceMdl, referenceMdlPositions } from '../reference/mdl.js';
import { buildMdl, richSpec } from './_build.js';
import { mdlRows, readRow } from './_helpers.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

describe('every real MDL as a morph view', () => {
  for (const row of mdlRows()) {
    it(`${row.path}: drawn vertices posed as the reference decodes them; a box every pose fills`, () => {
      const bytes = readRow(row);
      const ref = referenceMdl(bytes);
      const model = parseMdl(bytes);
      const drawn = mdlDrawVertices(model);
      const ulp = 2 ** -23 * Math.max(...[0, 1, 2].map((k) => Math.abs(model.origin[k]) + 255 * Math.abs(model.scale[k])));
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let p = 0; p < model.poseCount; p++) {
        const want = referenceMdlPositions(bytes, ref, p);
        for (let i = 0; i < want.length; i++) (lo[i % 3] = Math.min(lo[i % 3], want[i])), (hi[i % 3] = Math.max(hi[i % 3], want[i]));
      }
      for (const backend of backends) {
        const view = mdlView(model, backend);
        expect([view.kind, view.vertexCount, view.frameCount]).toEqual(['morph', drawn.sourceVertex.length, model.poseCount]);
        for (let k = 0; k < 3; k++) {
          expect(Math.abs(view.bounds!.min[k] - lo[k]), `min ${k}`).toBeLessThanOrEqual(ulp);
          expect(Math.abs(view.bounds!.max[k] - hi[k]), `max ${k}`).toBeLessThanOrEqual(ulp);
        }
        for (const p of [...new Set([0, model.poseCount >> 1, model.poseCount - 1])]) {
          const want = referenceMdlPositions(bytes, ref, p);
          const { positions } = view.poser.pose(p, p, 0);
          let worst = 0;
          for (let i = 0; i < drawn.sourceVertex.length; i++) {
            for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(positions[3 * i + k] - want[3 * drawn.sourceVertex[i] + k]));
          }
          expect(worst, `${backend.name} pose ${p}`).toBeLessThanOrEqual(ulp);
        }
        view.poser.dispose();
      }
    });
  }
});

test('clips: the pose-name groups looping at 10 fps; a frame group at its own intervals', () => {
  const model = parseMdl(buildMdl(richSpec()));
  const view = mdlView(model, createTsBackend());
  const group = model.frames[1].intervals;
  expect(view.clips.map((c) => ({ ...c, times: c.times && [...c.times] }))).toEqual([
    { name: 'stand', frames: [0, 0], step: 0.1, loop: 'repeat', times: undefined },
    { name: 'wave', frames: [1, 2, 3, 1], step: group[0], times: [0, group[0], group[1], group[2]], loop: 'repeat' },
  ]);
  expect(view.groups).toEqual([{ name: 'skin0', material: 'skin0', start: 0, count: mdlDrawVertices(model).indices.length }]);
  view.poser.dispose();
});
