/**
 * A format the viewer has never heard of, registered at run time (`?formats=URL`: a same-origin module exporting
 * `formats`), bundled by viewer.test.ts: "TOYS", a tetrahedron whose apex rises over three frames, whose file says
 * its engine turns it (as Quake's EF_ROTATE items turn): its view's `extras` carry the spin and the flag's name.
 * Plain code over the registry's types, no library code: what an app's own format module would be.
 */
import type { FormatEntry } from '../../src/formats/entry.js';
import type { MorphModelView } from '../../src/formats/model-view.js';

interface Toy {
  format: 'toys';
  spin: number;
  frames: Float32Array;
}

const VERTICES = 4;
const TRIANGLES = [0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3];
/** 'TOYS', then f32 degrees per second, then 3 frames × 4 vertices × xyz. */
export const TOY_FRAMES = 3;

export function toyFile(spin: number): Uint8Array {
  const frames = [0, 1, 2].flatMap((f) => [0, 0, 0, 10, 0, 0, 0, 10, 0, 3, 3, 5 + f * 4]);
  const dv = new DataView(new ArrayBuffer(8 + frames.length * 4));
  [0x54, 0x4f, 0x59, 0x53].forEach((b, i) => dv.setUint8(i, b));
  dv.setFloat32(4, spin, true);
  frames.forEach((x, i) => dv.setFloat32(8 + i * 4, x, true));
  return new Uint8Array(dv.buffer);
}

async function parse(source: unknown): Promise<Toy> {
  const parts: Uint8Array[] = [];
  for await (const c of source as AsyncIterable<Uint8Array>) parts.push(c.slice());
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  const dv = new DataView(bytes.buffer);
  return { format: 'toys', spin: dv.getFloat32(4, true), frames: new Float32Array(bytes.buffer.slice(8, 8 + TOY_FRAMES * VERTICES * 12)) };
}

function view(toy: Toy): MorphModelView {
  const n = VERTICES * 3;
  const normals = new Float32Array(n);
  for (let i = 2; i < n; i += 3) normals[i] = 1;
  const out = { positions: new Float32Array(n), normals };
  return {
    kind: 'morph',
    vertexCount: VERTICES,
    frameCount: TOY_FRAMES,
    frameNames: ['rise1', 'rise2', 'rise3'],
    triangles: Uint16Array.from(TRIANGLES),
    st: new Float32Array(VERTICES * 2),
    groups: [{ name: 'body', material: 'toy/skin', start: 0, count: TRIANGLES.length }],
    bounds: { min: [0, 0, 0], max: [10, 10, 13] },
    grid: { step: 13 / 32767, offset: [5, 5, 6.5] },
    clips: [{ name: 'rise', frames: [0, 1, 2, 0], step: 0.2, loop: 'repeat' }],
    poser: {
      pose(f1, f2, t) {
        for (let i = 0; i < n; i++) out.positions[i] = toy.frames[f1 * n + i] * (1 - t) + toy.frames[f2 * n + i] * t;
        return out;
      },
      dispose() {},
    },
    warnings: [],
    extras: { spin: toy.spin, flags: ['EF_ROTATE'] },
  };
}

export const formats: FormatEntry<Toy>[] = [
  {
    id: 'toys',
    title: 'spinning toy (TOYS)',
    extensions: ['.toys'],
    test: (head) => head[0] === 0x54 && head[1] === 0x4f && head[2] === 0x59 && head[3] === 0x53,
    role: 'model',
    animation: 'vertex',
    parseStream: (source) => parse(source),
    owns: (d): d is Toy => (d as Toy | null)?.format === 'toys',
    inspect: async (source) => {
      const t = await parse(source);
      return { summary: { format: 'toys', frames: TOY_FRAMES, spin: t.spin } };
    },
    view: async (set) => view(set.data),
  },
];
