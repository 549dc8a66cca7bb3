/**
 * MD3 limits as ioquake3 has them (docs/limits.md): the qfiles.h MD3_MAX_* counts R_LoadMD3 never checks load with an
 * ENGINE_LIMIT warning; surfaces past the tessellator limits it does refuse (SHADER_MAX_VERTEXES, SHADER_MAX_INDEXES)
 * load with a warning up to the format's own caps (MD3_MAX_VERTS, MD3_MAX_TRIANGLES: BAD_COUNT past them).
 * Files are hand-made by the builder in _helpers.ts, so every field offset is known.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { MD3_LIMITS, Md3Parser, parseMd3 } from '../../src/formats/md3/index.js';
import { buildMd3, digest, expectMd3Error, view, type BuildSurface } from './_helpers.js';

const tri: BuildSurface = { name: 'tri', vertexCount: 3, triangles: [0, 1, 2] };
const warningsOf = (bytes: Uint8Array) => parseMd3(bytes).warnings.map((w) => [w.code, w.offset]);

/** A surface of `vertexCount` vertices and `triangleCount` triangles (a fan over the vertices, wrapping). */
function surface(vertexCount: number, triangleCount: number, shaders?: string[]): BuildSurface {
  const triangles: number[] = [];
  for (let t = 0; t < triangleCount; t++) triangles.push(0, 1 + (t % (vertexCount - 2)), 2 + (t % (vertexCount - 2)));
  return { name: 'mesh', vertexCount, triangles, shaders, xyzNormal: (f, v) => [v % 100, f, (v * 7) % 300, v & 0xffff] };
}

describe('qfiles.h limits R_LoadMD3 never checks: ENGINE_LIMIT warnings past them', () => {
  it('numFrames 1024 and 1025 (MD3_MAX_FRAMES): the last frame is read like any other', () => {
    expect(warningsOf(buildMd3({ frames: 1024, surfaces: [tri] }).bytes)).toEqual([]);
    const b = buildMd3({ frames: 1025, surfaces: [tri] });
    const m = parseMd3(b.bytes);
    expect(m.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 76, message: expect.stringContaining('MD3_MAX_FRAMES 1024') }]);
    expect(m.frameCount).toBe(1025);
    expect(m.frameNames[1024]).toBe('frame1024');
    expect(m.frameMins[3 * 1024]).toBe(-1025); // the builder's frame f has mins −(f + 1)
    expect(m.surfaces[0].xyzNormals.length).toBe(1025 * 3 * 4);
  });

  it('numTags 16 and 17 (MD3_MAX_TAGS): every tag kept', () => {
    const names = (n: number) => Array.from({ length: n }, (_, k) => `tag_${k}`);
    expect(warningsOf(buildMd3({ frames: 2, tags: names(16), surfaces: [tri] }).bytes)).toEqual([]);
    const m = parseMd3(buildMd3({ frames: 2, tags: names(17), surfaces: [tri] }).bytes);
    expect(m.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 80, message: expect.stringContaining('MD3_MAX_TAGS 16') }]);
    expect(m.tagNames).toEqual(names(17));
    expect(Array.from(m.tagOrigins.subarray(3 * (17 + 16), 3 * (17 + 17)))).toEqual([1, 16, 1]); // frame 1, tag 16
  });

  it('numSurfaces 32 and 33 (MD3_MAX_SURFACES): every surface kept', () => {
    const surfaces = (n: number) => Array.from({ length: n }, (_, i) => ({ ...tri, name: `s${i}` }));
    expect(warningsOf(buildMd3({ frames: 1, surfaces: surfaces(32) }).bytes)).toEqual([]);
    const m = parseMd3(buildMd3({ frames: 1, surfaces: surfaces(33) }).bytes);
    expect(m.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: 84, message: expect.stringContaining('MD3_MAX_SURFACES 32') }]);
    expect(m.surfaces.map((s) => s.name)).toEqual(surfaces(33).map((s) => s.name));
  });

  it('numShaders 256 and 257 (MD3_MAX_SHADERS): every shader kept', () => {
    const shaders = (n: number) => Array.from({ length: n }, (_, k) => `models/s${k}.tga`);
    expect(warningsOf(buildMd3({ frames: 1, surfaces: [{ ...tri, shaders: shaders(256) }] }).bytes)).toEqual([]);
    const b = buildMd3({ frames: 1, surfaces: [{ ...tri, shaders: shaders(257) }] });
    const m = parseMd3(b.bytes);
    expect(m.warnings).toEqual([{ code: 'ENGINE_LIMIT', offset: b.surfaces[0].start + 76, message: expect.stringContaining('MD3_MAX_SHADERS 256') }]);
    expect(m.surfaces[0].shaders[256]).toEqual({ name: 'models/s256.tga', index: 256 });
  });
});

