/**
 * Hand-made files, each broken in one field: the error code and the byte offset of that field (offsets from the
 * ioquake3 qfiles.h layout: header fields at 0, 4, 76, 80, 84, 92, 96, 100, 104; surface fields at +72 … +104).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { MD3_LIMITS, Md3Parser, parseMd3 } from '../../src/formats/md3/index.js';
import { buildMd3, expectMd3Error, smallMd3, view, type Built } from './_helpers.js';

/** A fresh small file with `edit` applied. */
function broken(edit: (b: Built, dv: DataView) => void, base: () => Built = smallMd3): Uint8Array {
  const built = base();
  edit(built, view(built.bytes));
  return built.bytes;
}

describe('the builder makes valid files', () => {
  it('the small file and its surfaces-first layout (offsets pointing backwards) parse to the same model', () => {
    const a = parseMd3(smallMd3().bytes);
    const b = parseMd3(smallMd3({ surfacesFirst: true }).bytes);
    expect(b).toEqual(a);
    expect(a.surfaces.map((s) => s.name)).toEqual(['quad', 'tri']);
    expect(a.tagNames).toEqual(['tag_a', 'tag_b']);
    expect(a.surfaces[0].shaders).toEqual([{ name: 'models/a.tga', index: 0 }, { name: 'models/b.tga', index: 1 }]);
    // Builder: tag k of frame f at (f, k, 1); frame f's mins −(f + 1).
    expect(Array.from(a.tagOrigins.subarray(9, 12))).toEqual([1, 1, 1]);
    expect(Array.from(a.frameMins.subarray(3, 6))).toEqual([-2, -2, -2]);
    expect(a.warnings).toEqual([]);
  });

  it('a model with no surfaces and no tags (a tag-only or empty model) is fine', () => {
    const m = parseMd3(buildMd3({ frames: 3, surfaces: [] }).bytes);
    expect(m.surfaces).toEqual([]);
    expect(m.frameCount).toBe(3);
  });
});

describe('header', () => {
  it('BAD_MAGIC at 0', () => {
    expectMd3Error(() => parseMd3(broken((b) => (b.bytes[3] = 0x32))), ErrorCode.BadMagic, 0);
    // A short text file is recognised as not-MD3 rather than truncated.
    expectMd3Error(() => parseMd3(new TextEncoder().encode('MD5Version 10')), ErrorCode.BadMagic, 0);
  });

  it('BAD_VERSION at 4', () => {
    expectMd3Error(() => parseMd3(broken((_b, dv) => dv.setInt32(4, 16, true))), ErrorCode.BadVersion, 4);
  });

  // R_LoadMD3 refuses numFrames < 1; no count may be negative or declare more records than the file holds.
  it.each([
    ['numFrames 0', 76, 0],
    ['numFrames negative', 76, -1],
    ['numFrames whose 56-byte frames do not fit in the file', 76, 100_000],
    ['numTags whose numFrames × 112 bytes do not fit', 80, 100_000],
    ['numTags negative', 80, -1],
    ['numSurfaces whose 108-byte headers do not fit', 84, 100_000],
    ['numSurfaces negative', 84, -5],
  ])('BAD_COUNT: %s at its field', (_what, field, value) => {
    expectMd3Error(() => parseMd3(broken((_b, dv) => dv.setInt32(field, value, true))), ErrorCode.BadCount, field);
  });

  it.each([
    ['ofsFrames past ofsEnd', 92, (b: Built) => b.ofsEnd - 10],
    ['ofsFrames inside the header', 92, () => 50],
    ['ofsFrames negative', 92, () => -4],
    ['ofsTags past ofsEnd', 96, (b: Built) => b.ofsEnd],
    ['ofsSurfaces past ofsEnd', 100, (b: Built) => b.ofsEnd - 100],
    ['ofsEnd below the header size', 104, () => 107],
    ['ofsEnd negative', 104, () => -1],
  ])('BAD_OFFSET: %s at its field', (_what, field, value) => {
    expectMd3Error(() => parseMd3(broken((b, dv) => dv.setInt32(field, value(b), true))), ErrorCode.BadOffset, field);
  });

  it('a huge ofsEnd in a short file costs what was sent: TRUNCATED at the end, buffer never sized to ofsEnd', () => {
    const bytes = broken((_b, dv) => dv.setInt32(104, 500_000_000, true));
    expectMd3Error(() => parseMd3(bytes), ErrorCode.Truncated, bytes.length);
    const p = new Md3Parser();
    p.write(bytes);
    expect((p as unknown as { buf: Uint8Array }).buf.length).toBeLessThanOrEqual(64 * 1024);
    expectMd3Error(() => p.end(), ErrorCode.Truncated, bytes.length);
  });
});

