/**
 * The viewer on a Half-Life studio model in real Chromium, as viewer.test.ts drives the page (issue 38, item 4):
 * the H1 group's man.mdl picked with its folder (manT.mdl, man01.mdl) lists its sequences with their frame counts,
 * rates and whether they loop; its bone controllers and blending are offered as sliders (the view's
 * `extras.controls`), and moving one bakes the clips again in the worker: the walk's keys are then the poser's with
 * that controller set (GoldsrcPoser in this process), and the model at rest is back when it returns to 0.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceSources } from '../../src/formats/goldsrc/anim.js';
import { goldsrcDraw } from '../../src/formats/goldsrc/geometry.js';
import { parseGoldsrc } from '../../src/formats/goldsrc/parser.js';
import { GoldsrcPoser } from '../../src/formats/goldsrc/poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-goldsrc');
const H1 = join(SHARED_MODELS, 'assimp/test/models/MDL/MDL (HL1)');
const FOLDER = join(WORK, 'man');

let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  for (const f of ['man.mdl', 'manT.mdl', 'man01.mdl']) copyFileSync(join(H1, f), join(FOLDER, f));
  h = await startHarness({ '/viewer-goldsrc/': WORK });
  page = await h.context.newPage();
  if (process.env.DEV_TIMEOUT) page.setDefaultTimeout(Number(process.env.DEV_TIMEOUT));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

/** The walk's key `k` rotation of joint `j` as the page holds it (the worker's baked clip). */
const pageKey = (j: number, k: number) => page.evaluate(([j, k]) => {
  const clip = window.viewer.opened().view.clips.find((c: { name: string }) => c.name === 'walk');
  return Array.from(clip.joints[j].rotation.subarray(k * 4, k * 4 + 4) as Float32Array);
}, [j, k]);

/** The same from the poser in this process, with `controllers`. */
function poserKey(j: number, k: number, controllers: Record<number, number>): number[] {
  const m = parseGoldsrc(new Uint8Array(readFileSync(join(H1, 'man.mdl'))));
  const backend = createTsBackend();
  const poser = new GoldsrcPoser(backend, m, goldsrcDraw(m));
  try {
    const walk = sequenceSources(m, new Map(), 'man.mdl').sources[1]!;
    return Array.from(poser.setControls({ controllers }).poseSequence(walk, k).localPoses.subarray(j * 8 + 4, j * 8 + 8));
  } finally {
    poser.dispose();
    backend.dispose();
  }
}

const near = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]) < 1e-5);

