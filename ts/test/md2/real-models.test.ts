/**
 * Every MD2 of the shared corpus: counts against the header read here with a DataView, clips against the
 * MANIFEST's frame groups (written by the corpus tool, not by us), the glcmd block against the triangle list, and
 * the memory bound.
 */
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { Md2GlKind } from '../../src/base/model.js';
import { MD2_NORMAL_COUNT, md2GlCommandList, md2GlCommandTriangles, parseMd2 } from '../../src/formats/md2/index.js';
import { FILES, catchParse, diff, goodMd2Rows, headerOf, md2Rows, readMd2File, typedBytes } from './_helpers.js';

/** "frames: stand(40) run(6)" in a MANIFEST note → [['stand', 40], ['run', 6]]. */
function manifestClips(notes: string): [string, number][] {
  const m = /frames: (.*)$/.exec(notes);
  if (!m) throw new Error(`no frames in MANIFEST note ${notes}`);
  return [...m[1].matchAll(/(\S*)\((\d+)\)/g)].map((x) => [x[1], Number(x[2])]);
}

/** A triangle as a string independent of which corner comes first (the winding is kept). */
function rotationFree(a: number, b: number, c: number): string {
  const r = [[a, b, c], [b, c, a], [c, a, b]].sort((x, y) => x[0] - y[0] || x[1] - y[1])[0];
  return r.join(',');
}