describe('surfaces', () => {
  it('BAD_MAGIC at the second surface’s ident', () => {
    const b = smallMd3();
    b.bytes[b.surfaces[1].start] = 0x58;
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadMagic, b.surfaces[1].start);
  });

  it('BAD_COUNT when a surface stores fewer frames than the header (the engine would draw them from the bytes after it)', () => {
    const b = smallMd3();
    view(b.bytes).setInt32(b.surfaces[0].start + 72, 1, true);
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadCount, b.surfaces[0].start + 72);
  });

  it.each([
    ['numVerts over MD3_MAX_VERTS', 80, MD3_LIMITS.maxVertsPerSurface + 1],
    ['numTriangles over MD3_MAX_TRIANGLES', 84, MD3_LIMITS.maxTrianglesPerSurface + 1],
    ['numShaders whose 68-byte records do not fit in the surface', 76, 100_000],
    ['numVerts negative', 80, -1],
    ['numShaders negative', 76, -1],
  ])('BAD_COUNT: surface %s', (_what, field, value) => {
    const b = smallMd3();
    view(b.bytes).setInt32(b.surfaces[1].start + field, value, true);
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadCount, b.surfaces[1].start + field);
  });

  it.each([
    ['ofsTriangles', 88],
    ['ofsShaders', 92],
    ['ofsSt', 96],
    ['ofsXyzNormals', 100],
  ])('BAD_OFFSET: %s past the surface’s end, or inside its header', (_what, field) => {
    for (const value of [1_000_000, 8, -200]) {
      const b = smallMd3();
      view(b.bytes).setInt32(b.surfaces[0].start + field, value, true);
      expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadOffset, b.surfaces[0].start + field);
    }
  });

  it('BAD_OFFSET: a sub-block that fits the file but not its own surface (it would read the next surface)', () => {
    const b = smallMd3();
    const s = b.surfaces[0];
    view(b.bytes).setInt32(s.start + 100, s.xyz - s.start + 16, true);
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadOffset, s.start + 100);
  });

  it('BAD_OFFSET: a surface ofsEnd past the file’s ofsEnd, below its header, or chaining a next surface out of the file', () => {
    for (const value of [100_000, 107, 0, -108]) {
      const b = smallMd3();
      view(b.bytes).setInt32(b.surfaces[0].start + 104, value, true);
      expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadOffset, b.surfaces[0].start + 104);
    }
    // The last surface's ofsEnd is fine on its own, but one more surface is declared than fits.
    const b = smallMd3();
    view(b.bytes).setInt32(84, 3, true);
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadOffset, b.surfaces[1].start + 104);
  });
});

describe('records', () => {
  it('INDEX_OUT_OF_RANGE at the triangle index that is ≥ numVerts or negative', () => {
    for (const v of [4, -1, 0x7fffffff]) {
      const b = smallMd3();
      view(b.bytes).setInt32(b.surfaces[0].triangles + 4 * 4, v, true);
      const e = expectMd3Error(() => parseMd3(b.bytes), ErrorCode.IndexOutOfRange, b.surfaces[0].triangles + 16);
      expect(e.detail).toContain(`vertex ${v}`);
    }
  });

  it.each([
    ['a frame’s mins', (b: Built) => b.ofsFrames + 56 + 4],
    ['a frame’s radius', (b: Built) => b.ofsFrames + 36],
    ['a tag’s origin', (b: Built) => b.ofsTags + 112 * 3 + 64 + 8],
    ['a tag’s axis', (b: Built) => b.ofsTags + 112 + 76 + 32],
    ['a texture coordinate', (b: Built) => b.surfaces[1].st + 12],
  ])('BAD_NUMBER at %s that is NaN or ±Infinity', (_what, at) => {
    for (const v of [NaN, Infinity, -Infinity]) {
      const b = smallMd3();
      view(b.bytes).setFloat32(at(b), v, true);
      expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadNumber, at(b));
    }
  });

  it('TRUNCATED at the end of input, wherever it stops before ofsEnd', () => {
    const full = smallMd3().bytes;
    for (const n of [0, 3, 4, 8, 50, 107, 108, 200, full.length - 1]) {
      expectMd3Error(() => parseMd3(full.subarray(0, n)), ErrorCode.Truncated, n);
    }
  });

  it('TAG_NAME_MISMATCH warning (once per tag) when a later frame names a tag differently', () => {
    const b = buildMd3({ frames: 3, tags: ['tag_head', 'tag_weapon'], surfaces: [] });
    b.bytes[b.ofsTags + 112 * 2 + 4] = 0x58; // frame 1, tag 0: "tag_Xead"
    b.bytes[b.ofsTags + 112 * 4 + 4] = 0x59; // frame 2, tag 0 again: no second warning
    const m = parseMd3(b.bytes);
    expect(m.tagNames).toEqual(['tag_head', 'tag_weapon']);
    expect(m.warnings).toEqual([expect.objectContaining({ code: 'TAG_NAME_MISMATCH', offset: b.ofsTags + 112 * 2 })]);
  });

  it('TRAILING_BYTES at ofsEnd for bytes after it; the model is the same as without them', () => {
    const b = smallMd3({ trailing: 5 });
    const m = parseMd3(b.bytes);
    expect(m.warnings).toEqual([expect.objectContaining({ code: 'TRAILING_BYTES', offset: b.ofsEnd })]);
    expect({ ...m, warnings: [] }).toEqual(parseMd3(smallMd3().bytes));
  });

  it('names are Latin-1 and cut at the first NUL (bytes after it are ignored)', () => {
    const b = smallMd3();
    const at = b.surfaces[0].start + 4;
    b.bytes.set([0x63, 0xe9, 0x00, 0x41, 0x42], at); // "cé\0AB"
    expect(parseMd3(b.bytes).surfaces[0].name).toBe('c\u00e9');
  });
});
