/**
 * The viewer's IQM export in real Chromium, as viewer.test.ts drives the page (issue 37, item 2): janitor.iqm
 * opened with its folder (the iqm.cfg and the animation .iqm files it names) and downloaded as a .glb keeps the
 * cfg's cuts and rates — its animations (names, key counts, durations) are those of the CLI's export of the same
 * files in this process (`openModelSet` over them with DEFAULT_FORMATS, then `toGlb(set)`). Before, the viewer
 * exported `set.data` with options of its own and gave `switch` the whole file at no rate of the cfg's.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/export.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { startHarness, type Harness } from './chromium.js';

const WORK = join(REPO, 'target', 'viewer-iqm');
const JANITOR = join(SHARED_MODELS, 'actors-iqm/janitor');
/** The folder the page is given: janitor's own files (not its lod1/ and lod2/ models), copied under target/ at test time. */
const FOLDER = join(WORK, 'janitor');

let h: Harness;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  for (const f of readdirSync(JANITOR)) if (statSync(join(JANITOR, f)).isFile()) copyFileSync(join(JANITOR, f), join(FOLDER, f));
  h = await startHarness({ '/viewer-iqm/': WORK });
  page = await h.context.newPage();
  if (process.env.DEV_TIMEOUT) page.setDefaultTimeout(Number(process.env.DEV_TIMEOUT));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await h?.close();
});

interface Animation {
  name: string;
  /** Keys of its first sampler (every sampler of a clip has the clip's frames). */
  keys: number;
  /** Its last key's time, in seconds. */
  duration: number;
}

/** The animations of a .glb, read from its JSON chunk: each one's name, key count and duration (its input accessor's). */
function animationsOf(glb: Uint8Array): Animation[] {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + view.getUint32(12, true))));
  return (json.animations ?? []).map((a: { name: string; samplers: { input: number }[] }) => {
    const input = json.accessors[a.samplers[0].input];
    return { name: a.name, keys: input.count, duration: input.max[0] as number };
  });
}

/** The iqm.cfg line naming `anim`: its file and rate, as Tesseract's `iqmanim NAME FILE [FPS]` reads them. */
function cfgAnim(anim: string): { file: string; fps: number } {
  const line = readFileSync(join(JANITOR, 'iqm.cfg'), 'utf8').split('\n').find((l) => l.trim().startsWith(`iqmanim "${anim}"`));
  const m = line?.match(/^\s*iqmanim\s+"[^"]+"\s+"([^"]+)"\s+([\d.]+)/);
  if (!m) throw new Error(`iqm.cfg names no ${anim}`);
  return { file: m[1], fps: Number(m[2]) };
}

describe('the viewer in Chromium: IQM', () => {
  it("exports janitor.iqm opened with its folder as a .glb whose animations are the CLI's: the iqm.cfg's cuts and rates (switch: 60 frames at 30 fps)", async () => {
    // the CLI's way (convert janitor.iqm -o janitor.glb): the set opened over the same files, exported through its registration
    const set = await openModelSet(folderFileSystem(FOLDER), 'janitor.iqm', { formats: DEFAULT_FORMATS });
    const want = animationsOf(await toGlb(set, { name: 'janitor', warnings: [] }));
    const cfg = cfgAnim('switch');
    expect(cfg).toEqual({ file: 'arm-deploy.iqm', fps: 30 }); // `iqmanim "switch" "arm-deploy.iqm" 30`
    const sw = want.find((a) => a.name === 'switch');
    expect(sw?.keys).toBe(60); // the cut: frames 0+60 of arm-deploy.iqm
    expect(sw?.duration).toBeCloseTo(59 / 30, 5); // at the cfg's 30 fps

    await page.goto(`${h.url}/demo/?clock=manual&idle`);
    await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
    await page.evaluate(() => (document.body.dataset.mount = 'picking'));
    await page.locator('#pick-folder').setInputFiles(FOLDER);
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready' && (document.body.dataset.model ?? '').endsWith('janitor.iqm'));
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .glb' }).click()]);
    expect((d as Download).suggestedFilename()).toBe('janitor.glb');
    const got = animationsOf(new Uint8Array(readFileSync((await (d as Download).path())!)));
    expect(got).toEqual(want);
    expect(problems).toEqual([]);
  });
});
