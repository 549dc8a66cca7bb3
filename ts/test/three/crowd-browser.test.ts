/**
 * A crowd drawn by three.js in real Chromium (Debian's, headless, WebGL2 on SwiftShader): the page
 * (ts/test/browser/crowd-page.ts, bundled here with three) builds a `CrowdMesh` of a real MD5 (GPU skin from the
 * palette texture) and of a real MD2 (frames blended from the frame texture), 25 instances each. Checked: the shaders
 * compile (no error on the page or its console), a frame costs one draw call per surface, the picture is not blank
 * and shows many colours (each instance its own), and moving the crowd's clocks changes it. The last picture of each
 * goes to target/test-artifacts/crowd-<kind>.png.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, startHarness, type Harness } from '../browser/chromium.js';
import { REPO } from '../helpers/models.js';
import type {} from '../browser/crowd-page.js';

const PAGE = join(REPO, 'target', 'crowd-page');
let h: Harness;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  mkdirSync(PAGE, { recursive: true });
  await build({ entryPoints: [join(REPO, 'ts/test/browser/crowd-page.ts')], outfile: join(PAGE, 'crowd-page.js'), bundle: true, external: ['node:*'], format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning', logOverride: { 'ignored-bare-import': 'silent' } });
  copyFileSync(join(REPO, 'ts/test/browser/crowd-page.html'), join(PAGE, 'index.html'));
  h = await startHarness({ '/crowd-page/': PAGE });
  page = await h.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${h.url}/crowd-page/`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
});
afterAll(async () => {
  await h?.close();
});

describe('a crowd in Chromium', () => {
  for (const kind of ['skinned', 'morph'] as const) {
    it(`${kind}: one draw call per surface for 25 instances, a varied picture that moves with the clocks`, async () => {
      const r = await page.evaluate((k) => window.idtechCrowd.draw(k), kind);
      await page.locator('#view3').screenshot({ path: join(ARTIFACTS, `crowd-${kind}.png`) });
      expect(errors).toEqual([]);
      expect(r.instances).toBe(25);
      expect(r.calls).toBe(r.surfaces);
      expect(r.coverage).toBeGreaterThan(0.02);
      expect(r.colours).toBeGreaterThan(20);
      expect(r.changed).toBeGreaterThan(0.001);
    });
  }
});
