/**
 * Decoded frames against a peer: three.js MD2Loader. It builds a non-indexed geometry — vertex j is corner j of
 * the triangle list in file order — converted to Y-up as (x, z, y), with uv = (s / w, 1 − t / h), one morph
 * target per frame for positions and normals. We map through our triangle indices and compare.
 */
import { BufferGeometry } from 'three';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';
import { describe, expect, test } from 'vitest';
import { md2TexCoords, md2Unwelded, parseMd2 } from '../../src/formats/md2/index.js';
import { md2FrameNormals, md2FramePositions } from '../reference/md2.js';
import { goodMd2Rows, readMd2File } from './_helpers.js';

const REL = 1e-5;

/** |a − b| ≤ 1e-5 · max(1, |b|) for every element, else the first failure. */
function closeRel(a: ArrayLike<number>, b: ArrayLike<number>, label: string): void {
  expect(a.length, label).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!(Math.abs(a[i] - b[i]) <= REL * Math.max(1, Math.abs(b[i])))) throw new Error(`${label}[${i}]: ${a[i]} vs three ${b[i]}`);
  }
}

function threeParse(bytes: Uint8Array): BufferGeometry {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const g = new MD2Loader().parse(buf);
  if (!g) throw new Error('three.js MD2Loader rejected the file');
  return g;
}

describe('frames match three.js MD2Loader', () => {
  for (const row of goodMd2Rows()) {
    test(row.path, () => {
      const bytes = readMd2File(row.path);
      const model = parseMd2(bytes);
      const three = threeParse(bytes);
      const corners = model.triangleCount * 3;
      const morphP = three.morphAttributes.position ?? [];
      const morphN = three.morphAttributes.normal ?? [];
      expect(morphP.length).toBe(model.frameCount);
      expect(morphN.length).toBe(model.frameCount);

      const frames = [...new Set([0, model.frameCount >> 1, model.frameCount - 1])];
      for (const f of frames) {
        const p = md2FramePositions(model, f);
        const n = md2FrameNormals(model, f);
        const ours = new Float32Array(corners * 3);
        const oursN = new Float32Array(corners * 3);
        for (let j = 0; j < corners; j++) {
          const v = model.trianglePositionIndices[j];
          // three's Y-up: (x, z, y)
          ours.set([p[3 * v], p[3 * v + 2], p[3 * v + 1]], 3 * j);
          oursN.set([n[3 * v], n[3 * v + 2], n[3 * v + 1]], 3 * j);
        }
        closeRel(ours, morphP[f].array as Float32Array, `frame ${f} positions`);
        closeRel(oursN, morphN[f].array as Float32Array, `frame ${f} normals`);
      }

      // Texcoords, through the un-welded form: corner j is unwelded vertex indices[j].
      const uw = md2Unwelded(model);
      const uv = new Float32Array(corners * 2);
      for (let j = 0; j < corners; j++) {
        const k = uw.indices[j];
        uv[2 * j] = uw.uvs[2 * k];
        uv[2 * j + 1] = 1 - uw.uvs[2 * k + 1];
      }
      closeRel(uv, three.getAttribute('uv').array as Float32Array, 'uv');
      // And the plain st table agrees with the un-welded uvs.
      const st = md2TexCoords(model);
      for (let j = 0; j < corners; j++) {
        expect(uw.uvs[2 * uw.indices[j]]).toBe(st[2 * model.triangleStIndices[j]]);
      }
    });
  }
});
