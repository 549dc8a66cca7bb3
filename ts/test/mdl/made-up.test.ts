/**
 * MDL features none of the real files use, on files made up here (_build.ts): skin groups, frame groups, onseam
 * vertices and backward triangles, QuakeForge's MD16, Hexen II's RAPO; and hostile or odd headers: what is refused
 * (with its code and byte), what only warns (naming the engine), and every truncation.
 */
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { frameOfPose, isMdlHead, mdlDrawVertices, parseMdl } from '../../src/formats/mdl/index.js';
import { buildMdl, bytesFrom, poseVerts, richSpec, type BuildSpec } from './_build.js';
import { catchParse, diff, fromChunks } from './_helpers.js';
import { readGlb } from '../export/gltf-eval.js';
import { toGlb } from '../../src/registry/gltf.js';

const codes = (spec: BuildSpec) => parseMdl(buildMdl(spec)).warnings.map((w) => [w.code, w.offset]);

describe('skin groups and frame groups', () => {
  const spec = richSpec();
  const bytes = buildMdl(spec);
  const m = parseMdl(bytes);

  test('a single skin and a group of 3 pictures: every picture reachable, intervals kept', () => {
    expect(m.skins.map((s) => [s.type, s.firstPicture, s.pictureCount, [...s.intervals]])).toEqual([
      [0, 0, 1, []],
      [1, 1, 3, [0.1, 0.25, 0.5].map(Math.fround)],
    ]);
    expect(m.pictureCount).toBe(4);
    const size = spec.skinWidth * spec.skinHeight;
    [bytesFrom(1, size), bytesFrom(2, size), bytesFrom(3, size), bytesFrom(4, size)].forEach((p, i) => {
      expect(diff(m.skinPixels.subarray(i * size, (i + 1) * size), p)).toBe('');
    });
  });

  test('a single frame and a group of 3 poses: poses numbered over both, group bounds and intervals kept', () => {
    expect(m.frameCount).toBe(2);
    expect(m.poseCount).toBe(4);
    expect(m.poseNames).toEqual(['stand1', 'wave1', 'wave2', 'wave3']);
    expect(m.frames.map((f) => [f.type, f.firstPose, f.poseCount, [...f.boundsMin], [...f.boundsMax], [...f.intervals]])).toEqual([
      [0, 0, 1, [0, 0, 0, 0], [255, 255, 255, 0], []],
      [1, 1, 3, [1, 2, 3, 0], [250, 251, 252, 0], [0.1, 0.2, 0.3].map(Math.fround)],
    ]);
    expect([0, 1, 2, 3, 4].map((p) => frameOfPose(m.frames, p))).toEqual([0, 1, 1, 1, -1]);
    expect(m.clips).toEqual([{ name: 'stand', firstFrame: 0, frameCount: 1 }, { name: 'wave', firstFrame: 1, frameCount: 3 }]);
    expect(diff(m.frameVertices.subarray(4 * 6 * 2, 4 * 6 * 3), poseVerts(12, 6))).toBe('');
  });

  test('a type word other than 0 or 1 is a group, as the engines test `== ALIAS_SINGLE`', () => {
    const odd = richSpec();
    (odd.frames[1] as { type?: number }).type = 7;
    (odd.skins[1] as { type?: number }).type = -3;
    const m2 = parseMdl(buildMdl(odd));
    expect([m2.frames[1].type, m2.frames[1].poseCount, m2.skins[1].type, m2.skins[1].pictureCount]).toEqual([7, 3, -3, 3]);
  });

  test('streamed one byte at a time gives the same model', () => {
    const chunks = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(diff(fromChunks(chunks), m)).toBe('');
  });
});

