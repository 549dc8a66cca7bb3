/**
 * Bad input: each header check on a hand-edited copy of a real file, record-level checks, truncation, and the
 * recoverable oddities (warnings). Every expected offset is the header field or record the edit touched, worked
 * out here from the format (17 int32 header fields, 12-byte triangles, 40-byte frame headers, 4-byte vertices).
 */
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { LIMITS, Md2Parser, parseMd2 } from '../../src/formats/md2/index.js';
import { FILES, catchParse, diff, headerOf, readMd2File, withFloat32, withInt16, withInt32 } from './_helpers.js';

const flag = readMd2File(FILES.flag); // no skins, 10 frames, 106 vertices
const barrel = readMd2File(FILES.barrel); // one skin, one frame
const h = headerOf(flag);

function expectError(bytes: Uint8Array, code: string, offset: number): void {
  const e = catchParse(() => parseMd2(bytes));
  expect({ code: e.code, offset: e.offset }, e.message).toEqual({ code, offset });
  // The push parser fed the same bytes in 1000-byte chunks agrees.
  const p = new Md2Parser();
  const e2 = catchParse(() => {
    for (let i = 0; i < bytes.length; i += 1000) p.write(bytes.subarray(i, i + 1000));
    p.end();
  });
  expect({ code: e2.code, offset: e2.offset }, e2.message).toEqual({ code, offset });
}

describe('header checks', () => {
  test('ident not IDP2 is BAD_MAGIC at 0, even for a file shorter than a header', () => {
    expectError(withInt32(flag, 0, 0x33504449 /* IDP3 */), ErrorCode.BadMagic, 0);
    expectError(new TextEncoder().encode('MD5Version 10'), ErrorCode.BadMagic, 0);
  });

  test('version other than 8 is BAD_VERSION at 4', () => {
    expectError(withInt32(flag, 4, 7), ErrorCode.BadVersion, 4);
    expectError(withInt32(flag, 4, 15), ErrorCode.BadVersion, 4);
  });

  // Only the engine's own refusals (num_xyz in [1, MAX_VERTS], num_frames ≥ 1), negative counts, a frame too short
  // for its vertices, and counts whose records cannot fit between the header and ofs_end (flag.md2: 17,700 bytes).
  const room = h.ofsEnd - 68;
  const counts: [string, number, number][] = [
    ['num_skins −1', 20, -1],
    ['num_skins whose 64-byte names do not fit', 20, Math.floor(room / 64) + 1],
    ['num_xyz 0', 24, 0],
    ['num_xyz 2049 (MAX_VERTS, refused by Quake 2 too)', 24, LIMITS.maxVertices + 1],
    ['num_st −1', 28, -1],
    ['num_st whose 4-byte records do not fit', 28, Math.floor(room / 4) + 1],
    ['num_tris −1', 32, -1],
    ['num_tris whose 12-byte records do not fit', 32, Math.floor(room / 12) + 1],
    ['num_glcmds whose words do not fit', 36, Math.floor(room / 4) + 1],
    ['num_frames 0', 40, 0],
    ['num_frames whose frames do not fit', 40, Math.floor(room / h.frameSize) + 1],
    ['framesize below 40 + 4·num_xyz', 16, 40 + 4 * h.numXyz - 1],
    ['framesize larger than the whole file', 16, room + 1],
    ['num_st 2^31 − 1 (no overflow in count × size)', 28, 0x7fffffff],
  ];
  for (const [what, field, value] of counts) {
    test(`${what} is BAD_COUNT at ${field}`, () => expectError(withInt32(flag, field, value), ErrorCode.BadCount, field));
  }

  test('a block outside [68, ofs_end) is BAD_OFFSET at its offset field', () => {
    expectError(withInt32(flag, 48, h.ofsEnd - 4), ErrorCode.BadOffset, 48); // st runs past ofs_end
    expectError(withInt32(flag, 52, 40), ErrorCode.BadOffset, 52); // triangles inside the header
    expectError(withInt32(flag, 52, -12), ErrorCode.BadOffset, 52);
    expectError(withInt32(flag, 56, h.ofsEnd - 100), ErrorCode.BadOffset, 56); // frames run past ofs_end
    expectError(withInt32(flag, 60, 0x7fffffff), ErrorCode.BadOffset, 60);
  });

  test('ofs_end below 68 is BAD_OFFSET at 64', () => {
    expectError(withInt32(flag, 64, 67), ErrorCode.BadOffset, 64);
    expectError(withInt32(flag, 64, -1), ErrorCode.BadOffset, 64);
  });

  test('an empty block’s offset is not followed (num_skins 0 with ofs_skins −5 parses)', () => {
    expect(parseMd2(withInt32(flag, 44, -5)).skins).toEqual([]);
  });
});

