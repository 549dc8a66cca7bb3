/**
 * MD2 limits as Quake 2 has them (docs/limits.md): files past a limit the engine does not enforce load, with an
 * ENGINE_LIMIT warning naming the limit; num_st, num_glcmds and framesize have no limit at all. Every model here is
 * written by fixtures/generate-md2.mjs, so every count, st pixel and expected texcoord is known in advance.
 */
import { describe, expect, test } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { LIMITS, MD2_NORMALS, md2TexCoords, md2Unwelded, Md2Parser, parseMd2 } from '../../src/formats/md2/index.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { md2FrameNormals, md2FramePositions } from '../reference/md2.js';
import { readAccessor, readGlb } from '../export/gltf-eval.js';
import { validate } from '../export/validate.js';
import { buildMd2 as build, seamedModel as seamed, stPixel as pixel } from '../../../fixtures/generate-md2.mjs';

const codes = (bytes: Uint8Array) => parseMd2(bytes).warnings.map((w) => [w.code, w.offset]);

/** The same bytes fed to the push parser in 4 KiB chunks. */
function streamed(bytes: Uint8Array) {
  const p = new Md2Parser();
  for (let i = 0; i < bytes.length; i += 4096) p.write(bytes.subarray(i, i + 4096));
  return p.end();
}

describe('num_st past 2048: Quake 2 bounds num_xyz by MAX_VERTS, never num_st', () => {
  for (const st of [2070, 5982]) {
    const { bytes } = seamed({ st });
    const m = parseMd2(bytes);

    test(`num_st ${st} parses without a warning, whole or streamed, every st as written`, () => {
      expect(m.stCount).toBe(st);
      expect(m.warnings).toEqual([]);
      for (let i = 0; i < st; i++) expect([m.st[2 * i], m.st[2 * i + 1]]).toEqual(pixel(i, 256, 256));
      expect(streamed(bytes)).toEqual(m);
    });

    test(`num_st ${st}: un-welding gives one vertex per st (vertex i has st i), the back faces reuse the front's`, () => {
      const u = md2Unwelded(m);
      const front = st / 3;
      expect(u.sourceVertex.length).toBe(st);
      expect(Array.from(u.sourceSt)).toEqual(Array.from({ length: st }, (_, i) => i));
      for (let i = 0; i < st; i++) {
        const [s, t] = pixel(i, 256, 256);
        expect([u.uvs[2 * i], u.uvs[2 * i + 1]]).toEqual([Math.fround(s / 256), Math.fround(t / 256)]);
        expect(u.sourceVertex[i]).toBe(m.trianglePositionIndices[i]);
      }
      // Back face t is front face t wound (a, c, b): the same three vertices.
      for (let t = 0; t < front; t++) {
        const b = 3 * (front + t);
        expect([u.indices[b], u.indices[b + 1], u.indices[b + 2]]).toEqual([3 * t, 3 * t + 2, 3 * t + 1]);
      }
    });
  }

  test('the glTF exporter and the morph poser take a num_st 5982 model: one glTF vertex per st, texcoords as un-welded', async () => {
    const m = parseMd2(seamed({ st: 5982 }).bytes);
    const u = md2Unwelded(m);
    const glb = await toGlb(m);
    const summary = await validate(glb);
    expect(summary.errors, summary.sample.join('\n')).toBe(0);
    const g = readGlb(glb);
    const prim = g.json.meshes[0].primitives[0];
    expect(readAccessor(g, prim.attributes.POSITION).count).toBe(5982);
    expect(Array.from(readAccessor(g, prim.attributes.TEXCOORD_0).values)).toEqual(Array.from(u.uvs));
    const poser = new Md2Poser(createTsBackend(), m);
    poser.poseBlend(1, 1, 0);
    expect(Array.from(poser.positions)).toEqual(Array.from(md2FramePositions(m, 1)));
  });
});

