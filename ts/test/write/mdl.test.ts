/**
 * Writing MDL. writeMdl: every LibreQuake file written back byte for byte (up to its trailing QMEX block, which is
 * a fact of the parse, not written) and parse → write → parse the same model; made-up skin groups, frame groups,
 * onseam, MD16 and RAPO written as the test builder wrote them; what the layout cannot hold refused. gltfToMdl:
 * every real MDL through .glb and back within the format's quantisation (positions per triangle corner within the
 * glTF grid's and the new scale's half steps, st exact, the skin pixel-equal after decoding, normals close, clips
 * kept); and native assimp reads every file written.
 */
import { assimpInfo } from '../helpers/assimp.js';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import type { MdlModel } from '../../src/base/model.js';
import { readGlb } from '../export/gltf-eval.js';
import { MD2_NORMALS } from '../../src/kernels/quake-normals.js';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { gltfToMdl } from '../../src/formats/mdl/from-gltf.js';
import { mdlSkinPicture } from '../../src/formats/mdl/materials.js';
import { writeMdl } from '../../src/formats/mdl/write.js';
import { buildMdl, richSpec } from '../mdl/_build.js';
import { catchParse, diff, mdlRows, readRow } from '../mdl/_helpers.js';
import { toGlb } from '../../src/registry/gltf.js';

const ASSIMP = '/usr/bin/assimp';
const written: { name: string; bytes: Uint8Array; triangles: number }[] = [];

/**
 * Triangles assimp keeps of pose 0 (the one it reads): its post-processing drops a triangle whose three corners are
 * one point (it turns two equal corners into a line, still counted). Re-quantising can collapse a tiny triangle
 * (flame2.mdl's flame tips) that the original file keeps apart.
 */
function assimpFaces(m: MdlModel): number {
  let n = 0;
  for (let t = 0; t < m.triangleCount; t++) {
    const key = (k: number) => m.frameVertices.subarray(4 * m.triangleVertexIndices[3 * t + k], 4 * m.triangleVertexIndices[3 * t + k] + 3).join();
    if (!(key(0) === key(1) && key(1) === key(2))) n++;
  }
  return n;
}
/** The model without what only the parse knows (its warnings and the trailing block's fact). */
const core = (m: MdlModel) => ({ ...m, warnings: [], trailing: null });

describe('writeMdl', () => {
  for (const row of mdlRows()) {
    test(`${row.path}: written back byte for byte, and parsed back the same`, () => {
      const bytes = readRow(row);
      const model = parseMdl(bytes);
      const out = writeMdl(model);
      const end = model.trailing?.offset ?? bytes.length;
      expect(out.length).toBe(end);
      expect(Buffer.from(out).equals(Buffer.from(bytes.subarray(0, end)))).toBe(true);
      expect(diff(core(parseMdl(out)), core(model))).toBe('');
    });
  }

  test('skin groups, frame groups, onseam, MD16 and RAPO: the builder\'s own bytes', () => {
    const md16 = richSpec({ ident: 'MD16' });
    const rapo = richSpec({ ident: 'RAPO' });
    rapo.st = [...rapo.st, { onseam: 0, s: 7, t: 3 }];
    rapo.tris = rapo.tris.map((t, i) => ({ ...t, st: i === 3 ? [6, 4, 5] : t.v }));
    for (const spec of [richSpec(), richSpec({ synctype: 1, flags: 1 << 14 | 8 }), md16, rapo]) {
      const bytes = buildMdl(spec);
      expect(Buffer.from(writeMdl(parseMdl(bytes))).equals(Buffer.from(bytes)), spec.ident ?? 'IDPO').toBe(true);
    }
  });

  test('what the layout cannot hold is UNWRITABLE', () => {
    const m = parseMdl(buildMdl(richSpec()));
    expect(catchParse(() => writeMdl({ ...m, poseNames: ['a_name_of_17_char', ...m.poseNames.slice(1)] })).code).toBe(ErrorCode.Unwritable);
    const st = m.triangleStIndices.slice();
    st[0] = 5;
    expect(catchParse(() => writeMdl({ ...m, triangleStIndices: st })).detail).toMatch(/only RAPO can say that/);
    expect(catchParse(() => writeMdl({ ...m, frameVertices: m.frameVertices.subarray(4) })).code).toBe(ErrorCode.Unwritable);
    expect(catchParse(() => writeMdl({ ...m, frames: [{ ...m.frames[1], type: 0 }], poseCount: 3 })).code).toBe(ErrorCode.Unwritable);
  });

  test('validate refuses what an engine will not load, naming it', () => {
    const m = parseMdl(buildMdl(richSpec({ synctype: 5 })));
    expect(writeMdl(m).length).toBeGreaterThan(0);
    const e = catchParse(() => writeMdl(m, { validate: true }));
    expect([e.code, e.offset]).toEqual([ErrorCode.Unwritable, 72]);
    expect(e.detail).toMatch(/DarkPlaces refuses/);
  });
});

/** Per triangle corner: pose p's decoded position. */
function cornerPositions(m: MdlModel, p: number): Float64Array {
  const out = new Float64Array(9 * m.triangleCount);
  for (let c = 0; c < 3 * m.triangleCount; c++) {
    const v = m.triangleVertexIndices[c], o = 4 * (m.vertexCount * p + v);
    for (let k = 0; k < 3; k++) out[3 * c + k] = Math.fround(m.frameVertices[o + k] * m.scale[k] + m.origin[k]);
  }
  return out;
}

