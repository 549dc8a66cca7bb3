/**
 * A view's `extras` (model-view.ts `ViewExtras`: a spin its engine gives the model, the file's flags, the skins it
 * carries) are the registration's to give: a vertex-animated format described by a `MorphView` passes its shape's
 * extras to its view unchanged, and a shape without them gives a view without them (the viewer then shows none).
 */
import { describe, expect, it } from 'vitest';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import type { ModelSet } from '../../src/load/model-set.js';
import { morphCapabilities, type MorphShape } from '../../src/formats/morph-view.js';

const shape = (extras?: MorphShape['extras']): MorphShape => ({
  surfaces: [{ name: 'body', vertexCount: 3, triangles: [0, 1, 2], uvs: new Float32Array(6), material: 'skin' }],
  frameCount: 1,
  clips: [],
  ...(extras ? { extras } : {}),
});

async function viewOf(s: MorphShape) {
  const caps = morphCapabilities<MorphShape>({ shape: (d) => d, posing: () => ({ pose: (_a, _b, _t, out) => out.positions.set([0, 0, 0, 1, 0, 0, 0, 1, 0]) }) });
  const set: ModelSet<MorphShape> = { format: 'x', path: 'x', origin: 'x', data: s, companions: [], files: [], sideFiles: [], warnings: [] };
  return caps.view(set, createTsBackend());
}

describe('view extras', () => {
  it("a shape's extras reach its view as they are", async () => {
    const extras = { spin: 100, flags: ['EF_ROTATE'], skins: ['skin 0', 'skin 1'] };
    expect((await viewOf(shape(extras))).extras).toEqual(extras);
  });
  it('a shape without extras gives a view without them', async () => {
    expect('extras' in (await viewOf(shape()))).toBe(false);
  });
});
