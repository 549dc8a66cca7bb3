/** Frame decoding, the normals table, clips, glcmd triangulation and un-welding, on hand-made and real inputs. */
import { describe, expect, test } from 'vitest';
import { Md2GlKind, type Md2GlCommands, type Md2Model } from '../../src/base/model.js';
import {
  MD2_NORMALS,
  clipNameOf,
  groupClips,
  md2GlCommandList,
  md2GlCommandTriangles,
  md2Unwelded,
  parseMd2,
} from '../../src/formats/md2/index.js';
import { md2FrameNormals, md2FramePositions } from '../reference/md2.js';
import { FILES, readMd2File } from './_helpers.js';

describe('MD2_NORMALS', () => {
  test('162 unit vectors (anorms.h gives six decimals: |n| = 1 within 2e-6)', () => {
    expect(MD2_NORMALS.length).toBe(486);
    for (let i = 0; i < 162; i++) {
      const [x, y, z] = MD2_NORMALS.subarray(3 * i, 3 * i + 3);
      expect(Math.abs(Math.hypot(x, y, z) - 1)).toBeLessThan(2e-6);
    }
  });

  test('entries quoted from Quake 2 client/anorms.h: 0, 5 (+z), 52 (+x), 84 (−z), 161', () => {
    const at = (i: number) => [...MD2_NORMALS.subarray(3 * i, 3 * i + 3)];
    expect(at(0)).toEqual([-0.525731, 0, 0.850651].map(Math.fround));
    expect(at(5)).toEqual([0, 0, 1]);
    expect(at(52)).toEqual([1, 0, 0]);
    expect(at(84)).toEqual([0, 0, -1]);
    expect(at(161)).toEqual([-0.688191, -0.587785, -0.425325].map(Math.fround));
  });

  test('162 distinct directions covering the sphere (every axis direction present)', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 162; i++) keys.add([...MD2_NORMALS.subarray(3 * i, 3 * i + 3)].join());
    expect(keys.size).toBe(162);
    for (const axis of ['1,0,0', '-1,0,0', '0,1,0', '0,-1,0', '0,0,1', '0,0,-1']) expect(keys.has(axis)).toBe(true);
  });
});

describe('clips from frame names', () => {
  test('trailing digits are stripped, nothing else', () => {
    expect(['run1', 'stand01', 'pain301', 'frame', 'crattak9', '123', 'a1b2', ''].map(clipNameOf)).toEqual(['run', 'stand', 'pain', 'frame', 'crattak', '', 'a1b', '']);
  });

  test('only consecutive frames group; a name coming back starts a new clip', () => {
    expect(groupClips(['run1', 'run2', 'stand1', 'run3', 'run4', 'run5'])).toEqual([
      { name: 'run', firstFrame: 0, frameCount: 2 },
      { name: 'stand', firstFrame: 2, frameCount: 1 },
      { name: 'run', firstFrame: 3, frameCount: 3 },
    ]);
    expect(groupClips([])).toEqual([]);
  });
});

describe('frame decoding', () => {
  const model = parseMd2(readMd2File(FILES.dolphin));

  test('a position is byte · scale + translate, worked by hand for frame 30 vertex 100', () => {
    const f = 30;
    const v = 100;
    const b = (f * model.vertexCount + v) * 4;
    const p = md2FramePositions(model, f);
    for (let k = 0; k < 3; k++) {
      const want = model.frameVertices[b + k] * model.frameScales[3 * f + k] + model.frameTranslates[3 * f + k];
      expect(p[3 * v + k]).toBe(Math.fround(want));
    }
    const n = md2FrameNormals(model, f);
    const ni = model.frameVertices[b + 3];
    expect([...n.subarray(3 * v, 3 * v + 3)]).toEqual([...MD2_NORMALS.subarray(3 * ni, 3 * ni + 3)]);
  });

  test('writes into `out` when given, and rejects a frame out of range or a short `out`', () => {
    const out = new Float32Array(model.vertexCount * 3 + 5);
    expect(md2FramePositions(model, 3, out)).toBe(out);
    expect([...out.subarray(0, model.vertexCount * 3)]).toEqual([...md2FramePositions(model, 3)]);
    expect(() => md2FramePositions(model, model.frameCount)).toThrow(RangeError);
    expect(() => md2FrameNormals(model, -1)).toThrow(RangeError);
    expect(() => md2FramePositions(model, 0, new Float32Array(3))).toThrow(RangeError);
  });
});

