/**
 * The package in a real browser (headless Debian Chromium, software GL): the browser entry imported as plain
 * ESM from a static server, streaming a real model with fetch().body; the worker mode (the model viewer has its own
 * tests: viewer.test.ts). Every
 * expected value comes from this process: the same model posed in Node by the library's own source, and the
 * same malformed file's ModelParseError as Node throws it.
 */
import { readdirSync } from 'node:fs';
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
import { read, REPO, SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';
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

beforeAll(async () => {
  [h, node] = await Promise.all([startHarness(), nodePoses()]);
  page = await h.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
});

afterAll(async () => {
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
      stdin: { contents: "export { createBackend, ModelWorker } from 'idtech-models';\nexport { Md5Poser } from 'idtech-models/md5';", resolveDir: REPO, loader: 'js' },
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
    for (const f of ['dist/browser.js', 'dist/worker.js', 'dist/demo/main.js', 'dist/demo/worker.js']) {
      const text = read(join(REPO, f));
      const src = new TextDecoder().decode(text);
      expect(src, f).not.toMatch(/from\s*["'](node:|fs|path|url|stream|worker_threads)["']/);
      expect(src, f).not.toMatch(/\brequire\(/);
      // The entries share code through chunks (scripts/bundle.mjs: dist/chunk-*.js; the viewer's dist/demo/chunks/): those are their only imports.
      for (const m of src.matchAll(/^import\b[^;]*?from\s*["']([^"']+)["']/gm)) expect(m[1], f).toMatch(/^\.\/(chunks\/)?chunk-[\w-]+\.js$/);
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
