/**
 * Tremulous' non-segmented players and buildables as model sets (formats/md3/tremulous-format.ts), through every
 * door: opened from their folder or from one of their MD3s, loose or in a .pk3; drawn (the view three.js and the
 * viewer build), played (`openPlayable`) and exported (.glb, validator-clean), with the animation.cfg's clips. The
 * game folder is assembled from corpus models and the hand-made cfgs (helpers/tremulous-game.ts: the corpus has no
 * Tremulous alien or buildable folder); expected values are the cfg's numbers and the cgame's rules (cg_players.c,
 * cg_buildable.c CG_Buildable).
 */
import { describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { MD3_BUILDABLE_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import type { TremulousModel } from '../../src/formats/md3/tremulous-parts.js';
import type { MorphModelView, TaggedModelView } from '../../src/formats/model-view.js';
import { createBackend } from '../../src/kernels/select.js';
import { openModelSet, type ModelSet } from '../../src/load/model-set.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { DEFAULT_FORMATS, entryFor } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import type { FileSystem } from '../../src/vfs/file-system.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { openArchive } from '../../src/vfs/node.js';
import { readAccessor, readGlb } from '../export/gltf-eval.js';
import { expectClean, validate } from '../export/validate.js';
import { MGTURRET_SCALE, MGTURRET_Z, TURRET_TAG, tremulousGame } from '../helpers/tremulous-game.js';
import { makeZip } from '../helpers/zip-writer.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startServer } from '../../../scripts/serve.mjs';
import { cliTemp } from '../helpers/cli.js';

const game = tremulousGame();
const text = (p: string) => new TextDecoder('latin1').decode(game.get(p)!);
const memory = (files: Map<string, Uint8Array> = game) => memoryFileSystem([...files].map(([path, bytes]) => ({ path, bytes })));
const pk3 = async (): Promise<FileSystem> => openArchive(makeZip([...game].map(([name, data]) => ({ name, data }))));
const open = (fs: FileSystem, path: string) => openModelSet(fs, path, { formats: DEFAULT_FORMATS });
const NONSEG = parseAnimationCfg(text('models/players/spitfire/animation.cfg'));
const BUILDABLE = parseAnimationCfg(text('models/buildables/slime_zunge/animation.cfg'), { form: 'buildable' });
const backend = await createBackend('ts');
const results: string[] = [];

async function viewOf(set: ModelSet) {
  return entryFor(set.format)!.view!(set, backend);
}

/** Each clip's frames span the cfg's range, its key step and loop are the cfg's (CG_RunLerpFrame). */
function expectCfgClips(clips: readonly { name: string; frames: readonly number[]; step: number; loop: string }[], cfg: typeof NONSEG) {
  expect(clips.map((c) => c.name)).toEqual(cfg.animations.filter((a) => a.numFrames > 0).map((a) => a.name));
  for (const c of clips) {
    const a = cfg.byName[c.name as keyof typeof cfg.byName]!;
    expect([Math.min(...c.frames), Math.max(...c.frames)], c.name).toEqual([a.firstFrame, a.firstFrame + a.numFrames - 1]);
    expect(c.step, c.name).toBe(Math.trunc(1000 / a.fps) / 1000);
    expect(c.loop, c.name).toBe(a.loopFrames > 0 ? 'repeat' : 'once');
  }
}

/** glTF animations: the cfg's lines with frames, by name, each keyed once per frame (one pass). */
async function expectGlbClips(data: unknown, cfg: typeof NONSEG, name: string) {
  const bytes = await toGlb(data as TremulousModel);
  const g = readGlb(bytes);
  const animated = cfg.animations.filter((a) => a.numFrames > 0);
  expect(g.json.animations.map((a: { name: string }) => a.name)).toEqual(animated.map((a) => a.name));
  g.json.animations.forEach((anim: { samplers: { input: number }[] }, i: number) => expect(readAccessor(g, anim.samplers[0].input).count, animated[i].name).toBe(animated[i].numFrames));
  expectClean(results, name, await validate(bytes));
  return g;
}

describe('a non-segmented player (Tremulous alien: nonseg.md3 played by its nonsegmented animation.cfg)', () => {
  for (const [where, fs] of [['loose', async () => memory()], ['in a .pk3', pk3]] as const) {
    for (const path of ['models/players/spitfire', 'models/players/spitfire/nonseg.md3']) {
      it(`${path} ${where}: one model set, named NSPA_* clips over the cfg's frames`, async () => {
        const set = await open(await fs(), path);
        expect(set.format).toBe('nonseg');
        expect(set.path).toBe('models/players/spitfire');
        const data = set.data as TremulousModel;
        expect(data.parts.map((p) => p.name)).toEqual(['nonseg']);
        const view = (await viewOf(set)) as MorphModelView;
        expect(view.kind).toBe('morph');
        expect(view.warnings).toEqual([]);
        expect(view.clips.map((c) => c.name)).toEqual([...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']);
        expectCfgClips(view.clips, NONSEG);
        // WALKBACK is WALK reversed: its frames run from WALK's last down
        const back = view.clips.find((c) => c.name === 'NSPA_WALKBACK')!;
        expect(back.frames.slice(0, 3)).toEqual([31, 30, 29]);
      });
    }
  }

  it('exports one glTF animation per NSPA_* line (and WALKBACK), validator-clean', async () => {
    const set = await open(memory(), 'models/players/spitfire/nonseg.md3');
    await expectGlbClips(set.data, NONSEG, 'spitfire');
  });

  it('openPlayable plays the folder with the cfg clips', async () => {
    const files = [...game].filter(([p]) => p.startsWith('models/players/spitfire/')).map(([name, source]) => ({ name, source, size: source.length }));
    const m = await openPlayable(files);
    expect(m.clips.map((c) => c.name)).toEqual([...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']);
    expect(m.clips.map((c) => [c.frameCount, c.frameRate])).toEqual(NONSEG.animations.map((a) => [a.numFrames, a.fps]));
    const player = m.createPlayer(backend);
    player.setClip(m.clips.findIndex((c) => c.name === 'NSPA_RUN'));
    player.poseBlend(2, 2, 0);
    const model = ((await open(memory(), 'models/players/spitfire')).data as TremulousModel).parts[0].model;
    const raw = new Md3Poser(backend, model).poseFrame(NONSEG.byName.NSPA_RUN!.firstFrame + 2);
    expect(player.positions.length).toBe(m.vertexCount * 3);
    expect(Array.from(player.positions)).toEqual(Array.from(raw.positions));
    player.dispose();
    raw.dispose();
  });

  it('a folder whose animation.cfg does not say nonsegmented is refused by name (the game reads lower/upper/head there)', async () => {
    const files = new Map(game);
    files.set('models/players/spitfire/animation.cfg', game.get('models/buildables/slime_zunge/animation.cfg')!);
    const e = await open(memory(files), 'models/players/spitfire').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect((e as ModelParseError).code).toBe(ErrorCode.UnknownFormat);
    expect((e as ModelParseError).message).toContain('animation.cfg');
    expect((e as ModelParseError).message).toContain('nonsegmented');
  });
});

describe('a buildable (models/buildables/<name>/animation.cfg; models from configs/buildables/<name>.cfg)', () => {
  it('slime_zunge.md3, opened alone, is its folder: the 14 BANIM_* clips over the cfg frames', async () => {
    for (const fs of [memory(), await pk3()]) {
      const set = await open(fs, 'models/buildables/slime_zunge/slime_zunge.md3');
      expect(set.format).toBe('buildable');
      const view = (await viewOf(set)) as TaggedModelView;
      expect(view.kind).toBe('tagged');
      expect(view.parts.map((p) => p.name)).toEqual(['slime_zunge']);
      expect(view.clips.map((c) => c.name)).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
      expectCfgClips(view.clips, BUILDABLE);
      for (const c of view.clips) expect(c.parts).toEqual(['slime_zunge']);
    }
    const set = await open(memory(), 'models/buildables/slime_zunge');
    await expectGlbClips(set.data, BUILDABLE, 'slime_zunge');
  });

  it('an MD3 in a folder not under buildables/ opens alone, as before', async () => {
    const files = new Map(game);
    for (const n of ['slime_zunge.md3', 'animation.cfg']) files.set(`models/mapobjects/slime_zunge/${n}`, game.get(`models/buildables/slime_zunge/${n}`)!);
    expect((await open(memory(files), 'models/mapobjects/slime_zunge/slime_zunge.md3')).format).toBe('md3');
  });

  describe('mgturret: three models from its config, models 1 and 2 on model 0\'s tag_turret, modelScale and zOffset', async () => {
    const set = await open(memory(), 'models/buildables/mgturret/turret_barrel.md3');
    const data = set.data as TremulousModel;
    const tagged = (frame: number) => TURRET_TAG.origin(frame).map((v, k) => v * MGTURRET_SCALE + (k === 2 ? MGTURRET_Z : 0));

    it('reads the config: models by index, every one playing the cfg', () => {
      expect(set.format).toBe('buildable');
      expect(data.parts.map((p) => [p.name, p.gamePath, p.on ?? null])).toEqual([
        ['model0', 'models/buildables/mgturret/turret_base.md3', null],
        ['model1', 'models/buildables/mgturret/turret_barrel.md3', { part: 'model0', tag: 'tag_turret' }],
        ['model2', 'models/buildables/mgturret/turret_top.md3', { part: 'model0', tag: 'tag_turret' }],
      ]);
      expect([data.scale, data.zOffset]).toEqual([MGTURRET_SCALE, MGTURRET_Z]);
      expect(set.warnings.flatMap((w) => w.warnings)).toEqual([]);
    });

    it('the view hangs models 1 and 2 at tag_turret\'s origin (scaled, raised), in the buildable\'s axes', async () => {
      const view = (await viewOf(set)) as TaggedModelView;
      expect(view.parts.map((p) => [p.name, p.on ?? null])).toEqual(data.parts.map((p) => [p.name, p.on ?? null]));
      const base = view.parts[0].view;
      const k = base.tags!.names.indexOf('tag_turret');
      for (const f of [0, 40]) {
        const out = base.tags!.place(k, f, f, 0, new Float32Array(12));
        expect(Array.from(out.subarray(0, 3))).toEqual(tagged(f).map((v) => Math.fround(v)));
        expect(Array.from(out.subarray(3))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
      }
      // model 0 scaled about its origin and raised; model 1 scaled (its origin is the tag's)
      const raw0 = new Md3Poser(backend, data.parts[0].model).poseFrame(5);
      const posed0 = base.poser.pose(5, 5, 0).positions;
      expect(posed0[2]).toBeCloseTo(raw0.positions[2] * MGTURRET_SCALE + MGTURRET_Z, 4);
      const raw1 = new Md3Poser(backend, data.parts[1].model).poseFrame(0);
      expect(view.parts[1].view.poser.pose(0, 0, 0).positions[0]).toBeCloseTo(raw1.positions[0] * MGTURRET_SCALE, 4);
      // the one-frame parts do not play the clips (the renderer draws their frame 0); model 0 plays them all
      for (const c of view.clips) expect(c.parts, c.name).toEqual(['model0']);
      raw0.dispose();
      raw1.dispose();
      for (const p of view.parts) p.view.poser.dispose();
    });

    it('the playable poses every part at the clip\'s frame, model 1 placed on the tag', async () => {
      const m = await entryFor('buildable')!.playable!(set);
      const player = m.createPlayer(backend);
      const idle = m.clips.findIndex((c) => c.name === 'BANIM_IDLE1');
      player.setClip(idle);
      player.poseBlend(3, 3, 0);
      const f = BUILDABLE.byName.BANIM_IDLE1!.firstFrame + 3;
      const raw1 = new Md3Poser(backend, data.parts[1].model).poseFrame(0);
      const start = data.parts[0].model.surfaces.reduce((n, s) => n + s.vertexCount, 0) * 3;
      const at = tagged(f);
      for (let c = 0; c < 3; c++) expect(player.positions[start + c]).toBeCloseTo(raw1.positions[c] * MGTURRET_SCALE + at[c], 3);
      raw1.dispose();
      player.dispose();
    });

    it('the glTF hangs models 1 and 2 under a node on tag_turret\'s origin, the root scaled and raised; validator-clean', async () => {
      const g = await expectGlbClips(data, BUILDABLE, 'mgturret');
      const nodes = g.json.nodes as { name: string; translation?: number[]; scale?: number[]; rotation?: number[]; children?: number[] }[];
      const pivot = nodes.find((n) => n.name === 'model1@tag_turret')!;
      // Z up → glTF's Y up: (x, y, z) → (x, z, −y)
      const [x, y, z] = TURRET_TAG.origin(0);
      expect(pivot.translation!.map((v) => Math.fround(v))).toEqual([x, z, -y].map((v) => Math.fround(v)));
      expect(pivot.rotation).toBeUndefined();
      const root = nodes[g.json.scenes[0].nodes[0]];
      expect(root.scale).toEqual([MGTURRET_SCALE, MGTURRET_SCALE, MGTURRET_SCALE]);
      expect(root.translation).toEqual([0, MGTURRET_Z, 0]);
    });
  });

  it('a config naming a model outside the game folder is refused (UNSAFE_PATH), naming the config', async () => {
    const files = new Map(game);
    files.set('configs/buildables/mgturret.cfg', new TextEncoder().encode('model 0 "models/buildables/mgturret/turret_base.md3"\nmodel 1 "../../outside.md3"\nmodelScale 1\nmins 0 0 0\nmaxs 1 1 1\nzOffset 0\n'));
    const e = (await openModelSet(memory(files), 'models/buildables/mgturret', { formats: DEFAULT_FORMATS, root: '' }).catch((x: unknown) => x)) as ModelParseError;
    expect(e.code).toBe(ErrorCode.UnsafePath);
    expect(e.file).toContain('configs/buildables/mgturret.cfg');
  });
});

describe('three.js (IdTechLoader): the same model sets, clips by the cfg\'s names', () => {
  it('the non-segmented player from nonseg.md3, the buildable from its folder: one AnimationClip per cfg line, playable by name', async () => {
    const fs = memory();
    const alien = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('models/players/spitfire/nonseg.md3');
    expect(alien.format).toBe('nonseg');
    expect(alien.animations.map((c) => c.name)).toEqual([...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']);
    expect(alien.play('NSPA_RUN').length).toBe(1);
    const turret = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('models/buildables/mgturret/');
    expect(turret.format).toBe('buildable');
    expect(turret.animations.map((c) => c.name)).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
    expect(Object.keys(turret.parts ?? {})).toEqual(['model0', 'model1', 'model2']);
    // model 1 hangs under model 0's tag_turret object, placed at the tag's origin (scaled, raised) in the buildable's axes
    turret.scene.updateMatrixWorld(true);
    const m1 = turret.parts!.model1;
    expect(m1.parent?.name).toContain('tag_turret');
    expect(turret.play('BANIM_IDLE1').length).toBe(1);
  });

  it('over URLs: nonseg.md3 and a buildable\'s MD3 named alone load as their folders (the cfg probed beside them)', async () => {
    const dir = cliTemp('tremulous-urls');
    for (const [p, bytes] of game) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), bytes);
    }
    const server = await startServer({ port: 0, extra: { '/trem/': dir } });
    try {
      const alien = await new IdTechLoader().setTextures(false).loadAsync(`${server.url}/trem/models/players/spitfire/nonseg.md3`);
      expect(alien.format).toBe('nonseg');
      expect(alien.animations.map((c) => c.name)).toEqual([...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']);
      const turret = await new IdTechLoader().setTextures(false).loadAsync(`${server.url}/trem/models/buildables/slime_zunge/slime_zunge.md3`);
      expect(turret.format).toBe('buildable');
      expect(turret.animations.map((c) => c.name)).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
    } finally {
      await server.close();
    }
  });
});
