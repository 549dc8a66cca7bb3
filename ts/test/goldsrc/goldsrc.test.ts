/**
 * Half-Life studio models (formats/goldsrc) on the corpus' H1 group (assimp's 34 test models): every file reads, its
 * tables have the counts its header says; every frame of every sequence poses, on WASM and TS, as an independent
 * decoder written from the engine's rules does (ts/test/reference/goldsrc.ts); the bind pose's box is assimp's;
 * the texture and sequence group files are found beside the model as the engine finds them; the glTF export is
 * validator-clean with one animation per sequence.
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { parseGoldsrc } from '../../src/formats/goldsrc/parser.js';
import { goldsrcDraw } from '../../src/formats/goldsrc/geometry.js';
import { GoldsrcPoser } from '../../src/formats/goldsrc/poser.js';
import { sequenceSources } from '../../src/formats/goldsrc/anim.js';
import type { GoldsrcModel } from '../../src/formats/goldsrc/model.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { validate, expectClean } from '../export/validate.js';
import { assimpInfo } from '../helpers/assimp.js';
import { goldsrcMdl, magicOf } from '../helpers/corpus-kinds.js';
import { manifest, read, type ManifestRow } from '../helpers/models.js';
import { readRef, refBoneMatrices, transform } from '../reference/goldsrc.js';

const rows = manifest().filter(goldsrcMdl);
const studio = rows.filter((r) => magicOf(r) === 'IDST');
const byName = (name: string) => rows.find((r) => r.path.endsWith(`/${name}`))!;
/** Models with bones and body parts (not the texture file). */
const models = () => studio.filter((r) => parseGoldsrc(read(r.absPath)).bones.length > 0);

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

describe('reading the H1 group', () => {
  it('holds the studio models, a texture file and sequence group files', () => {
    expect(studio.length).toBeGreaterThanOrEqual(14);
    expect(rows.filter((r) => magicOf(r) === 'IDSQ').length).toBeGreaterThanOrEqual(19);
  });

  it("every file reads, and every table has the count its header (and the MANIFEST's notes) says", () => {
    for (const r of rows) {
      const bytes = read(r.absPath);
      const m = parseGoldsrc(bytes);
      const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const i = (at: number) => v.getInt32(at, true);
      expect(m.length, r.path).toBe(bytes.length);
      if (magicOf(r) === 'IDSQ') {
        expect(m.kind, r.path).toBe('seqgroup');
        continue;
      }
      const got = { bones: m.bones.length, controllers: m.controllers.length, hitboxes: m.hitboxes.length, seq: m.sequences.length, seqgroups: m.seqGroups.length, textures: m.textures.length, skinfamilies: m.skinFamilies.length, bodyparts: m.bodyParts.length, attachments: m.attachments.length };
      expect(got, r.path).toEqual({ bones: i(140), controllers: i(148), hitboxes: i(156), seq: i(164), seqgroups: i(172), textures: i(180), skinfamilies: i(196), bodyparts: i(204), attachments: i(212) });
      for (const [k, n] of Object.entries(got)) {
        const note = new RegExp(`\\b${k}=(\\d+)`).exec(r.notes);
        if (note) expect(n, `${r.path} ${k}`).toBe(Number(note[1]));
      }
      // every mesh's strips and fans unroll to the triangles it declares
      for (const p of m.bodyParts) for (const sub of p.models) for (const mesh of sub.meshes) expect(mesh.corners.length / 12, r.path).toBe(mesh.declaredTriangles);
    }
  });

  it("man.mdl's sequences, controllers and attachments are the file's", () => {
    const m = parseGoldsrc(read(byName('man.mdl').absPath));
    expect(m.sequences.map((s) => [s.label, s.frameCount, s.fps, s.blendCount])).toEqual([['reference', 2, 30, 1], ['walk', 26, 30, 1], ['arms_up', 2, 25, 4]]);
    expect(m.sequences[1].events.map((e) => [e.frame, e.event, e.options])).toEqual([[0, 1004, 'common/npc_step1.wav'], [13, 1004, 'common/npc_step3.wav']]);
    expect(m.controllers.map((c) => [c.bone, c.start, c.end, c.index])).toEqual([[7, -60, 60, 0], [7, -45, 45, 1], [7, 0, 5, 2]]);
    expect(m.textures).toEqual([]);
    const t = parseGoldsrc(read(byName('manT.mdl').absPath));
    expect(t.textures.map((x) => `${x.name} ${x.width}x${x.height}`)).toEqual(['Material2.bmp 28x32', 'Material3.bmp 28x32', 'Material1.bmp 32x32', 'UpperBody_Yellow.bmp 28x32', 'LowerBody_Purple.bmp 28x32']);
    expect(t.skinFamilies.length).toBe(2);
  });
});