describe('real MD2 files', () => {
  test('every MD2 the MANIFEST lists is there, with the counts its notes give (read here from the header)', () => {
    for (const row of md2Rows()) {
      const h = headerOf(readMd2File(row.path));
      const note = (key: string) => Number(new RegExp(`\\b${key}=(\\d+)`).exec(row.notes)?.[1]);
      expect([h.numXyz, h.numSt, h.numTris, h.numGlcmds, h.numFrames], row.path).toEqual(['verts', 'st', 'tris', 'glcmds', 'frames'].map(note));
    }
    // the malformed ones are named so, and the rest are well-formed: both kinds are present
    expect(goodMd2Rows().length).toBeGreaterThan(0);
    expect(goodMd2Rows().length).toBeLessThan(md2Rows().length);
  });

  for (const row of goodMd2Rows()) {
    describe(row.path, () => {
      const bytes = readMd2File(row.path);
      const h = headerOf(bytes);
      const model = parseMd2(bytes);

      test('counts and sizes equal the header fields', () => {
        expect(model.format).toBe('md2');
        expect(model.version).toBe(h.version);
        expect([model.skinWidth, model.skinHeight]).toEqual([h.skinWidth, h.skinHeight]);
        expect(model.skins.length).toBe(h.numSkins);
        expect(model.vertexCount).toBe(h.numXyz);
        expect(model.frameCount).toBe(h.numFrames);
        expect(model.frameNames.length).toBe(h.numFrames);
        expect(model.frameScales.length).toBe(3 * h.numFrames);
        expect(model.frameTranslates.length).toBe(3 * h.numFrames);
        expect(model.frameVertices.length).toBe(4 * h.numFrames * h.numXyz);
        expect(model.stCount).toBe(h.numSt);
        expect(model.st.length).toBe(2 * h.numSt);
        expect(model.triangleCount).toBe(h.numTris);
        expect(model.trianglePositionIndices.length).toBe(3 * h.numTris);
        expect(model.triangleStIndices.length).toBe(3 * h.numTris);
        // The only oddity of the real files: AssaultCube's 512×512 skins are taller than Quake 2's MAX_LBM_HEIGHT.
        const tall = h.skinHeight > 480 ? [['ENGINE_LIMIT', 12]] : [];
        expect(model.warnings.map((w) => [w.code, w.offset])).toEqual(tall);
      });

      test('records equal the bytes at their offsets (first and last of each block)', () => {
        const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const lastTri = h.ofsTris + 12 * (h.numTris - 1);
        expect(model.trianglePositionIndices[0]).toBe(d.getInt16(h.ofsTris, true));
        expect(model.triangleStIndices[3 * h.numTris - 1]).toBe(d.getInt16(lastTri + 10, true));
        expect(model.st[2 * h.numSt - 1]).toBe(d.getInt16(h.ofsSt + 4 * h.numSt - 2, true));
        const lastFrame = h.ofsFrames + h.frameSize * (h.numFrames - 1);
        expect(model.frameScales[3 * h.numFrames - 1]).toBe(d.getFloat32(lastFrame + 8, true));
        expect(model.frameTranslates[3 * h.numFrames - 3]).toBe(d.getFloat32(lastFrame + 12, true));
        const lastVertex = lastFrame + 40 + 4 * (h.numXyz - 1);
        expect([...model.frameVertices.subarray(-4)]).toEqual([...bytes.subarray(lastVertex, lastVertex + 4)]);
        for (let s = 0; s < h.numSkins; s++) {
          const raw = bytes.subarray(h.ofsSkins + 64 * s, h.ofsSkins + 64 * s + 64);
          expect([...model.skins[s].bytes]).toEqual([...raw]);
          expect(model.skins[s].name).toBe(Buffer.from(raw.subarray(0, raw.indexOf(0))).toString('latin1'));
        }
      });

      test('clips are the MANIFEST frame groups', () => {
        expect(model.clips.map((c) => [c.name, c.frameCount])).toEqual(manifestClips(row.notes));
        let next = 0;
        for (const c of model.clips) {
          expect(c.firstFrame).toBe(next);
          next += c.frameCount;
        }
        expect(next).toBe(model.frameCount);
      });

      test('every normal index is below 162', () => {
        let max = 0;
        for (let i = 3; i < model.frameVertices.length; i += 4) max = Math.max(max, model.frameVertices[i]);
        expect(max).toBeLessThan(MD2_NORMAL_COUNT);
      });

      test('glcmd strips and fans cover exactly the triangle list, with its winding', () => {
        const gl = model.glCommands;
        if (!gl) throw new Error('no glcmds');
        // Count commands and vertices independently from the raw words.
        const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        let at = h.ofsGlcmds;
        let commands = 0;
        let vertices = 0;
        for (let n = d.getInt32(at, true); n !== 0; n = d.getInt32(at, true)) {
          commands++;
          vertices += Math.abs(n);
          at += 4 + 12 * Math.abs(n);
        }
        expect(at + 4).toBe(h.ofsGlcmds + 4 * h.numGlcmds); // the terminating 0 is the block's last word
        expect(gl.commandCount).toBe(commands);
        expect(gl.vertices.length).toBe(vertices);
        expect(md2GlCommandList(gl).filter((c) => c.kind === 'strip').length).toBe([...gl.kinds].filter((k) => k === Md2GlKind.Strip).length);

        const want = new Map<string, number>();
        for (let t = 0; t < model.triangleCount; t++) {
          const k = rotationFree(model.trianglePositionIndices[3 * t], model.trianglePositionIndices[3 * t + 1], model.trianglePositionIndices[3 * t + 2]);
          want.set(k, (want.get(k) ?? 0) + 1);
        }
        const tris = md2GlCommandTriangles(gl);
        expect(tris.length).toBe(3 * model.triangleCount);
        for (let t = 0; t < tris.length / 3; t++) {
          const k = rotationFree(gl.vertices[tris[3 * t]], gl.vertices[tris[3 * t + 1]], gl.vertices[tris[3 * t + 2]]);
          const left = want.get(k);
          if (!left) throw new Error(`glcmd triangle ${t} (${k}) is not in the triangle list (or is wound the other way)`);
          want.set(k, left - 1);
        }
      });

      test('glcmd texcoords lie within a texel of an st entry drawn with the same vertex', () => {
        // Quake 2 hands glcmd texcoords to glTexCoord2f as they are: any float draws. Tools wrote them as
        // (pixel + 0.5) / size (qdata) or pixel / size (others; the Action Quake arrows), so the check is the
        // property both share: the texcoord is within one texel of an st entry the triangle list pairs with
        // that vertex.
        const gl = model.glCommands!;
        const stsOf = new Map<number, number[]>();
        for (let c = 0; c < model.triangleCount * 3; c++) {
          const list = stsOf.get(model.trianglePositionIndices[c]) ?? [];
          list.push(model.triangleStIndices[c]);
          stsOf.set(model.trianglePositionIndices[c], list);
        }
        let worst = 0;
        for (let i = 0; i < gl.vertices.length; i++) {
          let best = Infinity;
          for (const k of stsOf.get(gl.vertices[i]) ?? []) {
            const ds = Math.abs(gl.st[2 * i] * model.skinWidth - model.st[2 * k]);
            const dt = Math.abs(gl.st[2 * i + 1] * model.skinHeight - model.st[2 * k + 1]);
            best = Math.min(best, Math.max(ds, dt));
          }
          worst = Math.max(worst, best);
        }
        expect(worst).toBeLessThanOrEqual(1);
      });

      test('the same file at an odd byte offset of a larger buffer (unaligned blocks) gives the same model', () => {
        for (const shift of [1, 2, 3]) {
          const host = new Uint8Array(bytes.length + shift);
          host.set(bytes, shift);
          expect(diff(parseMd2(host.subarray(shift)), model)).toBe('');
        }
      });

      test('the model takes at most 1.5× the file size in typed arrays (frames stay quantised)', () => {
        expect(typedBytes(model)).toBeLessThanOrEqual(1.5 * bytes.length);
        // And nothing is a view into the input: changing it does not change the model.
        const copy = bytes.slice();
        const m2 = parseMd2(copy);
        copy.fill(0);
        expect(diff(m2, model)).toBe('');
      });
    });
  }

  test('malformed_zero_numvertices.md2 is BAD_COUNT at num_xyz (byte 24)', () => {
    const e = catchParse(() => parseMd2(readMd2File(FILES.zeroVertices)));
    expect([e.code, e.offset]).toEqual([ErrorCode.BadCount, 24]);
  });
});
