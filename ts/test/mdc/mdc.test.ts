/**
 * RTCW/ET's MDC (formats/mdc) on the corpus' C1 and R1 groups: every file reads or fails typed; the counts, tag names
 * and frame tables are the file's; positions at the R1 JSON's two frames (0, stored whole; 76, compressed) match the
 * add-on's reading — frame 0 exactly, frame 76 within 1/128 unit (MD3's 1/64 grid, formats/mdc/to-md3.ts) — on both
 * pose backends; tags within 1e-5; spider.mdc's frame 0 is assimp's exactly. Streaming in any chunks, hostile files
 * typed with their byte, the decoded frames bounded by maxMdcFrameBytes. Then every door: glb (validator-clean, one
 * morph target a frame), OBJ, inspect, convert --all, openPlayable, IdTechLoader.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { MdcParser, mdcNormalTable, mdcToMd3, parseMdc, writeMdc } from '../../src/formats/mdc/index.js';
import { MDC_MAX_ERROR, nearestTableNormal } from '../../src/formats/mdc/write.js';
import { parseMd3 } from '../../src/formats/md3/parser.js';
import { assimpInfo, assimpField } from '../helpers/assimp.js';
import type { MdcModel } from '../../src/formats/mdc/model.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { expectClean, validate } from '../export/validate.js';
import { runChild } from '../helpers/child.js';
import { runCli, shared } from '../helpers/cli.js';
import { read } from '../helpers/models.js';
import { buildMdc, frameFlood, hugeSurfaces, longEnd } from '../../../fixtures/generate-mdc.mjs';

const SPIDER = shared('assimp/test/models/MDC/spider.mdc');
const INVALID = shared('assimp/test/models/MDC/invalid/InvalidFrameBaseOffset.mdc');
const LUGER = shared('etlegacy/etmain/models/weapons2/luger/v_luger_hand.mdc');
const GIBS = shared('etlegacy/etmain/models/gibs');
const TREM = shared('rtcw-made/mdc/tremulous_human_base_upper.mdc');
/** R1's source (README: the add-on wrote R1 from it). */
const UPPER_MD3 = shared('res-tremulous_src.dpkdir/models/tremulous/players/human_base/upper.md3');
const trem = () => JSON.parse(readFileSync(TREM.replace(/\.mdc$/, '.json'), 'utf8'));

/** The ModelParseError `f` throws. */
function thrown(f: () => unknown): ModelParseError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelParseError);
    return e as ModelParseError;
  }
  throw new Error('no error thrown');
}

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

