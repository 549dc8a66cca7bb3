/**
 * The package in a real browser (headless Debian Chromium, software GL): the browser entry imported as plain
 * ESM from a static server, streaming a real model with fetch().body; the worker mode; the demo page. Every
 * expected value comes from this process: the same model posed in Node by the library's own source, and the
 * same malformed file's ModelParseError as Node throws it.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { md2Unwelded } from '../../src/formats/md2/geometry.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { FIXTURES, read, REPO, SHARED_MODELS } from '../helpers/models.js';
import { ARTIFACTS, startHarness, type Harness } from './chromium.js';
import { makeZip } from '../helpers/zip-writer.js';
import { decode } from 'fast-png';
import { openPlayable } from '../../src/registry/open-playable.js';
import { folderFileSystem } from '../../src/vfs/node.js';

const DRONE = { mesh: 'actors/drone/mesh.md5mesh', anim: 'actors/drone/forward.md5anim' };
const INVALID = 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh';
/** A frame of forward.md5anim (12 frames) and a blend between two others. */
const FRAME = 5;
const BLEND = { frame1: 3, frame2: 4, t: 0.25 };

interface Posed {
  backend: string;
  positions: number[];
  normals: number[];
}

/** Node's poses of the drone: exact frame and blend, on WASM SIMD and on TS. */
async function nodePoses(): Promise<Record<'wasm-simd' | 'ts', { frame: Posed; blend: Posed }>> {
  const mesh = parseMd5Mesh(read(join(SHARED_MODELS, DRONE.mesh)));
  const anim = parseMd5Anim(read(join(SHARED_MODELS, DRONE.anim)));
  const out = {} as Record<'wasm-simd' | 'ts', { frame: Posed; blend: Posed }>;
  for (const backend of [await createWasmBackend('simd'), createTsBackend()]) {
    const p = new Md5Poser(backend, mesh);
    p.setAnim(anim);
    p.poseFrame(FRAME);
    const frame = { backend: backend.name, positions: [...p.positions], normals: [...p.normals] };
    p.poseBlend(BLEND.frame1, BLEND.frame2, BLEND.t);
    const blend = { backend: backend.name, positions: [...p.positions], normals: [...p.normals] };
    out[backend.name as 'wasm-simd' | 'ts'] = { frame, blend };
  }
  return out;
}

function expectSamePose(page: Posed, node: Posed, vertexCount = 1439 /* the drone's (MANIFEST: verts=1439) */): void {
  expect(page.backend).toBe(node.backend);
  expect(page.positions.length).toBe(vertexCount * 3);
  // Tolerance from the task: 1e-6 of the model's diagonal (the same kernels on the same inputs are bit-identical).
  expect(maxAbsDiff(page.positions, node.positions)).toBeLessThanOrEqual(1e-6 * diagonal(node.positions));
  expect(maxAbsDiff(page.normals, node.normals)).toBeLessThanOrEqual(1e-6);
}

/** `in-page.js`'s exports, as blank.html publishes them. */
type InPage = { inPage: Record<'poseStreamed' | 'poseInWorker' | 'posePlayable' | 'bakeAcrossWorkers' | 'texturesInWorker' | 'playerInWorker', (args: object) => Promise<any>> };

async function openTestPage(): Promise<void> {
  await page.goto(`${h.url}/test/blank.html`);
  await page.waitForFunction(() => document.body.dataset.ready === 'yes');
}

let h: Harness;
let page: Page;
let node: Awaited<ReturnType<typeof nodePoses>>;
const measured: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  [h, node] = await Promise.all([startHarness(), nodePoses()]);
  page = await h.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
});

afterAll(async () => {
  if (Object.keys(measured).length) writeFileSync(join(ARTIFACTS, 'browser-bench.json'), JSON.stringify(measured, null, 2));
  await h?.close();
});