/** Largest distance between the poser's vertices and the reference's, and the reference's box diagonal. */
function compare(model: GoldsrcModel, bytes: Uint8Array, groupBytes: Uint8Array | null, s: number | null, frame: number, positions: Float32Array): { err: number; diag: number } {
  const ref = readRef(bytes);
  const mats = refBoneMatrices(ref, s !== null && ref.sequences[s].group > 0 ? groupBytes! : bytes, s, frame);
  const draw = goldsrcDraw(model);
  let err = 0;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < draw.vertexCount; v++) {
    const w = draw.positionWeights;
    const p = transform(mats[draw.vertexBones[v]], [w[v * 4], w[v * 4 + 1], w[v * 4 + 2]]);
    for (let k = 0; k < 3; k++) {
      err = Math.max(err, Math.abs(p[k] - positions[v * 3 + k]));
      lo[k] = Math.min(lo[k], p[k]);
      hi[k] = Math.max(hi[k], p[k]);
    }
  }
  return { err, diag: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) };
}

describe('posing', () => {
  it('every frame of every sequence, on WASM and TS, is the reference decoder\'s pose (≤ 1e-4 of the box diagonal)', () => {
    let checked = 0;
    for (const r of models()) {
      const bytes = read(r.absPath);
      const m = parseGoldsrc(bytes);
      for (const backend of backends) {
        const poser = new GoldsrcPoser(backend, m, goldsrcDraw(m));
        try {
          const rest = compare(m, bytes, null, null, 0, poser.bindPose().positions);
          expect(rest.err, `${r.path} at rest`).toBeLessThanOrEqual(1e-4 * Math.max(1, rest.diag));
          const { sources } = sequenceSources(m, new Map(), r.path);
          sources.forEach((s, i) => {
            if (!s) return;
            for (let f = 0; f < s.sequence.frameCount; f++) {
              const got = compare(m, bytes, null, i, f, poser.poseSequence(s, f).positions);
              expect(got.err, `${r.path} ${backend.name} sequence ${s.sequence.label} frame ${f}`).toBeLessThanOrEqual(1e-4 * Math.max(1, got.diag));
              checked++;
            }
          });
        } finally {
          poser.dispose();
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('WASM and TS agree on every frame of man.mdl\'s walk, and between frames (t = 0.5)', () => {
    const m = parseGoldsrc(read(byName('man.mdl').absPath));
    const walk = sequenceSources(m, new Map(), 'man.mdl').sources[1]!;
    const [a, b] = backends.map((be) => new GoldsrcPoser(be, m, goldsrcDraw(m)));
    try {
      for (let f = 0; f < walk.sequence.frameCount; f++) {
        for (const t of [0, 0.5]) {
          const pa = a.poseSequence(walk, f, t).positions, pb = b.poseSequence(walk, f, t).positions;
          for (let k = 0; k < pa.length; k++) expect(Math.abs(pa[k] - pb[k])).toBeLessThan(1e-4);
        }
      }
      // halfway between two frames lies between them (not on either)
      const p0 = Float32Array.from(b.poseSequence(walk, 3).positions), p1 = Float32Array.from(b.poseSequence(walk, 4).positions), ph = b.poseSequence(walk, 3, 0.5).positions;
      const moved = p0.findIndex((x, k) => Math.abs(x - p1[k]) > 0.01);
      expect(moved).toBeGreaterThanOrEqual(0);
      expect(Math.abs(ph[moved] - p0[moved])).toBeGreaterThan(0);
      expect(Math.abs(ph[moved] - p1[moved])).toBeGreaterThan(0);
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it("the bind pose's box over every submodel is assimp's (its axes: ours (x, y, z) are its (−y, z, −x))", async () => {
    for (const name of ['man.mdl', 'multiple_roots.mdl', 'unnamed_bones.mdl', 'chrome_sphere.mdl']) {
      const r = byName(name);
      const m = parseGoldsrc(read(r.absPath));
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      const bodies = Math.max(1, ...m.bodyParts.map((p) => p.models.length * Math.max(1, p.base)));
      for (let body = 0; body < bodies; body++) {
        const poser = new GoldsrcPoser(backends[1], m, goldsrcDraw(m, body));
        const p = poser.bindPose().positions;
        for (let v = 0; v < p.length; v += 3) {
          const q = [-p[v + 1], p[v + 2], -p[v]];
          for (let k = 0; k < 3; k++) {
            lo[k] = Math.min(lo[k], q[k]);
            hi[k] = Math.max(hi[k], q[k]);
          }
        }
        poser.dispose();
      }
      const info = await assimpInfo(r.absPath);
      const point = (label: string) => /\(([^)]*)\)/.exec(new RegExp(`^${label}\\s+\\([^)]*\\)`, 'm').exec(info)![0])![1].split(/\s+/).map(Number);
      const diag = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
      const [amin, amax] = [point('Minimum point'), point('Maximum point')];
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(lo[k] - amin[k]), `${name} min ${k}`).toBeLessThanOrEqual(1e-4 * diag + 1e-5);
        expect(Math.abs(hi[k] - amax[k]), `${name} max ${k}`).toBeLessThanOrEqual(1e-4 * diag + 1e-5);
      }
    }
  });
});

/** The model's folder as a memory file system (file names as given by `rename`). */
function folderFs(row: ManifestRow, rename: (name: string) => string | null = (n) => n) {
  const folder = dirname(row.absPath);
  const files = rows.filter((r) => dirname(r.absPath) === folder).flatMap((r) => {
    const name = rename(r.path.split('/').pop()!);
    return name ? [{ path: name, bytes: read(r.absPath) }] : [];
  });
  return memoryFileSystem(files);
}

describe('what the engine reads beside a model', () => {
  it('man.mdl reads its textures from manT.mdl, found whatever the case of its name (mant.mdl)', async () => {
    const set = await openModelSet(folderFs(byName('man.mdl'), (n) => n.toLowerCase()), 'man.mdl', { formats: DEFAULT_FORMATS });
    expect(set.format).toBe('hl1mdl');
    expect(set.companions.map((c) => c.path)).toEqual(['mant.mdl', 'man01.mdl']); // its group 1 too (no sequence plays from it)
    expect((set.companions[0].data as GoldsrcModel).textures.length).toBe(5);
  });

  it("a model's sequence group files are read (every sequence plays); one missing is a warning naming it, its sequence not played", async () => {
    const row = byName('duplicate_sequence_groups.mdl');
    const set = await openModelSet(folderFs(row), 'duplicate_sequence_groups.mdl', { formats: DEFAULT_FORMATS });
    expect(set.companions.length).toBe(9);
    const poser = new GoldsrcPoser(backends[1], set.data as GoldsrcModel, goldsrcDraw(set.data as GoldsrcModel));
    const { goldsrcParts } = await import('../../src/formats/goldsrc/companions.js');
    const parts = goldsrcParts(set.data as GoldsrcModel, set.companions, set.path);
    expect([...parts.groups.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const { sources, missing } = sequenceSources(set.data as GoldsrcModel, parts.groups, set.path);
    expect(missing).toEqual([]);
    const bytes = read(row.absPath);
    sources.forEach((s, i) => {
      const got = compare(set.data as GoldsrcModel, bytes, parts.groups.get(s!.sequence.seqGroup)!.bytes, i, 0, poser.poseSequence(s!, 0).positions);
      expect(got.err, s!.sequence.label).toBeLessThanOrEqual(1e-4 * Math.max(1, got.diag));
    });
    poser.dispose();
    const without = await openModelSet(folderFs(row, (n) => (n.endsWith('03.mdl') ? null : n)), 'duplicate_sequence_groups.mdl', { formats: DEFAULT_FORMATS });
    expect(without.companions.length).toBe(8);
    const warned = without.warnings.flatMap((w) => w.warnings);
    expect(warned.map((w) => w.code)).toContain('MISSING_FILE');
    expect(warned.find((w) => w.code === 'MISSING_FILE')!.message).toMatch(/duplicate_sequence_groups03\.mdl/);
  });

  it('a texture file or a group file alone is no model: refused by name, never read as Quake\'s MDL', async () => {
    for (const name of ['manT.mdl', 'man01.mdl']) {
      const e = await openModelSet(folderFs(byName('man.mdl')), name, { formats: DEFAULT_FORMATS }).then(() => null, (x: unknown) => x);
      expect(e, name).toBeInstanceOf(ModelParseError);
      expect((e as ModelParseError).code).toBe(ErrorCode.UnknownFormat);
    }
  });
});

describe('glTF', () => {
  it('every studio model exports validator-clean, skinned, one animation per blend of each sequence that plays', async () => {
    const { buildGltf } = await import('../../src/registry/gltf.js');
    const { entryFor } = await import('../../src/registry/formats.js');
    const results: string[] = [];
    for (const r of models()) {
      const set = await openModelSet(folderFs(r), r.path.split('/').pop()!, { formats: DEFAULT_FORMATS });
      const entry = entryFor('hl1mdl')!;
      const options = entry.gltfOptions!(set, { name: 'model' });
      const { builder } = await buildGltf(set.data as never, options);
      const json = builder.json as { animations?: unknown[]; skins?: unknown[]; images?: unknown[] };
      const model = set.data as GoldsrcModel;
      expect(json.animations?.length ?? 0, r.path).toBe(model.sequences.filter((s) => s.frameCount > 0 && s.blendCount > 0).reduce((n, s) => n + s.blendCount, 0));
      expect(json.skins?.length, r.path).toBe(1);
      expect(json.images?.length ?? 0, r.path).toBeGreaterThan(0);
      expectClean(results, r.path, await validate(builder.glb()));
    }
  });
});

describe('hostile files (built from man.mdl in the test)', () => {
  const base = () => Uint8Array.from(read(byName('man.mdl').absPath));
  const poke = (b: Uint8Array, at: number, value: number) => new DataView(b.buffer).setInt32(at, value, true);
  const refused = (b: Uint8Array) => {
    try {
      parseGoldsrc(b);
    } catch (e) {
      expect(e).toBeInstanceOf(ModelParseError);
      return e as ModelParseError;
    }
    throw new Error('read');
  };

  it('a count that lies is refused at its header field before anything is allocated', () => {
    for (const [at, what] of [[140, 'bones'], [164, 'sequences'], [204, 'body parts'], [180, 'textures'], [156, 'hitboxes']] as const) {
      const b = base();
      poke(b, at, 0x7fffffff);
      const e = refused(b);
      expect([e.code, e.offset], what).toEqual([ErrorCode.BadCount, at]);
    }
  });
  it('an offset outside the file, a cut file, a wrong ident and a length that lies are typed errors', () => {
    const b = base();
    poke(b, 144, -5);
    expect(refused(b).code).toBe(ErrorCode.BadOffset);
    const cut = base().slice(0, 5000);
    expect(refused(cut).code).toBe(ErrorCode.Truncated);
    const id = base();
    id[3] = 0x58;
    expect(refused(id).code).toBe(ErrorCode.BadMagic);
    const long = base();
    poke(long, 72, 100);
    expect(refused(long).code).toBe(ErrorCode.BadOffset);
  });
  it("a sequence whose animation records run past the file is BAD_OFFSET at its animindex", () => {
    const b = base();
    const seqAt = new DataView(b.buffer).getInt32(168, true) + 176; // sequence 1
    poke(b, seqAt + 124, b.length - 4);
    const e = refused(b);
    expect([e.code, e.offset]).toEqual([ErrorCode.BadOffset, seqAt + 124]);
  });
  it('a bone whose parent comes after it, and a corner naming a vertex past its submodel, are INDEX_OUT_OF_RANGE', () => {
    const b = base();
    const v = new DataView(b.buffer);
    poke(b, v.getInt32(144, true) + 32, 5); // bone 0's parent
    expect(refused(b).code).toBe(ErrorCode.IndexOutOfRange);
  });
  it('an animation stream that runs past the file is BAD_OFFSET when the frame is posed, never a read past the bytes', () => {
    const b = base();
    const m = parseGoldsrc(b);
    const walk = m.sequences[1];
    // bone 0's first channel offset points to the file's last byte
    const rec = walk.animOffset;
    const off = b.length - 1 - rec;
    new DataView(b.buffer).setUint16(rec, off, true);
    const hostile = parseGoldsrc(b);
    const s = sequenceSources(hostile, new Map(), 'x.mdl').sources[1]!;
    const poser = new GoldsrcPoser(backends[1], hostile, goldsrcDraw(hostile));
    try {
      expect(() => poser.poseSequence(s, 3)).toThrow(ModelParseError);
    } finally {
      poser.dispose();
    }
  });
});

describe('through the registry: openPlayable and IdTechLoader', () => {
  it('openPlayable opens man.mdl dropped with manT.mdl and man01.mdl: its sequences as clips, its parts textured from manT.mdl, posed on both backends alike', async () => {
    const { openPlayable } = await import('../../src/registry/open-playable.js');
    const files = ['man.mdl', 'manT.mdl', 'man01.mdl'].map((n) => ({ name: n, source: read(byName(n).absPath) }));
    const playable = await openPlayable(files);
    expect(playable.format).toBe('hl1mdl');
    expect(playable.clips.map((c) => [c.name, c.frameCount, c.frameRate])).toEqual([['reference', 2, 30], ['walk', 26, 30], ['arms_up', 2, 25]]);
    expect(playable.parts.length).toBe(3);
    const image = playable.materials[0].image as { width: number; height: number };
    expect([image.width, image.height]).toEqual([28, 32]); // Material2.bmp, manT.mdl's texture 0
    const [a, b] = backends.map((be) => playable.createPlayer(be));
    a.setClip(1);
    b.setClip(1);
    a.poseBlend(4, 5, 0.25);
    b.poseBlend(4, 5, 0.25);
    for (let k = 0; k < a.positions.length; k++) expect(Math.abs(a.positions[k] - b.positions[k])).toBeLessThan(1e-4);
    a.dispose();
    b.dispose();
  });

  it('IdTechLoader draws it as a skinned mesh with one clip per sequence and the texture file\'s images', async () => {
    const { IdTechLoader } = await import('../../src/three/loader.js');
    const { SkinnedMesh } = await import('three');
    const three = await new IdTechLoader().setFileSystem(folderFs(byName('man.mdl'))).loadAsync('man.mdl');
    expect(three.format).toBe('hl1mdl');
    expect(three.animations.map((c) => c.name)).toEqual(['reference', 'walk', 'arms_up']);
    const meshes: InstanceType<typeof SkinnedMesh>[] = [];
    three.scene.traverse((o) => {
      if (o instanceof SkinnedMesh) meshes.push(o);
    });
    expect(meshes.length).toBe(1);
    const material = ([] as unknown[]).concat(meshes[0].material)[0] as { map?: { image: { width: number; height: number } } };
    expect([material.map?.image.width, material.map?.image.height]).toEqual([28, 32]);
  });
});

describe('the resumed walk (SequenceDecoder)', () => {
  it('gives the engine walk\'s value for every frame, in order or not, on random run-length streams (guards included)', async () => {
    const { SequenceDecoder, sequenceChannels } = await import('../../src/formats/goldsrc/anim.js');
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let round = 0; round < 200; round++) {
      // one bone; its x channel a stream of random runs (valid may exceed total: the engine's guard)
      const runs: number[] = [];
      for (let r = 0; r < 1 + rand(6); r++) {
        const valid = rand(4), total = rand(5);
        runs.push(valid | (total << 8));
        for (let k = 0; k < valid; k++) runs.push(rand(200) - 100);
      }
      for (let k = 0; k < 80; k++) runs.push(0x0101); // a tail of one-frame runs (a header, then its value)
      const bytes = new Uint8Array(12 + 2 * runs.length);
      const v = new DataView(bytes.buffer);
      v.setUint16(0, 12, true);
      runs.forEach((x, i) => v.setInt16(12 + 2 * i, x, true));
      const bones = [{ name: 'b', parent: -1, flags: 0, controllers: new Int32Array(6).fill(-1), value: new Float32Array(6), scale: Float32Array.of(1, 1, 1, 1, 1, 1) }];
      const sequence = { animOffset: 0, frameCount: 30, motionType: 0, motionBone: 0, label: 'r' } as unknown as GoldsrcModel['sequences'][number];
      const source = { sequence, bytes, file: 'random' };
      const decoder = new SequenceDecoder(bones, source);
      const frames = [...Array.from({ length: 30 }, (_, f) => f), ...Array.from({ length: 30 }, () => rand(30))];
      // a value, or the same refusal (a stream of empty runs walks off the bytes either way)
      const either = (get: () => number) => {
        try {
          return get();
        } catch (e) {
          expect(e).toBeInstanceOf(ModelParseError);
          return (e as ModelParseError).code;
        }
      };
      for (const f of frames) expect(either(() => decoder.channels(f)[0]), `round ${round} frame ${f}`).toBe(either(() => sequenceChannels(bones, source, f)[0]));
    }
  });
});

describe('the command line', () => {
  it('convert man.mdl --anim walk --frame 5 -o x.obj: the same vertices on WASM and TS, the reference decoder\'s; a sequence that is none exits 1 naming them', async () => {
    const { runCli, cliTemp } = await import('../helpers/cli.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = cliTemp('goldsrc');
    const man = byName('man.mdl');
    const outs: number[][][] = [];
    for (const backend of ['wasm', 'ts']) {
      const out = join(dir, `${backend}.obj`);
      const r = await runCli('convert', man.absPath, '--anim', 'walk', '--frame', '5', '--backend', backend, '--no-textures', '-o', out);
      expect(r.status, r.stderr).toBe(0);
      outs.push(readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number)));
    }
    expect(outs[0].length).toBeGreaterThan(0);
    outs[0].forEach((v, i) => v.forEach((x, k) => expect(Math.abs(x - outs[1][i][k])).toBeLessThan(1e-4)));
    const bytes = read(man.absPath);
    const m = parseGoldsrc(bytes);
    const poser = new GoldsrcPoser(backends[1], m, goldsrcDraw(m));
    const ref = compare(m, bytes, null, 1, 5, Float32Array.from(outs[1].flat()));
    expect(ref.err).toBeLessThanOrEqual(1e-4 * ref.diag + 1e-5); // the OBJ's 6 decimals
    poser.dispose();
    const bad = await runCli('convert', man.absPath, '--anim', 'nope', '-o', join(dir, 'bad.obj'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/INDEX_OUT_OF_RANGE: no sequence "nope" \(sequences: "reference", "walk", "arms_up"\)/);
  });
});

describe('mutated studio models (a fixed number, seeded)', () => {
  it('1,500 mutations of the corpus models: each a model that draws, poses and exports, or one ModelParseError', async () => {
    const { turnIfHeld } = await import('./../helpers/loop-turn.js');
    const { buildGltf } = await import('../../src/registry/gltf.js');
    const sources = ['man.mdl', 'multiple_roots.mdl', 'blend_additive.mdl'].map((n) => read(byName(n).absPath));
    let seed = 38;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const edges = [0, 1, -1, 2, 0x7fffffff, -0x80000000, 0xffff, 244, 76];
    const codes = new Map<string, number>();
    let accepted = 0;
    for (let round = 0; round < 1500; round++) {
      const b = Uint8Array.from(sources[round % sources.length]);
      const v = new DataView(b.buffer);
      for (let k = 0, n = 1 + rand(3); k < n; k++) {
        if (rand(2) === 0) v.setInt32(4 * (2 + rand(59)) + (rand(4) === 0 ? 0 : 64), edges[rand(edges.length)] + (rand(3) === 0 ? rand(64) : 0), true); // a header field
        else b[rand(b.length)] = rand(256); // a byte anywhere (tables, strips, runs)
      }
      try {
        const m = parseGoldsrc(b);
        const draw = goldsrcDraw(m);
        const poser = new GoldsrcPoser(backends[round % 2], m, draw);
        try {
          poser.bindPose();
          for (const s of sequenceSources(m, new Map(), 'x.mdl').sources) if (s) poser.poseSequence(s, rand(Math.max(1, s.sequence.frameCount)), 0.5);
        } finally {
          poser.dispose();
        }
        if (round % 10 === 0) {
          const { builder } = await buildGltf(m as never, { name: 'x' });
          // no NaN reaches a file: a bone's values, vertices and normals are refused unless finite
          const pos = builder.json.accessors?.find((a: { max?: number[] }) => a.max) as { max: number[]; min: number[] } | undefined;
          if (pos) for (const x of [...pos.min, ...pos.max]) expect(Number.isFinite(x), `round ${round}`).toBe(true);
        }
        accepted++;
      } catch (e) {
        if (!(e instanceof ModelParseError)) throw new Error(`round ${round}: ${(e as Error).stack}`);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
      }
      await turnIfHeld();
    }
    expect(accepted).toBeGreaterThan(100);
    expect(codes.size, JSON.stringify([...codes])).toBeGreaterThanOrEqual(3);
  });
});
