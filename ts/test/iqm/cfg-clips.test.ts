/**
 * A Red Eclipse model's clips as Tesseract plays them, through every door: `convert player.iqm -o x.glb` writes one
 * glTF animation per `iqm.cfg` clip (its name, its rate, its frame cut), and the three.js view and the playable have
 * the same clips; an animation-only IQM opened alone is refused, naming the meshes it plays on.
 *
 * The reference for the cuts is Tesseract's own arithmetic, written here from skelmodel.h `skelcommands::setanim`
 * (start and end offsets) and animmodel.h `calcanim` (`1000 / speed` ms a frame, 100 ms when the line gives none).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { configClips, readIqmConfig } from '../../src/formats/iqm/iqm-cfg.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { iqmEntry } from '../../src/formats/iqm/entry.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { readGlb } from '../helpers/textured.js';
import { readIqmReference } from '../reference/iqm.js';
import { iqmFile } from './_corpus.js';

const MESH = 'player/male/RE_Player_male.iqm';
const fs = () => sharedFileSystem('actors-iqm');

/** skelmodel.h setanim: the frames [start, start + end) a line's offsets leave of an anim's [frame, frame + range). */
function tesseractCut(frame: number, range: number, startOffset: number, endOffset: number): { first: number; count: number } {
  let start = frame;
  let end = range;
  if (startOffset > 0) start += Math.min(startOffset, end - 1);
  else if (startOffset < 0) start += Math.max(end + startOffset, 0);
  end -= start - frame;
  if (endOffset > 0) end = Math.min(end, endOffset);
  else if (endOffset < 0) end = Math.max(end + endOffset, 1);
  return { first: start, count: end };
}

/** animmodel.h calcanim: frames a second of a clip (speed > 0: 1000 / speed ms a frame, i.e. `speed`; else 100 ms). */
const tesseractFps = (speed: number) => (speed > 0 ? speed : 1000 / 100);

/** Each glTF animation's name, rate, frames and key times. */
function animationsOf(glb: Uint8Array) {
  const { json } = readGlb(glb);
  return (json.animations ?? []).map((a: any) => {
    const times = json.accessors[a.samplers[0].input];
    return { name: a.name as string, fps: a.extras.framerate as number, first: a.extras.firstFrame as number, frames: a.extras.frameCount as number, keys: times.count as number, last: times.max[0] as number };
  });
}

