/**
 * Vertex arrays whose `size` is not the one their type needs (the coverage-guided campaign's two IQM findings, files
 * made by fixtures/generate-iqm.mjs; the campaign's own inputs are fixtures/fuzz-corpus/iqm/0abe7bf4.bin and
 * position-size-0-posed.bin). ioquake3 refuses both files (R_LoadIQM: size outside 1..4, position not float × 3);
 * DarkPlaces ignores an array of a standard type in another size and refuses vertices without a position array;
 * without meshes ioquake3 reads no vertex array and Tesseract no vertex. So:
 *  - a tangent of 8 floats is kept as stored in `vertexArrays` only, read by nothing, NaN and all: the fuzz target's
 *    every-float-finite check was wrong to walk it (it walks the arrays the readers use, under their own names);
 *  - a position array of 0 components leaves the file without vertices to read: its normals are not handed to the
 *    posers either (they were, and `new IqmPoser` threw a RangeError sizing them for the positions' 0 vertices).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { parseIqm } from '../../src/formats/iqm/parser.js';
import { iqmToGlb } from '../../src/formats/iqm/gltf.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { TARGETS } from '../fuzz/targets.js';
import { buildIqm, positionSizeZero, wideTangentNaN } from '../../../fixtures/generate-iqm.mjs';
import { refusal } from '../helpers/failure.js';

const iqm = TARGETS.find((t) => t.name === 'iqm')!;
const backend = createTsBackend();
const f32 = (a: number[]) => new Uint8Array(Float32Array.from(a).buffer);
const warned = (m: { warnings: { code: string; message: string }[] }, text: string) => m.warnings.filter((w) => w.code === 'ENGINE_LIMIT' && w.message.includes(text));

/** The JSON chunk of a .glb. */
function glbJson(glb: Uint8Array): { accessors: { min?: number[]; max?: number[] }[] } {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + v.getUint32(12, true))));
}