describe('reading C1 and R1', () => {
  it('spider.mdc: 250 frames, 19 surfaces of 1 base frame and 249 compressed ones, no tags', () => {
    const m = parseMdc(read(SPIDER));
    expect([m.version, m.frameCount, m.surfaces.length, m.tagCount]).toEqual([2, 250, 19, 0]);
    for (const s of m.surfaces) expect([s.numBaseFrames, s.numCompFrames]).toEqual([1, 249]);
    expect(m.surfaces[0].frameCompFrames.slice(0, 3)).toEqual(Int16Array.of(-1, 0, 1));
    expect(m.surfaces.reduce((n, s) => n + s.vertexCount, 0)).toBe(922);
    expect(m.warnings).toEqual([]);
  });

  it("v_luger_hand.mdc: 78 frames, 7 tags, no surfaces", () => {
    const m = parseMdc(read(LUGER));
    expect([m.frameCount, m.surfaces.length]).toEqual([78, 0]);
    expect(m.tagNames).toEqual(['tag_flash', 'tag_weapon', 'tag_barrel3', 'tag_brass', 'tag_barrel', 'tag_barrel2', 'tag_barrel4']);
    // frame 0's tag_flash, as the file stores it (int16 × 1/64)
    expect([...m.tagXyz.subarray(0, 3)]).toEqual([2267, -486, -747]);
    expect([...mdcToMd3(m).tagOrigins.subarray(0, 3)]).toEqual([2267 / 64, -486 / 64, -747 / 64]);
  });

  it("ET: Legacy's gibs read: one frame, one surface stored whole", () => {
    for (const name of readdirSync(GIBS).filter((n) => n.endsWith('.mdc'))) {
      const m = parseMdc(read(join(GIBS, name)));
      expect([m.frameCount, m.surfaces.length, m.surfaces[0].numCompFrames], name).toEqual([1, 1, 0]);
    }
  });

  it('the R1 file has every header field and frame table of the add-on\'s reading', () => {
    const ref = trem();
    const m = parseMdc(read(TREM));
    const h = ref.header;
    expect([m.version, m.name, m.flags, m.frameCount, m.tagCount, m.surfaces.length, m.numSkins]).toEqual([h.version, h.name, h.flags, h.num_frames, h.num_tags, h.num_surfaces, h.num_skins]);
    expect(m.offsets).toEqual({ frames: h.ofs_frame_infos, tagNames: h.ofs_tag_infos, tags: h.ofs_tags, surfaces: h.ofs_surfaces, end: h.ofs_end });
    ref.surfaces.forEach((rs: { name: string; num_vertices: number; num_triangles: number; num_base_frames: number; num_comp_frames: number; base_frame_indices: number[]; comp_frame_indices: number[] }, i: number) => {
      const s = m.surfaces[i];
      expect([s.name, s.vertexCount, s.triangleCount, s.numBaseFrames, s.numCompFrames]).toEqual([rs.name, rs.num_vertices, rs.num_triangles, 59, 94]);
      expect([rs.num_base_frames, rs.num_comp_frames]).toEqual([59, 94]);
      expect([...s.frameBaseFrames]).toEqual(rs.base_frame_indices);
      expect([...s.frameCompFrames]).toEqual(rs.comp_frame_indices);
    });
    expect(m.surfaces[0].frameCompFrames[76]).toBeGreaterThanOrEqual(0); // frame 76 is a compressed one
  });

  it('assimp\'s InvalidFrameBaseOffset.mdc is refused typed, at the field that lies: its 8 base frames do not fit its surface', () => {
    const e = thrown(() => parseMdc(read(INVALID)));
    expect([e.code, e.offset]).toEqual([ErrorCode.BadCount, 168 + 76]);
  });
});