describe('onseam: the GL renderer\'s vertices (QuakeSpasm GL_MakeAliasModelDisplayLists_VBO)', () => {
  const m = parseMdl(buildMdl(richSpec()));
  const g = mdlDrawVertices(m);

  test('a seam vertex of a backward triangle is a vertex of its own with s + skinwidth / 2', () => {
    // Triangles (0 1 2 front) (1 3 4 back) (2 1 3 back) (3 4 5 front); vertices 1 and 3 are on the seam.
    // First use order of (vertex, shifted): (0,0) (1,0) (2,0) (1,1) (3,1) (4,0) (3,0) (5,0).
    expect([...g.sourceVertex]).toEqual([0, 1, 2, 1, 3, 4, 3, 5]);
    expect([...g.seamShifted]).toEqual([0, 0, 0, 1, 1, 0, 0, 0]);
    expect([...g.indices]).toEqual([0, 1, 2, 3, 4, 5, 2, 3, 4, 6, 5, 7]);
    // vertex 1: st (0, 2) on an 8 × 4 skin: front (0.5/8, 2.5/4), back ((0 + 4 + 0.5)/8, 2.5/4)
    expect([...g.uvs.subarray(2, 4)]).toEqual([0.5 / 8, 2.5 / 4]);
    expect([...g.uvs.subarray(6, 8)]).toEqual([4.5 / 8, 2.5 / 4]);
  });

  test('the rule needs both: a seam vertex of a front triangle and a plain vertex of a back one stay', () => {
    for (let c = 0; c < m.triangleCount * 3; c++) {
      const v = m.triangleVertexIndices[c];
      const want = m.facesFront[(c / 3) | 0] === 0 && m.onseam[v] !== 0 ? 1 : 0;
      expect(g.seamShifted[g.indices[c]]).toBe(want);
      expect(g.sourceVertex[g.indices[c]]).toBe(v);
    }
  });

  test('an odd skinwidth shifts by its integer half (C division)', () => {
    const odd = parseMdl(buildMdl(richSpec({ skinWidth: 7, skins: [{ pixels: new Uint8Array(28) }] })));
    const o = mdlDrawVertices(odd);
    expect(o.uvs[6]).toBe(Math.fround((0 + 3 + 0.5) / 7));
  });
});

describe('variants', () => {
  test('MD16 (QuakeForge): each pose carries a second block of low bytes, kept; a warning says the kernels pose the high bytes', () => {
    const spec = richSpec({ ident: 'MD16' });
    spec.frames = [{ pose: { name: 'a1', verts: poseVerts(20, 6), low: bytesFrom(21, 24) } }];
    const m = parseMdl(buildMdl(spec));
    expect(m.variant).toBe('MD16');
    expect(diff(m.frameVertices, poseVerts(20, 6))).toBe('');
    expect(diff(m.frameVerticesLow, bytesFrom(21, 24))).toBe('');
    expect(m.warnings.map((w) => w.code)).toEqual(['MD16_LOW_BYTES']);
  });

  test('RAPO (Hexen II, version 50): num_st_verts of its own, triangles index st apart', () => {
    const spec = richSpec({ ident: 'RAPO' });
    spec.st = [...spec.st, { onseam: 0, s: 7, t: 3 }];
    spec.tris = spec.tris.map((t, i) => ({ ...t, st: i === 3 ? [6, 4, 5] : t.v }));
    const m = parseMdl(buildMdl(spec));
    expect([m.variant, m.version, m.stCount, m.vertexCount]).toEqual(['RAPO', 50, 7, 6]);
    expect([...m.triangleStIndices.subarray(9)]).toEqual([6, 4, 5]);
    expect([...m.triangleVertexIndices.subarray(9)]).toEqual([3, 4, 5]);
    const g = mdlDrawVertices(m);
    expect(g.sourceSt[g.indices[9]]).toBe(6);
    expect(g.uvs[2 * g.indices[9]]).toBe(Math.fround(7.5 / 8));
  });

  test('magic: the three idents with their versions, nothing else', () => {
    expect(isMdlHead(buildMdl(richSpec()))).toBe(true);
    expect(isMdlHead(buildMdl(richSpec({ ident: 'RAPO' })))).toBe(true);
    expect(isMdlHead(buildMdl(richSpec({ ident: 'RAPO', version: 6 })))).toBe(false);
    expect(isMdlHead(Uint8Array.from([73, 68, 80, 50, 8, 0, 0, 0]))).toBe(false);
  });
});

