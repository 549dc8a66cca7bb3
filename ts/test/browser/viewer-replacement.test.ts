/**
 * The viewer draws a re-release's MD5 replacement (issue 40, docs/md5-replacements.md), in real Chromium as
 * viewer.test.ts drives it: a Quake II game folder laid out by fixtures/generate-md5-replacement.mjs (the corpus
 * drone's md5mesh and forward.md5anim as models/drone/md5/tris.*, a made-up MD2 whose frames are stand1..4 and
 * run1..10, a tris.md5scale hiding the right upper arm at frame 8) is picked as a folder; the MD2 opens as itself and offers its replacement; switching draws the md5mesh
 * with the MD2's clips, textured with the MD2's skin looked up in md5/, and switching back draws the MD2 again.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { q2Replacement } from '../../../fixtures/generate-md5-replacement.mjs';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-replacement');
const GAME = join(WORK, 'baseq2');
const MD2 = 'models/drone/tris.md2';
const MESH = 'models/drone/md5/tris.md5mesh';
let h: Harness;
let page: Page;
const problems: string[] = [];
const corpus = (p: string) => new Uint8Array(readFileSync(join(SHARED_MODELS, p)));

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  const names = [...Array.from({ length: 4 }, (_, i) => `stand${i + 1}`), ...Array.from({ length: 10 }, (_, i) => `run${i + 1}`)];
  const files = [
    ...q2Replacement({ mesh: corpus('actors/drone/mesh.md5mesh'), anim: corpus('actors/drone/forward.md5anim'), md2Frames: 14, frameNames: names, scale: { 'Upperarm.Right': { '8': 0 } } }),
    // the MD2's skin models/drone/skin.pcx, as q2pro looks it up for the replacement (md5/), found by its extension fallback
    { path: 'models/drone/md5/skin.jpg', bytes: corpus('actors/drone/skin.jpg') },
  ];
  for (const f of files) {
    mkdirSync(dirname(join(GAME, f.path)), { recursive: true });
    writeFileSync(join(GAME, f.path), f.bytes);
  }
  h = await startHarness({ '/viewer-replacement/': WORK });
  page = await h.context.newPage();
  if (process.env.DEV_TIMEOUT) page.setDefaultTimeout(Number(process.env.DEV_TIMEOUT));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

const state = () => page.evaluate(() => ({ ...document.body.dataset }));
const listedClips = () => page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLOptionElement>('#channels option')].map((o) => o.value))]);

describe('the viewer: a Quake II MD2 with its re-release MD5 (q2pro)', () => {
  it('offers the replacement, draws it with the MD2’s clips and skin, and draws the MD2 again', async () => {
    await page.goto(`${h.url}/demo/?clock=manual&idle`);
    await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
    await page.evaluate(() => (document.body.dataset.mount = 'picking'));
    await page.locator('#pick-folder').setInputFiles(GAME);
    await page.waitForFunction(() => (document.body.dataset.mount === 'done' || document.body.dataset.mount === 'error') && document.body.dataset.state !== 'loading');
    await page.evaluate((p) => window.viewer.open(p), MD2);

    // the MD2 as itself, its replacement offered
    let s = await state();
    expect(s.state).toBe('ready');
    expect(s.model).toBe(MD2);
    expect(s.format).toBe('md2');
    expect(s.replacement).toBe('original');
    const choice = page.getByLabel('Draw');
    expect(await choice.isVisible()).toBe(true);
    expect(await choice.locator('option').allTextContents()).toEqual([`original (${MD2})`, expect.stringMatching(new RegExp(`^replacement \\(${MESH}: .*md5mesh.*, as q2pro .*\\)$`))]);
    expect(await listedClips()).toEqual(['stand', 'run']);

    // the replacement: the md5mesh, skinned, playing the MD2's clips cut out of the one md5anim
    await choice.selectOption('replacement');
    await page.waitForFunction(() => document.body.dataset.replacement === 'replacement' && document.body.dataset.state === 'ready');
    s = await state();
    expect(s.model).toBe(MESH);
    expect(s.format).toBe('md5mesh');
    // every mesh of the md5mesh takes the entity's skin (q2pro's MD5_LoadSkins), not its own shader
    const meshes = parseMd5Mesh(corpus('actors/drone/mesh.md5mesh')).meshes.length;
    expect(s.images!.split(',')).toEqual(Array(meshes).fill('models/drone/md5/skin.jpg'));
    expect(Number(s.textured)).toBeGreaterThan(0);
    expect(await listedClips()).toEqual(['stand', 'run']);
    const opened = await page.evaluate(() => {
      const o = window.viewer.opened();
      return { replacement: o.replacement, files: o.files.map((f: { path: string }) => f.path), clips: o.view.clips?.map((c: { name: string }) => c.name) };
    });
    expect(opened.replacement).toMatchObject({ path: MESH, shown: true, by: expect.stringMatching(/q2pro/) });
    expect(opened.files).toEqual(expect.arrayContaining([MD2, MESH, 'models/drone/md5/tris.md5anim']));
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
    // its .md5scale drawn: a bone holding the arm's weights, its scale stepped per frame (three's InterpolateDiscrete: 2300)
    expect(await page.evaluate(() => {
      const m = window.viewer.model();
      const bones = m.skeleton.bones.map((b: { name: string }) => b.name).filter((n: string) => n.endsWith('_md5scale'));
      const tracks = m.animations.flatMap((c: any) => c.tracks.filter((t: any) => t.name.endsWith('_md5scale.scale')).map((t: any) => t.getInterpolation()));
      return { bones, tracks };
    })).toEqual({ bones: ['UpperarmRight_md5scale'], tracks: [2300, 2300] });
    // it plays: the anim's frames move its vertices (stand is forward.md5anim's frames 0..3, at 10 a second)
    const at0 = await page.evaluate(() => window.viewer.projectVertex(0));
    await page.evaluate(() => window.viewer.advance(0.25));
    expect(Number((await state()).frame)).toBe(2);
    expect(await page.evaluate(() => window.viewer.projectVertex(0))).not.toEqual(at0);

    // and back to the MD2
    await choice.selectOption('original');
    await page.waitForFunction(() => document.body.dataset.replacement === 'original' && document.body.dataset.state === 'ready');
    s = await state();
    expect(s.model).toBe(MD2);
    expect(s.format).toBe('md2');
    expect(problems).toEqual([]);
  });
});