describe('a tangent array of 8 floats a vertex holding a NaN', () => {
  const bytes = wideTangentNaN();

  it('loads (DarkPlaces ignores the array) with the array kept as stored in vertexArrays only', () => {
    const m = parseIqm(bytes);
    expect(m.tangents).toBeNull();
    expect(m.positions).toEqual(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0));
    const wide = m.vertexArrays[5];
    expect([wide.name, wide.format, wide.size, wide.data?.length]).toEqual(['tangent', 7, 8, 24]);
    expect(Number.isNaN(wide.data![22])).toBe(true);
    expect(warned(m, 'vertex array 5 (tangent) has 8 components: ioquake3 refuses the model')).toHaveLength(1);
    expect(warned(m, 'vertex array 5 (tangent) is format 7 × 8, not float × 4')).toHaveLength(1);
  });

  it('no reader trips on it: written back as stored, exported, posed', () => {
    const m = parseIqm(bytes);
    const again = parseIqm(writeIqm(m));
    expect(again.tangents).toBeNull();
    expect(Array.from(again.vertexArrays[5].data!)).toEqual(Array.from(m.vertexArrays[5].data!));
    const accessors = glbJson(iqmToGlb(m)).accessors;
    expect(accessors.length).toBeGreaterThan(0);
    for (const a of accessors) for (const x of [...(a.min ?? []), ...(a.max ?? [])]) expect(Number.isFinite(x)).toBe(true);
    const poser = new IqmPoser(backend, m, { tangents: true });
    expect(poser.tangents).toBeNull();
    expect(Array.from(poser.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    poser.dispose();
  });

  it("passes the fuzz target's re-check, which still finds a NaN in an array the readers use", () => {
    const m = parseIqm(bytes);
    expect(iqm.check(m, bytes)).toBe('');
    m.positions![4] = NaN; // the same object as vertexArrays[0].data
    expect(iqm.check(m, bytes)).toBe('$.positions[4] = NaN');
  });

  it('the same NaN in a tangent of 4 floats (read) is BAD_NUMBER at its byte', () => {
    const tangent = Array.from({ length: 12 }, (_, i) => (i === 10 ? NaN : 0.5));
    const file = buildIqm({
      text: '\0skin\0',
      meshes: [{ name: 1, material: 1, firstVertex: 0, vertexCount: 3, firstTriangle: 0, triangleCount: 1 }],
      numVertexes: 3,
      vertexArrays: [
        { type: 0, format: 7, size: 3, data: f32([0, 0, 0, 1, 0, 0, 0, 1, 0]) },
        { type: 1, format: 7, size: 2, data: f32([0, 0, 1, 0, 0, 1]) },
        { type: 3, format: 7, size: 4, data: f32(tangent) },
      ],
      triangles: [0, 1, 2],
    });
    const e = refusal(() => parseIqm(file));
    expect(e.code).toBe(ErrorCode.BadNumber);
    // array record 2's offset field: after the header, the 6-byte text, one mesh and records 0 and 1
    const tangentAt = new DataView(file.buffer, file.byteOffset).getUint32(124 + 6 + 24 + 2 * 20 + 16, true);
    expect(e.offset).toBe(tangentAt + 4 * 10);
    expect(e.message).toContain('vertex array 2 (tangent) value 10 is NaN');
  });
});

describe('a position array of 0 components (3 vertices, 9 normal floats)', () => {
  it('without meshes: loads with no vertex to read (ioquake3, Tesseract), the normals in vertexArrays only', () => {
    const bytes = positionSizeZero();
    const m = parseIqm(bytes);
    expect(m.vertexCount).toBe(3);
    expect([m.positions, m.normals, m.texcoords, m.blendIndexes]).toEqual([null, null, null, null]);
    expect(m.vertexArrays.map((a) => [a.name, a.size, a.data?.length])).toEqual([['position', 0, 0], ['normal', 3, 9]]);
    expect(warned(m, 'num_vertexes 3 without a position array')).toHaveLength(1);
    expect(warned(m, 'normal array(s) of 3 vertices without a position array: read by no engine, kept in vertexArrays only')).toHaveLength(1);
    expect(iqm.check(m, bytes)).toBe('');
  });

  it('is posed as no vertices, exported and written back (new IqmPoser threw a RangeError)', () => {
    const m = parseIqm(positionSizeZero());
    const poser = new IqmPoser(backend, m);
    expect([poser.vertexCount, poser.positions.length, poser.normals.length]).toEqual([0, 0, 0]);
    poser.dispose();
    iqmToGlb(m);
    expect(parseIqm(writeIqm(m)).vertexArrays[1].data).toEqual(m.vertexArrays[1].data);
  });

  it('a NaN in those unread normals is kept as stored, not refused (no reader reads it)', () => {
    const m = parseIqm(buildIqm({ text: '\0skin\0', numVertexes: 3, vertexArrays: [{ type: 0, format: 0, size: 0 }, { type: 2, format: 7, size: 3, data: f32([0, 0, NaN, 0, 0, 1, 0, 0, 1]) }] }));
    expect(m.normals).toBeNull();
    expect(Number.isNaN(m.vertexArrays[1].data![2])).toBe(true);
  });

  it('with a mesh: MISSING_BLOCK, as ioquake3 and DarkPlaces refuse it', () => {
    const e = refusal(() => parseIqm(positionSizeZero(true)));
    expect(e.code).toBe(ErrorCode.MissingBlock);
    expect(e.message).toContain('3 vertices without a float × 3 position array');
  });
});

describe("the campaign's kept inputs", () => {
  const corpus = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'fuzz-corpus', 'iqm');
  for (const name of ['0abe7bf4.bin', 'position-size-0-posed.bin']) {
    it(`${name}: accepted, re-checked clean, posed`, () => {
      const bytes = new Uint8Array(readFileSync(join(corpus, name)));
      const m = iqm.parse(bytes);
      expect(iqm.check(m, bytes)).toBe('');
      expect(() => iqm.use!(m, name)).not.toThrow();
    });
  }
});
