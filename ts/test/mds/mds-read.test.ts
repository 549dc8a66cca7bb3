/**
 * MDS (RtCW's skeletal model) read on the corpus' R2 file, written by an independent tool (the README's rtcw-made
 * group): every header field, frame, bone, surface and tag the tool's own JSON reading states is what the reader
 * reads; a push parser fed in small chunks reads the same; a file whose counts, offsets or indices lie is refused
 * with a typed error at the byte that lies (each made here by changing one field of the real file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { MdsParser, parseMds } from '../../src/formats/mds/parser.js';
import { chunked } from '../helpers/chunks.js';
import { refusal } from '../helpers/failure.js';
import { SHARED_MODELS } from '../helpers/models.js';

const FILE = join(SHARED_MODELS, 'rtcw-made/mds/cesiumman.mds');
const bytes = () => new Uint8Array(readFileSync(FILE));
const json = JSON.parse(readFileSync(FILE.replace(/\.mds$/, '.json'), 'utf8'));
const near = (a: ArrayLike<number>, b: readonly number[]) => b.forEach((x, k) => expect(a[k]).toBeCloseTo(x, 5));

describe('cesiumman.mds as the tool that wrote it reads it', () => {
  const m = parseMds(bytes());
  const h = json.header;

  it('has every header field', () => {
    expect({ name: m.name, version: m.version, frames: m.frames.length, bones: m.bones.length, torso: m.torsoParent, surfaces: m.surfaces.length, tags: m.tags.length }).toEqual({
      name: h.name, version: h.version, frames: h.num_frames, bones: h.num_bones, torso: h.torso_parent, surfaces: h.num_surfaces, tags: h.num_tags,
    });
    expect(m.lodScale).toBeCloseTo(h.lod_scale, 6);
    expect(m.lodBias).toBeCloseTo(h.lod_bias, 6);
    expect(m.offsets).toEqual({ frames: h.ofs_frames, bones: h.ofs_bones, surfaces: h.ofs_surfaces, tags: h.ofs_tags, end: h.ofs_end });
    expect(m.warnings).toEqual([]);
  });

  it('has each bone with its parent, torso weight, parent distance and flags', () => {
    expect(m.bones.map((b) => [b.name, b.parent, b.flags])).toEqual(json.bones.map((b: any) => [b.name, b.parent, b.flags]));
    m.bones.forEach((b, i) => {
      expect(b.torsoWeight).toBeCloseTo(json.bones[i].torso_weight, 6);
      expect(b.parentDist).toBeCloseTo(json.bones[i].parent_dist, 5);
    });
    // the last bone is the weapon's tag (BONEFLAG_TAG)
    expect(m.bones[19].flags).toBe(1);
  });

  it('has each sampled frame with its bounds, local origin, radius, parent offset and compressed bones', () => {
    for (const f of json.sampled_frames as number[]) {
      const fr = m.frames, ref = json.frame_bounds[String(f)];
      near(fr.bounds.subarray(f * 6), ref.min);
      near(fr.bounds.subarray(f * 6 + 3), ref.max);
      near(fr.localOrigins.subarray(f * 3), ref.local_origin);
      expect(fr.radii[f]).toBeCloseTo(ref.radius, 5);
      near(fr.parentOffsets.subarray(f * 3), json.frame_parent_offset[String(f)]);
      const raw = Array.from(m.boneFrames.subarray(f * 20 * 6, (f + 1) * 20 * 6));
      expect(raw).toEqual((json.bone_frames_raw[String(f)] as number[][]).flat());
    }
  });

  it('has the surface: LOD fields, weighted vertices, triangles, collapse map and bone references', () => {
    const s = m.surfaces[0], ref = json.surfaces[0];
    expect({ name: s.name, shader: s.shader, ident: s.ident, minLod: s.minLod, vertices: s.vertexCount, triangles: s.triangles.length / 3, weights: s.weightStart[s.vertexCount] }).toEqual({
      name: ref.name, shader: ref.shader, ident: 8, minLod: ref.min_lod, vertices: ref.num_vertices, triangles: ref.num_triangles, weights: ref.total_weights,
    });
    expect(s.ofsHeader).toBe(-s.offset);
    const counts = Array.from({ length: s.vertexCount }, (_, v) => s.weightStart[v + 1] - s.weightStart[v]);
    expect(Math.max(...counts)).toBe(ref.max_weights_per_vertex);
    expect(counts.filter((n) => n >= 2).length).toBe(ref.vertices_with_2plus_weights);
    expect(Array.from(s.boneRefs)).toEqual(ref.bone_refs);
    expect(Array.from(s.triangles)).toEqual((ref.triangles_as_stored as number[][]).flat());
    expect(Array.from(s.collapseMap)).toEqual(ref.collapse_map);
    (ref.tex_coords_as_stored as number[][]).forEach((uv, v) => near(s.texCoords.subarray(v * 2), uv));
  });

  it('has the tags bound to bones', () => {
    expect(m.tags.map((t) => [t.name, t.boneIndex, t.torsoWeight])).toEqual(json.tags.map((t: any) => [t.name, t.parent_bone, t.torso_weight]));
  });

  it('reads the same from 97-byte chunks', () => {
    const p = new MdsParser();
    for (const c of chunked(bytes(), 97)) p.write(c);
    const streamed = p.end();
    expect(streamed.surfaces[0].offsets).toEqual(m.surfaces[0].offsets);
    expect(streamed.boneFrames).toEqual(m.boneFrames);
  });
});

describe('a file that lies is refused at the byte that lies', () => {
  const real = bytes();
  const surf = json.header.ofs_surfaces as number;
  const set = (at: number, v: number, f = real.slice()) => (new DataView(f.buffer).setInt32(at, v, true), f);
  const setF = (at: number, v: number, f = real.slice()) => (new DataView(f.buffer).setFloat32(at, v, true), f);
  const i32 = (at: number) => new DataView(real.buffer).getInt32(at, true);
  const cases: [string, Uint8Array, ErrorCode, number][] = [
    ['a wrong ident', set(0, 0x33504449), ErrorCode.BadMagic, 0],
    ['another version', set(4, 3), ErrorCode.BadVersion, 4],
    ['an ofsEnd inside the header', set(116, 12), ErrorCode.BadOffset, 116],
    ['more bones than the renderer holds', set(84, 129), ErrorCode.BadCount, 84],
    ['frames running past the end', set(80, 5000), ErrorCode.BadCount, 80],
    ['no frames', set(80, 0), ErrorCode.BadCount, 80],
    ['a bone whose parent is no bone', set(json.header.ofs_bones + 64, 20), ErrorCode.IndexOutOfRange, json.header.ofs_bones + 64],
    ['bones whose parents loop', set(json.header.ofs_bones + 64, 1), ErrorCode.IndexOutOfRange, json.header.ofs_bones + 64],
    ['a parent distance that is NaN', setF(json.header.ofs_bones + 72, NaN), ErrorCode.BadNumber, json.header.ofs_bones + 72],
    ['surfaces starting outside the file', set(104, 1 << 30), ErrorCode.BadOffset, 104],
    ['a surface of more vertices than the renderer holds', set(surf + 144, 6001), ErrorCode.BadCount, surf + 144],
    ['vertices running past the end', set(surf + 148, real.length - surf - 100), ErrorCode.BadCount, surf + 144],
    ['a vertex whose weights run past the end', set(surf + i32(surf + 148) + 20, 1 << 20), ErrorCode.BadCount, surf + i32(surf + 148) + 20],
    ['a triangle naming no vertex', set(surf + i32(surf + 156), 3273), ErrorCode.IndexOutOfRange, surf + i32(surf + 156)],
    ['a collapse map pointing forwards', set(surf + i32(surf + 160) + 4, 7), ErrorCode.IndexOutOfRange, surf + i32(surf + 160) + 4],
    ['a bone reference naming no bone', set(surf + i32(surf + 168), -2), ErrorCode.IndexOutOfRange, surf + i32(surf + 168)],
    ['a weight naming no bone', set(surf + i32(surf + 148) + 32, 20), ErrorCode.IndexOutOfRange, surf + i32(surf + 148) + 32],
    ['a vertex without weights', set(surf + i32(surf + 148) + 20, 0), ErrorCode.BadCount, surf + i32(surf + 148) + 20],
    ['a tag on no bone', set(json.header.ofs_tags + 68, 99), ErrorCode.IndexOutOfRange, json.header.ofs_tags + 68],
    ['a file cut short', real.slice(0, 5000), ErrorCode.Truncated, 5000],
  ];
  for (const [what, file, code, offset] of cases) {
    it(what, () => {
      const e = refusal(() => parseMds(file));
      expect([e.code, e.offset]).toEqual([code, offset]);
    });
  }

  it('a surface whose ofsHeader is not the way back reads with a warning', () => {
    const m = parseMds(set(surf + 140, 0));
    expect(m.warnings.map((w) => [w.code, w.offset])).toEqual([['BAD_OFFSET', surf + 140]]);
  });
});
