/**
 * md2GlCommands: strips and fans grown greedily as qdata did cover every triangle exactly once, in its winding — on
 * every real MD2 of the corpus (glcmds rebuilt from its triangles, written, read back and decoded by our glcmd
 * reader, compared with the triangle list as (xyz, s, t) corner triples up to rotation) and on random meshes.
 * The corpus run also measures how much shorter the block is than one 3-vertex strip per triangle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Md2GlCommands, Md2Model } from '../../src/base/model.js';
import { md2GlCommandTriangles, parseMd2 } from '../../src/formats/md2/index.js';
import { md2TriangleGlCommands, writeMd2 } from '../../src/formats/md2/write.js';
import { md2GlCommands } from '../../src/formats/md2/write-glcmds.js';
import { read } from '../helpers/models.js';
import { goodMd2Rows } from '../md2/_helpers.js';

/** A triangle's three corners, rotated so the smallest comes first (a rotation keeps the winding, a swap does not). */
function canonical(corners: string[]): string {
  const rotations = [0, 1, 2].map((r) => [0, 1, 2].map((k) => corners[(r + k) % 3]).join(' | '));
  return rotations.sort()[0];
}

/** The model's triangles as sorted corner triples (xyz, s, t), s and t as a glcmd stores them. */
function triangleTriples(model: Md2Model): string[] {
  const out: string[] = [];
  for (let t = 0; t < model.triangleCount; t++) {
    out.push(canonical([0, 1, 2].map((k) => {
      const st = model.triangleStIndices[3 * t + k];
      const s = Math.fround((model.st[2 * st] + 0.5) / Math.max(1, model.skinWidth));
      const u = Math.fround((model.st[2 * st + 1] + 0.5) / Math.max(1, model.skinHeight));
      return `${model.trianglePositionIndices[3 * t + k]} ${s} ${u}`;
    })));
  }
  return out.sort();
}

/** The triangles the glcmds draw (decoded by our reader), as sorted corner triples. */
function glcmdTriples(gl: Md2GlCommands): string[] {
  const tris = md2GlCommandTriangles(gl);
  const out: string[] = [];
  for (let i = 0; i < tris.length; i += 3) {
    out.push(canonical([0, 1, 2].map((k) => {
      const v = tris[i + k];
      return `${gl.vertices[v]} ${gl.st[2 * v]} ${gl.st[2 * v + 1]}`;
    })));
  }
  return out.sort();
}

/** Bytes of a glcmd block: a count per command, 3 words per vertex, the closing 0. */
const glBytes = (gl: Md2GlCommands) => 4 * (gl.commandCount + 3 * gl.firstVertex[gl.commandCount] + 1);

/** A model holding only what glcmds are built from. */
function mesh(vertexCount: number, st: number[], tris: number[][], skin = 64): Md2Model {
  return {
    format: 'md2', version: 8, skinWidth: skin, skinHeight: skin, skins: [], vertexCount, frameCount: 1, frameNames: ['frame01'],
    frameScales: new Float32Array(3), frameTranslates: new Float32Array(3), frameVertices: new Uint8Array(4 * vertexCount),
    stCount: st.length / 2, st: Int16Array.from(st), triangleCount: tris.length,
    trianglePositionIndices: Uint16Array.from(tris.flatMap((t) => t.slice(0, 3))), triangleStIndices: Uint16Array.from(tris.flatMap((t) => t.slice(3))),
    glCommands: null, clips: [], warnings: [],
  };
}