describe('hostile and odd headers', () => {
  const base = () => buildMdl(richSpec());
  const withInt = (bytes: Uint8Array, at: number, v: number) => {
    const out = bytes.slice();
    new DataView(out.buffer).setInt32(at, v, true);
    return out;
  };
  const refused = (bytes: Uint8Array) => {
    const e = catchParse(() => parseMdl(bytes));
    return [e.code, e.offset];
  };

  test('refused where no engine loads the file, at the offending field', () => {
    expect(refused(withInt(base(), 0, 0x3250_4449))).toEqual([ErrorCode.BadMagic, 0]);
    expect(refused(withInt(base(), 4, 7))).toEqual([ErrorCode.BadVersion, 4]);
    expect(refused(withInt(base(), 60, 0))).toEqual([ErrorCode.BadCount, 60]);
    expect(refused(withInt(base(), 60, 65536))).toEqual([ErrorCode.BadCount, 60]);
    expect(refused(withInt(base(), 68, 0))).toEqual([ErrorCode.BadCount, 68]);
    expect(refused(withInt(base(), 48, -1))).toEqual([ErrorCode.BadCount, 48]);
    expect(refused(withInt(base(), 52, 70000))).toEqual([ErrorCode.BadCount, 52]);
    expect(refused(withInt(base(), 64, -5))).toEqual([ErrorCode.BadCount, 64]);
    const nanScale = base();
    new DataView(nanScale.buffer).setFloat32(12, NaN, true);
    expect(refused(nanScale)).toEqual([ErrorCode.BadNumber, 12]);
  });

  test('a triangle index out of range is refused at its byte; a frame group of no pose too', () => {
    const s = richSpec();
    s.tris[2] = { front: 0, v: [2, 6, 3] };
    const skins = 84 + 4 + 32 + 4 + 4 + 12 + 3 * 32;
    expect(refused(buildMdl(s))).toEqual([ErrorCode.IndexOutOfRange, skins + 72 + 2 * 16 + 8]);
    const g = richSpec();
    g.frames = [{ intervals: [], poses: [] }];
    const at = skins + 72 + 64;
    expect(refused(buildMdl(g))).toEqual([ErrorCode.BadCount, at + 4]);
  });

  test('huge declared counts cost what arrived: TRUNCATED, naming the record, at the end of the input', () => {
    const big = withInt(withInt(base(), 68, 65535), 60, 65535); // 65535 frames of 65535 vertices: 17 GB declared
    const e = catchParse(() => parseMdl(big));
    expect(e.code).toBe(ErrorCode.Truncated);
    const skinGroup = withInt(base(), 84 + 4 + 32 + 4, 0x7fffffff); // a skin group of 2^31 − 1 pictures
    const e2 = catchParse(() => parseMdl(skinGroup));
    expect([e2.code, e2.offset, e2.detail]).toEqual([ErrorCode.Truncated, skinGroup.length, `input ended at byte ${skinGroup.length}, inside skin 1 of 2`]);
  });

  test('every prefix of a file is TRUNCATED (or BAD_MAGIC before 4 bytes are there), never anything else', () => {
    const bytes = base();
    for (let n = 0; n < bytes.length; n++) {
      const e = catchParse(() => parseMdl(bytes.subarray(0, n)));
      expect(e.code, `prefix ${n}`).toBe(ErrorCode.Truncated);
      const e2 = catchParse(() => fromChunks([bytes.subarray(0, n)]));
      expect(e2.code, `streamed prefix ${n}`).toBe(ErrorCode.Truncated);
    }
  });

  test('limits some engine refuses are ENGINE_LIMIT warnings at their field', () => {
    expect(codes(richSpec({ synctype: 2 }))).toEqual([['ENGINE_LIMIT', 72]]);
    expect(codes(richSpec({ skinWidth: 6, skins: [{ pixels: new Uint8Array(24) }] }))).toEqual([['ENGINE_LIMIT', 52]]);
    const tall = richSpec({ skinWidth: 4, skinHeight: 481, skins: [{ pixels: new Uint8Array(4 * 481) }] });
    expect(codes(tall)).toEqual([['ENGINE_LIMIT', 56]]);
    expect(codes(richSpec({ numskins: 0, skins: [] }))).toEqual([['ENGINE_LIMIT', 48]]);
    expect(codes(richSpec({ tris: [] }))).toEqual([['ENGINE_LIMIT', 64]]);
    const w = parseMdl(buildMdl(richSpec({ synctype: 2 }))).warnings[0].message;
    expect(w).toMatch(/DarkPlaces refuses/);
  });

  test('more poses than QuakeSpasm (256) or Ironwail (1024) holds: a warning naming who refuses', () => {
    const many = (n: number) => richSpec({ frames: [{ intervals: Array.from({ length: n }, (_, i) => 0.1 * (i + 1)), poses: Array.from({ length: n }, (_, i) => ({ name: `p${i}`, verts: poseVerts(i, 6) })) }] });
    const m257 = parseMdl(buildMdl(many(257)));
    expect(m257.warnings.map((w) => w.code)).toEqual(['ENGINE_LIMIT']);
    expect(m257.warnings[0].message).toMatch(/QuakeSpasm and GLQuake refuse/);
    expect(parseMdl(buildMdl(many(1025))).warnings[0].message).toMatch(/Ironwail refuses/);
  });

  test('intervals WinQuake refuses are a warning; normal indices past 161 are read as 161, reported once', () => {
    const s = richSpec();
    (s.frames[1] as { intervals: number[] }).intervals = [0.1, 0, 0.3];
    expect(codes(s).map((c) => c[0])).toEqual(['ENGINE_LIMIT']);
    const n = richSpec();
    const v = poseVerts(10, 6);
    v[7] = 200;
    v[11] = 170;
    n.frames[0] = { pose: { name: 'stand1', verts: v } };
    const m = parseMdl(buildMdl(n));
    expect(m.warnings.map((w) => w.code)).toEqual(['NORMAL_INDEX']);
    expect([m.frameVertices[7], m.frameVertices[11]]).toEqual([161, 161]);
  });

  test('non-finite floats no engine needs (intervals, radius, eye, size) are read as 0 with a warning: no NaN in a model (fuzz finding)', () => {
    const s = richSpec({ radius: NaN, size: Infinity });
    (s.frames[1] as { intervals: number[] }).intervals = [0.1, NaN, 0.3];
    const m = parseMdl(buildMdl(s));
    expect([m.radius, m.size, [...m.frames[1].intervals]]).toEqual([0, 0, [Math.fround(0.1), 0, Math.fround(0.3)]]);
    expect(m.warnings.map((w) => w.code)).toEqual(['NON_FINITE', 'NON_FINITE', 'NON_FINITE', 'ENGINE_LIMIT']);
  });

  test('a skin of no texel exports untextured (fuzz finding: encodePng of 0 × 128)', async () => {
    const m = parseMdl(buildMdl(richSpec({ skinWidth: 0, skins: [{ pixels: new Uint8Array(0) }] })));
    const g = readGlb(await toGlb(m));
    expect(g.json.images).toBeUndefined();
    expect(m.warnings.map((w) => w.code)).toEqual(['ENGINE_LIMIT']);
  });

  test('trailing bytes: a QMEX block is a fact, anything else also a TRAILING_BYTES warning', () => {
    const qmex = parseMdl(buildMdl(richSpec({ trailing: Uint8Array.from([81, 77, 69, 88, 4, 0, 0, 0, 9]) })));
    const end = buildMdl(richSpec()).length;
    expect(qmex.trailing).toEqual({ offset: end, bytes: 9, tag: 'QMEX' });
    expect(qmex.warnings).toEqual([]);
    const junk = parseMdl(buildMdl(richSpec({ trailing: Uint8Array.from([1, 2]) })));
    expect(junk.trailing).toEqual({ offset: end, bytes: 2, tag: null });
    expect(junk.warnings.map((w) => [w.code, w.offset])).toEqual([['TRAILING_BYTES', end]]);
    const streamed = fromChunks([buildMdl(richSpec({ trailing: Uint8Array.from([81, 77, 69, 88, 4, 0, 0, 0, 9]) }))].flatMap((b) => [b.subarray(0, end + 2), b.subarray(end + 2)]));
    expect(streamed.trailing).toEqual(qmex.trailing);
  });
});