describe('frames decoded as the engine draws them', () => {
  it('positions at the R1 frames: frame 0 exactly, frame 76 (compressed) within 1/128; normals within 1.5°; both backends', () => {
    const ref = trem();
    const m = mdcToMd3(parseMdc(read(TREM)));
    for (const backend of backends) {
      const poser = new Md3Poser(backend, m);
      for (const [frame, tolerance] of [[0, 1e-6], [76, 1 / 128 + 1e-6]] as const) {
        poser.poseFrame(frame);
        let worst = 0, worstNormal = 0;
        ref.surfaces.forEach((rs: { vertices_model_space: Record<string, number[][]>; normals_model_space: Record<string, number[][]> }, si: number) => {
          const at = poser.surfaceVertexStart[si];
          rs.vertices_model_space[frame].forEach((v, i) => {
            for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(poser.positions[(at + i) * 3 + k] - v[k]));
          });
          rs.normals_model_space[frame].forEach((n, i) => {
            const p = poser.normals.subarray((at + i) * 3, (at + i) * 3 + 3);
            worstNormal = Math.max(worstNormal, Math.acos(Math.min(1, p[0] * n[0] + p[1] * n[1] + p[2] * n[2])));
          });
        });
        expect(worst, `frame ${frame} on ${backend.name}`).toBeLessThanOrEqual(tolerance);
        if (frame === 0) expect(worst).toBe(0);
        expect((worstNormal * 180) / Math.PI, `frame ${frame} normals`).toBeLessThan(1.5);
      }
      poser.dispose();
    }
  });

  it('tags at the R1 frames: origins exactly, axes within 1e-5 (the engine\'s AnglesToAxis of the stored angles)', () => {
    const ref = trem();
    const m = mdcToMd3(parseMdc(read(TREM)));
    expect(m.tagNames).toEqual(ref.tags.map((t: { name: string }) => t.name));
    for (const frame of [0, 76]) {
      ref.tags.forEach((t: { frames: Record<string, { location: number[]; orientation: number[][] }> }, k: number) => {
        const i = frame * m.tagCount + k;
        const r = t.frames[frame];
        expect([...m.tagOrigins.subarray(i * 3, i * 3 + 3)]).toEqual(r.location);
        // the JSON's matrix has the local axes as columns
        for (let a = 0; a < 3; a++) for (let c = 0; c < 3; c++) expect(Math.abs(m.tagAxes[i * 9 + a * 3 + c] - r.orientation[c][a])).toBeLessThan(1e-5);
      });
    }
  });

  it("spider.mdc's frame 0 is assimp's reading of it (every position, on the 1/64 grid)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idtech-mdc-'));
    const r = await runChild('assimp', ['export', SPIDER, join(dir, 'spider.obj')]);
    expect(r.status, r.stderr).toBe(0);
    const theirs = new Set(readFileSync(join(dir, 'spider.obj'), 'latin1').split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(/\s+/).slice(1, 4).map(Number).join(' ')));
    const m = mdcToMd3(parseMdc(read(SPIDER)));
    const ours = new Set<string>();
    for (const s of m.surfaces) {
      // frame 0; assimp's OBJ has y up: (x, z, −y)
      for (let i = 0; i < s.vertexCount; i++) ours.add([s.xyzNormals[i * 4] / 64, s.xyzNormals[i * 4 + 2] / 64, -s.xyzNormals[i * 4 + 1] / 64].map((x) => x + 0).join(' '));
    }
    expect(theirs.size).toBe(722);
    expect(ours).toEqual(theirs);
  });

  it('the normal table is the engine\'s sphere of rings: unit vectors, (1,0,0) first, entry 144 the first above the equator, 255 the last near the top', () => {
    const t = mdcNormalTable();
    expect(t.length).toBe(768);
    for (let i = 0; i < 256; i++) expect(Math.hypot(t[i * 3], t[i * 3 + 1], t[i * 3 + 2])).toBeCloseTo(1, 6);
    expect([...t.subarray(0, 3)]).toEqual([1, 0, 0]);
    expect(t[144 * 3 + 2]).toBeCloseTo(0.19509, 5);
    expect(t[143 * 3 + 2]).toBeCloseTo(-0.980785, 5);
    [0, -0.19509, 0.980785].forEach((x, k) => expect(t[255 * 3 + k]).toBeCloseTo(x, 6));
    expect([t[21 * 3], t[21 * 3 + 1]].map((x) => +x.toFixed(5))).toEqual([-0.55557, -0.83147]);
  });

  it('a compressed frame is its base frame plus (byte − 127) × 0.05 on each axis, with the table\'s normal', () => {
    const { bytes } = buildMdc({ frames: 3, verts: 3, baseFrames: [0, 640], compFrames: 1, frameBase: [0, 0, 1], frameComp: [-1, 0, -1] });
    const m = mdcToMd3(parseMdc(bytes));
    const s = m.surfaces[0];
    // frame 1 = base 0 + 0.05 on x: 3.2/64 rounds to 3/64
    expect([...s.xyzNormals.subarray(12, 15)]).toEqual([3, 0, 0]);
    expect([...s.xyzNormals.subarray(24, 27)]).toEqual([640, 0, 0]);
    // the table's normal 0 is (1, 0, 0): lat 0, lng 64 (a quarter turn from +z)
    expect(s.xyzNormals[15]).toBe(64);
  });
});

