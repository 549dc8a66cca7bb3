/**
 * The worker mode as users build it: a page that imports `ModelWorker` from the installed tarball, bundled by
 * esbuild and by Vite as docs/worker.md says, run in headless Debian Chromium. Served as documented, the worker
 * poses the drone exactly as this process does; with the worker script missing (esbuild does not copy it; Vite's
 * dev server without the documented setting) or replaced by an HTML page, every call rejects with the load error
 * instead of waiting forever.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build as viteBuild, createServer as viteServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { startServer } from '../../../scripts/serve.mjs';
import { CHROMIUM_ARGS, chromiumPath, LOADED_MS } from '../browser/chromium.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { packAndInstall, type Consumer } from './consumer.js';

const DRONE = { mesh: 'actors/drone/mesh.md5mesh', anim: 'actors/drone/forward.md5anim' };
const FRAME = 5;

/**
 * The page's code: the worker opens the drone and poses one frame, or the error it rejected with. `makeWorker`:
 * how the page gets its ModelWorker (an expression over `workerUrl`), `imports`: what that needs.
 */
const pageCode = (makeWorker = 'workerUrl ? ModelWorker.create(workerUrl) : ModelWorker.create()', imports = '') => `
import { ModelWorker } from 'idtech-models';
${imports}
window.poseInWorker = async ({ mesh, anim, frame, workerUrl }) => {
  const w = ${makeWorker};
  const failures = [];
  try {
    const files = [{ name: 'mesh.md5mesh', source: (await fetch(mesh)).body }, { name: 'forward.md5anim', source: (await fetch(anim)).body }];
    const info = await w.open(files, { backend: 'wasm-simd' });
    const posed = await w.pose(frame);
    return { vertexCount: info.vertexCount, backend: posed.backend, positions: Array.from(posed.positions) };
  } catch (e) {
    // The call that failed, a later call and the ready promise: all with the one load error.
    for (const later of [() => w.pose(0), () => w.ready]) await later().catch((f) => failures.push(f === e));
    return { error: e.message, laterCallsRejectedWithIt: failures };
  } finally {
    w.terminate();
  }
};
document.body.dataset.ready = 'yes';
`;
const HTML = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="./main.js"></script></head><body></body></html>';

type Result = { vertexCount: number; backend: string; positions: number[] } | { error: string; laterCallsRejectedWithIt: boolean[] };

let consumer: Consumer;
let browser: Browser;
let server: { url: string; close(): Promise<void> };
let nodePositions: number[];

beforeAll(async () => {
  consumer = await packAndInstall();
  consumer.write({
    'app/main.js': pageCode(),
    'app/index.html': HTML,
    // docs/worker.md, Vite's worker import: no setting needed in dev or build.
    'app-vite-import/main.js': pageCode('new ModelWorker(new IdtechWorker())', "import IdtechWorker from 'idtech-models/worker?worker';"),
    'app-vite-import/index.html': HTML,
  });
  const app = join(consumer.dir, 'app');
  const out = (name: string) => join(consumer.dir, 'out', name);
  const esbuildOptions = { bundle: true, format: 'esm', platform: 'browser', absWorkingDir: consumer.dir, logLevel: 'silent' } as const;
  await Promise.all([
    // docs/worker.md, esbuild: the worker script as a second entry point, written beside the app.
    esbuild({ ...esbuildOptions, entryPoints: [{ in: 'app/main.js', out: 'main' }, { in: 'idtech-models/worker', out: 'worker' }], outdir: out('esbuild') }),
    // What users did before: only the app. ModelWorker.create() then points at a worker.js that is not there.
    esbuild({ ...esbuildOptions, entryPoints: [{ in: 'app/main.js', out: 'main' }], outdir: out('esbuild-no-worker') }),
    // docs/worker.md, Vite build: no configuration.
    viteBuild({ root: app, base: '/vite/', configFile: false, logLevel: 'silent', build: { outDir: out('vite'), emptyOutDir: true } }),
  ]);
  for (const name of ['esbuild', 'esbuild-no-worker']) writeFileSync(join(out(name), 'index.html'), HTML);
  server = await startServer({
    port: 0,
    mounts: { '/esbuild/': out('esbuild'), '/esbuild-no-worker/': out('esbuild-no-worker'), '/vite/': out('vite'), '/models/': SHARED_MODELS },
  });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });

  const poser = new Md5Poser(await createWasmBackend('simd'), parseMd5Mesh(read(join(SHARED_MODELS, DRONE.mesh))));
  poser.setAnim(parseMd5Anim(read(join(SHARED_MODELS, DRONE.anim))));
  poser.poseFrame(FRAME);
  nodePositions = [...poser.positions];
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  consumer?.remove();
});