describe('md2GlCommands: strips and fans cover every triangle once, in its winding', () => {
  const totals = { triangles: 0, commands: 0, vertices: 0, bytes: 0, perTriangle: 0, qdata: 0, strips: 0, fans: 0 };
  for (const row of goodMd2Rows()) {
    it(row.path, () => {
      const model = parseMd2(read(row.absPath));
      const built = md2GlCommands(model);
      // through the file: written, read back, decoded by the parser's glcmd reader
      const back = parseMd2(writeMd2({ ...model, glCommands: built })).glCommands!;
      expect(glcmdTriples(back)).toEqual(triangleTriples(model));
      expect(glcmdTriples(parseMd2(writeMd2({ ...model, glCommands: null })).glCommands!)).toEqual(triangleTriples(model));
      const base = md2TriangleGlCommands(model);
      expect(glBytes(built)).toBeLessThanOrEqual(glBytes(base));
      const n = built.commandCount;
      totals.triangles += model.triangleCount;
      totals.commands += n;
      totals.vertices += built.firstVertex[n];
      totals.bytes += glBytes(built);
      totals.perTriangle += glBytes(base);
      totals.qdata += model.glCommands ? glBytes(model.glCommands) : glBytes(base);
      built.kinds.forEach((k) => (k ? totals.fans++ : totals.strips++));
      console.log(
        `${row.path}: ${model.triangleCount} triangles → ${n} commands (${built.kinds.filter((k) => k === 0).length} strips, ${built.kinds.filter((k) => k === 1).length} fans), ` +
          `${(model.triangleCount / n).toFixed(2)} triangles each; ${glBytes(built)} bytes vs ${glBytes(base)} as 3-vertex strips` +
          (model.glCommands ? `, ${glBytes(model.glCommands)} in the file (${model.glCommands.commandCount} commands)` : ''),
      );
    });
  }

  it('on the corpus: fewer bytes than 3-vertex strips (the measurement docs/writers.md quotes)', () => {
    expect(totals.triangles).toBeGreaterThan(0);
    console.log(
      `corpus: ${totals.triangles} triangles → ${totals.commands} commands (${totals.strips} strips, ${totals.fans} fans), ${(totals.triangles / totals.commands).toFixed(2)} triangles ` +
        `and ${(totals.vertices / totals.commands).toFixed(2)} vertices per command; ${totals.bytes} bytes vs ${totals.perTriangle} as 3-vertex strips ` +
        `(${(100 * (1 - totals.bytes / totals.perTriangle)).toFixed(1)} % less), ${totals.qdata} in the files`,
    );
    expect(totals.bytes).toBeLessThan(totals.perTriangle);
  });

  it('random meshes: any indices, shared or not, degenerate or not', () => {
    const tri = (v: number, s: number) => fc.tuple(fc.nat(v - 1), fc.nat(v - 1), fc.nat(v - 1), fc.nat(s - 1), fc.nat(s - 1), fc.nat(s - 1));
    const arb = fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }))
      .chain(([v, s]) => fc.tuple(fc.constant(v), fc.array(fc.integer({ min: -70, max: 70 }), { minLength: 2 * s, maxLength: 2 * s }), fc.array(tri(v, s), { minLength: 1, maxLength: 40 })));
    fc.assert(
      fc.property(arb, ([v, st, tris]) => {
        const model = mesh(v, st, tris);
        const gl = md2GlCommands(model);
        expect(glcmdTriples(gl)).toEqual(triangleTriples(model));
        for (let c = 0; c < gl.commandCount; c++) expect(gl.firstVertex[c + 1] - gl.firstVertex[c]).toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 500 },
    );
  });

  it('random grids (a consistently wound surface, split along random diagonals, some triangles dropped): covered once, long strips', () => {
    const arb = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean(), { minLength: 144, maxLength: 144 }), fc.array(fc.nat(19), { minLength: 288, maxLength: 288 }));
    fc.assert(
      fc.property(arb, ([w, h, diag, drop]) => {
        const id = (x: number, y: number) => y * (w + 1) + x;
        const tris: number[][] = [];
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
          const [a, b, c, d] = [id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1)];
          const two = diag[y * 12 + x] ? [[a, b, c], [a, c, d]] : [[a, b, d], [b, c, d]];
          two.forEach((t, k) => drop[2 * (y * 12 + x) + k] !== 0 && tris.push([...t, ...t]));
        }
        if (tris.length === 0) return;
        const n = (w + 1) * (h + 1);
        const model = mesh(n, Array.from({ length: 2 * n }, (_, i) => i), tris, 256);
        const gl = md2GlCommands(model);
        expect(glcmdTriples(gl)).toEqual(triangleTriples(model));
        expect(glBytes(gl)).toBeLessThanOrEqual(glBytes(md2TriangleGlCommands(model)));
      }),
      { numRuns: 300 },
    );
  });
});