describe('the viewer in Chromium: GoldSrc', () => {
  it("lists man.mdl's sequences with rates and loop flags, offers its controllers and blending as sliders, and bakes a slider's value into the clips as the poser poses it", async () => {
    await page.goto(`${h.url}/demo/?clock=manual&idle`);
    await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
    await page.evaluate(() => (document.body.dataset.mount = 'picking'));
    await page.locator('#pick-folder').setInputFiles(FOLDER);
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready' && (document.body.dataset.model ?? '').endsWith('man.mdl'));

    const options = await page.locator('#channels select option').allTextContents();
    expect(options).toEqual(['reference — 2 frames, 30 fps, plays once', 'walk — 26 frames, 30 fps', 'arms_up — 2 frames, 25 fps, plays once']);

    const sliders = page.locator('#controls input[type=range]');
    expect(await sliders.evaluateAll((s) => s.map((e) => [e.getAttribute('aria-label'), (e as HTMLInputElement).min, (e as HTMLInputElement).max, (e as HTMLInputElement).value]))).toEqual([
      ['controller 0 ("Neck" YR)', '-60', '60', '0'],
      ['controller 1 ("Neck" ZR)', '-45', '45', '0'],
      ['controller 2 ("Neck" Y)', '0', '5', '0'],
      ['body part "heads" (3 submodels)', '0', '2', '0'],
      ['blend X (blending[0])', '0', '255', '0'],
      ['blend Y (blending[1])', '0', '255', '0'],
    ]);

    // at rest: the poser's walk without adjustment
    const rest = await pageKey(7, 5);
    expect(near(rest, poserKey(7, 5, {}))).toBe(true);

    // controller 0 to 30°: the model is opened again with it, and bone 7's keys turn as the poser turns them
    const opens = await page.evaluate(() => window.viewer.times());
    await sliders.nth(0).fill('30');
    await page.waitForFunction((before) => document.body.dataset.state === 'ready' && window.viewer.times() !== null && JSON.stringify(window.viewer.times()) !== before, JSON.stringify(opens));
    const turned = await pageKey(7, 5);
    expect(near(turned, poserKey(7, 5, { 0: 30 }))).toBe(true);
    expect(near(turned, rest)).toBe(false);
    expect(await sliders.nth(0).inputValue()).toBe('30');

    // back to 0: the rest pose again
    const before = JSON.stringify(await page.evaluate(() => window.viewer.times()));
    await sliders.nth(0).fill('0');
    await page.waitForFunction((b) => document.body.dataset.state === 'ready' && JSON.stringify(window.viewer.times()) !== b, before);
    expect(near(await pageKey(7, 5), rest)).toBe(true);

    // skin families as skins: family1 draws manT.mdl's second row of textures (the controllers stay as set)
    expect(await page.locator('#skin option').allTextContents()).toEqual(['family0', 'family1']);
    expect(await page.locator('#skin').inputValue()).toBe('family0');
    const diffuse = () => page.evaluate(() => window.viewer.opened().materials.materials.map((m: { diffuse: { name: string } | null }) => m.diffuse?.name));
    const family0 = await diffuse();
    const beforeTurn = JSON.stringify(await page.evaluate(() => window.viewer.times()));
    await sliders.nth(1).fill('20');
    await page.waitForFunction((b) => document.body.dataset.state === 'ready' && JSON.stringify(window.viewer.times()) !== b, beforeTurn);
    const beforeSkin = JSON.stringify(await page.evaluate(() => window.viewer.times()));
    await page.locator('#skin').selectOption('family1');
    await page.waitForFunction((b) => document.body.dataset.state === 'ready' && JSON.stringify(window.viewer.times()) !== b, beforeSkin);
    const family1 = await diffuse();
    expect(family1).not.toEqual(family0);
    expect(family1.every((n: string | undefined) => n?.startsWith('man.mdl/'))).toBe(true);
    expect(await sliders.nth(1).inputValue()).toBe('20');
    expect(near(await pageKey(7, 5), poserKey(7, 5, { 1: 20 }))).toBe(true);

    // the heads body part's submodel 2 (reference_head3): the geometry body 2 draws, its materials one per mesh
    const m = parseGoldsrc(new Uint8Array(readFileSync(join(H1, 'man.mdl'))));
    const beforeBody = JSON.stringify(await page.evaluate(() => window.viewer.times()));
    await sliders.nth(3).fill('2');
    await page.waitForFunction((b) => document.body.dataset.state === 'ready' && JSON.stringify(window.viewer.times()) !== b, beforeBody);
    const drawn = await page.evaluate(() => {
      const o = window.viewer.opened();
      return { vertices: o.view.vertexCount, groups: o.view.groups.map((g: { name: string }) => g.name), materials: o.materials.materials.length };
    });
    const body2 = goldsrcDraw(m, 2);
    expect(drawn.vertices).toBe(body2.vertexCount);
    expect(drawn.vertices).not.toBe(goldsrcDraw(m, 0).vertexCount);
    expect(drawn.groups).toEqual(body2.meshes.map((x) => x.name));
    expect(drawn.materials).toBe(body2.meshes.length);
    expect(await page.locator('#skin').inputValue()).toBe('family1');
    expect(problems).toEqual([]);
  });
});
