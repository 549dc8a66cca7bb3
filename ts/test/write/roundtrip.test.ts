/**
 * parse → write → parse on every real MD2, MD3, md5mesh and md5anim of the shared corpus: the model read back is
 * bit-identical to the one written (typed arrays compared byte for byte; only the parse warnings, which describe
 * the original file's layout, are left out). Native assimp then reads what we wrote with the same counts as the
 * original file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { md2GlCommandTriangles } from '../../src/formats/md2/glcmds.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { md2TriangleGlCommands, writeMd2 } from '../../src/formats/md2/write.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { writeMd5Anim } from '../../src/formats/md5/write-anim.js';
import { writeMd5Mesh } from '../../src/formats/md5/write-mesh.js';
import { formatF32 } from '../../src/formats/md5/write-text.js';
import { goodMd2Rows } from '../md2/_helpers.js';
import { realMd3s } from '../md3/_helpers.js';
import { diff } from '../md5/_helpers.js';
import { assimpCounts } from '../helpers/assimp.js';
import { read, realAnimPairs, realMeshes } from '../helpers/models.js';

const withoutWarnings = <T extends object>(m: T) => ({ ...m, warnings: undefined });
const tmp = mkdtempSync(join(tmpdir(), 'idtech-write-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let dirs = 0;
/** A fresh folder holding `bytes` as `name` alone (assimp's MD3 reader pulls in head/upper/lower found beside it). */
function alone(name: string, bytes: Uint8Array | string): string {
  const dir = join(tmp, String(dirs++));
  mkdirSync(dir);
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
}

/** assimp reads our file with the counts it reads from the original (each alone in a folder, same file name). */
async function sameForAssimp(original: string, written: Uint8Array | string): Promise<void> {
  const name = basename(original);
  expect(await assimpCounts(alone(name, written)), original).toBe(await assimpCounts(alone(name, read(original))));
}

describe('writeMd2: every real MD2 reads back as written', () => {
  for (const row of goodMd2Rows()) {
    it(row.path, async () => {
      const model = parseMd2(read(row.absPath));
      const bytes = writeMd2(model);
      expect(diff(withoutWarnings(parseMd2(bytes)), withoutWarnings(model))).toBe('');
      await sameForAssimp(row.absPath, bytes);
    });
  }

  it('md2TriangleGlCommands: one 3-vertex strip per triangle, in its winding (a model without glcmds gets strips and fans: md2-glcmds.test.ts)', () => {
    const model = parseMd2(read(goodMd2Rows()[0].absPath));
    const back = parseMd2(writeMd2({ ...model, glCommands: md2TriangleGlCommands(model) }));
    const gl = back.glCommands!;
    expect(gl.commandCount).toBe(model.triangleCount);
    const tris = md2GlCommandTriangles(gl);
    for (let i = 0; i < tris.length; i++) expect(gl.vertices[tris[i]]).toBe(model.trianglePositionIndices[i]);
    const t = model.triangleStIndices[0];
    expect(gl.st[0]).toBe(Math.fround((model.st[2 * t] + 0.5) / model.skinWidth));
  });
});

describe('writeMd3: every real MD3 reads back as written', () => {
  for (const row of realMd3s()) {
    it(row.path, async () => {
      const model = parseMd3(row.bytes);
      const bytes = writeMd3(model);
      expect(diff(withoutWarnings(parseMd3(bytes)), withoutWarnings(model))).toBe('');
      await sameForAssimp(row.absPath, bytes);
    });
  }
});

describe('writeMd5Mesh / writeMd5Anim: every real md5mesh and md5anim reads back bit for bit', () => {
  for (const row of realMeshes()) {
    it(row.path, async () => {
      const mesh = parseMd5Mesh(read(row.absPath));
      const text = writeMd5Mesh(mesh);
      expect(diff(parseMd5Mesh(new TextEncoder().encode(text)), mesh)).toBe('');
      await sameForAssimp(row.absPath, text);
    });
  }
  for (const { anim: row } of realAnimPairs()) {
    it(row.path, () => {
      const anim = parseMd5Anim(read(row.absPath));
      const text = writeMd5Anim(anim);
      expect(diff(parseMd5Anim(new TextEncoder().encode(text)), anim)).toBe('');
    });
  }

  it('prints the fewest digits that read back as the same float32, never an exponent', () => {
    expect(formatF32(Math.fround(0.1))).toBe('0.1');
    expect(formatF32(Math.fround(1e-7))).toBe('0.0000001');
    expect(formatF32(Math.fround(3e10))).toBe('30000000000');
    expect(formatF32(-0)).toBe('-0');
    expect(formatF32(Math.fround(-1.2345678))).toBe('-1.2345678');
    const words = new Uint32Array(2000).map((_, i) => (i * 2654435761) >>> 0);
    for (const v of new Float32Array(words.buffer)) {
      if (!Number.isFinite(v)) continue;
      const s = formatF32(v);
      expect(s).not.toMatch(/e/i);
      expect(Object.is(Math.fround(Number(s)), v)).toBe(true);
    }
  });
});