describe('streaming and hostile input', () => {
  it('any chunking parses to the same model', () => {
    const bytes = read(TREM);
    const whole = parseMdc(bytes);
    for (const size of [7, 113, 4096]) {
      const p = new MdcParser();
      for (let i = 0; i < bytes.length; i += size) p.write(bytes.subarray(i, i + size));
      const m = p.end() as MdcModel;
      expect(m.surfaces.map((s) => [s.baseXyzNormals, s.compressed, s.frameBaseFrames])).toEqual(whole.surfaces.map((s) => [s.baseXyzNormals, s.compressed, s.frameBaseFrames]));
      expect(m.tagAngles).toEqual(whole.tagAngles);
    }
  });

  it('every truncation is TRUNCATED at the bytes it kept; a wrong magic or version is refused on its first chunk', () => {
    const { bytes } = buildMdc({ frames: 2, verts: 3, baseFrames: [0], compFrames: 1, frameComp: [-1, 0], frameBase: [0, 0], tags: ['tag_a'] });
    expect(parseMdc(bytes).frameCount).toBe(2);
    for (let n = 8; n < bytes.length; n++) {
      const e = thrown(() => parseMdc(bytes.subarray(0, n)));
      expect([e.code, e.offset]).toEqual([ErrorCode.Truncated, n]);
    }
    const v2 = bytes.slice();
    v2[4] = 1;
    expect(thrown(() => parseMdc(v2.subarray(0, 8))).code).toBe(ErrorCode.BadVersion);
    expect(thrown(() => parseMdc(Uint8Array.of(0x49, 0x44, 0x50, 0x33))).code).toBe(ErrorCode.BadMagic);
  });

  it('frame tables pointing outside their blocks, lying counts and offsets: typed, at the field', () => {
    const base = () => buildMdc({ frames: 2, verts: 3, baseFrames: [0], compFrames: 1, frameBase: [0, 0], frameComp: [-1, 0] });
    const cases: [string, (b: ReturnType<typeof base>, v: DataView) => number, string][] = [
      ['a base frame past numBaseFrames', (b, v) => (v.setInt16(b.fields.frameBaseFrames + 2, 1, true), b.fields.frameBaseFrames + 2), ErrorCode.IndexOutOfRange],
      ['a negative base frame', (b, v) => (v.setInt16(b.fields.frameBaseFrames, -1, true), b.fields.frameBaseFrames), ErrorCode.IndexOutOfRange],
      ['a compressed frame past numCompFrames', (b, v) => (v.setInt16(b.fields.frameCompFrames + 2, 1, true), b.fields.frameCompFrames + 2), ErrorCode.IndexOutOfRange],
      ['compressed frames without a base (numBaseFrames 0)', (b, v) => (v.setInt32(b.surface + 76, 0, true), b.fields.frameBaseFrames), ErrorCode.IndexOutOfRange],
      ['numFrames 0 (R_LoadMDC: no frames)', (_b, v) => (v.setInt32(76, 0, true), 76), ErrorCode.BadCount],
      ['numVerts past SHADER_MAX_VERTEXES', (b, v) => (v.setInt32(b.surface + 84, 10001, true), b.surface + 84), ErrorCode.BadCount],
      ['numCompFrames larger than its surface', (b, v) => (v.setInt32(b.surface + 72, 1e6, true), b.surface + 72), ErrorCode.BadCount],
      ['the frame table before its surface', (b, v) => (v.setInt32(b.surface + 112, -8, true), b.surface + 112), ErrorCode.BadOffset],
      ['a surface ending past ofsEnd', (b, v) => (v.setInt32(b.surface + 120, 1e6, true), b.surface + 120), ErrorCode.BadOffset],
      ['more tags than the file holds', (_b, v) => (v.setInt32(80, 1e6, true), 80), ErrorCode.BadCount],
      ['tags placed past ofsEnd', (_b, v) => (v.setInt32(80, 1, true), v.setInt32(100, 1e6, true), 100), ErrorCode.BadOffset],
      ['a triangle naming vertex 3 of 3', (b, v) => (v.setInt32(b.surface + 124, 3, true), b.surface + 124), ErrorCode.IndexOutOfRange],
    ];
    for (const [what, mutate, code] of cases) {
      const b = base();
      const v = new DataView(b.bytes.buffer);
      const at = mutate(b, v);
      let e: ModelParseError | undefined;
      try {
        parseMdc(b.bytes);
      } catch (x) {
        e = x as ModelParseError;
      }
      expect(e, what).toBeInstanceOf(ModelParseError);
      expect([e!.code, e!.offset], what).toEqual([code, at]);
    }
    expect([thrown(() => parseMdc(hugeSurfaces())).code, thrown(() => parseMdc(hugeSurfaces())).offset]).toEqual([ErrorCode.BadCount, 84]);
    // a header claiming a 2 GB file, 300 bytes sent: what was kept, no more
    const long = new MdcParser();
    long.write(longEnd());
    let e: unknown;
    try {
      long.end();
    } catch (x) {
      e = x;
    }
    expect([(e as ModelParseError).code, (e as ModelParseError).offset]).toEqual([ErrorCode.Truncated, 300]);
    // a negative compressed entry is "stored whole", and a surface without compressed frames ignores the table (as the engine)
    const ok = base();
    new DataView(ok.bytes.buffer).setInt16(ok.fields.frameCompFrames, -5, true);
    expect(parseMdc(ok.bytes).surfaces[0].frameCompFrames[0]).toBe(-5);
  });

  it('frames that decode to more than maxMdcFrameBytes are refused before they are made, naming the limit', () => {
    // 10,000 vertices stored once, 20,000 frames of 4 bytes of table each: 0.9 MB that decodes to 1.6 GB
    const bytes = frameFlood(10000, 20000);
    expect(bytes.length).toBeLessThan(1.5e6);
    const m = parseMdc(bytes);
    const e = thrown(() => mdcToMd3(m));
    expect(e.code).toBe(ErrorCode.ResourceLimit);
    expect(e.message).toMatch(/maxMdcFrameBytes = 268435456 \(raise it with --limit maxMdcFrameBytes=N/);
    setResourceLimits({ maxMdcFrameBytes: 1000 });
    try {
      expect(thrown(() => mdcToMd3(parseMdc(read(TREM)))).code).toBe(ErrorCode.ResourceLimit);
    } finally {
      resetResourceLimits();
    }
    expect(mdcToMd3(parseMdc(read(TREM))).frameCount).toBe(153);
  });
});

describe('every door', () => {
  it('toGlb: validator-clean, every frame a morph target, the tags as nodes', async () => {
    const { toGlb } = await import('../../src/registry/export.js');
    const { mdcModel } = await import('../../src/formats/mdc/model-entry.js');
    const results: string[] = [];
    for (const path of [SPIDER, TREM, LUGER]) {
      const glb = await toGlb(parseMdc(read(path)), { format: mdcModel });
      expectClean(results, path, await validate(glb));
      const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
      const m = parseMdc(read(path));
      // frame 0 is the mesh itself, every other frame a target (as an MD3's: export/gltf-morph.ts)
      // (frame 0 itself a target too where the mesh is quantised): the last target is the last frame
      if (m.surfaces.length) expect(json.meshes[0].extras.targetNames.at(-1), path).toBe(`frame${m.frameCount - 1}`);
      for (const t of m.tagNames) expect(json.nodes.some((n: { name?: string }) => n.name === t), t).toBe(true);
    }
  });

  it('the CLI: inspect (header, surfaces with their base and compressed frames, tags), convert to .glb and .obj, --all over a folder', async () => {
    const r = await runCli('inspect', TREM);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^format\s+mdc$/m);
    expect(r.stdout).toMatch(/^surface 0\s+"u_shoulderpads_base": 64 vertices, 52 triangles, shader "", 59 base \+ 94 compressed frames$/m);
    expect(r.stdout).toMatch(/0 tag_head at -6\.0313 0\.4375 12\.5 angles -1\.8606 40\.2495 -11\.2073/);
    const dir = mkdtempSync(join(tmpdir(), 'idtech-mdc-cli-'));
    const glb = await runCli('convert', TREM, '-o', join(dir, 'upper.glb'));
    expect(glb.status, glb.stderr).toBe(0);
    expect(glb.stdout + glb.stderr).toMatch(/4 meshes, 455 vertices/);
    const obj = await runCli('convert', TREM, '--frame', '76', '-o', join(dir, 'upper.obj'));
    expect(obj.status, obj.stderr).toBe(0);
    expect(readFileSync(join(dir, 'upper.obj'), 'latin1').split('\n').filter((l) => l.startsWith('v ')).length).toBe(455);
    const all = await runCli('convert', GIBS.replace(/\/gibs$/, ''), '--all', '-o', join(dir, 'all'), '--json');
    expect(all.status, all.stderr).toBe(0);
    const j = JSON.parse(all.stdout);
    expect(j.models.map((m: { path: string }) => m.path).sort()).toEqual(['gibs/abdomen.mdc', 'gibs/foot.mdc', 'gibs/forearm.mdc', 'gibs/intestine.mdc', 'gibs/leg.mdc', 'gibs/skull.mdc', 'weapons2/luger/v_luger_hand.mdc']);
    expect(j.failed).toBe(0);
    writeFileSync(join(dir, 'bad.mdc'), read(INVALID));
    const bad = await runCli('inspect', join(dir, 'bad.mdc'));
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toMatch(/bad\.mdc:byte 244: BAD_COUNT: surface 0 numBaseFrames 8/);
  });

  it('openPlayable plays all its frames, both backends alike; IdTechLoader draws it as a morph mesh with its tags', async () => {
    const { openPlayable } = await import('../../src/registry/open-playable.js');
    const playable = await openPlayable([{ name: 'upper.mdc', source: read(TREM) }]);
    expect(playable.format).toBe('mdc');
    expect(playable.clips.map((c) => c.frameCount)).toEqual([153]);
    expect(playable.parts.length).toBe(4);
    const [a, b] = backends.map((be) => playable.createPlayer(be));
    a.poseBlend(75, 76, 0.5);
    b.poseBlend(75, 76, 0.5);
    for (let k = 0; k < a.positions.length; k++) expect(Math.abs(a.positions[k] - b.positions[k])).toBeLessThan(1e-4);
    a.dispose();
    b.dispose();
    const { IdTechLoader } = await import('../../src/three/loader.js');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const three = await new IdTechLoader().setFileSystem(memoryFileSystem([{ path: 'upper.mdc', bytes: read(TREM) }])).loadAsync('upper.mdc');
    expect(three.format).toBe('mdc');
    const names: string[] = [];
    three.scene.traverse((o) => names.push(o.name));
    expect(names).toEqual(expect.arrayContaining(['tag_head', 'tag_weapon', 'tag_torso']));
  });
});