describe('the tessellator limits R_LoadMD3 refuses: warnings up to the format’s caps, BAD_COUNT past them', () => {
  it('numVerts 999 and 1000 (SHADER_MAX_VERTEXES), 4096 (MD3_MAX_VERTS) loads, 4097 is BAD_COUNT', () => {
    expect(warningsOf(buildMd3({ frames: 1, surfaces: [surface(999, 10)] }).bytes)).toEqual([]);
    const b = buildMd3({ frames: 1, surfaces: [surface(1000, 10)] });
    expect(parseMd3(b.bytes).warnings).toEqual([
      { code: 'ENGINE_LIMIT', offset: b.surfaces[0].start + 80, message: expect.stringContaining('numVerts >= SHADER_MAX_VERTEXES 1000') },
    ]);
    const cap = buildMd3({ frames: 2, surfaces: [surface(MD3_LIMITS.maxVertsPerSurface, 10)] });
    const m = parseMd3(cap.bytes);
    expect(m.surfaces[0].vertexCount).toBe(4096);
    expect(m.surfaces[0].xyzNormals[4 * (4096 + 4095) + 2]).toBe((4095 * 7) % 300); // frame 1, last vertex, z
    const past = buildMd3({ frames: 1, surfaces: [surface(MD3_LIMITS.maxVertsPerSurface + 1, 10)] });
    expectMd3Error(() => parseMd3(past.bytes), ErrorCode.BadCount, past.surfaces[0].start + 80);
  });

  it('numTriangles 1999 and 2000 (SHADER_MAX_INDEXES / 3), 8192 (MD3_MAX_TRIANGLES) loads, 8193 is BAD_COUNT', () => {
    expect(warningsOf(buildMd3({ frames: 1, surfaces: [surface(50, 1999)] }).bytes)).toEqual([]);
    const b = buildMd3({ frames: 1, surfaces: [surface(50, 2000)] });
    expect(parseMd3(b.bytes).warnings).toEqual([
      { code: 'ENGINE_LIMIT', offset: b.surfaces[0].start + 84, message: expect.stringContaining('numTriangles * 3 >= SHADER_MAX_INDEXES 6000') },
    ]);
    const m = parseMd3(buildMd3({ frames: 1, surfaces: [surface(50, MD3_LIMITS.maxTrianglesPerSurface)] }).bytes);
    expect(m.surfaces[0].triangleCount).toBe(8192);
    expect(Array.from(m.surfaces[0].triangles.subarray(-3))).toEqual([0, 1 + (8191 % 48), 2 + (8191 % 48)]);
    const past = buildMd3({ frames: 1, surfaces: [surface(50, MD3_LIMITS.maxTrianglesPerSurface + 1)] });
    expectMd3Error(() => parseMd3(past.bytes), ErrorCode.BadCount, past.surfaces[0].start + 84);
  });
});

describe('a surface with more frames than the header', () => {
  it('SURFACE_FRAMES at its numFrames; the header’s frames are read, the rest ignored (the engine never draws them)', () => {
    // Three frames written everywhere, then the header says two: tags and frames of frame 2 become unused bytes.
    const b = buildMd3({ frames: 3, tags: ['tag_a'], surfaces: [tri, { ...tri, name: 'second' }] });
    view(b.bytes).setInt32(76, 2, true);
    const m = parseMd3(b.bytes);
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([
      ['SURFACE_FRAMES', b.surfaces[0].start + 72],
      ['SURFACE_FRAMES', b.surfaces[1].start + 72],
    ]);
    const two = parseMd3(buildMd3({ frames: 2, tags: ['tag_a'], surfaces: [tri, { ...tri, name: 'second' }] }).bytes);
    expect(digest(m.surfaces)).toEqual(digest(two.surfaces));
    expect(m.frameCount).toBe(2);
    // The push parser, fed 100-byte chunks, agrees.
    const p = new Md3Parser();
    for (let i = 0; i < b.bytes.length; i += 100) p.write(b.bytes.subarray(i, i + 100));
    expect(digest(p.end())).toEqual(digest(m));
  });

  it('the surface’s declared frames must all be in the surface (BAD_OFFSET at ofsXyzNormals otherwise)', () => {
    const b = buildMd3({ frames: 2, surfaces: [tri] });
    view(b.bytes).setInt32(b.surfaces[0].start + 72, 3, true); // claims a third frame that is not there
    expectMd3Error(() => parseMd3(b.bytes), ErrorCode.BadOffset, b.surfaces[0].start + 100);
  });
});