describe('the browser entry, as plain ESM from a static server', () => {
  it('streams the drone with fetch().body and poses it on WASM SIMD and TS exactly as Node does', async () => {
    await openTestPage();
    const r: { out: Record<'wasm' | 'ts', { frame: Posed; blend: Posed }>; bytes: number; simd: boolean } = await page.evaluate(
      (args) => (window as unknown as InPage).inPage.poseStreamed(args),
      { mesh: `/models/${DRONE.mesh}`, anim: `/models/${DRONE.anim}`, frame: FRAME, blend: BLEND },
    );
    expect(r.simd).toBe(true); // Chromium has had SIMD128 since 91: 'wasm' must pick the SIMD build
    expect(r.bytes).toBe(204_801); // the whole file came through the stream (MANIFEST: size_bytes)
    expectSamePose(r.out.wasm.frame, node['wasm-simd'].frame);
    expectSamePose(r.out.wasm.blend, node['wasm-simd'].blend);
    expectSamePose(r.out.ts.frame, node.ts.frame);
    expectSamePose(r.out.ts.blend, node.ts.blend);
  });

  it('bundles through esbuild by package name with no configuration, and no bundle reaches for Node built-ins', async () => {
    const result = await build({
      stdin: { contents: "export { createBackend, Md5Poser, ModelWorker } from 'idtech-models';", resolveDir: REPO, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].text;
    expect(code).toContain('Md5Poser');
    // Both WASM builds ride inside as base64 ("AGFzbQEAAAA" is "\0asm" + version 1): nothing to fetch or copy.
    expect(code.match(/"AGFzbQEAAAA/g)?.length).toBe(2);
    for (const f of ['dist/browser.js', 'dist/worker.js', 'dist/demo.js']) {
      const text = read(join(REPO, f));
      const src = new TextDecoder().decode(text);
      expect(src, f).not.toMatch(/from\s*["'](node:|fs|path|url|stream|worker_threads)["']/);
      expect(src, f).not.toMatch(/\brequire\(/);
      // The entries share code through dist/chunk-*.js (scripts/bundle.mjs): those are their only imports.
      for (const m of src.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)) expect(m[1], f).toMatch(/^\.\/chunk-[A-Z0-9]+\.js$/);
    }
  });
});

describe('the worker mode', () => {
  it('opens, poses and skins in a worker, returns the same positions as Node in transferred buffers, and revives typed errors', async () => {
    await openTestPage();
    const r = await page.evaluate(
      (args) => (window as unknown as InPage).inPage.poseInWorker(args),
      { mesh: `/models/${DRONE.mesh}`, anim: `/models/${DRONE.anim}`, invalid: `/models/${INVALID}`, frame: FRAME, blend: BLEND },
    );
    // MANIFEST: drone verts=1439 tris=1926; forward.md5anim numFrames=12 frameRate=24.
    expect(r.info).toEqual({ vertexCount: 1439, indices: 1926 * 3, clips: [{ name: 'forward', frameCount: 12, frameRate: 24, closesOnLastFrame: true }] });
    expect(r.progress).toBeGreaterThan(1);
    expectSamePose(r.simd, node['wasm-simd'].frame);
    expectSamePose(r.simdBlend, node['wasm-simd'].blend);
    expect(r.detached).toBe(true);
    expectSamePose(r.ts, node.ts.frame);
    const expected = nodeError(read(join(SHARED_MODELS, INVALID)));
    // the worker names the file the error came from (ModelParseError.file), before Node's message for the same bytes
    expect(r.error).toEqual({ isTyped: true, name: 'ModelParseError', code: expected.code, message: `${INVALID.split('/').pop()}: ${expected.message}`, line: expected.line });
  });
});

describe('bakes across Web Workers', () => {
  it('opens a model in the worker with its textures, from a game folder URL or from dropped files, as Node resolves them', async () => {
    const root = 'res-tremulous_src.dpkdir';
    const modelPath = 'models/mapobjects/stasis/stasis.md3';
    const node = await openPlayable([{ name: 'stasis.md3', source: read(join(SHARED_MODELS, root, modelPath)) }], { textures: { fileSystem: folderFileSystem(join(SHARED_MODELS, root)), modelPath } });
    const want = node.materials.map((m) => (m.image ? { path: m.path, width: m.image.width, height: m.image.height, kind: 'rgba' in m.image ? 'rgba' : m.image.mimeType } : null));
    expect(want.filter(Boolean).length).toBeGreaterThan(0);
    await openTestPage();
    // The folder's files (29, 2 MB): as an index of the server folder, and fetched as dropped files.
    const index = (readdirSync(join(SHARED_MODELS, root), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((d) => d.isFile())
      .map((d) => relative(join(SHARED_MODELS, root), join(d.parentPath, d.name)).split('\\').join('/'));
    const r = await page.evaluate((args) => (window as unknown as InPage).inPage.texturesInWorker(args), { model: `/models/${root}/${modelPath}`, game: `/models/${root}/`, modelPath, index });
    expect(r.byUrl).toEqual(want);
    expect(r.byFiles).toEqual(want);
    expect(r.uvs).toBe(r.vertexCount * 2);
  });

  it('opens a Quake 3 player in the worker, textured by its skins, and poses it as Node does', async () => {
    const root = 'res-players_src.dpkdir';
    const modelPath = 'models/players/human_bsuit';
    const names = ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg'];
    const node = await openPlayable(names.map((name) => ({ name, source: read(join(SHARED_MODELS, root, modelPath, name)) })), { textures: { fileSystem: folderFileSystem(join(SHARED_MODELS, root)), modelPath } });
    const nodePlayer = node.createPlayer(await createWasmBackend('simd'));
    nodePlayer.setClip(node.clips.findIndex((c) => c.name === 'LEGS_RUN'));
    nodePlayer.poseBlend(1, 2, 0.25);
    const index = (readdirSync(join(SHARED_MODELS, root), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((d) => d.isFile())
      .map((d) => relative(join(SHARED_MODELS, root), join(d.parentPath, d.name)).split('\\').join('/'));
    await openTestPage();
    const r = await page.evaluate((args) => (window as unknown as InPage).inPage.playerInWorker(args), { folder: `/models/${root}/${modelPath}`, game: `/models/${root}/`, modelPath, index });
    expect(r.summary).toBe(node.summary);
    expect(r.parts).toBe(node.parts.length);
    expect(r.textured).toBe(node.parts.length); // every surface textured by its part's skin
    expect(r.positions).toEqual([...nodePlayer.positions]);
    nodePlayer.dispose();
  });

  it('a cross-origin isolated page bakes over two module workers sharing one WebAssembly memory, exactly as one thread and as Node', async () => {
    await openTestPage();
    const frames = [11, 0, 5, 5, 3];
    const r = await page.evaluate((args) => (window as unknown as InPage).inPage.bakeAcrossWorkers(args), { mesh: `/models/${DRONE.mesh}`, anim: `/models/${DRONE.anim}`, frames });
    expect(r.isolated).toBe(true); // scripts/serve.mjs sends COOP/COEP
    expect(r.workers).toBe(2);
    expect(r.fallback).toBeNull();
    expect(r.mode).toBe('shared-memory'); // Chromium shares a WebAssembly memory with workers on an isolated page
    expect(r.shared).toBe(true);
    expect(r.same).toBe(true);
    expect(r.viewSame).toBe(true);
    const p = new Md5Poser(await createWasmBackend('simd'), parseMd5Mesh(read(join(SHARED_MODELS, DRONE.mesh))));
    p.setAnim(parseMd5Anim(read(join(SHARED_MODELS, DRONE.anim))));
    expect(r.positions).toEqual(Array.from(p.bakeFrames(frames)));
    p.dispose();
  });
});

describe('MD2 and MD3 through the format dispatch', () => {
  // Frames and clips from MANIFEST.tsv: faerie.md2 "frames: stand(40) run(6) …" (so run is frames 40–45,
  // 366 vertices, 654 triangles); overmind.md3 "frames=70", surfaces of 462 + 248 + 20 vertices.
  const cases = [
    { path: 'assimp/test/models/MD2/faerie.md2', clip: 1, clipName: 'run', firstFrame: 40, vertices: 366, triangles: 654 },
    { path: 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3', clip: 0, clipName: 'all frames', firstFrame: 0, vertices: 462 + 248 + 20, triangles: 702 + 352 + 10 },
  ];
  for (const c of cases) {
    it(`${c.path.split('/').pop()}: streamed and posed in the page and in the worker exactly as Node's poser does`, async () => {
      const [frame1, frame2, t] = [2, 3, 0.5];
      const bytes = read(join(SHARED_MODELS, c.path));
      // An MD2 is drawn over its welded (position, st) corners: each takes the posed vertex md2Unwelded names.
      const welded = c.path.endsWith('.md2') ? md2Unwelded(parseMd2(bytes)).sourceVertex : null;
      const drawn = (v: Float32Array) => (welded ? [...welded].flatMap((s) => [v[s * 3], v[s * 3 + 1], v[s * 3 + 2]]) : [...v]);
      const vertices = welded ? welded.length : c.vertices;
      if (welded) expect(Math.max(...welded)).toBe(c.vertices - 1); // every file vertex is drawn
      const nodePose = (backend: PoseBackend): Posed => {
        const poser = c.path.endsWith('.md2') ? new Md2Poser(backend, parseMd2(bytes)) : new Md3Poser(backend, parseMd3(bytes));
        poser.poseBlend(c.firstFrame + frame1, c.firstFrame + frame2, t);
        return { backend: backend.name, positions: drawn(poser.positions), normals: drawn(poser.normals) };
      };
      const simd = nodePose(await createWasmBackend('simd'));
      const ts = nodePose(createTsBackend());
      await openTestPage();
      const r = await page.evaluate((args) => (window as unknown as InPage).inPage.posePlayable(args), { urls: [`/models/${c.path}`], clip: c.clip, frame1, frame2, t });
      expect(r.clips[c.clip].name).toBe(c.clipName);
      expect(r.indices.length).toBe(c.triangles * 3);
      expect(r.workerIndices).toBe(c.triangles * 3);
      expect(Math.max(...r.indices)).toBe(vertices - 1);
      expectSamePose(r.out['wasm-simd'], simd, vertices);
      expectSamePose(r.out.ts, ts, vertices);
      expectSamePose({ ...r.out.worker, backend: 'wasm-simd' }, simd, vertices);
    });
  }
});

/** The error Node's parser throws for these bytes. */
function nodeError(bytes: Uint8Array): ModelParseError {
  try {
    parseMd5Mesh(bytes);
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw e;
  }
  throw new Error('the malformed file parsed');
}

/** Waits for the demo to be ready with every backend measured; returns ms per frame by backend. */
async function demoBench(): Promise<Record<string, number>> {
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20_000 });
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('#bench tr[data-backend]')].every((tr) => tr.dataset.ms), null, { timeout: 20_000 });
  // About a second more of measuring: every backend has several samples behind its median.
  await page.waitForTimeout(1000);
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll<HTMLElement>('#bench tr[data-backend]')].map((tr) => [tr.dataset.backend!, Number(tr.dataset.ms)])));
}

/** The demo with its default model loaded (`query`: page options such as `?renderer=2d`). */
async function openDemo(query = ''): Promise<void> {
  await page.goto(`${h.url}/demo/${query}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready', null, { timeout: 20_000 });
}

/** Two canvas screenshots a little apart: an animating model draws different pixels. */
async function twoShots(name: string): Promise<[Buffer, Buffer]> {
  const a = await page.locator('#view').screenshot({ path: join(ARTIFACTS, `${name}-1.png`) });
  await page.waitForTimeout(250);
  const b = await page.locator('#view').screenshot({ path: join(ARTIFACTS, `${name}-2.png`) });
  return [a, b];
}

describe('the demo page', () => {
  it('opens the default model, animates it, and measures every backend', async () => {
    await page.goto(`${h.url}/demo/`);
    const bench = await demoBench();
    measured.worm = bench;
    expect(Object.keys(bench)).toEqual(['wasm-simd', 'wasm-scalar', 'ts']);
    for (const ms of Object.values(bench)) expect(ms).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.body.dataset.renderer)).toBe('webgl2'); // SwiftShader under --disable-gpu
    const mesh = parseMd5Mesh(read(join(FIXTURES, 'default/worm.md5mesh')));
    const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
    expect(await page.textContent('#info')).toContain(`${vertices} vertices`);
    const [a, b] = await twoShots('demo-worm');
    expect(a.equals(b)).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'demo-worm-page.png') });
  });

  it('plays a real model streamed from the server, switches backend live and scrubs frames', async () => {
    await page.goto(`${h.url}/demo/?files=/models/${DRONE.mesh},/models/${DRONE.anim},/models/actors/drone/idle.md5anim`);
    const bench = await demoBench();
    measured.drone = bench;
    for (const ms of Object.values(bench)) expect(ms).toBeGreaterThan(0);
    expect(await page.locator('#clip option').allTextContents()).toEqual(['forward (12 frames, 24 fps)', 'idle (2 frames, 24 fps)']);
    const [a, b] = await twoShots('demo-drone');
    expect(a.equals(b)).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'demo-drone-page.png') });

    await page.selectOption('#backend', 'ts');
    // The table marks the active backend when it next redraws (a display frame later): wait for it, bounded.
    await page.waitForFunction(() => document.querySelector('#bench tr.active')?.getAttribute('data-backend') === 'ts', null, { timeout: 5_000 });
    expect(await page.getAttribute('#bench tr.active', 'data-backend')).toBe('ts');
    // Scrubbing pauses on the chosen frame: the picture then stays still.
    await page.locator('#frame').fill('7');
    await page.waitForTimeout(100);
    expect(await page.textContent('#frame-text')).toBe('7 / 11');
    const [c, d] = await twoShots('demo-drone-paused');
    expect(c.equals(d)).toBe(true);
  });

  it('draws with the 2D canvas fallback where WebGL2 is not wanted', async () => {
    await openDemo('?renderer=2d');
    expect(await page.evaluate(() => document.body.dataset.renderer)).toBe('canvas2d');
    const [a, b] = await twoShots('demo-canvas2d');
    expect(a.equals(b)).toBe(false);
  });

  it('plays a dropped .md2 with its frame-name clips', async () => {
    // MANIFEST: faerie.md2 frames stand(40) run(6) attack(8) … — 16 clips.
    await openDemo();
    await page.locator('#frame').fill('3'); // paused: a newly opened model must play again
    await page.locator('#file').setInputFiles(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2'));
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#info')!.textContent!.startsWith('MD2'), null, { timeout: 10_000 });
    const clips = await page.locator('#clip option').allTextContents();
    expect(clips.length).toBe(16);
    expect(clips.slice(0, 2)).toEqual(['stand (40 frames, 10 fps)', 'run (6 frames, 10 fps)']);
    const [a, b] = await twoShots('demo-md2');
    expect(a.equals(b)).toBe(false);
  });

  it('lists the models of a dropped .pk3 and plays the one picked, its md5anims beside it as clips', async () => {
    // A deflated archive made here from the corpus: the drone (mesh + its md5anims), faerie.md2 and a Tremulous md3.
    const members = [DRONE.mesh, DRONE.anim, 'actors/drone/idle.md5anim', 'assimp/test/models/MD2/faerie.md2', 'res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3'];
    const pk3 = join(ARTIFACTS, 'demo-drop.pk3');
    writeFileSync(pk3, makeZip(members.map((m) => ({ name: m.replace('res-tremulous_src.dpkdir/', ''), data: read(join(SHARED_MODELS, m)) }))));
    await openDemo();
    await page.locator('#file').setInputFiles(pk3);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.archiveModels === '3', null, { timeout: 20_000 });
    const listed = await page.locator('#archive-models option').allTextContents();
    expect(listed).toEqual(['actors/drone/mesh.md5mesh + 2 anims', 'assimp/test/models/MD2/faerie.md2', 'models/mapobjects/stasis/stasis.md3']);
    // The first opened, with its two md5anims as clips, as Node parses the same files.
    const mesh = parseMd5Mesh(read(join(SHARED_MODELS, DRONE.mesh)));
    expect(await page.textContent('#info')).toMatch(new RegExp(`^MD5: ${mesh.joints.count} joints, ${mesh.meshes.length} meshes, .* 2 anims`));
    expect((await page.locator('#clip option').allTextContents()).map((t) => t.split(' ')[0])).toEqual(['forward', 'idle']);
    // Picking another member opens it, streamed from the archive.
    await page.locator('#archive-models').selectOption({ label: 'assimp/test/models/MD2/faerie.md2' });
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#info')!.textContent!.startsWith('MD2'), null, { timeout: 20_000 });
    expect(await page.locator('#clip option').count()).toBe(16); // MANIFEST: faerie's 16 frame-name clips
    const [a, b] = await twoShots('demo-pk3');
    expect(a.equals(b)).toBe(false);
  });

  it('lists the models of a picked game folder, its .pk3 included, and plays the one picked', async () => {
    // A game folder made here: a loose MD2 under models/, and a .pk3 holding an md3 (ioquake3 order: loose files first).
    const game = join(ARTIFACTS, 'demo-game');
    rmSync(game, { recursive: true, force: true });
    mkdirSync(join(game, 'models/faerie'), { recursive: true });
    writeFileSync(join(game, 'models/faerie/faerie.md2'), read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')));
    const md3 = 'models/mapobjects/stasis/stasis.md3';
    writeFileSync(join(game, 'pak0.pk3'), makeZip([{ name: md3, data: read(join(SHARED_MODELS, 'res-tremulous_src.dpkdir', md3)) }]));
    await openDemo();
    await page.locator('#folder').setInputFiles(game);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.archiveModels === '2', null, { timeout: 20_000 });
    expect(await page.locator('#archive-models option').allTextContents()).toEqual(['models/faerie/faerie.md2', md3]); // by path
    expect(await page.textContent('#info')).toMatch(/^MD2/);
    await page.locator('#archive-models').selectOption({ label: md3 }); // read out of pak0.pk3
    const surfaces = parseMd3(read(join(SHARED_MODELS, 'res-tremulous_src.dpkdir', md3))).surfaces.length;
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#info')!.textContent!.startsWith('MD3'), null, { timeout: 20_000 });
    expect(await page.textContent('#info')).toMatch(new RegExp(`^MD3: \\d+ frames, ${surfaces} surfaces`));
  });

  it('draws a textured model: its parts resolved from the game folder on the server, as many textured parts as Node resolves, their pixels changed', async () => {
    // stasis.md3 (Tremulous): its surfaces' shader names find their PNG/JPEG images by the engines' extension
    // fallback. Drawn paused at frame 0, once untextured (no game folder) and once textured.
    const model = '/models/res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3';
    const shot = async (query: string) => {
      await openDemo(query);
      await page.locator('#play').click(); // pause: both pictures show the same frame
      await page.waitForTimeout(300); // PNG/JPEG textures decode asynchronously
      return decode(await page.locator('#view').screenshot());
    };
    const plain = await shot(`?files=${model}`);
    expect(await page.evaluate(() => document.body.dataset.texturedParts)).toBe('0');
    const textured = await shot(`?files=${model}&game=/models/res-tremulous_src.dpkdir/`);
    const parts = Number(await page.evaluate(() => document.body.dataset.texturedParts));
    expect(parts).toBeGreaterThan(0);
    await page.locator('#view').screenshot({ path: join(ARTIFACTS, 'demo-textured.png') }); // docs/demo-textured.png is a copy
    // The page resolved as many textured parts as Node does from the same folder (by name: extension fallback).
    const node = await openPlayable([{ name: 'stasis.md3', source: read(join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3')) }], {
      textures: { fileSystem: folderFileSystem(join(SHARED_MODELS, 'res-tremulous_src.dpkdir')), modelPath: 'models/mapobjects/stasis/stasis.md3' },
    });
    expect(parts).toBe(node.materials.filter((m) => m.image).length);
    // And the picture changed where the textured parts are.
    const d0 = plain.data as Uint8Array, d1 = textured.data as Uint8Array;
    const bg = (d: Uint8Array, i: number) => Math.abs(d[i] - 13) + Math.abs(d[i + 1] - 15) + Math.abs(d[i + 2] - 19) < 6;
    let onModel = 0, changed = 0;
    for (let i = 0; i < d0.length; i += 4) {
      if (bg(d0, i) || bg(d1, i)) continue;
      onModel++;
      if (Math.abs(d0[i] - d1[i]) + Math.abs(d0[i + 1] - d1[i + 1]) + Math.abs(d0[i + 2] - d1[i + 2]) > 30) changed++;
    }
    expect(onModel).toBeGreaterThan(1000); // the model is on screen in both
    // Only the parts whose images were found change (the others keep their part colour): a fifth of the model's pixels
    // or more here.
    expect(changed / onModel).toBeGreaterThan(0.15);
  });

  it('offers the skins an MD3 has and redraws with the one picked', async () => {
    // aaa-assets' portals.md3 ships portals_blue.skin and portals_orange.skin (surface → image lines) and its shader
    // script: zipped here as a game archive.
    const root = join(SHARED_MODELS, 'aaa-assets');
    const files = ['models/fx/portal/portals.md3', 'models/fx/portal/portals_blue.skin', 'models/fx/portal/portals_orange.skin', 'scripts/portals.shader',
      ...['bluecenter', 'bluering', 'orangecenter', 'orangering', 'portalcenter', 'portalring'].map((n) => `models/fx/portal/${n}.jpg`)];
    const pk3 = join(ARTIFACTS, 'demo-skins.pk3');
    writeFileSync(pk3, makeZip(files.map((f) => ({ name: f, data: read(join(root, f)) }))));
    await openDemo();
    await page.locator('#file').setInputFiles(pk3);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.skins === '2', null, { timeout: 20_000 });
    expect(await page.locator('#skin option').allTextContents()).toEqual(['blue', 'orange']);
    const images = () => page.evaluate(() => document.body.dataset.images!.split(','));
    const blue = await images();
    expect(blue.some((p) => /blue(ring|center)\.jpg$/.test(p))).toBe(true);
    await page.locator('#skin').selectOption('orange');
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && /orange/.test(document.body.dataset.images ?? ''), null, { timeout: 20_000 });
    const orange = await images();
    expect(orange.some((p) => /orange(ring|center)\.jpg$/.test(p))).toBe(true);
    expect(orange.some((p) => /blue/.test(p))).toBe(false);
  });

  it('opens a Quake 3 player from a dropped .pk3: assembled by its tags, animated by its animation.cfg, textured by its skins', async () => {
    const folder = 'models/players/human_bsuit';
    const names = ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg', 'lower_default.skin', 'upper_default.skin', 'head_default.skin', 'human_bsuit.jpg'];
    const pk3 = join(ARTIFACTS, 'demo-player.pk3');
    writeFileSync(pk3, makeZip(names.map((n) => ({ name: `${folder}/${n}`, data: read(join(SHARED_MODELS, 'res-players_src.dpkdir', folder, n)) }))));
    await openDemo();
    await page.locator('#file').setInputFiles(pk3);
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.archiveModels === '1', null, { timeout: 20_000 });
    expect(await page.locator('#archive-models option').allTextContents()).toEqual([`${folder}/ (player)`]);
    expect(await page.textContent('#info')).toMatch(/^Quake 3 player: /);
    const surfaces = ['lower', 'upper', 'head'].reduce((n, p) => n + parseMd3(read(join(SHARED_MODELS, 'res-players_src.dpkdir', folder, `${p}.md3`))).surfaces.length, 0);
    expect(await page.evaluate(() => document.body.dataset.texturedParts)).toBe(String(surfaces)); // every surface has its skin's image
    const clips = (await page.locator('#clip option').allTextContents()).map((t) => t.split(' ')[0]);
    expect(clips).toEqual(expect.arrayContaining(['BOTH_DEATH1', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_IDLE'])); // animation.cfg's legs clips
    const [a, b] = await twoShots('demo-player');
    expect(a.equals(b)).toBe(false); // animating
  });

  it('shows a malformed dropped file as its typed error, with Node’s message', async () => {
    const path = join(SHARED_MODELS, INVALID);
    const expected = nodeError(read(path));
    await openDemo();
    await page.locator('#file').setInputFiles(path);
    await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 10_000 });
    expect(await page.textContent('#error-kind')).toBe(`ModelParseError ${expected.code}`);
    expect(await page.textContent('#error-message')).toBe(`InvalidBoneIndex.md5mesh: ${expected.message}`);
    await page.screenshot({ path: join(ARTIFACTS, 'demo-error.png') });
  });
});
