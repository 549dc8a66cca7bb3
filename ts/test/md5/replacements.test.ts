/**
 * The Quake II and Quake re-releases' MD5 models (docs/md5-replacements.md): a game folder laid out as theirs, made by
 * fixtures/generate-md5-replacement.mjs from Cajun Hunter's drone (../shared/models/actors/drone: no free re-release
 * file exists), opens as one model set — the MD2 or MDL as `data`, its MD5 replacement beside it — and `inspect`
 * lists what replaces what.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openModelSet, type ModelSet } from '../../src/load/model-set.js';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { parseMd5Anim } from '../../src/formats/md5/index.js';
import { md5SetAnims } from '../../src/formats/md5/set-anims.js';
import { toGlb } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { encodePng } from '../../src/images/png-encode.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { mountGameDirs } from '../../src/vfs/game-dir.js';
import { q2Replacement, quakeReplacement } from '../../../fixtures/generate-md5-replacement.mjs';
import { readGlb } from '../export/gltf-eval.js';
import { cliTemp, runCli } from '../helpers/cli.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { buildMdl, poseVerts, richSpec } from '../mdl/_build.js';

const DRONE = join(SHARED_MODELS, 'actors/drone');
const mesh = read(join(DRONE, 'mesh.md5mesh'));
const forward = read(join(DRONE, 'forward.md5anim')); // 12 frames
const idle = read(join(DRONE, 'idle.md5anim')); // 2 frames

const open = (files: { path: string; bytes: Uint8Array }[], path: string) => openModelSet(memoryFileSystem(files), path, { formats: DEFAULT_FORMATS });

describe('Quake II: models/x/md5/tris.md5mesh + tris.md5anim replace models/x/tris.md2 (q2pro MOD_LoadMD5)', () => {
  it('opens the MD2 with its replacement: the md5mesh, its anim as the one companion, the skins from <skin dir>/md5/', async () => {
    const set = await open(q2Replacement({ mesh, anim: forward, skins: ['models/drone/skin.pcx', 'models/drone/pain.pcx'] }), 'models/drone/tris.md2');
    expect(set.format).toBe('md2');
    const r = set.replacement!;
    expect(r.set.format).toBe('md5mesh');
    expect(r.set.path).toBe('models/drone/md5/tris.md5mesh');
    expect(r.set.companions.map((c) => c.path)).toEqual(['models/drone/md5/tris.md5anim']);
    expect(r.replaces).toBe(set.origin);
    expect(r.by).toMatch(/q2pro/);
    expect(r.skins).toEqual(['models/drone/md5/skin.pcx', 'models/drone/md5/pain.pcx']);
    expect(r.set.warnings.flatMap((w) => w.warnings).filter((w) => w.code === 'REPLACEMENT_FRAMES')).toEqual([]);
  });

  it("the anim plays as the MD2's clips: its frame names cut it, frame f showing anim frame f mod numFrames, at 10 fps", async () => {
    const names = [...Array.from({ length: 4 }, (_, i) => `stand${i + 1}`), ...Array.from({ length: 10 }, (_, i) => `run${i + 1}`)];
    const set = await open(q2Replacement({ mesh, anim: forward, md2Frames: 14, frameNames: names }), 'models/drone/tris.md2');
    const sub = set.replacement!.set;
    expect(sub.companions.map((c) => [c.name, c.path])).toEqual([['stand', 'models/drone/md5/tris.md5anim'], ['run', 'models/drone/md5/tris.md5anim']]);
    const anims = md5SetAnims(sub as ModelSet<Md5Mesh>);
    const full = parseMd5Anim(forward);
    expect(anims.map((a) => [a.name, a.anim.frameCount, a.anim.frameRate])).toEqual([['stand', 4, 10], ['run', 10, 10]]);
    const C = full.componentCount;
    const frame = (a: Md5Anim, f: number) => Array.from(a.frames.subarray(f * C, f * C + C));
    expect(frame(anims[1].anim, 0)).toEqual(frame(full, 4));
    expect(frame(anims[1].anim, 9)).toEqual(frame(full, 13 % 12)); // MD2 frame 13 of a 12-frame anim: frame 1
    // the MD2 has more frames than the anim: warned, not refused
    expect(sub.warnings.flatMap((w) => w.warnings).map((w) => w.code)).toContain('REPLACEMENT_FRAMES');
    const g = readGlb(await toGlb(sub.data as never, setGltfOptions(sub, {})));
    expect(g.json.animations.map((x: { name: string }) => x.name)).toEqual(['stand', 'run']);
  });

  it('both files are needed: without the anim the MD2 stands alone, as q2pro draws it', async () => {
    const files = q2Replacement({ mesh, anim: forward }).filter((f) => !f.path.endsWith('.md5anim'));
    const set = await open(files, 'models/drone/tris.md2');
    expect(set.replacement).toBeUndefined();
    expect(set.warnings.flatMap((w) => w.warnings)).toEqual([]);
  });

  it('a file system whose probe for the replacement fails (a server\'s 403) still opens the MD2 alone', async () => {
    const mem = memoryFileSystem(q2Replacement({ mesh, anim: forward }));
    const refusing = { ...mem, file: async (p: string) => (p.includes('/md5/') ? Promise.reject(new Error('HTTP 403')) : mem.file(p)) };
    const set = await openModelSet(refusing, 'models/drone/tris.md2', { formats: DEFAULT_FORMATS });
    expect(set.format).toBe('md2');
    expect(set.replacement).toBeUndefined();
  });

  it('an anim with fewer frames than the MD2 is a warning, not a refusal (12 MD2 frames, 2 anim frames)', async () => {
    const set = await open(q2Replacement({ mesh, anim: idle, md2Frames: 12 }), 'models/drone/tris.md2');
    const w = set.replacement!.set.warnings.flatMap((x) => x.warnings).filter((x) => x.code === 'REPLACEMENT_FRAMES');
    expect(w.map((x) => x.message)).toEqual([expect.stringMatching(/tris\.md5anim has fewer frames than tris\.md2 \(2 < 12\)/)]);
  });

  it('a replacement that does not load leaves the MD2, with a warning naming the file (q2pro frees it and draws the MD2)', async () => {
    const files = q2Replacement({ mesh, anim: forward }).map((f) => (f.path.endsWith('.md5anim') ? { ...f, bytes: new TextEncoder().encode('MD5Version 10\ncommandline ""\nnumFrames x\n') } : f));
    const set = await open(files, 'models/drone/tris.md2');
    expect(set.replacement).toBeUndefined();
    const failed = set.warnings.flatMap((w) => w.warnings.map((x) => ({ file: w.file, ...x }))).filter((x) => x.code === 'REPLACEMENT_FAILED');
    expect(failed).toHaveLength(1);
    expect(failed[0].file).toMatch(/tris\.md5anim$/);
  });
});

describe('Quake: progs/x.md5mesh (+ progs/x.md5anim) replaces progs/x.mdl (QuakeSpasm-Spiked Mod_LoadMD5MeshModel, vkQuake)', () => {
  // an MDL of 2 + runs frame records: stand1, the group wave1..3 (one record), run1..run<runs>
  const mdlRuns = (runs: number) => {
    const spec = richSpec();
    return buildMdl({ ...spec, frames: [...spec.frames, ...Array.from({ length: runs }, (_, i) => ({ pose: { name: `run${i + 1}`, verts: poseVerts(20 + i, spec.numverts) } }))] });
  };

  it('opens the MDL with its replacement, each mesh skinned with progs/<shader>_00_00 (skin 0, frame 0: "progs/%s_%02u_%02u")', async () => {
    const set = await open(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward, shader: 'drone' }), 'progs/drone.mdl');
    expect(set.format).toBe('mdl');
    const r = set.replacement!;
    expect(r.set.format).toBe('md5mesh');
    expect(r.set.path).toBe('progs/drone.md5mesh');
    expect([...new Set(r.set.companions.map((c) => c.path))]).toEqual(['progs/drone.md5anim']);
    expect(r.by).toMatch(/vkQuake/);
    expect(r.replaces).toBe(set.origin);
    expect(r.skins).toEqual(['progs/drone_00_00']);
    expect((r.set.data as Md5Mesh).meshes.map((m) => m.shader)).toEqual(['progs/drone_00_00', 'progs/drone_00_00']);
  });

  it("the anim plays as the MDL's clips over its frame records (a group is one frame), a frame past the anim's end drawing frame 0, at 10 fps", async () => {
    // 16 records, a 12-frame anim: run is records 2..15, of which 12..15 are past the anim's end
    const set = await open(quakeReplacement({ mdl: mdlRuns(14), mesh, anim: forward }), 'progs/drone.mdl');
    const sub = set.replacement!.set as ModelSet<Md5Mesh>;
    expect(sub.companions.map((c) => [c.name, c.detail])).toEqual([
      ['stand', { frames: { first: 0, count: 1, beyond: 'first' } }],
      ['wave', { frames: { first: 1, count: 1, beyond: 'first' } }],
      ['run', { frames: { first: 2, count: 14, beyond: 'first' } }],
    ]);
    const anims = md5SetAnims(sub);
    expect(anims.map((a) => [a.name, a.anim.frameCount, a.anim.frameRate])).toEqual([['stand', 1, 10], ['wave', 1, 10], ['run', 14, 10]]);
    const full = parseMd5Anim(forward);
    const C = full.componentCount;
    const frame = (a: Md5Anim, f: number) => Array.from(a.frames.subarray(f * C, f * C + C));
    expect(frame(anims[1].anim, 0)).toEqual(frame(full, 1)); // wave: record 1
    for (let i = 0; i < 10; i++) expect(frame(anims[2].anim, i)).toEqual(frame(full, 2 + i)); // records 2..11
    // records 12..15: frame 0 (R_SetupAliasFrame's "no such frame"), not f mod 12 as q2pro would draw them
    for (let i = 10; i < 14; i++) expect(frame(anims[2].anim, i)).toEqual(frame(full, 0));
    expect(frame(full, 13 % 12)).not.toEqual(frame(full, 0));
    const w = sub.warnings.flatMap((x) => x.warnings).filter((x) => x.code === 'REPLACEMENT_FRAMES');
    expect(w.map((x) => x.message)).toEqual([expect.stringMatching(/drone\.md5anim has fewer frames than drone\.mdl \(12 < 16\): vkQuake draws frames 12 and on as frame 0/)]);
    const g = readGlb(await toGlb(sub.data as never, setGltfOptions(sub, {})));
    expect(g.json.animations.map((x: { name: string }) => x.name)).toEqual(['stand', 'wave', 'run']);
  });

  it("a lower search path's md5mesh does not replace it (vkQuake: \"a replacement only if its priority is >= MDL one\"): a mod's MDL over the base game's MD5", async () => {
    const files = quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward });
    const mdlOnly = memoryFileSystem(files.filter((f) => f.path.endsWith('.mdl')));
    const md5Only = memoryFileSystem(files.filter((f) => !f.path.endsWith('.mdl')));
    // base id1 with the MD5, a mod with its own MDL: the mod's model is drawn as it is
    const modMdl = await mountGameDirs([md5Only, mdlOnly]);
    expect(await modMdl.searchPath!('progs/drone.mdl')).toBe(1);
    expect((await openModelSet(modMdl, 'progs/drone.mdl', { formats: DEFAULT_FORMATS })).replacement).toBeUndefined();
    // the MDL in the base game, the MD5 in a mod (a higher search path): replaced
    const modMd5 = await mountGameDirs([mdlOnly, md5Only]);
    expect((await openModelSet(modMd5, 'progs/drone.mdl', { formats: DEFAULT_FORMATS })).replacement?.set.path).toBe('progs/drone.md5mesh');
    // both in one game folder: the same search path
    const one = await mountGameDirs([memoryFileSystem(files)]);
    expect((await openModelSet(one, 'progs/drone.mdl', { formats: DEFAULT_FORMATS })).replacement?.set.path).toBe('progs/drone.md5mesh');
  });

  it('the md5mesh alone replaces it (MD5Anim_Begin reads the md5anim only when it is there): no clip, its bind pose', async () => {
    const set = await open(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, shader: 'drone' }), 'progs/drone.mdl');
    const r = set.replacement!;
    expect(r.set.path).toBe('progs/drone.md5mesh');
    expect(r.set.companions).toEqual([]);
    expect(r.skins).toEqual(['progs/drone_00_00']);
    // no md5mesh: the MDL alone
    const alone = await open(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward }).filter((f) => !f.path.endsWith('.md5mesh')), 'progs/drone.mdl');
    expect(alone.replacement).toBeUndefined();
    expect(alone.warnings.flatMap((w) => w.warnings)).toEqual([]);
  });
});

describe('three.js: IdTechLoader builds the MD2 and, beside it, its replacement', () => {
  it('model.replacement is the md5mesh with its anim as a clip, named by who loads it', async () => {
    const fs = memoryFileSystem(q2Replacement({ mesh, anim: forward }));
    const model = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('models/drone/tris.md2');
    expect(model.format).toBe('md2');
    const r = model.replacement!;
    expect(r.by).toMatch(/q2pro/);
    expect(r.model.format).toBe('md5mesh');
    expect(r.model.animations.map((c) => c.name)).toEqual(['frame']);
    expect(r.model.skeleton!.bones).toHaveLength(27);
  });

  it("an MDL's: the md5mesh playing the MDL's clips (a frame record each here)", async () => {
    const fs = memoryFileSystem(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward, shader: 'drone' }));
    const model = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('progs/drone.mdl');
    expect(model.format).toBe('mdl');
    const r = model.replacement!;
    expect(r.by).toMatch(/vkQuake/);
    expect(r.model.format).toBe('md5mesh');
    expect(r.model.animations.map((c) => c.name)).toEqual(['stand', 'wave']);
    expect(r.model.animations.map((c) => Math.round(c.duration * 10))).toEqual([1, 1]); // one frame each: two equal keys 0.1 s apart
  });
});

describe('openPlayable: the MD2 and its replacement\'s files dropped together', () => {
  it('plays the MD2, its replacement beside it (not one model too many)', async () => {
    const files = q2Replacement({ mesh, anim: forward, scale: { Head: { '0': 0 } } }).map((f) => ({ name: f.path, source: f.bytes, size: f.bytes.length }));
    const p = await openPlayable(files);
    expect(p.format).toBe('md2');
    expect(p.replacement!.model.format).toBe('md5mesh');
    expect(p.replacement!.model.clips.map((c) => c.name)).toEqual(['frame']);
    expect(p.replacement!.by).toMatch(/q2pro/);
    // an unrelated md5mesh beside an MD2 is still one model too many
    await expect(openPlayable([...files, { name: 'other/x.md5mesh', source: mesh, size: mesh.length }])).rejects.toThrow(/one model at a time/);
  });

  it("an MDL with its md5mesh and md5anim: plays the MDL, its replacement the MDL's clips", async () => {
    const files = quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward, shader: 'drone' }).map((f) => ({ name: f.path, source: f.bytes, size: f.bytes.length }));
    const p = await openPlayable(files);
    expect(p.format).toBe('mdl');
    expect(p.replacement!.model.format).toBe('md5mesh');
    expect(p.replacement!.model.clips.map((c) => c.name)).toEqual(['stand', 'wave']);
    expect(p.replacement!.by).toMatch(/vkQuake/);
  });
});

describe('inspect lists what replaces what', () => {
  it('names the md5mesh, its anim and who loads them, in the table and in --json', async () => {
    const dir = cliTemp('q2md5');
    for (const f of q2Replacement({ mesh, anim: idle, md2Frames: 12, scale: { Head: { '0': 0 } } })) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.bytes);
    }
    const md2 = join(dir, 'models/drone/tris.md2');
    const table = await runCli('inspect', md2, '--no-textures');
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/replaced by\s+\S*models\/drone\/md5\/tris\.md5mesh with \S*tris\.md5anim \(q2pro/);
    expect(table.stdout).toMatch(/replacement reads\s+\S*tris\.md5scale/);
    expect(table.stdout).toMatch(/replacement warning\s+.*REPLACEMENT_FRAMES/);
    const json = await runCli('inspect', md2, '--json', '--no-textures');
    const r = JSON.parse(json.stdout).replacement;
    expect(r.model).toMatch(/md5\/tris\.md5mesh$/);
    expect(r.anims).toEqual([expect.stringMatching(/md5\/tris\.md5anim$/)]);
  });
});

describe('inspect and convert --replacement for an MDL', () => {
  const layOut = (files: { path: string; bytes: Uint8Array }[]) => {
    const dir = cliTemp('q1md5');
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.bytes);
    }
    return dir;
  };
  const skin = () => encodePng(new Uint8Array(4 * 4 * 4).fill(120), 4, 4);

  it('inspect names the md5mesh, its anim, who loads them and the progs/<shader>_00_00 skins; without the anim, its bind pose', async () => {
    const dir = layOut(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward, shader: 'drone' }));
    const mdl = join(dir, 'progs/drone.mdl');
    const table = await runCli('inspect', mdl, '--no-textures');
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/replaced by\s+\S*progs\/drone\.md5mesh with \S*progs\/drone\.md5anim \(vkQuake/);
    expect(table.stdout).toMatch(/replacement skins\s+progs\/drone_00_00/);
    const json = JSON.parse((await runCli('inspect', mdl, '--json', '--no-textures')).stdout).replacement;
    expect(json.anims).toEqual([expect.stringMatching(/progs\/drone\.md5anim$/)]); // one file, however many clips cut it
    expect(json.skins).toEqual(['progs/drone_00_00']);
    const bare = layOut(quakeReplacement({ mdl: buildMdl(richSpec()), mesh }));
    const t2 = await runCli('inspect', join(bare, 'progs/drone.mdl'), '--no-textures');
    expect(t2.stdout).toMatch(/replaced by\s+\S*progs\/drone\.md5mesh with no md5anim \(its bind pose\)/);
  });

  it("convert --replacement writes the md5mesh with the MDL's clips, skinned with progs/<shader>_00_00", async () => {
    const dir = layOut([...quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward, shader: 'drone' }), { path: 'progs/drone_00_00.png', bytes: skin() }]);
    const out = join(dir, 'x.glb');
    const r = await runCli('convert', join(dir, 'progs/drone.mdl'), '--replacement', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/progs\/drone_00_00\.png/);
    const g = readGlb(new Uint8Array(readFileSync(out)));
    expect(g.json.animations.map((x: { name: string }) => x.name)).toEqual(['stand', 'wave']);
    expect(g.json.images).toHaveLength(1);
    expect(g.json.skins).toHaveLength(1); // the md5mesh, not the MDL's morph targets
  });

  it('with no md5mesh beside it: a bad input naming the file it looked for (exit 1)', async () => {
    const dir = layOut(quakeReplacement({ mdl: buildMdl(richSpec()), mesh, anim: forward }).filter((f) => !f.path.endsWith('.md5mesh')));
    const r = await runCli('convert', join(dir, 'progs/drone.mdl'), '--replacement', '--no-textures', '-o', join(dir, 'x.glb'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no MD5 model replaces it: \S*progs\/drone\.md5mesh is not there/);
  });
});

describe('convert --replacement writes the MD5 model drawn in the MD2\'s place', () => {
  const layOut = (files: { path: string; bytes: Uint8Array }[]) => {
    const dir = cliTemp('q2md5conv');
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.bytes);
    }
    return dir;
  };

  it('the md5mesh with its anim and .md5scale as glTF; the scale file\'s warnings on stderr', async () => {
    const dir = layOut(q2Replacement({ mesh, anim: forward, scale: { Head: { '3': 0 }, Nope: { '0': 1 } } }));
    const out = join(dir, 'x.glb');
    const r = await runCli('convert', join(dir, 'models/drone/tris.md2'), '--replacement', '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/MD5SCALE.*no joint "Nope"/);
    const g = readGlb(new Uint8Array(readFileSync(out)));
    expect(g.json.animations.map((x: { name: string }) => x.name)).toEqual(['frame']); // the MD2's one clip
    expect(g.json.nodes.some((n: { name?: string }) => n.name === 'Head_md5scale')).toBe(true);
    // without the flag: the MD2 itself (one triangle)
    const plain = await runCli('convert', join(dir, 'models/drone/tris.md2'), '--no-textures', '-o', join(dir, 'md2.glb'));
    expect(plain.status, plain.stderr).toBe(0);
    expect(readGlb(new Uint8Array(readFileSync(join(dir, 'md2.glb')))).json.nodes.some((n: { name?: string }) => n.name === 'Head_md5scale')).toBe(false);
  });

  it('skinned with the MD2\'s skin from md5/ beside it (q2pro MD5_LoadSkins), not the md5mesh\'s shaders', async () => {
    const skin = encodePng(new Uint8Array(4 * 4 * 4).fill(200), 4, 4);
    const dir = layOut([...q2Replacement({ mesh, anim: forward, skins: ['models/drone/skin.png'] }), { path: 'models/drone/md5/skin.png', bytes: skin }, { path: 'models/drone/skin.png', bytes: skin }]);
    const set = await openModelSet(memoryFileSystem(q2Replacement({ mesh, anim: forward, skins: ['models/drone/skin.png'] })), 'models/drone/tris.md2', { formats: DEFAULT_FORMATS });
    expect((set.replacement!.set.data as { meshes: { shader: string }[] }).meshes.map((m) => m.shader)).toEqual(['models/drone/md5/skin.png', 'models/drone/md5/skin.png']);
    const out = join(dir, 'x.glb');
    const r = await runCli('convert', join(dir, 'models/drone/tris.md2'), '--replacement', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/models\/drone\/md5\/skin\.png/);
    expect(readGlb(new Uint8Array(readFileSync(out))).json.images).toHaveLength(1);
  });

  it('with no replacement beside it: a bad input naming the files it looked for (exit 1)', async () => {
    const dir = layOut(q2Replacement({ mesh, anim: forward }).filter((f) => !f.path.endsWith('.md5mesh')));
    const r = await runCli('convert', join(dir, 'models/drone/tris.md2'), '--replacement', '--no-textures', '-o', join(dir, 'x.glb'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no MD5 model replaces it: \S*models\/drone\/md5\/tris\.md5mesh and \S*models\/drone\/md5\/tris\.md5anim are not both there/);
  });
});