describe('un-welding stays exact wherever the format reaches', () => {
  test('num_st past 2^20: st indices up to 32767 with xyz up to 2047 (a key xyz · num_st + st would wrap an int32)', () => {
    // Corner c: xyz 2047 − (c mod 7), st 32767 − (c mod 5) — 35 distinct pairs over 300 corners, so welding must merge.
    const n = 100;
    const triXyz = Array.from({ length: 3 * n }, (_, c) => 2047 - (c % 7));
    const triSt = Array.from({ length: 3 * n }, (_, c) => 32767 - (c % 5));
    const stCount = 1_100_000;
    const st = new Array(2 * stCount).fill(0);
    st[2 * 32763] = 7;
    const vertices = new Uint8Array(4 * 2048);
    const { bytes } = build({ skinWidth: 64, skinHeight: 64, xyzCount: 2048, st, triXyz, triSt, frames: [{ name: 'f', scale: [1, 1, 1], translate: [0, 0, 0], vertices }] });
    const m = parseMd2(bytes);
    expect(m.stCount).toBe(stCount);
    const u = md2Unwelded(m);
    const pairs = new Map<string, number>();
    for (let c = 0; c < 3 * n; c++) {
      const key = `${triXyz[c]},${triSt[c]}`;
      if (!pairs.has(key)) pairs.set(key, pairs.size);
      expect(u.indices[c]).toBe(pairs.get(key));
      expect([u.sourceVertex[u.indices[c]], u.sourceSt[u.indices[c]]]).toEqual([triXyz[c], triSt[c]]);
    }
    expect(pairs.size).toBe(35);
    expect(u.sourceVertex.length).toBe(35);
    expect(u.uvs[2 * u.indices[4]]).toBe(Math.fround(7 / 64)); // corner 4: st 32763
  });

  test('more than 65,536 distinct vertices: Uint32 indices, each exact', () => {
    const n = 22_000; // 66,000 corners, every (xyz, st) pair distinct
    const triXyz = Array.from({ length: 3 * n }, (_, c) => c % 2048);
    const triSt = Array.from({ length: 3 * n }, (_, c) => Math.floor(c / 2048) * 7);
    const stCount = 32768;
    const st = Array.from({ length: 2 * stCount }, (_, i) => (i % 2 ? i % 256 : (i >> 1) % 512));
    const { bytes } = build({ skinWidth: 512, skinHeight: 256, xyzCount: 2048, st, triXyz, triSt, frames: [{ name: 'f', scale: [1, 1, 1], translate: [0, 0, 0], vertices: new Uint8Array(4 * 2048) }] });
    const m = parseMd2(bytes);
    const u = md2Unwelded(m);
    expect(u.indices).toBeInstanceOf(Uint32Array);
    expect(u.sourceVertex.length).toBe(3 * n);
    for (let c = 0; c < 3 * n; c++) {
      expect(u.indices[c]).toBe(c);
      if (u.sourceVertex[c] !== triXyz[c] || u.sourceSt[c] !== triSt[c]) throw new Error(`corner ${c}`);
    }
    expect(u.uvs[2 * 65999]).toBe(Math.fround(st[2 * triSt[65999]] / 512));
    // 22,000 triangles: past MAX_TRIANGLES, which Quake 2 names but never checks.
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['ENGINE_LIMIT', 32]]);
  });
});

