/**
 * The viewer's part of issue 41 (what a new user met), in real Chromium as viewer.test.ts drives it: by ARIA role and
 * name, picked files and folders, drops; expected values read by this process from the same files. Each test fails
 * on the page as it was before its fix.
 *
 * 1. A folder or archive whose first model has frames named by digits alone (clips with empty names in the file:
 *    Quake's progs/dog.mdl, Tremulous' overmind.md3) opens and draws, with no error.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { makePak } from '../helpers/pak-writer.js';
import { makeZip } from '../helpers/zip-writer.js';
import { startHarness, type Harness } from './chromium.js';

declare global {
  interface Window {
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-issue41');
let h: Harness;
let page: Page;
const problems: string[] = [];
const corpus = (p: string) => new Uint8Array(readFileSync(join(SHARED_MODELS, p)));

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  h = await startHarness({ '/viewer-issue41/': WORK });
  page = await h.context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

async function openViewer(query = ''): Promise<void> {
  await page.goto(`${h.url}/demo/?clock=manual${query ? `&${query}` : ''}`);
  await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
}

const state = () => page.evaluate(() => ({ ...document.body.dataset }));
const settled = () => page.waitForFunction(() => document.body.dataset.mount !== 'busy' && document.body.dataset.state !== 'loading');
const listedClips = () => page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLOptionElement>('#channels option')].map((o) => o.value))]);

/** Picks `files` with Open files… (or a folder with Open folder…) and waits for what follows to settle. */
async function pickFiles(files: string | string[], folder = false): Promise<void> {
  await page.locator(folder ? '#pick-folder' : '#pick-files').setInputFiles(files);
  await page.waitForFunction(() => document.body.dataset.mount === 'busy' || document.body.dataset.state === 'loading' || document.body.dataset.mount === 'error').catch(() => {});
  await settled();
}

describe('issue 41: the viewer', () => {
  it('1. opens a folder or an archive whose first model has frames named by digits: drawn, its clips listed, no error', async () => {
    const cases: { name: string; make: () => string; model: string }[] = [
      {
        name: 'a .pak with Quake’s progs/dog.mdl',
        model: 'progs/dog.mdl',
        make: () => {
          const p = join(WORK, 'pak0.pak');
          writeFileSync(p, makePak([{ name: 'gfx/palette.lmp', data: corpus('LibreQuake/lq1/gfx/palette.lmp') }, { name: 'progs/dog.mdl', data: corpus('LibreQuake/lq1/progs/dog.mdl') }]));
          return p;
        },
      },
      {
        name: 'a .pk3 with Tremulous’ overmind.md3',
        model: 'models/buildables/overmind/overmind.md3',
        make: () => {
          const p = join(WORK, 'overmind.pk3');
          const dir = 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind';
          const files = ['overmind.md3'];
          writeFileSync(p, makeZip(files.map((f) => ({ name: `models/buildables/overmind/${f}`, data: corpus(`${dir}/${f}`) }))));
          return p;
        },
      },
    ];
    for (const c of cases) {
      await openViewer('idle');
      await pickFiles(c.make());
      const s = await state();
      expect(s.state, c.name).toBe('ready');
      expect(s.model, c.name).toBe(c.model);
      expect(await page.locator('#error').isHidden(), c.name).toBe(true);
      const clips = await listedClips();
      expect(clips.length, c.name).toBeGreaterThan(0);
      expect(clips.every((n) => n.length > 0), c.name).toBe(true);
      expect(s.playing, c.name).toBe(clips[0]);
      expect(await page.evaluate(() => window.viewer.coverage()), c.name).toBeGreaterThan(0.01);
    }
    // Tremulous' aaa-assets as a game folder: its first model is picked and drawn
    await openViewer('idle');
    await pickFiles(join(SHARED_MODELS, 'aaa-assets'), true);
    const s = await state();
    expect(s.state).toBe('ready');
    expect(Number(s.models)).toBe(2);
    expect(s.model).toMatch(/\.md3$/);
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
  });

  it('logged no errors (page, console, worker)', () => {
    expect(problems).toEqual([]);
  });
});
