/**
 * The three.js adapter in real Chromium (Debian's, headless, WebGL on SwiftShader): its test page
 * (ts/test/browser/three-page.ts, bundled here with three as a user's bundler would) loads each format with its textures through `IdTechLoader` and three.js draws it. Checked on
 * the pixels three rendered: the model covers part of the canvas, it is textured (colourful, many colours: the
 * untextured material is grey under white lights), and two times of its clip draw different pictures. One
 * screenshot per format (and the gallery the docs show) goes to target/test-artifacts.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, startHarness, type Harness } from '../browser/chromium.js';
import { REPO } from '../helpers/models.js';
// The page's window.idtechThree (three-page.ts declares it); a type-only import: nothing of the page runs here.
import type {} from '../browser/three-page.js';

const PAGE = join(REPO, 'target', 'three-page');

let h: Harness;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  mkdirSync(PAGE, { recursive: true });
  await build({ entryPoints: [join(REPO, 'ts/test/browser/three-page.ts')], outfile: join(PAGE, 'three-page.js'), bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning', logOverride: { 'ignored-bare-import': 'silent' } });
  copyFileSync(join(REPO, 'ts/test/browser/three-page.html'), join(PAGE, 'index.html'));
  h = await startHarness({ '/three-page/': PAGE });
  page = await h.context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${h.url}/three-page/?idle`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
});
afterAll(async () => {
  await h?.close();
});

interface Measured {
  coverage: number;
  chroma: number;
  colours: number;
  /** Share of the model's pixels that change when its textures are taken off. */
  texturedShare: number;
  /** Share of the canvas that differs between the preset's two times. */
  changed: number;
  warnings: string[];
  textured: number;
}

/** Loads a preset in `mode`, renders it at the preset's two times, measures both and how many pixels differ. */
async function draw(preset: string, modes: { skinning?: string; morph?: string } = {}): Promise<Measured> {
  return page.evaluate(async ({ preset, modes }) => {
    for (const [id, v] of Object.entries(modes)) (document.getElementById(id) as HTMLSelectElement).value = v as string;
    const t = window.idtechThree;
    const model = await t.loadPreset(preset);
    const [t1, t2] = t.presets[preset].times;
    t.renderAt(t1);
    const a = t.measure();
    const bare = t.measureUntextured();
    let texturedPixels = 0, covered = 0;
    for (let i = 0; i < a.pixels.length; i += 4) {
      const d = Math.abs(a.pixels[i] - bare.pixels[i]) + Math.abs(a.pixels[i + 1] - bare.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - bare.pixels[i + 2]);
      const bg = a.pixels[i] + a.pixels[i + 1] + a.pixels[i + 2] < 60 && bare.pixels[i] + bare.pixels[i + 1] + bare.pixels[i + 2] < 60;
      if (bg) continue;
      covered++;
      if (d > 24) texturedPixels++;
    }
    t.renderAt(t2);
    const b = t.measure();
    let changed = 0;
    for (let i = 0; i < a.pixels.length; i += 4) {
      if (Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - b.pixels[i + 2]) > 12) changed++;
    }
    let textured = 0;
    model.scene.traverse((o: any) => {
      if (o.isMesh) for (const m of [o.material].flat()) if (m.map?.image) textured++;
    });
    return { coverage: a.coverage, chroma: a.chroma, colours: a.colours, texturedShare: covered ? texturedPixels / covered : 0, changed: changed / (a.width * a.height), warnings: model.warnings.map((w) => w.code), textured };
  }, { preset, modes });
}

describe('each format drawn by three.js in Chromium, textured and animated', () => {
  const cases = [
    { preset: 'drone', modes: { skinning: 'gpu' } },
    { preset: 'drone', modes: { skinning: 'exact' } },
    { preset: 'player', modes: { morph: 'targets' } },
    { preset: 'player', modes: { morph: 'poser' } },
    { preset: 'launcher', modes: { morph: 'targets' } },
    { preset: 'dolphin', modes: { morph: 'poser' } },
  ];
  for (const c of cases) {
    it(`${c.preset} (${Object.values(c.modes).join(', ')})`, async () => {
      const m = await draw(c.preset, c.modes);
      await page.locator('#view3').screenshot({ path: join(ARTIFACTS, `three-${c.preset}-${Object.values(c.modes).join('-')}.png`) });
      console.log(`three.js in Chromium, ${c.preset} ${JSON.stringify(c.modes)}: coverage ${(m.coverage * 100).toFixed(1)}%, ${(m.texturedShare * 100).toFixed(0)}% of its pixels change without textures, mean chroma ${m.chroma.toFixed(1)}, ${m.colours} colours, ${(m.changed * 100).toFixed(1)}% of the canvas changed between the two times; warnings ${m.warnings.join(' ') || 'none'}`);
      expect(m.textured).toBeGreaterThan(0);
      expect(m.warnings).not.toContain('TEXTURE_FAILED');
      expect(m.coverage).toBeGreaterThan(0.02);
      // textured: most of the model's pixels are not what the same pose looks like untextured, and they vary
      expect(m.texturedShare).toBeGreaterThan(0.5);
      expect(m.colours).toBeGreaterThan(30);
      expect(m.changed).toBeGreaterThan(0.001);
    });
  }

  it('no page errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('the gallery (the picture in docs/three.md)', () => {
  it('draws the four formats side by side, textured', async () => {
    const p = await h.context.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    await p.setViewportSize({ width: 1300, height: 640 });
    await p.goto(`${h.url}/three-page/?gallery`);
    await p.waitForFunction(() => document.body.dataset.state === 'ready' || document.body.dataset.state === 'error');
    expect(await p.evaluate(() => document.body.dataset.state)).toBe('ready');
    const m = await p.evaluate(() => {
      window.idtechThree.renderAt(0.4);
      const { coverage, colours } = window.idtechThree.measure();
      return { coverage, colours };
    });
    await p.locator('#view3').screenshot({ path: join(ARTIFACTS, 'three-gallery.png') });
    expect(m.coverage).toBeGreaterThan(0.05);
    expect(m.colours).toBeGreaterThan(300);
    await p.close();
  });
});