describe('record checks', () => {
  test('a triangle vertex index ≥ num_xyz or < 0 is INDEX_OUT_OF_RANGE at that index', () => {
    const t = 7;
    expectError(withInt16(flag, h.ofsTris + 12 * t + 2, h.numXyz), ErrorCode.IndexOutOfRange, h.ofsTris + 12 * t + 2);
    expectError(withInt16(flag, h.ofsTris, -1), ErrorCode.IndexOutOfRange, h.ofsTris);
  });

  test('a triangle st index ≥ num_st is INDEX_OUT_OF_RANGE at that index', () => {
    const at = h.ofsTris + 12 * (h.numTris - 1) + 10;
    expectError(withInt16(flag, at, h.numSt), ErrorCode.IndexOutOfRange, at);
  });

  test('NaN or infinite scale/translate is BAD_NUMBER at that float', () => {
    expectError(withFloat32(flag, h.ofsFrames + 4, NaN), ErrorCode.BadNumber, h.ofsFrames + 4);
    const at = h.ofsFrames + h.frameSize * (h.numFrames - 1) + 20; // last frame's translate z
    expectError(withFloat32(flag, at, -Infinity), ErrorCode.BadNumber, at);
  });

  test('a finite scale whose positions would overflow float32 is BAD_NUMBER at the scale', () => {
    expectError(withFloat32(flag, h.ofsFrames + 8, 3e38), ErrorCode.BadNumber, h.ofsFrames + 8);
    // A large scale that still decodes finite (255 · 1e36 with translate 0) parses.
    const ok = withFloat32(withFloat32(flag, h.ofsFrames + 8, 1e36), h.ofsFrames + 20, 0);
    expect(parseMd2(ok).frameScales[2]).toBe(Math.fround(1e36));
  });
});

describe('truncation', () => {
  test('an empty input is TRUNCATED at 0; a partial header at its length', () => {
    expectError(new Uint8Array(0), ErrorCode.Truncated, 0);
    expectError(flag.subarray(0, 2), ErrorCode.Truncated, 2);
    expectError(flag.subarray(0, 40), ErrorCode.Truncated, 40);
  });

  test('a file shorter than ofs_end is TRUNCATED where it ends', () => {
    expectError(flag.subarray(0, h.ofsEnd - 1), ErrorCode.Truncated, h.ofsEnd - 1);
    expectError(flag.subarray(0, 68), ErrorCode.Truncated, 68);
  });

  test('a streamed header that declares a 2 GiB ofs_end and then stops costs what was sent, not what was declared', () => {
    // A valid header for a one-vertex, one-frame model whose ofs_end is the largest int32 (nothing else bounds it).
    const big = new Uint8Array(68);
    const d = new DataView(big.buffer);
    const fields = [0x32504449, 8, 8, 8, 44, 0, 1, 0, 0, 0, 1, 68, 68, 68, 68, 68, 0x7fffffff];
    fields.forEach((v, i) => d.setInt32(4 * i, v, true));
    const p = new Md2Parser();
    const before = process.memoryUsage().arrayBuffers;
    p.write(big);
    p.write(new Uint8Array(100));
    const grew = process.memoryUsage().arrayBuffers - before;
    expect(grew).toBeLessThan(256 * 1024);
    const e = catchParse(() => p.end());
    expect([e.code, e.offset]).toEqual([ErrorCode.Truncated, 168]);
  });
});

describe('warnings (the model still parses)', () => {
  test('bytes after ofs_end: TRAILING_BYTES at ofs_end, model unchanged', () => {
    const longer = new Uint8Array(flag.length + 10);
    longer.set(flag);
    const m = parseMd2(longer);
    expect(m.warnings).toEqual([{ code: 'TRAILING_BYTES', message: expect.stringContaining('10 bytes'), offset: h.ofsEnd }]);
    expect(diff({ ...m, warnings: [] }, parseMd2(flag))).toBe('');
  });

  const glcmdCorruptions: [string, (b: Uint8Array) => Uint8Array, number][] = [
    ['a first count running past the block', (b) => withInt32(b, h.ofsGlcmds, 100000), h.ofsGlcmds],
    ['a command of 2 vertices', (b) => withInt32(b, h.ofsGlcmds, 2), h.ofsGlcmds],
    ['a vertex index ≥ num_xyz', (b) => withInt32(b, h.ofsGlcmds + 4 + 8, h.numXyz), h.ofsGlcmds + 12],
    ['a NaN s', (b) => withFloat32(b, h.ofsGlcmds + 4, NaN), h.ofsGlcmds + 4],
    ['no terminating 0', (b) => withInt32(b, h.ofsEnd - 4, 3), h.ofsEnd - 4],
  ];
  for (const [what, corrupt, offset] of glcmdCorruptions) {
    test(`garbage glcmds (${what}): GLCMDS_INVALID, glCommands null, the rest unchanged`, () => {
      const m = parseMd2(corrupt(flag));
      expect(m.glCommands).toBeNull();
      expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['GLCMDS_INVALID', offset]]);
      expect(diff({ ...m, warnings: [], glCommands: null }, { ...parseMd2(flag), glCommands: null })).toBe('');
    });
  }

  test('random words in the whole glcmd block never fail the model', () => {
    const bad = flag.slice();
    const d = new DataView(bad.buffer);
    let x = 12345;
    for (let at = h.ofsGlcmds; at < h.ofsEnd; at += 4) {
      x = (Math.imul(x, 1103515245) + 12345) | 0;
      d.setInt32(at, x, true);
    }
    const m = parseMd2(bad);
    expect(m.glCommands).toBeNull();
    expect(m.warnings.map((w) => w.code)).toEqual(['GLCMDS_INVALID']);
  });

  test('no glcmd block at all: glCommands null and no warning', () => {
    const m = parseMd2(withInt32(flag, 36, 0));
    expect(m.glCommands).toBeNull();
    expect(m.warnings).toEqual([]);
  });

  test('a frame name without a NUL is all 16 bytes; a skin name stops at its NUL', () => {
    const bad = barrel.slice();
    const hb = headerOf(barrel);
    bad.set(new TextEncoder().encode('abcdefghijklmnop'), hb.ofsFrames + 24);
    const m = parseMd2(bad);
    expect(m.frameNames[0]).toBe('abcdefghijklmnop');
    expect(m.skins[0].name).toBe('ownloads/beerbarrel/packages/models/mapmodels/ton/tris2.pcx'); // as in the MANIFEST
  });
});
