/**
 * Every MDL of the corpus (LibreQuake's 82): counts against the MANIFEST's notes (written by the corpus tool),
 * records against the bytes at the offsets an independent walk (ts/test/reference/mdl.ts) finds, the trailing QMEX
 * block of the nine files that carry one, streaming split anywhere, and the memory bound.
 */
import { describe, expect, test } from 'vitest';
import { parseMdl, parseMdlStream } from '../../src/formats/mdl/index.js';
import { magicOf, QUAKE_MDL_MAGICS } from '../helpers/corpus-kinds.js';
import { manifest } from '../helpers/models.js';
import { referenceMdl } from '../reference/mdl.js';
import { diff, fromChunks, mdlRows, note, readRow, splitAt, typedBytes } from './_helpers.js';

describe('real MDL files', () => {
  test('the Quake MDLs are the .mdl files that start with a Quake ident: LibreQuake\'s 82, 9 with a QMEX block and 4 with frame groups', () => {
    const rows = mdlRows();
    const byBytes = manifest().filter((r) => /\.mdl$/i.test(r.path) && QUAKE_MDL_MAGICS.includes(magicOf(r)));
    expect(rows.map((r) => r.path)).toEqual(byBytes.map((r) => r.path));
    expect(rows.filter((r) => r.path.startsWith('LibreQuake/lq1/progs/')).length).toBe(82);
    expect(rows.filter((r) => /QMEX/.test(r.notes)).length).toBe(9);
    expect(rows.filter((r) => note(r, 'groups') > 0).length).toBe(4);
  });

  for (const row of mdlRows()) {
    describe(row.path, () => {
      const bytes = readRow(row);
      const ref = referenceMdl(bytes);
      const model = parseMdl(bytes);

      test('counts, flags and the trailing block are the MANIFEST notes', () => {
        expect(model.format).toBe('mdl');
        expect(model.variant).toBe('IDPO');
        expect(model.skins.length).toBe(note(row, 'skins'));
        expect(model.vertexCount).toBe(note(row, 'verts'));
        expect(model.triangleCount).toBe(note(row, 'tris'));
        expect(model.poseCount).toBe(note(row, 'poses'));
        expect(model.frames.filter((f) => f.type !== 0).length).toBe(note(row, 'groups'));
        expect(model.flags).toBe(note(row, 'flags'));
        expect([...model.onseam].filter((x) => x !== 0).length).toBe(note(row, 'onseam'));
        const [w, h] = /skin=(\d+)x(\d+)/.exec(row.notes)!.slice(1).map(Number);
        expect([model.skinWidth, model.skinHeight]).toEqual([w, h]);
        const trailing = /trailing (\d+) bytes \(QMEX\)/.exec(row.notes);
        expect(model.trailing).toEqual(trailing ? { offset: bytes.length - Number(trailing[1]), bytes: Number(trailing[1]), tag: 'QMEX' } : null);
        // Every LibreQuake file loads in every engine read: no warning at all.
        expect(model.warnings).toEqual([]);
      });

      test('records equal the bytes where an independent walk finds them', () => {
        const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        expect(ref.end).toBe(model.trailing?.offset ?? bytes.length);
        expect([...model.scale]).toEqual(ref.scale.map(Math.fround));
        expect([...model.origin]).toEqual(ref.origin.map(Math.fround));
        expect(model.poseNames).toEqual(ref.poseNames);
        expect(model.pictureCount).toBe(ref.pictureOffsets.length);
        const size = model.skinWidth * model.skinHeight;
        ref.pictureOffsets.forEach((at, p) => {
          expect(diff(model.skinPixels.subarray(p * size, (p + 1) * size), bytes.subarray(at, at + size))).toBe('');
        });
        for (let i = 0; i < model.vertexCount; i++) {
          expect([model.onseam[i], model.st[2 * i], model.st[2 * i + 1]]).toEqual([0, 4, 8].map((k) => d.getInt32(ref.stAt + 12 * i + k, true)));
        }
        for (let t = 0; t < model.triangleCount; t++) {
          const at = ref.trianglesAt + 16 * t;
          expect([model.facesFront[t], ...model.triangleVertexIndices.subarray(3 * t, 3 * t + 3)]).toEqual([0, 4, 8, 12].map((k) => d.getInt32(at + k, true)));
        }
        expect(diff(model.triangleStIndices, model.triangleVertexIndices)).toBe('');
        const block = 4 * model.vertexCount;
        ref.poseOffsets.forEach((at, p) => {
          expect(diff(model.frameVertices.subarray(p * block, (p + 1) * block), bytes.subarray(at, at + block))).toBe('');
          expect([...model.poseBoundsMin.subarray(4 * p, 4 * p + 4)]).toEqual([...bytes.subarray(at - 24, at - 20)]);
          expect([...model.poseBoundsMax.subarray(4 * p, 4 * p + 4)]).toEqual([...bytes.subarray(at - 20, at - 16)]);
        });
      });

      test('frames cover the poses in order; groups keep their intervals; clips cover every pose', () => {
        let next = 0;
        for (const f of model.frames) {
          expect(f.firstPose).toBe(next);
          expect(f.intervals.length).toBe(f.type === 0 ? 0 : f.poseCount);
          next += f.poseCount;
        }
        expect(next).toBe(model.poseCount);
        next = 0;
        for (const c of model.clips) {
          expect(c.firstFrame).toBe(next);
          next += c.frameCount;
        }
        expect(next).toBe(model.poseCount);
      });

      test('streamed in chunks split anywhere gives the same model', async () => {
        const cuts = [1, 7, 83, 85, 200, Math.floor(bytes.length / 2), ref.end - 1, ref.end, ref.end + 2].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
        expect(diff(fromChunks(splitAt(bytes, [...new Set(cuts)])), model)).toBe('');
        expect(diff(await parseMdlStream(bytes), model)).toBe('');
      });

      test('the model takes at most 1.5× its records in typed arrays, and owns them', () => {
        expect(typedBytes(model)).toBeLessThanOrEqual(1.5 * ref.end);
        const copy = bytes.slice();
        const again = parseMdl(copy);
        copy.fill(0);
        expect(diff(again, model)).toBe('');
      });
    });
  }
});