/** Opens `pageUrl` and runs the app's poseInWorker with model URLs under `models`. */
async function run(pageUrl: string, models: string, workerUrl?: string): Promise<Result> {
  const page: Page = await browser.newPage();
  page.setDefaultTimeout(LOADED_MS);
  page.setDefaultNavigationTimeout(LOADED_MS);
  try {
    await page.goto(pageUrl);
    await page.waitForFunction(() => document.body?.dataset.ready === 'yes');
    const args = { mesh: `${models}/${DRONE.mesh}`, anim: `${models}/${DRONE.anim}`, frame: FRAME, workerUrl };
    return await page.evaluate((a) => (window as unknown as { poseInWorker(a: object): Promise<Result> }).poseInWorker(a), args);
  } finally {
    await page.close();
  }
}

function expectPosedLikeNode(r: Result): void {
  if ('error' in r) throw new Error(`the worker failed: ${r.error}`);
  expect(r.vertexCount).toBe(1439); // MANIFEST: verts=1439
  expect(r.backend).toBe('wasm-simd');
  expect(maxAbsDiff(r.positions, nodePositions)).toBeLessThanOrEqual(1e-6 * diagonal(nodePositions));
}

describe('esbuild', () => {
  it('with idtech-models/worker as a second entry point, ModelWorker.create() finds worker.js beside the app and poses', async () => {
    expectPosedLikeNode(await run(`${server.url}/esbuild/`, `${server.url}/models`));
  });

  it('without it the page gets a 404 for worker.js: the call, a later call and ready reject with the load error', async () => {
    const r = await run(`${server.url}/esbuild-no-worker/`, `${server.url}/models`);
    expect(r).toEqual({
      error: `the model worker script ${server.url}/esbuild-no-worker/worker.js did not load: a 404, an HTML page served in its place, or a syntax error. Serve the package's worker script (idtech-models/worker, node_modules/idtech-models/dist/worker.js) at that URL, or pass its URL to ModelWorker.create(url).`,
      laterCallsRejectedWithIt: [true, true],
    });
  });

  it('an HTML page where the worker script should be (a single-page app\'s fallback) is a load failure too', async () => {
    const r = await run(`${server.url}/esbuild/`, `${server.url}/models`, '/esbuild/index.html');
    expect('error' in r && r.error).toMatch(/^the model worker script \/esbuild\/index\.html did not load: /);
  });
});

describe('Vite', () => {
  it('vite build, no configuration: Vite bundles the worker from the package and it poses', async () => {
    expectPosedLikeNode(await run(`${server.url}/vite/`, `${server.url}/models`));
  });

  // The dev server pre-bundles dependencies into its cache folder (docs/worker.md): three set-ups of it.
  const devCases = [
    { name: 'with optimizeDeps.exclude: ["idtech-models"], ModelWorker.create() finds the worker and it poses', root: 'app', exclude: true, works: true },
    { name: "with the worker imported as 'idtech-models/worker?worker' and no setting, it poses", root: 'app-vite-import', exclude: false, works: true },
    { name: 'with neither, worker.js 404s in the cache folder and the calls reject with the load error', root: 'app', exclude: false, works: false },
  ];
  for (const c of devCases) {
    it(`the dev server, ${c.name}`, async () => {
      const dev = await viteServer({
        root: join(consumer.dir, c.root),
        configFile: false,
        logLevel: 'silent',
        cacheDir: join(consumer.dir, `vite-cache-${devCases.indexOf(c)}`),
        optimizeDeps: c.exclude ? { exclude: ['idtech-models'] } : {},
        // Vite takes port 0 for its default (5173) and moves up from there when that is taken.
        server: { host: '127.0.0.1', fs: { allow: [consumer.dir, SHARED_MODELS] } },
      });
      try {
        await dev.listen();
        const origin = dev.resolvedUrls!.local[0].replace(/\/$/, '');
        const r = await run(`${origin}/`, `${origin}/@fs${SHARED_MODELS}`);
        if (c.works) expectPosedLikeNode(r);
        else expect('error' in r && r.error).toMatch(new RegExp(`^the model worker script ${origin}/\\S*/vite-cache-${devCases.indexOf(c)}/deps/worker\\.js did not load: `));
      } finally {
        await dev.close();
      }
    });
  }
});
