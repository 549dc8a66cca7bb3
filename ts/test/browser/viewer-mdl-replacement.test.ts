/**
 * The viewer draws the Quake re-release's MD5 replacement of an MDL (issue 40, docs/md5-replacements.md), in real
 * Chromium as viewer-replacement.test.ts drives the Quake II one: a Quake game folder laid out by
 * fixtures/generate-md5-replacement.mjs (no free re-release file exists: the corpus drone's md5mesh, its shaders named
 * `drone`, and forward.md5anim as progs/drone.md5*, beside a made-up MDL whose frame records are run1..4, the group
 * wave1..3 and stand1, and the drone's skin as progs/drone_00_00.jpg) is picked as a folder; the MDL opens as itself
 * and offers its replacement; switching draws the md5mesh with the MDL's clips, each mesh textured with
 * progs/<shader>_00_00 as QuakeSpasm-Spiked and vkQuake look it up, and switching back draws the MDL again.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { quakeReplacement } from '../../../fixtures/generate-md5-replacement.mjs';
import { buildMdl, poseVerts, richSpec } from '../mdl/_build.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-mdl-replacement');
const GAME = join(WORK, 'id1');
const MDL = 'progs/drone.mdl';
const MESH = 'progs/drone.md5mesh';
let h: Harness;
let page: Page;
const problems: string[] = [];
const corpus = (p: string) => new Uint8Array(readFileSync(join(SHARED_MODELS, p)));

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  const spec = richSpec();
  const [stand, wave] = spec.frames;
  const runs = Array.from({ length: 4 }, (_, i) => ({ pose: { name: `run${i + 1}`, verts: poseVerts(20 + i, spec.numverts) } }));
  const mdl = buildMdl({ ...spec, frames: [...runs, wave, stand] });
  const files = [
    ...quakeReplacement({ mdl, mesh: corpus('actors/drone/mesh.md5mesh'), anim: corpus('actors/drone/forward.md5anim'), shader: 'drone' }),
    // skin 0, frame 0 of the meshes' shader "drone": "progs/%s_%02u_%02u", found by its extension fallback
    { path: 'progs/drone_00_00.jpg', bytes: corpus('actors/drone/skin.jpg') },
  ];
  for (const f of files) {
    mkdirSync(dirname(join(GAME, f.path)), { recursive: true });
    writeFileSync(join(GAME, f.path), f.bytes);
  }
  h = await startHarness({ '/viewer-mdl-replacement/': WORK });
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

describe('the viewer: a Quake MDL with its re-release MD5 (QuakeSpasm-Spiked / vkQuake)', () => {
  it('offers the replacement, draws it with the MDL’s clips and progs/<shader>_00_00, and draws the MDL again', async () => {
    await page.goto(`${h.url}/demo/?clock=manual&idle`);
    await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
    await page.evaluate(() => (document.body.dataset.mount = 'picking'));
    await page.locator('#pick-folder').setInputFiles(GAME);
    await page.waitForFunction(() => (document.body.dataset.mount === 'done' || document.body.dataset.mount === 'error') && document.body.dataset.state !== 'loading');
    await page.evaluate((p) => window.viewer.open(p), MDL);

    // the MDL as itself, its replacement offered
    let s = await state();
    expect(s.state).toBe('ready');
    expect(s.model).toBe(MDL);
    expect(s.format).toBe('mdl');
    expect(s.replacement).toBe('original');
    const choice = page.getByLabel('Draw');
    expect(await choice.isVisible()).toBe(true);
    expect(await choice.locator('option').allTextContents()).toEqual([`original (${MDL})`, expect.stringMatching(new RegExp(`^replacement \\(${MESH}: .*md5mesh.*, as vkQuake .*\\)$`))]);
    expect(await listedClips()).toEqual(['run', 'wave', 'stand']);

    // the replacement: the md5mesh, each mesh skinned with progs/drone_00_00, playing the MDL's clips over the anim's frames
    await choice.selectOption('replacement');
    await page.waitForFunction(() => document.body.dataset.replacement === 'replacement' && document.body.dataset.state === 'ready');
    s = await state();
    expect(s.model).toBe(MESH);
    expect(s.format).toBe('md5mesh');
    const meshes = parseMd5Mesh(corpus('actors/drone/mesh.md5mesh')).meshes.length;
    expect(s.images!.split(',')).toEqual(Array(meshes).fill('progs/drone_00_00.jpg'));
    expect(Number(s.textured)).toBeGreaterThan(0);
    expect(await listedClips()).toEqual(['run', 'wave', 'stand']);
    const opened = await page.evaluate(() => {
      const o = window.viewer.opened();
      return { replacement: o.replacement, files: o.files.map((f: { path: string }) => f.path), clips: o.view.clips?.map((c: { name: string; frameCount: number }) => [c.name, c.frameCount]) };
    });
    expect(opened.replacement).toMatchObject({ path: MESH, shown: true, by: expect.stringMatching(/vkQuake/) });
    expect(opened.files).toEqual(expect.arrayContaining([MDL, MESH, 'progs/drone.md5anim']));
    // run: records 0..3; the group wave1..3 is one record (1 frame); stand one
    expect(opened.clips).toEqual([['run', 4], ['wave', 1], ['stand', 1]]);
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
    // it plays: run is forward.md5anim's frames 0..3, at 10 a second
    const at0 = await page.evaluate(() => window.viewer.projectVertex(0));
    await page.evaluate(() => window.viewer.advance(0.25));
    expect(Number((await state()).frame)).toBe(2);
    expect(await page.evaluate(() => window.viewer.projectVertex(0))).not.toEqual(at0);

    // and back to the MDL
    await choice.selectOption('original');
    await page.waitForFunction(() => document.body.dataset.replacement === 'original' && document.body.dataset.state === 'ready');
    s = await state();
    expect(s.model).toBe(MDL);
    expect(s.format).toBe('mdl');
    expect(problems).toEqual([]);
  });
});
