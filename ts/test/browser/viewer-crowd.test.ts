/**
 * The viewer's crowd mode in real Chromium (issue 42, item 3), as viewer.test.ts drives the page: a model opened, the
 * Crowd slider set, and the page draws that many instances through `CrowdMesh` — its panel saying how many and how
 * many draw calls (one per surface) and timing posing against rendering — for a skeletal model (janitor.iqm with its
 * animation files) and a vertex-animated one (dolphin.md2). The canvas shows more than the model alone did, and back
 * at 0 the model is itself again. Pictures go to target/test-artifacts/viewer-crowd-<kind>.png.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { ARTIFACTS, startHarness, type Harness } from './chromium.js';

const WORK = join(REPO, 'target', 'viewer-crowd');
const JANITOR = join(SHARED_MODELS, 'actors-iqm/janitor');
const FOLDER = join(WORK, 'janitor');

let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  for (const f of readdirSync(JANITOR)) if (statSync(join(JANITOR, f)).isFile()) copyFileSync(join(JANITOR, f), join(FOLDER, f));
  h = await startHarness({ '/viewer-crowd/': WORK });
  page = await h.context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
});

afterAll(async () => {
  await h?.close();
});

/** Share of the canvas's pixels that are not the background's (its top-left pixel). */
async function coverage(): Promise<number> {
  return page.evaluate(() => {
    const src = document.querySelector('#stage canvas') as HTMLCanvasElement;
    const c = document.createElement('canvas');
    c.width = src.width; c.height = src.height;
    const g = c.getContext('2d')!;
    g.drawImage(src, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24) n++;
    return n / (d.length / 4);
  });
}

async function setCrowd(n: number): Promise<void> {
  await page.evaluate(() => ((document.getElementById('crowd-section') as HTMLDetailsElement).open = true)); // a click on its summary would toggle it
  await page.locator('#crowd-count').fill(String(n));
  await page.locator('#crowd-count').dispatchEvent('change');
  await page.waitForFunction((k) => document.body.dataset.crowd === String(k), n);
  await page.waitForTimeout(300); // a few frames, timed
}

describe('the viewer in Chromium: crowd mode', () => {
  it('a skeletal model (janitor.iqm and its animations) as a crowd of 400: one draw call per surface, posing and rendering timed', async () => {
    await page.goto(`${h.url}/demo/?idle`);
    await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
    await page.evaluate(() => (document.body.dataset.mount = 'picking'));
    await page.locator('#pick-folder').setInputFiles(FOLDER);
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready' && (document.body.dataset.model ?? '').endsWith('janitor.iqm'));
    const alone = await coverage();
    await setCrowd(400);
    const text = await page.locator('#crowd-info').textContent();
    expect(text).toMatch(/^400 instances, 2 draw calls — pose \d+\.\d\d ms · render \d+\.\d\d ms a frame$/);
    expect(await coverage()).toBeGreaterThan(alone);
    await page.locator('#stage canvas').screenshot({ path: join(ARTIFACTS, 'viewer-crowd-skinned.png') });
    await setCrowd(0);
    expect(await page.locator('#crowd-info').textContent()).toBe('');
    expect(problems).toEqual([]);
  });

  it('a vertex-animated model (dolphin.md2) as a crowd of 100', async () => {
    await page.locator('#pick-files').setInputFiles(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD2/dolphin.md2'));
    await page.waitForFunction(() => document.body.dataset.state === 'ready' && (document.body.dataset.model ?? '').endsWith('dolphin.md2'));
    await setCrowd(100);
    expect(await page.locator('#crowd-info').textContent()).toMatch(/^100 instances, 1 draw calls — pose /);
    await page.locator('#stage canvas').screenshot({ path: join(ARTIFACTS, 'viewer-crowd-morph.png') });
    expect(problems).toEqual([]);
  });
});