describe('the writer: MD3 → MDC by the engine\'s encoder rules', () => {
  it("upper.md3 written as MDC: R1's base frames and compressed offsets exactly, every vertex within MDC_MAX_ERROR, read back by assimp", async () => {
    const md3 = parseMd3(read(UPPER_MD3));
    const bytes = writeMdc(md3);
    const ours = parseMdc(bytes), theirs = parseMdc(read(TREM));
    expect(bytes.length).toBe(read(TREM).length);
    ours.surfaces.forEach((s, i) => {
      const t = theirs.surfaces[i];
      expect([s.numBaseFrames, s.numCompFrames]).toEqual([59, 94]);
      expect(s.frameBaseFrames).toEqual(t.frameBaseFrames);
      expect(s.frameCompFrames).toEqual(t.frameCompFrames);
      // base frames: the MD3's positions as the add-on's (its packed normals are its own re-encoding, the writer copies the MD3's)
      expect(s.baseXyzNormals.filter((_, k) => k % 4 !== 3)).toEqual(t.baseXyzNormals.filter((_, k) => k % 4 !== 3));
      // the offsets are the add-on's; the normal's table entry is the engine's choice (R_MDC_GetAnorm), not always the add-on's
      expect(s.compressed.map((w) => w & 0xffffff)).toEqual(t.compressed.map((w) => w & 0xffffff));
    });
    expect(ours.tagAngles).toEqual(theirs.tagAngles);
    // positions back within MDC_MAX_ERROR of the MD3's, plus the 1/128 of MD3's grid (to-md3.ts)
    const back = mdcToMd3(ours);
    let worst = 0;
    md3.surfaces.forEach((s, i) => {
      for (let k = 0; k < s.xyzNormals.length; k++) if (k % 4 !== 3) worst = Math.max(worst, Math.abs(s.xyzNormals[k] - back.surfaces[i].xyzNormals[k]) / 64);
    });
    expect(worst).toBeLessThanOrEqual(MDC_MAX_ERROR + 1 / 128);
    const dir = mkdtempSync(join(tmpdir(), 'idtech-mdc-w-'));
    writeFileSync(join(dir, 'upper.mdc'), bytes);
    const info = await assimpInfo(join(dir, 'upper.mdc'));
    expect([assimpField(info, 'Meshes'), assimpField(info, 'Faces')]).toEqual(['4', '529']);
  });

  it('every table normal is its own nearest (the encoder inverts the table)', () => {
    const t = mdcNormalTable();
    for (let i = 0; i < 256; i++) expect(nearestTableNormal(t[i * 3], t[i * 3 + 1], t[i * 3 + 2]), `entry ${i}`).toBe(i);
  });
});
