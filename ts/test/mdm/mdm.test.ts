/**
 * ET's MDM + MDX on the corpus' R3 pair (written by an independent tool: the README's rtcw-made group): both read as
 * the tool's own JSON says (headers, bones, raw frames, surfaces, tags with their offsets and axes); the pair posed
 * as ET's renderer poses it (R_CalcBones over the MDX, the weights skinned by the kernels) lies within the angle
 * decoding's tolerance of the JSON's positions at frame 0 and frame 24 on both backends, its tags where
 * R_MDM_GetBoneTag puts them (M · offset + t); a pair that does not fit, or a file that lies, is refused typed; the
 * doors (CLI, glTF, openPlayable) open the mesh with the skeleton beside it, and an MDX alone names its mesh.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { parseMdm, parseMdx } from '../../src/formats/mdm/parser.js';
import { pairDrawable, pairMismatch } from '../../src/formats/mdm/pairing.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { MATRIX_STRIDE } from '../../src/kernels/layout.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { wolfPoser } from '../../src/pose/wolf-bind.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { gltfPositions, readGlb, yUp } from '../export/gltf-eval.js';
import { expectClean, validate } from '../export/validate.js';
import { runCli } from '../helpers/cli.js';
import { failure, refusal } from '../helpers/failure.js';
import { SHARED_MODELS } from '../helpers/models.js';

const DIR = join(SHARED_MODELS, 'rtcw-made/mdmmdx');
const mdmBytes = () => new Uint8Array(readFileSync(join(DIR, 'cesiumman.mdm')));
const mdxBytes = () => new Uint8Array(readFileSync(join(DIR, 'cesiumman.mdx')));
const json = JSON.parse(readFileSync(join(DIR, 'cesiumman.json'), 'utf8'));
const mdm = parseMdm(mdmBytes());
const mdx = parseMdx(mdxBytes());
const TOLERANCE = 3.5e-4;

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

describe('cesiumman.mdm + .mdx as the tool that wrote them reads them', () => {
  it('has every header field of both', () => {
    const h = json.mdm_header, x = json.mdx_header;
    expect({ name: mdm.name, version: mdm.version, surfaces: mdm.surfaces.length, tags: mdm.tags.length, offsets: mdm.offsets }).toEqual({ name: h.name, version: h.version, surfaces: h.num_surfaces, tags: h.num_tags, offsets: { surfaces: h.ofs_surfaces, tags: h.ofs_tags, end: h.ofs_end } });
    expect(mdm.lodScale).toBeCloseTo(h.lod_scale, 6);
    expect({ name: mdx.name, version: mdx.version, frames: mdx.frames.length, bones: mdx.bones.length, torso: mdx.torsoParent, offsets: mdx.offsets }).toEqual({ name: x.name, version: x.version, frames: x.num_frames, bones: x.num_bones, torso: x.torso_parent, offsets: { frames: x.ofs_frames, bones: x.ofs_bones, end: x.ofs_end } });
    expect([mdm.warnings, mdx.warnings]).toEqual([[], []]);
  });

  it('has the skeleton\'s bones and raw frames, the mesh\'s surface and tags', () => {
    expect(mdx.bones.map((b) => [b.name, b.parent, b.flags])).toEqual(json.bones.map((b: any) => [b.name, b.parent, b.flags]));
    for (const f of json.sampled_frames as number[]) expect(Array.from(mdx.boneFrames.subarray(f * 19 * 6, (f + 1) * 19 * 6))).toEqual((json.bone_frames_raw[String(f)] as number[][]).flat());
    const s = mdm.surfaces[0], ref = json.surfaces[0];
    expect([s.name, s.shader, s.ident, s.minLod, s.vertexCount, s.triangles.length / 3, s.weightStart[s.vertexCount]]).toEqual([ref.name, ref.shader, 9, ref.min_lod, ref.num_vertices, ref.num_triangles, ref.total_weights]);
    expect(Array.from(s.boneRefs)).toEqual(ref.bone_refs);
    mdm.tags.forEach((t, i) => {
      const r = json.tags[i];
      expect([t.name, t.boneIndex, Array.from(t.boneRefs)]).toEqual([r.name, r.parent_bone, r.bone_refs]);
      r.offset_as_stored.forEach((x: number, k: number) => expect(t.offset[k]).toBeCloseTo(x, 5));
      r.axis_as_stored.forEach((x: number, k: number) => expect(t.axis[k]).toBeCloseTo(x, 5));
    });
    expect(mdm.bonesNamed).toBe(19);
    expect(pairMismatch(mdm, mdx)).toBeNull();
  });
});

describe('the pair posed as ET draws it', () => {
  it('is within the stated tolerance of the JSON at frame 0 and 24 on both backends, tags included', () => {
    for (const backend of backends) {
      const p = wolfPoser(backend, pairDrawable(mdm, mdx));
      for (const f of json.sampled_frames as number[]) {
        p.pose({ frame: f });
        const ref = json.surfaces[0].vertices_model_space[String(f)] as number[][];
        let max = 0;
        ref.forEach((v, i) => v.forEach((x, k) => (max = Math.max(max, Math.abs(x - p.positions[i * 3 + k])))));
        expect(max, `${backend.name} frame ${f}`).toBeLessThan(TOLERANCE);
        for (const [i, tag] of mdm.tags.entries()) {
          const m = tag.boneIndex * MATRIX_STRIDE, b = p.bones;
          const o = tag.offset;
          const at = [0, 1, 2].map((r) => b[m + 4 * r] * o[0] + b[m + 4 * r + 1] * o[1] + b[m + 4 * r + 2] * o[2] + b[m + 4 * r + 3]);
          (json.tags[i].frames[String(f)].location as number[]).forEach((x, k) => expect(Math.abs(at[k] - x), `${tag.name} frame ${f}`).toBeLessThan(TOLERANCE));
        }
      }
      p.dispose();
    }
  });

  it('refuses a skeleton too small for the mesh, and files that lie, at the byte that lies', () => {
    const fewer = mdxBytes();
    new DataView(fewer.buffer).setInt32(76, 10, true);
    expect(pairMismatch(mdm, parseMdx(fewer))).toMatch(/names bone 18; the skeleton has 10/);
    const set = (bytes: Uint8Array, at: number, v: number) => (new DataView(bytes.buffer).setInt32(at, v, true), bytes);
    const cases: [() => unknown, ErrorCode, number][] = [
      [() => parseMdm(set(mdmBytes(), 0, 0x57534d44)), ErrorCode.BadMagic, 0],
      [() => parseMdx(set(mdxBytes(), 4, 1)), ErrorCode.BadVersion, 4],
      [() => parseMdx(set(mdxBytes(), 76, 129)), ErrorCode.BadCount, 76],
      [() => parseMdx(set(mdxBytes(), 72, 0)), ErrorCode.BadCount, 72],
      [() => parseMdx(set(mdxBytes(), 13536 + 64, 3)), ErrorCode.IndexOutOfRange, 13536 + 64],
      [() => parseMdm(set(mdmBytes(), 100 + 144, 6001)), ErrorCode.BadCount, 244],
      [() => parseMdm(set(mdmBytes(), 84, 400000)), ErrorCode.BadOffset, 84],
      [() => parseMdm(set(mdmBytes(), json.mdm_header.ofs_tags + 100, 128)), ErrorCode.IndexOutOfRange, json.mdm_header.ofs_tags + 100],
      [() => parseMdm(mdmBytes().slice(0, 999)), ErrorCode.Truncated, 999],
    ];
    for (const [f, code, offset] of cases) {
      const e = refusal(f);
      expect([e.code, e.offset]).toEqual([code, offset]);
    }
  });
});

describe('the doors', () => {
  it('inspect, and convert to .glb and .obj, open the mesh with the skeleton beside it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mdm-'));
    const mesh = join(DIR, 'cesiumman.mdm');
    const inspect = await runCli('inspect', join(DIR, 'cesiumman.mdx'), '--json');
    expect(inspect.status, inspect.stderr).toBe(0);
    const glb = await runCli('convert', mesh, '-o', join(out, 'c.glb'));
    expect(glb.status, glb.stderr).toBe(0);
    expect(glb.stdout + glb.stderr).toMatch(/3273 vertices, 1 clip/);
    const obj = await runCli('convert', mesh, '--frame', '24', '-o', join(out, 'c.obj'));
    expect(obj.status, obj.stderr).toBe(0);
    const v = readFileSync(join(out, 'c.obj'), 'utf8').split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    const ref = json.surfaces[0].vertices_model_space['24'] as number[][];
    let max = 0;
    ref.forEach((p, i) => p.forEach((x, k) => (max = Math.max(max, Math.abs(x - v[i][k])))));
    expect(max).toBeLessThan(TOLERANCE);
  });

  it('the glTF of the pair is validator-clean and skins to the engine\'s frame 24', async () => {
    const { toGlb } = await import('../../src/registry/export.js');
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const fs = memoryFileSystem([{ path: 'm/cesiumman.mdm', bytes: mdmBytes() }, { path: 'm/cesiumman.mdx', bytes: mdxBytes() }]);
    const set = await openModelSet(fs, 'm/cesiumman.mdm', { formats: DEFAULT_FORMATS });
    expect(set.companions.map((c) => c.path)).toEqual(['m/cesiumman.mdx']);
    const glb = await toGlb(set, { name: 'cesiumman', warnings: [] });
    expectClean([], 'cesiumman.glb', await validate(glb));
    const p = wolfPoser(backends[1], pairDrawable(mdm, mdx));
    const want = yUp(p.pose({ frame: 24 }).positions);
    const got = gltfPositions(readGlb(glb), 0, 24 / 20);
    let max = 0;
    for (let i = 0; i < want.length; i++) max = Math.max(max, Math.abs(got[i] - want[i]));
    expect(max).toBeLessThan(1e-4);
    p.dispose();
    // the mesh alone cannot be drawn, and an MDX alone names the mesh beside it
    const alone = memoryFileSystem([{ path: 'cesiumman.mdm', bytes: mdmBytes() }]);
    const lone = await openModelSet(alone, 'cesiumman.mdm', { formats: DEFAULT_FORMATS });
    expect((await failure(toGlb(lone, { name: 'x', warnings: [] }))).code).toBe(ErrorCode.MissingBlock);
    const { mdxFormat } = await import('../../src/formats/mdm/format.js');
    expect(await mdxFormat.playedBy!(fs, 'm/cesiumman.mdx')).toEqual(['m/cesiumman.mdm']);
    const e = await failure(openModelSet(fs, 'm/cesiumman.mdx', { formats: DEFAULT_FORMATS }));
    expect(e.code).toBe(ErrorCode.UnknownFormat);
    expect(e.message).toContain('Enemy Territory skeleton (MDX) plays on Enemy Territory skeletal mesh (MDM): open them together (it plays on m/cesiumman.mdm)');
  });

  it('openPlayable plays the dropped pair on both backends alike', async () => {
    const { openPlayable } = await import('../../src/registry/open-playable.js');
    const playable = await openPlayable([{ name: 'cesiumman.mdm', source: mdmBytes() }, { name: 'cesiumman.mdx', source: mdxBytes() }]);
    expect(playable.format).toBe('mdm');
    expect(playable.clips.map((c) => [c.name, c.frameCount])).toEqual([['frames', 48]]);
    const [a, b] = backends.map((be) => playable.createPlayer(be));
    a.poseBlend(7, 8, 0.5);
    b.poseBlend(7, 8, 0.5);
    let max = 0;
    for (let k = 0; k < a.positions.length; k++) max = Math.max(max, Math.abs(a.positions[k] - b.positions[k]));
    expect(max).toBeLessThan(1e-5);
    a.dispose();
    b.dispose();
  });
});