describe("a Red Eclipse player's iqm.cfg clips, through every door", () => {
  it('convert player.iqm -o x.glb (the CLI, the model alone) writes one animation per clip the config names, at its rate', async () => {
    const out = join(cliTemp('iqm-cfg'), 'x.glb');
    const r = await runCli('convert', shared(`actors-iqm/${MESH}`), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const anims = animationsOf(new Uint8Array(readFileSync(out)));
    // player.cfg's lines, read here as text: `iqmanim "NAMES" "FILE" [SPEED …]`, NAMES split on '|', files the corpus has
    const cfg = readFileSync(shared('actors-iqm/player/player.cfg'), 'latin1');
    const lines = [...cfg.matchAll(/^\s*iqmanim\s+"([^"]+)"\s+"([^"]+)"(?:\s+(-?[\d.]+))?/gm)].filter((m) => existsSync(shared(`actors-iqm/player/${m[2]}`)));
    const expected = lines.flatMap((m) => m[1].split('|').map((name) => ({ name, file: m[2], fps: tesseractFps(Number(m[3] ?? 0)) })));
    expect(anims.map((a: { name: string }) => a.name.replace(/( \(part \d+\))?( \(\d+\))?$/, ''))).toEqual(expected.map((e) => e.name));
    expected.forEach((e, i) => {
      const file = readIqmReference(iqmFile(`player/${e.file}`).bytes);
      const a = anims[i];
      expect([a.fps, a.first, a.frames, a.keys], `${e.name}`).toEqual([e.fps, file.anims[0].first, file.anims[0].count, file.anims[0].count]);
      expect(a.last).toBeCloseTo((a.frames - 1) / e.fps, 5);
    });
    // spot checks against the config's own words: a rate given, none given (10 fps), one file at two rates
    const by = (n: string) => anims.find((a: { name: string }) => a.name === n)!;
    expect([by('run forward').fps, by('sprint').fps, by('boost backward').fps]).toEqual([35, 45, 10]);
  });

  it('a model set exported with the default formats keeps its cfg clips (the viewer exported without a list and lost them)', async () => {
    const set = await openModelSet(fs(), MESH, { formats: DEFAULT_FORMATS });
    const given = animationsOf(await toGlb(set.data as never, setGltfOptions(set, {}, DEFAULT_FORMATS)));
    const byDefault = animationsOf(await toGlb(set.data as never, setGltfOptions(set, {})));
    expect(byDefault.length).toBeGreaterThan(1);
    expect(byDefault).toEqual(given);
  });

  it('the three.js view and the playable of the model opened alone have the same clips as the glTF: names, frames, rates', async () => {
    const set = await openModelSet(fs(), MESH, { formats: DEFAULT_FORMATS });
    const glb = animationsOf(await toGlb(set.data as never, setGltfOptions(set, {}, DEFAULT_FORMATS)));
    const clips = configClips(await readIqmConfig(fs(), 'player/male/iqm.cfg'));
    expect(glb).toHaveLength(clips.length);
    const backend = createTsBackend();
    const view = await iqmEntry.view!(set as never, backend);
    const playable = await iqmEntry.playable!(set as never);
    try {
      if (view.kind !== 'skinned') throw new Error(view.kind);
      expect(view.clips.map((c) => [c.name, c.frameCount, c.frameRate])).toEqual(glb.map((a: any) => [a.name, a.frames, a.fps]));
      expect(playable.clips.map((c) => [c.name, c.frameCount, c.frameRate])).toEqual(glb.map((a: any) => [a.name, a.frames, a.fps]));
    } finally {
      backend.dispose();
    }
  });

  it("cuts a clip's frames by the line's start and end offsets, as Tesseract's setanim does, and keys the cut frames", async () => {
    const run = iqmFile('player/runcycle0.iqm');
    const cfg = [
      'iqmload "mesh.iqm"',
      'iqmanim "skip two, keep five" "run.iqm" 30 0 2 5',
      'iqmanim "last three, drop one" "run.iqm" 0 0 -3 -1',
      'iqmanim "past the end" "run.iqm" 12 0 40',
    ].join('\n');
    const mem = memoryFileSystem([
      { path: 'm/mesh.iqm', bytes: iqmFile(MESH).bytes },
      { path: 'm/run.iqm', bytes: run.bytes },
      { path: 'm/iqm.cfg', bytes: new TextEncoder().encode(cfg) },
    ]);
    const set = await openModelSet(mem, 'm/mesh.iqm', { formats: DEFAULT_FORMATS });
    const anims = animationsOf(await toGlb(set.data as never, setGltfOptions(set, { yUp: false }, DEFAULT_FORMATS)));
    const ref = readIqmReference(run.bytes);
    const { first, count } = ref.anims[0];
    const want = [tesseractCut(first, count, 2, 5), tesseractCut(first, count, -3, -1), tesseractCut(first, count, 40, 0)];
    expect(want).toEqual([{ first: 2, count: 5 }, { first: 17, count: 2 }, { first: 19, count: 1 }]); // runcycle0: 20 frames
    expect(anims.map((a: any) => [a.name, a.first, a.frames, a.fps])).toEqual([
      ['skip two, keep five', 2, 5, 30],
      ['last three, drop one', 17, 2, 10],
      ['past the end', 19, 1, 12],
    ]);
    // key 0 of the first clip holds stored frame 2: the root's translation decoded from the file by the reference reader
    const { json, bin } = readGlb(await toGlb(set.data as never, setGltfOptions(set, { yUp: false }, DEFAULT_FORMATS)));
    const channel = json.animations[0].channels.find((c: any) => c.target.path === 'translation' && json.nodes[c.target.node].name === json.nodes[json.skins[0].joints[0]].name);
    const acc = json.accessors[json.animations[0].samplers[channel.sampler].output];
    const view = json.bufferViews[acc.bufferView];
    const got = new Float32Array(bin.buffer, bin.byteOffset + view.byteOffset + (acc.byteOffset ?? 0), 3);
    const pose = ref.poses[0];
    let k = 0;
    const decoded = pose.offset.map((o, c) => (pose.mask & (1 << c) ? o + ref.frames[2 * ref.channels + k++] * pose.scale[c] : o));
    expect([...got].map((x, c) => x - decoded[c]).every((d) => Math.abs(d) < 1e-5)).toBe(true);
  });

  it("a clip of the model's own file (`iqmanim \"fastidle|dance\" \"mrfixit.iqm\" 48 0 1 2`) is played, cut and named as the line says", async () => {
    // Tesseract skelmodel.h setanim: loadanim finds the anims loaded with the mesh; the line's names, rate and cuts
    const turret = iqmFile('turret/sphere/turret_sphere.iqm'); // 1 anim "Shoot", 4 frames at 24 fps
    const mem = memoryFileSystem([
      { path: 'm/mrfixit.iqm', bytes: turret.bytes },
      { path: 'm/iqm.cfg', bytes: new TextEncoder().encode('iqmload "mrfixit.iqm"\niqmanim "fastidle|dance" "mrfixit.iqm" 48 0 1 2\n') },
    ]);
    const set = await openModelSet(mem, 'm/mrfixit.iqm', { formats: DEFAULT_FORMATS });
    expect(set.files.map((f) => f.path)).toEqual(['m/mrfixit.iqm']); // the model is not read again as its own companion
    const anims = animationsOf(await toGlb(set.data as never, setGltfOptions(set, { yUp: false }, DEFAULT_FORMATS)));
    expect(anims.map((a: any) => [a.name, a.first, a.frames, a.fps])).toEqual([
      ['Shoot', 0, 4, 24],
      ['fastidle', 1, 2, 48],
      ['dance', 1, 2, 48],
    ]);
  });

  it("convert turret_sphere.iqm: the 14 clips its iqm.cfg names on the file itself, beside the file's Shoot", async () => {
    const out = join(cliTemp('iqm-cfg'), 'turret.glb');
    const r = await runCli('convert', shared('actors-iqm/turret/sphere/turret_sphere.iqm'), '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const anims = animationsOf(new Uint8Array(readFileSync(out)));
    expect(anims).toHaveLength(15);
    expect(anims[0]).toMatchObject({ name: 'Shoot', fps: 24, first: 0, frames: 4 });
    expect(anims.find((a: any) => a.name === 'zapper secondary')).toMatchObject({ fps: 20, first: 0, frames: 4 });
  });
});

describe('an animation-only IQM opened alone', () => {
  it('inspect says what it holds: anims, frames, poses, and that it plays on a mesh', async () => {
    const r = await runCli('inspect', shared('actors-iqm/player/runcycle0.iqm'), '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const ref = readIqmReference(iqmFile('player/runcycle0.iqm').bytes);
    expect([j.meshes, j.joints, j.poses, j.frames]).toEqual([0, 0, ref.poses.length, ref.frameCount]);
    expect(j.animationOnly).toContain(`${ref.frameCount} frames of ${ref.poses.length} poses`);
  });

  it('convert refuses it (UNKNOWN_FORMAT), naming the file and the meshes whose iqm.cfg plays it, and writes nothing', async () => {
    const dir = cliTemp('iqm-anim-only');
    for (const [file, mesh] of [['player/runcycle0.iqm', 'player/female/RE_Player_female.iqm'], ['janitor/arm-idle.iqm', 'janitor/janitor.iqm']]) {
      const out = join(dir, 'x.glb');
      const r = await runCli('convert', shared(`actors-iqm/${file}`), '-o', out);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`${file}: UNKNOWN_FORMAT: an animation-only`);
      expect(r.stderr).toContain(mesh.split('/').pop());
      expect(existsSync(out)).toBe(false);
    }
  });

  it('openPlayable and the three.js loader path refuse it alone; given with its mesh, in either order, the mesh plays it', async () => {
    const anim = { name: 'player/runcycle0.iqm', source: iqmFile('player/runcycle0.iqm').bytes };
    const mesh = { name: MESH, source: iqmFile(MESH).bytes };
    await expect(openPlayable([anim])).rejects.toMatchObject({ code: 'UNKNOWN_FORMAT' });
    await expect(openModelSet(fs(), 'player/runcycle0.iqm', { formats: DEFAULT_FORMATS })).rejects.toBeInstanceOf(ModelParseError);
    for (const files of [[anim, mesh], [mesh, anim]]) {
      const p = await openPlayable(files);
      expect([p.vertexCount, p.clips.map((c) => c.name)]).toEqual([3110, ['runcycle0']]);
    }
  });
});
