/**
 * Archives in a real browser (headless Debian Chromium): the vfs floor bundled for the page reads a .pk3 served by
 * scripts/serve.mjs with HTTP Range requests (a few requests for one model, not the whole file), from a Blob (a
 * dropped file), and mounts dropped archives in ioquake3's order; every member streams to its declared size with
 * its CRC checked, through DecompressionStream and fflate. Expected values come from this process (the corpus).
 * How fast each inflater is in the page is `npm run bench`'s (bench/archives.mjs, through vfs-page.ts's inflateSpeed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../scripts/serve.mjs';
import { corpusArchives, type CorpusArchives } from '../helpers/corpus-archives.js';
import { REPO } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';
import { CHROMIUM_ARGS, chromiumPath, LOADED_MS } from './chromium.js';

const MD3 = 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3'; // MANIFEST: frames=70, 3 surfaces
let corpus: CorpusArchives;
let server: { url: string; close(): Promise<void> };
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  corpus = await corpusArchives();
  const pageDir = join(REPO, 'target', 'vfs-page');
  mkdirSync(pageDir, { recursive: true });
  await build({ entryPoints: [join(REPO, 'ts/test/browser/vfs-page.ts')], outfile: join(pageDir, 'vfs-page.js'), bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' });
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="vfs-page.js"></script></body>');
  writeFileSync(join(corpus.dir, 'pak0.pk3'), makeZip([{ name: 'who.txt', data: new TextEncoder().encode('pak0') }]));
  server = await startServer({ port: 0, extra: { '/vfs/': pageDir, '/archives/': corpus.dir } });
  context = await chromium.launchPersistentContext('', { executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  context.setDefaultTimeout(LOADED_MS);
  context.setDefaultNavigationTimeout(LOADED_MS);
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(`${server.url}/vfs/`);
  await page.waitForFunction(() => document.body.dataset.vfs === 'ready');
});

afterAll(async () => {
  await context?.close();
  await server?.close();
});

type VfsPage = Record<string, (...a: unknown[]) => Promise<any>>;
const call = (fn: string, ...args: unknown[]) => page.evaluate(([f, a]) => ((window as unknown as { vfsPage: VfsPage }).vfsPage[f as string])(...(a as unknown[])), [fn, args] as const);
const expectedSizes = () => Object.fromEntries(corpus.rows.map((r) => [r.path, r.size]));

describe('a .pk3 on a web server, read in the page', () => {
  it('with Range requests: one model parsed after 3 requests, then every member streams to its size with its CRC checked', async () => {
    const r = await call('readByRange', '/archives/deflate.pk3', MD3);
    expect(r.deflateRaw).toBe(true);
    expect(r.listed).toBe(corpus.rows.length);
    expect(r.requestsForOneModel).toBe(3); // the tail (directory inside), the member's local header, its bytes
    expect([r.surfaces, r.frames]).toEqual([3, 70]);
    expect(r.sizes).toEqual(expectedSizes());
  });

  for (const inflater of ['DecompressionStream', 'fflate']) {
    it(`from a Blob (a dropped file), ${inflater}: every member of the zip64 and Info-ZIP archives`, async () => {
      for (const name of ['zip64.pk4', 'infozip.pk3']) {
        const r = await call('readFromBlob', `/archives/${name}`, inflater);
        expect(r.sizes).toEqual(expectedSizes());
      }
    });
  }

  it('dropped archives mount in ioquake3 order, the later name first', async () => {
    const r = await call('mountDropped', ['/archives/pak0.pk3', '/archives/deflate.pk3']);
    expect(r.layers).toEqual(['', 'pak0.pk3', 'deflate.pk3']);
    expect(r.files).toBe(corpus.rows.filter((x) => x.path.endsWith('.md3')).length);
  });
});
