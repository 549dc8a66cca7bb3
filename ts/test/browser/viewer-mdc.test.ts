/**
 * RTCW/ET's MDC in the model viewer (demo/, built to dist/demo/), in real Chromium: R1's compressed model and
 * assimp's spider opened by their URL, each drawn — pixels covered — as an `mdc` with the clips Node's view of the
 * same file lists, with no error on the page or in its worker. The files are copied
 * under target/ at test time from the corpus.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS, entryFor } from '../../src/registry/formats.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { ARTIFACTS, startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-mdc-test');
const FILES: Record<string, string> = {
  'upper.mdc': 'rtcw-made/mdc/tremulous_human_base_upper.mdc',
  'spider.mdc': 'assimp/test/models/MDC/spider.mdc',
};
let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  for (const [name, path] of Object.entries(FILES)) copyFileSync(join(SHARED_MODELS, path), join(WORK, name));
  h = await startHarness({ '/viewer-mdc/': WORK });
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

/** Node's view of the file: its format and its clip names. */
async function nodeClips(name: string): Promise<{ format: string; clips: string[] }> {
  const set = await openModelSet(folderFileSystem(WORK), name, { formats: DEFAULT_FORMATS });
  const view = await entryFor(set.format)!.view!(set, createTsBackend());
  return { format: set.format, clips: view.clips.map((c) => c.name) };
}

describe('RTCW/ET MDC in the viewer', () => {
  for (const name of Object.keys(FILES)) {
    it(`${name} opened by its URL is drawn as an mdc with its clips`, async () => {
      await page.goto(`${h.url}/demo/?clock=manual&files=${encodeURIComponent(`${h.url}/viewer-mdc/${name}`)}`);
      await settled();
      const s = await state();
      expect(s.state, s.code).toBe('ready');
      const want = await nodeClips(name);
      expect(want.format).toBe('mdc');
      expect(s.format).toBe('mdc');
      expect((await listedClips()).sort()).toEqual([...want.clips].sort());
      expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
      await page.locator('#view').screenshot({ path: join(ARTIFACTS, `viewer-mdc-${name.replace('.mdc', '')}.png`) });
      expect(problems).toEqual([]);
    });
  }
});