/** A model with just what md2Unwelded reads. */
function tiny(positions: number[], sts: number[], stCount: number): Md2Model {
  return {
    triangleCount: positions.length / 3,
    trianglePositionIndices: Uint16Array.from(positions),
    triangleStIndices: Uint16Array.from(sts),
    stCount,
    st: Int16Array.from({ length: stCount * 2 }, (_, i) => i * 10),
    skinWidth: 100,
    skinHeight: 50,
  } as Md2Model;
}

describe('un-welded form', () => {
  test('one vertex per distinct (xyz, st) pair in order of first use (by hand)', () => {
    // Two triangles share xyz 1 and 2; xyz 2 uses st 2 in one and st 3 in the other, so it splits.
    const m = tiny([0, 1, 2, 1, 3, 2], [0, 1, 2, 1, 4, 3], 5);
    const u = md2Unwelded(m);
    expect([...u.sourceVertex]).toEqual([0, 1, 2, 3, 2]);
    expect([...u.sourceSt]).toEqual([0, 1, 2, 4, 3]);
    expect([...u.indices]).toEqual([0, 1, 2, 1, 3, 4]);
    // st k is (20k, 20k + 10) pixels on a 100 × 50 skin.
    expect([...u.uvs.subarray(6, 8)]).toEqual([Math.fround(80 / 100), Math.fround(90 / 50)]);
  });

  test('on faerie.md2: every corner keeps its xyz and st, and pairs are not repeated', () => {
    const m = parseMd2(readMd2File(FILES.faerie));
    const u = md2Unwelded(m);
    const pairs = new Set<string>();
    for (let i = 0; i < u.sourceVertex.length; i++) pairs.add(`${u.sourceVertex[i]},${u.sourceSt[i]}`);
    expect(pairs.size).toBe(u.sourceVertex.length);
    for (let c = 0; c < m.triangleCount * 3; c++) {
      expect(u.sourceVertex[u.indices[c]]).toBe(m.trianglePositionIndices[c]);
      expect(u.sourceSt[u.indices[c]]).toBe(m.triangleStIndices[c]);
    }
    expect(u.sourceVertex.length).toBeGreaterThanOrEqual(m.vertexCount);
  });
});

describe('glcmd triangulation (GL strip and fan rules)', () => {
  const gl: Md2GlCommands = {
    commandCount: 2,
    kinds: Uint8Array.from([Md2GlKind.Strip, Md2GlKind.Fan]),
    firstVertex: Uint32Array.from([0, 5, 9]),
    vertices: Uint16Array.from([10, 11, 12, 13, 14, 20, 21, 22, 23]),
    st: new Float32Array(18).map((_, i) => i),
  };

  test('strip 0..4 → (0 1 2) (2 1 3) (2 3 4); fan 5..8 → (5 6 7) (5 7 8)', () => {
    expect([...md2GlCommandTriangles(gl)]).toEqual([0, 1, 2, 2, 1, 3, 2, 3, 4, 5, 6, 7, 5, 7, 8]);
  });

  test('the command list is views of the flat arrays', () => {
    const list = md2GlCommandList(gl);
    expect(list.map((c) => [c.kind, [...c.vertices], c.st.length])).toEqual([
      ['strip', [10, 11, 12, 13, 14], 10],
      ['fan', [20, 21, 22, 23], 8],
    ]);
    expect(list[1].st.buffer).toBe(gl.st.buffer);
  });
});