describe('each limit at and past its old bound', () => {
  /** A 1024-vertex, 300-st model without glcmds, with `extra` options of seamedModel / buildMd2. */
  const grid = (extra: Record<string, unknown> = {}) => seamed({ st: 300, glcmds: false, ...extra });

  test('num_st 2048 and 2049: no limit, no warning', () => {
    for (const st of [2048, 2049]) {
      const m = parseMd2(seamed({ st }).bytes);
      expect([m.stCount, m.warnings]).toEqual([st, []]);
    }
  });

  test('num_tris 4096 and 4097: MAX_TRIANGLES is a warning past it', () => {
    const at = parseMd2(grid({ triangles: 4096 - 100 }).bytes); // 3996 front + 100 back
    expect([at.triangleCount, at.warnings]).toEqual([4096, []]);
    const past = parseMd2(grid({ triangles: 4097 - 100 }).bytes);
    expect(past.triangleCount).toBe(4097);
    expect(past.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 32, message: expect.stringContaining('MAX_TRIANGLES 4096') }]);
  });

  test('num_frames 512 and 513: MAX_FRAMES is a warning past it', () => {
    // 64 vertices a frame, so 513 frames stay inside Quake 2's 2 MiB model hunk.
    expect(parseMd2(grid({ frames: 512, xyz: 64 }).bytes).warnings).toEqual([]);
    const past = parseMd2(grid({ frames: 513, xyz: 64 }).bytes);
    expect(past.frameCount).toBe(513);
    expect(past.frameNames[512]).toBe('stand513');
    expect(past.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 40, message: expect.stringContaining('MAX_FRAMES 512') }]);
  });

  test('num_skins 32 and 33: MAX_MD2SKINS is a warning past it, every name kept', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `models/x/skin${i}.pcx`);
    expect(parseMd2(grid({ skins: names(32) }).bytes).warnings).toEqual([]);
    const past = parseMd2(grid({ skins: names(33) }).bytes);
    expect(past.skins.map((s) => s.name)).toEqual(names(33));
    expect(past.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 20, message: expect.stringContaining('MAX_MD2SKINS 32') }]);
  });

  test('num_glcmds 16384 and 16385 (the old bound): no limit, the commands decode', () => {
    for (const words of [16384, 16385]) {
      // One strip over the first three grid vertices, then zeros: the engine stops at the first 0 as we do.
      const gl = new Int32Array(words);
      const f = new Float32Array(gl.buffer);
      gl[0] = 3;
      [0, 1, 33].forEach((v, k) => {
        f[1 + 3 * k] = 0.25;
        f[2 + 3 * k] = 0.5;
        gl[3 + 3 * k] = v;
      });
      const m = parseMd2(grid({ glcmds: gl }).bytes);
      expect(m.warnings).toEqual([]);
      expect(m.glCommands!.commandCount).toBe(1);
      expect(Array.from(m.glCommands!.vertices)).toEqual([0, 1, 33]);
    }
  });

  test('framesize past the old 2048-vertex frame (8232 bytes): padding, stepped over', () => {
    const plain = parseMd2(grid({ frames: 3 }).bytes);
    for (const pad of [8232 - 40 - 4 * 1024, 8233 - 40 - 4 * 1024, 100_000]) {
      const m = parseMd2(grid({ frames: 3, framePadding: pad }).bytes);
      expect(m.warnings).toEqual([]);
      expect(m.frameVertices).toEqual(plain.frameVertices);
      expect(m.frameNames).toEqual(plain.frameNames);
    }
  });

  test('skinheight 480 and 481: Quake 2 refuses past MAX_LBM_HEIGHT, we load with a warning; width and height past the old 32768', () => {
    expect(codes(grid({ skinHeight: 480 }).bytes)).toEqual([]);
    expect(parseMd2(grid({ skinHeight: 481 }).bytes).warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 12, message: expect.stringContaining('MAX_LBM_HEIGHT 480') }]);
    const huge = parseMd2(grid({ skinWidth: 32769, skinHeight: 40000 }).bytes);
    expect([huge.skinWidth, huge.skinHeight]).toEqual([32769, 40000]);
    expect(huge.warnings.map((w) => [w.code, w.offset])).toEqual([['ENGINE_LIMIT', 12]]);
    expect(md2TexCoords(huge)[2]).toBe(Math.fround(1 / 32769)); // st 1 is pixel (1, 0)
  });

  test('ofs_end at and past Quake 2’s 2 MiB model hunk, and past the old 4,339,780-byte largest file', () => {
    const base = grid();
    const used = base.offsets.end;
    const sized = (end: number) => grid({ endPadding: end - used }).bytes;
    expect(codes(sized(LIMITS.maxFileBytes))).toEqual([]);
    expect(parseMd2(sized(LIMITS.maxFileBytes + 1)).warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 64, message: expect.stringContaining('Hunk_Alloc overflow') }]);
    const big = sized(4_339_781);
    expect(codes(big)).toEqual([['ENGINE_LIMIT', 64]]);
    expect(streamed(big)).toEqual(parseMd2(big));
  });

  test('num_xyz stays bounded by MAX_VERTS, as in Quake 2: 2048 parses, 2049 is BAD_COUNT at 24', () => {
    expect(parseMd2(seamed({ st: 30, xyz: 2048, glcmds: false }).bytes).vertexCount).toBe(2048);
    expect(() => parseMd2(seamed({ st: 30, xyz: 2049, glcmds: false }).bytes)).toThrow(/BAD_COUNT: num_xyz is 2049; it must be in \[1, 2048\] at byte 24/);
  });
});

