/**
 * The viewer opens RtCW's and ET's skeletal models (issue 39) in real Chromium, as viewer-issue41.test.ts drives the
 * page: CesiumMan's .mds picked alone, and its .mdm picked with the .mdx beside it, are drawn (pixels covered), their
 * one clip of every frame listed and playing, no error on the page or in the worker; the .mdm picked without its
 * skeleton is refused on screen, typed.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  h = await startHarness({});
  page = await h.context.newPage();
  if (process.env.DEV_TIMEOUT) page.setDefaultTimeout(Number(process.env.DEV_TIMEOUT));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

async function openViewer(): Promise<void> {
  await page.goto(`${h.url}/demo/?clock=manual&idle`);
  await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
}
const state = () => page.evaluate(() => ({ ...document.body.dataset }));
const listedClips = () => page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLOptionElement>('#channels option')].map((o) => o.value))]);
async function pickFiles(files: string[]): Promise<void> {
  await page.evaluate(() => (document.body.dataset.mount = 'picking'));
  await page.locator('#pick-files').setInputFiles(files);
  await page.waitForFunction(() => (document.body.dataset.mount === 'done' || document.body.dataset.mount === 'error') && document.body.dataset.state !== 'loading');
}

describe('the viewer draws MDS and MDM + MDX', () => {
  it('opens cesiumman.mds, and cesiumman.mdm with its .mdx: drawn, the clip of every frame playing', async () => {
    const cases = [
      { files: [join(SHARED_MODELS, 'rtcw-made/mds/cesiumman.mds')], model: 'cesiumman.mds' },
      { files: ['cesiumman.mdm', 'cesiumman.mdx'].map((f) => join(SHARED_MODELS, 'rtcw-made/mdmmdx', f)), model: 'cesiumman.mdm' },
    ];
    for (const c of cases) {
      await openViewer();
      await pickFiles(c.files);
      const s = await state();
      expect(s.state, c.model).toBe('ready');
      expect(s.model, c.model).toBe(c.model);
      expect(await page.locator('#error').isHidden(), c.model).toBe(true);
      expect(await listedClips(), c.model).toEqual(['frames']);
      expect(s.playing, c.model).toBe('frames');
      expect(await page.evaluate(() => window.viewer.coverage()), c.model).toBeGreaterThan(0.01);
    }
    expect(problems).toEqual([]);
  });

  it('refuses the .mdm picked without its skeleton, on screen', async () => {
    await openViewer();
    await pickFiles([join(SHARED_MODELS, 'rtcw-made/mdmmdx/cesiumman.mdm')]);
    expect(await page.locator('#error').isVisible()).toBe(true);
    expect(await page.locator('#error').innerText()).toMatch(/MISSING_BLOCK|skeleton|\.mdx/);
    problems.length = 0;
  });
});
