/**
 * A format is one file and one line: a made-up vertex-animated format ("TOYM", `toy-format.ts`: a few lines of parser
 * over a toy binary layout, its glTF, OBJ, playable, view and material rule on the shared floors) is registered
 * here, in this test's list alone (`[...DEFAULT_FORMATS, toy]`), and flows through every consumer the registry
 * claims — detection, `inspect` (table and --json), `convert` (.glb validator-clean, .obj), `convert --all` over a
 * .pk3 (a CLI built with the list: `toy-cli.ts`), the texture resolver, `openPlayable`, `IdTechLoader`, the Node
 * door and the worker (`ModelWorker` over `serveModels`) — without any of their files knowing it. Each consumer
 * identifies the file once: what reads it carries its registration on (a counting registration shows it).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { ErrorCode } from '../../src/base/errors.js';
import { main } from '../../src/cli/main.js';
import { selectFormat } from '../../src/load/format.js';
import { openModelSet } from '../../src/load/model-set.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import type { FormatEntry } from '../../src/formats/entry.js';
import { encodePng } from '../../src/images/png-encode.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { openModelOnDisk } from '../../src/registry/node.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { ModelWorker, type WorkerLike } from '../../src/worker/client.js';
import { serveModels, type WorkerScope } from '../../src/worker/serve.js';
import { runChild } from '../helpers/child.js';
import { parseToy, toy, toyFile, type Toy } from './toy-format.js';
import type { IdTechModel } from '../../src/three/model.js';
import { validate } from '../export/validate.js';
import { REPO } from '../helpers/models.js';
import { maxDistance, setTime, threePositions } from '../three/three-eval.js';
import type { Mesh } from 'three';

const formats = [...DEFAULT_FORMATS, toy];
const tmp = mkdtempSync(join(tmpdir(), 'idtech-toy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = join(tmp, 'tetra.toy');
writeFileSync(file, toyFile());

/** Runs the command line in this process with the toy registered; what it printed. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    return { code: await main(argv, { formats }), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('a format registered at test time flows through every door', () => {
  it('detection: by its extension, and by its first bytes under any name', () => {
    expect(selectFormat('a/b/TETRA.TOY', null, formats)?.id).toBe('toy');
    expect(selectFormat('no-extension', toyFile(), formats)?.id).toBe('toy');
    expect(selectFormat('no-extension', toyFile(), DEFAULT_FORMATS)).toBeNull();
  });

  it('--help lists it among the formats read, from its registration (id and title: it gives no name or description)', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\n  toy (.toy): toy model (TOYM)\nwrites: ');
  });

  it('inspect prints its summary (and the package without it does not know the file)', async () => {
    const r = await cli('inspect', file, '--json', '--no-textures');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ file, format: 'toy', vertices: 4, triangles: 4, frames: 3 });
    const without = await main(['inspect', file, '--json'], { formats: DEFAULT_FORMATS }).catch((e) => e);
    expect(without).not.toBe(0);
  });

  it('convert to .glb: a morph-target mesh with its clip, 0 validator errors', async () => {
    const out = join(tmp, 'tetra.glb');
    const r = await cli('convert', file, '--no-textures', '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*tetra\.glb: 1 mesh, 4 vertices, 1 clip/);
    const glb = new Uint8Array(readFileSync(out));
    const v = await validate(glb);
    expect(v.errors, v.sample.join('\n')).toBe(0);
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))));
    expect(json.meshes[0].primitives[0].targets).toHaveLength(2);
    expect(json.animations.map((a: { name: string }) => a.name)).toEqual(['wobble']);
  });

  it('convert to .obj writes the frame asked for', async () => {
    const out = join(tmp, 'tetra.obj');
    expect((await cli('convert', file, '--frame', '2', '--no-textures', '-o', out)).code).toBe(0);
    const apex = readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('v '))[3];
    expect(apex).toBe('v 3 3 13');
  });

  it('openPlayable: parts, clips and a player that poses its frames', async () => {
    const m = await openPlayable([{ name: 'tetra.toy', source: toyFile() }], { formats });
    expect(m.format).toBe('toy');
    expect(m.clips.map((c) => [c.name, c.frameCount, c.frameRate])).toEqual([['wobble', 3, 5]]);
    const player = m.createPlayer(createTsBackend());
    player.setClip(0);
    player.poseBlend(1, 2, 0.5);
    expect(Array.from(player.positions.subarray(9, 12))).toEqual([3, 3, 11]);
    player.dispose();
  });

  describe('IdTechLoader (setFormats): the toy as a three.js mesh, its clip played by three\'s AnimationMixer', () => {
    /** The toy's own pose at `seconds` into its clip (5 fps, frames 0 1 2, looping back to 0): its frames lerped. */
    function toyAt(m: Toy, seconds: number): Float32Array {
      const frames = [0, 1, 2, 0];
      const at = (seconds * 5) % 3;
      const k = Math.floor(at), t = at - k;
      const n = m.vertexCount * 3;
      return Float32Array.from({ length: n }, (_, i) => m.positions[frames[k] * n + i] * (1 - t) + m.positions[frames[k + 1] * n + i] * t);
    }
    const meshOf = (model: IdTechModel) => {
      let mesh: Mesh | undefined;
      model.scene.traverse((o) => (mesh ??= (o as Mesh).isMesh ? (o as Mesh) : undefined));
      return mesh!;
    };

    for (const [how, load] of [
      ['its bytes, sniffed', (l: IdTechLoader) => l.parseAsync(toyFile())],
      ['named files', (l: IdTechLoader) => l.parseAsync([{ name: 'shapes/tetra.toy', source: toyFile() }])],
    ] as const) {
      for (const morph of ['targets', 'poser'] as const) {
        it(`parseAsync of ${how}, ${morph}: the toy's mesh, and its clip at the toy's posed positions`, async () => {
          const model = await load(new IdTechLoader().setFormats(formats).setMorph(morph));
          expect(model.format).toBe('toy');
          expect(model.animations.map((c) => [c.name, c.duration])).toEqual([['wobble', expect.closeTo(3 / 5, 6)]]);
          const mesh = meshOf(model);
          expect(mesh.geometry.index!.count).toBe(4 * 3);
          expect(mesh.geometry.getAttribute('position').count).toBe(4);
          const toyModel = await parseToy(toyFile());
          model.play('wobble');
          let worst = 0;
          // on frames, between them, and across the loop's blend from frame 2 back to frame 0
          for (const t of [0, 0.1, 0.2, 0.3, 0.5, 0.9]) {
            setTime(model.mixer, model.scene, t);
            model.sync();
            model.scene.updateMatrixWorld(true);
            worst = Math.max(worst, maxDistance(threePositions(mesh, model.root), toyAt(toyModel, t)));
          }
          // targets: int16 on a grid over the toy's 13-unit box (2e-4 a step); poser: the toy's own lerp
          expect(worst).toBeLessThanOrEqual(morph === 'targets' ? 1e-3 : 1e-5);
          model.dispose();
        });
      }
    }

    it('the loader without the toy does not know it; no file of ts/src names it (every door above took it untouched)', async () => {
      await expect(new IdTechLoader().parseAsync(toyFile())).rejects.toMatchObject({ code: ErrorCode.UnknownFormat });
      const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]));
      const src = files(join(REPO, 'ts/src'));
      expect(src.length).toBeGreaterThan(300);
      expect(src.filter((f) => /toy/i.test(readFileSync(f, 'utf8')))).toEqual([]);
    });
  });
});

