/**
 * Tremulous' non-segmented player and buildables in the model viewer (demo/, built to dist/demo/), in real Chromium:
 * opened from a picked .pk3 (their folders in the tree) and from their MD3's URL alone (the folder is read through
 * its animation.cfg, as the game does), each drawn — pixels covered — with the animation.cfg's clips listed by name,
 * and no error on the page or in its worker. The game folder is assembled at test time from corpus models and the
 * hand-made cfgs (helpers/tremulous-game.ts); the expected clips are what this process reads with the library.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS, entryFor } from '../../src/registry/formats.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { REPO } from '../helpers/models.js';
import { tremulousGame } from '../helpers/tremulous-game.js';
import { makeZip } from '../helpers/zip-writer.js';
import { ARTIFACTS, startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-tremulous-test');
const game = tremulousGame();
let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  for (const [p, bytes] of game) {
    mkdirSync(dirname(join(WORK, 'game', p)), { recursive: true });
    writeFileSync(join(WORK, 'game', p), bytes);
  }
  writeFileSync(join(WORK, 'trem.pk3'), makeZip([...game].map(([name, data]) => ({ name, data }))));
  h = await startHarness({ '/viewer-tremulous/': WORK });
  page = await h.context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

const settled = () => page.waitForFunction(() => !['starting', 'loading'].includes(document.body.dataset.state ?? '') && document.body.dataset.mount !== 'busy');
const state = () => page.evaluate(() => ({ ...document.body.dataset }));
const listedClips = () => page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLOptionElement>('#channels option')].map((o) => o.value))]);

/** What Node reads at `path`: its format and its view's clip names. */
async function nodeClips(path: string): Promise<{ format: string; clips: string[] }> {
  const fs = memoryFileSystem([...game].map(([p, bytes]) => ({ path: p, bytes })));
  const set = await openModelSet(fs, path, { formats: DEFAULT_FORMATS });
  const view = await entryFor(set.format)!.view!(set, createTsBackend());
  return { format: set.format, clips: view.clips.map((c) => c.name) };
}

/** The model on the page is `format`, drawn, with `clips` listed, and nothing went wrong. */
async function expectDrawn(want: { format: string; clips: string[] }, shot: string): Promise<void> {
  const s = await state();
  expect(s.state, s.code).toBe('ready');
  expect(s.format).toBe(want.format);
  expect((await listedClips()).sort()).toEqual([...want.clips].sort());
  expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
  await page.locator('#view').screenshot({ path: join(ARTIFACTS, `viewer-${shot}.png`) });
  expect(problems).toEqual([]);
}

describe("Tremulous' non-segmented player and buildables in the viewer", () => {
  it('a picked .pk3 lists them as folders; each picked is drawn with its animation.cfg clips', async () => {
    await page.goto(`${h.url}/demo/?clock=manual&idle`);
    await settled();
    await page.locator('#pick-files').setInputFiles(join(WORK, 'trem.pk3'));
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready');
    for (const path of ['models/players/spitfire', 'models/buildables/slime_zunge', 'models/buildables/mgturret']) {
      await page.getByRole('searchbox', { name: 'Filter files by name' }).fill(path);
      await page.locator(`[role="treeitem"][aria-label="${path}/"] > .row`).click();
      await page.waitForFunction((p) => document.body.dataset.model === p && document.body.dataset.state === 'ready', path);
      const want = await nodeClips(path);
      expect(want.clips.length).toBeGreaterThan(10);
      await expectDrawn(want, `tremulous-${path.split('/').pop()}`);
    }
  });

  for (const path of ['models/players/spitfire/nonseg.md3', 'models/buildables/slime_zunge/slime_zunge.md3']) {
    it(`${path} opened by its URL alone is its folder's model: drawn, with the cfg's clips`, async () => {
      await page.goto(`${h.url}/demo/?clock=manual&files=${encodeURIComponent(`${h.url}/viewer-tremulous/game/${path}`)}`);
      await settled();
      await expectDrawn(await nodeClips(path), `tremulous-url-${path.split('/').pop()}`);
    });
  }
});