describe('gltfToMdl: every real MDL through .glb and back', () => {
  for (const row of mdlRows()) {
    it(`${row.path}: within the format's quantisation; the skin pixel for pixel; clips kept`, async () => {
      const model = parseMdl(readRow(row));
      const glb = await toGlb(model, { name: row.path.split('/').pop() });
      const step = readGlb(glb).json.nodes.find((n: { mesh?: number }) => n.mesh !== undefined).scale[0];
      const back = await gltfToMdl({ bytes: glb });
      expect(back.warnings).toEqual([]);
      expect(back.poseCount).toBe(model.poseCount);
      expect(back.triangleCount).toBe(model.triangleCount);
      expect(back.clips.map((c) => c.frameCount)).toEqual(model.clips.map((c) => c.frameCount));
      // Names as glTF animations carry them, made safe as MD2's import does (`Key ` → `Key_`, `clip0` → `clip0_`); a
      // single pose exports no animation and comes back as the document's one frame.
      const named = model.clips.map((c, i) => (c.name || `clip${i}`).replace(/[^A-Za-z0-9_-]/g, '_').replace(/[0-9]$/, '$&_'));
      expect(back.clips.map((c) => c.name)).toEqual(model.poseCount === 1 ? ['frame'] : named);
      expect([back.flags, back.synctype, back.radius, back.size]).toEqual([model.flags, model.synctype, model.radius, model.size]);
      // A corner keeps its st exactly (the seam shift of a backward triangle included: none in LibreQuake).
      for (let c = 0; c < 3 * model.triangleCount; c++) {
        const a = model.triangleStIndices[c], b = back.triangleStIndices[c];
        expect([back.st[2 * b], back.st[2 * b + 1]]).toEqual([model.st[2 * a], model.st[2 * a + 1]]);
      }
      // Positions: within half the glTF grid's step and half the new scale, per axis.
      const tol = [0, 1, 2].map((k) => step / 2 + back.scale[k] / 2 + 1e-4 * (255 * model.scale[k]));
      let worstNormal = 1;
      for (let p = 0; p < model.poseCount; p++) {
        const a = cornerPositions(model, p), b = cornerPositions(back, p);
        for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= tol[i % 3])) throw new Error(`pose ${p} corner ${Math.floor(i / 3)} axis ${i % 3}: ${a[i]} vs ${b[i]} (tolerance ${tol[i % 3]})`);
        for (let c = 0; c < 3 * model.triangleCount; c++) {
          const na = model.frameVertices[4 * (model.vertexCount * p + model.triangleVertexIndices[c]) + 3];
          const nb = back.frameVertices[4 * (back.vertexCount * p + back.triangleVertexIndices[c]) + 3];
          worstNormal = Math.min(worstNormal, MD2_NORMALS[3 * na] * MD2_NORMALS[3 * nb] + MD2_NORMALS[3 * na + 1] * MD2_NORMALS[3 * nb + 1] + MD2_NORMALS[3 * na + 2] * MD2_NORMALS[3 * nb + 2]);
        }
      }
      // snorm8 normals land on the same or a neighbouring anorm (neighbours are about 21° apart)
      expect(worstNormal).toBeGreaterThan(Math.cos((25 * Math.PI) / 180));
      expect(Buffer.from(mdlSkinPicture(back, 0).rgba).equals(Buffer.from(mdlSkinPicture(model, 0).rgba))).toBe(true);
      const bytes = writeMdl(back);
      expect(diff(core(parseMdl(bytes)), core(back))).toBe('');
      written.push({ name: row.path.split('/').pop()!, bytes, triangles: assimpFaces(back) });
    });
  }

  test('made-up: frame groups and onseam vertices come back as single frames and split vertices', async () => {
    const model = parseMdl(buildMdl(richSpec()));
    const back = await gltfToMdl({ bytes: await toGlb(model, { name: 'rich' }) });
    expect(back.poseCount).toBe(4);
    expect(back.clips).toEqual([{ name: 'stand', firstFrame: 0, frameCount: 1 }, { name: 'wave', firstFrame: 1, frameCount: 3 }]);
    // vertices 1 and 3 are drawn twice (front and shifted back texels): each becomes two MDL vertices
    expect(back.vertexCount).toBe(8);
    expect([...back.onseam].every((x) => x === 0)).toBe(true);
    written.push({ name: 'rich.mdl', bytes: writeMdl(back), triangles: assimpFaces(back) });
  });
});

describe('native assimp reads every file written', () => {
  const present = existsSync(ASSIMP);
  test.skipIf(!present)(`assimp info imports each (${ASSIMP})`, async () => {
    expect(written.length).toBe(mdlRows().length + 1);
    const dir = mkdtempSync(join(tmpdir(), 'idtech-mdl-'));
    for (const w of written) {
      const path = join(dir, w.name);
      writeFileSync(path, w.bytes);
      const out = await assimpInfo(path);
      expect(out, w.name).toMatch(/Importing file \.\.\.\s+OK/);
      const faces = Number(/Faces:\s+(\d+)/.exec(out)?.[1]);
      expect(faces, w.name).toBe(w.triangles);
    }
  });
  if (!present) test('assimp is absent: the native check above was skipped', () => console.warn(`${ASSIMP} not found: skipping the native assimp check`));
});