/** A game folder holding the toy and the image its material rule names: `game/models/shapes/{tetra.toy,skin.png}`. */
const game = join(tmp, 'game');
mkdirSync(join(game, 'models/shapes'), { recursive: true });
const gameFile = join(game, 'models/shapes/tetra.toy');
writeFileSync(gameFile, toyFile());
const skinPng = encodePng(new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]), 2, 2);
writeFileSync(join(game, 'models/shapes/skin.png'), skinPng);

const glbJson = (glb: Uint8Array) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));

/** The toy with its `owns` and first-bytes test counted. */
function counted(): { entry: FormatEntry<Toy>; calls: { owns: number; test: number } } {
  const calls = { owns: 0, test: 0 };
  const entry: FormatEntry<Toy> = { ...toy, owns: (d): d is Toy => (calls.owns++, toy.owns(d)), test: (head) => (calls.test++, toy.test!(head)) };
  return { entry, calls };
}

describe('the toy through the doors that find materials, the worker, the Node door and a batch', () => {
  it("convert with textures: the toy's own material rule finds skin.png in the game folder above it, embedded, validator-clean", async () => {
    const out = join(tmp, 'textured.glb');
    const r = await cli('convert', gameFile, '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`textures from ${game} (found above the model):`);
    expect(r.stderr).toContain('body: models/shapes/skin.png');
    const glb = new Uint8Array(readFileSync(out));
    const v = await validate(glb);
    expect(v.errors, v.sample.join('\n')).toBe(0);
    const json = glbJson(glb);
    expect(json.images).toHaveLength(1);
    expect(json.materials[0].pbrMetallicRoughness.baseColorTexture).toEqual({ index: 0 });
  });

  it('inspect (the table) names its counts and the texture it resolves', async () => {
    const r = await cli('inspect', gameFile);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/format\s+toy/);
    expect(r.stdout).toMatch(/frames\s+3/);
    expect(r.stdout).toContain('body: models/shapes/skin.png');
    const json = JSON.parse((await cli('inspect', gameFile, '--json')).stdout);
    expect([json.format, json.gameFolder, json.textures]).toEqual(['toy', game, [{ surface: 'body', shader: 'models/shapes/skin.png', image: 'models/shapes/skin.png', builtin: null, normal: null }]]);
  });

  it('identified once per convert: the first bytes tested once, `owns` never asked (the set carries its registration)', async () => {
    const { entry, calls } = counted();
    const noExt = join(game, 'models/shapes/tetra');
    writeFileSync(noExt, toyFile());
    let stderr = '';
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    try {
      expect(await main(['convert', noExt, '-o', join(tmp, 'counted.glb')], { formats: [...DEFAULT_FORMATS, entry] }), stderr).toBe(0);
      expect(stderr).toContain('body: models/shapes/skin.png');
      expect(calls).toEqual({ owns: 0, test: 1 });
      calls.test = 0;
      expect(await main(['convert', noExt, '-o', join(tmp, 'counted.obj')], { formats: [...DEFAULT_FORMATS, entry] }), stderr).toBe(0);
      expect(calls).toEqual({ owns: 0, test: 1 });
    } finally {
      err.mockRestore();
    }
    // openPlayable with textures, and IdTechLoader: what read the file is what plays, draws and finds its materials
    calls.test = 0;
    const listed = [...DEFAULT_FORMATS, entry];
    const fs = folderFileSystem(game);
    const m = await openPlayable([{ name: 'tetra', source: toyFile() }], { formats: listed, textures: { fileSystem: fs, modelPath: 'models/shapes/tetra.toy' } });
    expect(m.materials.map((x) => x.path)).toEqual(['models/shapes/skin.png']);
    expect(calls).toEqual({ owns: 0, test: 1 });
    calls.test = 0;
    const model = await new IdTechLoader().setFormats(listed).parseAsync(toyFile());
    expect(model.format).toBe('toy');
    expect(calls).toEqual({ owns: 0, test: 1 });
    model.dispose();
  });

  it('the texture resolver takes the set and asks its registration; a bare toy is found only among formats that hold it', async () => {
    const fs = folderFileSystem(game);
    const set = await openModelSet(fs, 'models/shapes/tetra.toy', { formats });
    expect(set.registration).toBe(toy);
    const t = await resolveModelTextures(fs, set);
    expect(t.materials.map((m) => [m.surface, m.diffuse?.path])).toEqual([['body', 'models/shapes/skin.png']]);
    expect(t.images.get('models/shapes/skin.png')).toEqual(skinPng);
    await expect(resolveModelTextures(fs, set.data as never, set.path)).rejects.toThrow(/no format here holds toy/);
    expect((await resolveModelTextures(fs, set.data as never, set.path, { formats })).images.size).toBe(1);
  });

  it('the Node door opens it from a path, and its set exports through its registration', async () => {
    const set = await openModelOnDisk(gameFile, { formats });
    expect([set.format, set.registration, (set.data as Toy).frameCount]).toEqual(['toy', toy, 3]);
  });

  it('the worker: ModelWorker over serveModels with the toy opens it and poses its frames', async () => {
    const toClient = new EventTarget(), toWorker = new EventTarget();
    const send = (to: EventTarget, data: unknown) => queueMicrotask(() => to.dispatchEvent(new MessageEvent('message', { data })));
    const end: WorkerLike = {
      postMessage: (m) => send(toWorker, m),
      addEventListener: (type, l) => toClient.addEventListener(type, (e) => l(e as MessageEvent)),
      terminate: () => {},
    };
    const w = new ModelWorker(end);
    const scope: WorkerScope = { postMessage: (m) => send(toClient, m), addEventListener: (_t, l) => toWorker.addEventListener('message', (e) => l(e as MessageEvent)) };
    serveModels(scope, formats);
    const info = await w.open([{ name: 'tetra.toy', source: toyFile() }], { backend: 'ts' });
    expect(info.format).toBe('toy');
    expect(info.clips.map((c) => c.name)).toEqual(['wobble']);
    const posed = await w.pose(1, 2, 0.5);
    expect(Array.from(posed.positions.subarray(9, 12))).toEqual([3, 3, 11]);
    w.terminate();
  });

  it('convert --all over a .pk3 holding it, with a CLI built with the toy: every model to a validator-clean .glb', async () => {
    const cliFile = join(tmp, 'toy-cli.mjs');
    await build({ entryPoints: [join(REPO, 'ts/test/registry/toy-cli.ts')], outfile: cliFile, bundle: true, platform: 'node', format: 'esm', target: 'es2022', logLevel: 'error', banner: { js: "import { createRequire as __toyRequire } from 'node:module'; const require = __toyRequire(import.meta.url);" } });
    const pk3 = join(tmp, 'toys.pk3');
    writeFileSync(pk3, zipSync({ 'models/shapes/tetra.toy': toyFile(), 'models/shapes/skin.png': skinPng, 'models/other/b.toy': toyFile() }));
    const outDir = join(tmp, 'all');
    const r = await runChild(process.execPath, [cliFile, 'convert', pk3, '--all', '--jobs', '1', '-o', outDir]);
    expect(r.status, r.stderr).toBe(0);
    for (const p of ['models/shapes/tetra.glb', 'models/other/b.glb']) {
      const glb = new Uint8Array(readFileSync(join(outDir, p)));
      const v = await validate(glb);
      expect(v.errors, `${p}: ${v.sample.join('\n')}`).toBe(0);
      expect(glbJson(glb).animations.map((a: { name: string }) => a.name)).toEqual(['wobble']);
    }
    expect(glbJson(new Uint8Array(readFileSync(join(outDir, 'models/shapes/tetra.glb')))).images).toHaveLength(1);
  });
});