describe('oddities the engine loads, now warnings', () => {
  const grid = (extra: Record<string, unknown> = {}) => seamed({ st: 30, xyz: 64, glcmds: false, ...extra });

  test('skinwidth 0 and skinheight −3: SKIN_SIZE at each field, texcoords divided by 1 (as assimp does)', () => {
    const m = parseMd2(grid({ skinWidth: 0, skinHeight: -3 }).bytes);
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['SKIN_SIZE', 8], ['SKIN_SIZE', 12]]);
    expect([m.skinWidth, m.skinHeight]).toEqual([1, 1]);
    const uv = md2TexCoords(m);
    for (let i = 0; i < m.stCount; i++) expect([uv[2 * i], uv[2 * i + 1]]).toEqual([m.st[2 * i], m.st[2 * i + 1]]);
    for (const x of md2Unwelded(m).uvs) expect(Number.isFinite(x)).toBe(true);
  });

  test('normal indices 162 and 255: NORMAL_INDEX at the first, each read as the table’s last entry (161)', () => {
    const built = grid({ frames: 2 });
    const bad = built.bytes.slice();
    const at1 = built.offsets.frames + 40 + 4 * 5 + 3; // frame 0, vertex 5
    const at2 = built.offsets.frames + built.frameSize + 40 + 4 * 9 + 3; // frame 1, vertex 9
    bad[at1] = 162;
    bad[at2] = 255;
    const m = parseMd2(bad);
    expect(m.warnings).toEqual([{ code: 'NORMAL_INDEX', offset: at1, message: expect.stringContaining('2 normal index(es)') }]);
    expect([m.frameVertices[4 * 5 + 3], m.frameVertices[4 * 64 + 4 * 9 + 3]]).toEqual([161, 161]);
    expect(Array.from(md2FrameNormals(m, 1).subarray(27, 30))).toEqual(Array.from(MD2_NORMALS.subarray(483, 486)));
  });

  test('overlapping blocks: OVERLAPPING_BLOCKS at the later block’s offset field, each block read by its own offset', () => {
    const built = grid({ skins: ['a.pcx'] });
    const bytes = built.bytes.slice();
    new DataView(bytes.buffer).setInt32(44, built.offsets.st, true); // the skin name now starts at the st block
    const m = parseMd2(bytes);
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['OVERLAPPING_BLOCKS', 48]]);
    expect(Array.from(m.skins[0].bytes.subarray(0, 4))).toEqual(Array.from(bytes.subarray(built.offsets.st, built.offsets.st + 4)));
    expect(m.st).toEqual(parseMd2(built.bytes).st);
  });

  test('num_glcmds negative: GLCMDS_INVALID at 36, glCommands null (the engine copies none)', () => {
    const built = grid();
    const bytes = built.bytes.slice();
    new DataView(bytes.buffer).setInt32(36, -5, true);
    const m = parseMd2(bytes);
    expect(m.glCommands).toBeNull();
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['GLCMDS_INVALID', 36]]);
  });

  test('no st and no triangles: Quake 2 refuses both (num_st <= 0, num_tris <= 0), we load with ENGINE_LIMIT', () => {
    const { bytes } = build({ skinWidth: 8, skinHeight: 8, xyzCount: 3, st: [], triXyz: [], triSt: [], frames: [{ name: 'f', scale: [1, 1, 1], translate: [0, 0, 0], vertices: new Uint8Array(12) }] });
    const m = parseMd2(bytes);
    expect([m.stCount, m.triangleCount]).toEqual([0, 0]);
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['ENGINE_LIMIT', 28], ['ENGINE_LIMIT', 32]]);
    expect(m.warnings[0].message).toContain('num_st <= 0');
  });
});
