/**
 * The model viewer (demo/, built to dist/demo/) in real Chromium (Debian's, headless, SwiftShader WebGL), driven as
 * a person would: through its ARIA roles and names (the file tree's treeitems by path, the overlays' checkboxes by
 * what they show, the frame slider, the export buttons), files picked and folders opened, keys pressed. Every
 * expected value comes from this process reading the same files with the library's own source (the catalog, each
 * registration's view, inspect and materials, the parsers): nothing is hard-coded from a run. Tests wait for the
 * page's states (`body[data-*]`), never for durations, and no time is asserted; with `?clock=manual` animation time
 * moves only when a test says so (`viewer.advance`).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { decode } from 'fast-png';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { decodeImage } from '../../src/images/decode.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { catalogModels, type CatalogEntry } from '../../src/load/catalog.js';
import { openModelSet } from '../../src/load/model-set.js';
import { MaterialResolver } from '../../src/materials/resolver.js';
import { DEFAULT_FORMATS, entryFor } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { openArchive } from '../../src/vfs/node.js';
import type { FileSystem } from '../../src/vfs/file-system.js';
import type { GameArchive } from '../../src/vfs/open-archive.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';
import { ModelParseError } from '../../src/base/errors.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { makeZip } from '../helpers/zip-writer.js';
import { makePak } from '../helpers/pak-writer.js';
import { ARTIFACTS, startHarness, type Harness } from './chromium.js';
import { toyFile, TOY_FRAMES } from './toy-format.js';
import { FAERIE, gameArchive, LAUNCHER, LEFT_OUT, PORTALS, viewerGame } from './viewer-game.js';

declare global {
  interface Window {
    // the page's test hooks (demo/src/main.ts)
    viewer: any;
  }
}

const WORK = join(REPO, 'target', 'viewer-test');
const OVERLAYS = ['Wireframe', 'Skeleton', 'Bounding box', 'Normals', 'Tags'];

let h: Harness;
let page: Page;
let game: ReturnType<typeof viewerGame>;
let archive: GameArchive;
let catalog: CatalogEntry[];
const problems: string[] = [];

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  game = viewerGame();
  const pk3 = gameArchive(game.files);
  writeFileSync(join(WORK, 'game.pk3'), pk3);
  archive = await openArchive(join(WORK, 'game.pk3'));
  catalog = await catalogModels(archive, DEFAULT_FORMATS);
  // a format of the test's own, added by URL, and three's GLTFLoader on a page of its own
  await build({ entryPoints: { 'toy-format': join(REPO, 'ts/test/browser/toy-format.ts'), 'gltf-page': join(REPO, 'ts/test/browser/gltf-page.ts') }, outdir: WORK, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' });
  writeFileSync(join(WORK, 'gltf.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="gltf-page.js"></script></body>');
  writeFileSync(join(WORK, 'toy.pk3'), makeZip([{ name: 'models/toys/top.toys', data: toyFile(100) }]));
  h = await startHarness({ '/viewer-test/': WORK });
  page = await h.context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && problems.push(`worker console error: ${m.text()}`)));
});

afterAll(async () => {
  await archive?.close();
  await h?.close();
});

/** The viewer at `query` (manual clock), once its model and mount have settled. */
async function openViewer(query = ''): Promise<void> {
  await page.goto(`${h.url}/demo/?clock=manual${query ? `&${query}` : ''}`);
  await page.waitForFunction(() => document.body.dataset.state !== 'starting' && document.body.dataset.state !== 'loading' && document.body.dataset.mount !== 'busy');
}

const state = () => page.evaluate(() => ({ ...document.body.dataset }));

/** Opens the picked game archive and waits for its listing. */
async function openGame(): Promise<void> {
  await openViewer('idle');
  await page.locator('#pick-files').setInputFiles(join(WORK, 'game.pk3'));
  await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready');
}

const treeitem = (label: string) => page.getByRole('treeitem', { name: label, exact: true });

/** Picks `path` in the tree (found by the filter, clicked) and waits for it to be drawn; the game is opened first unless `listing` is open. */
async function pick(path: string, label = path, listing = 'game.pk3'): Promise<void> {
  if ((await state()).listing !== listing) await openGame();
  await page.getByRole('searchbox', { name: 'Filter files by name' }).fill(path);
  await page.locator(`[role="treeitem"][aria-label="${label}"] > .row`).click();
  await page.waitForFunction((p) => document.body.dataset.model === p && document.body.dataset.state === 'ready', path);
}

/** What Node reads of `path` in the game: its set, its registration's view and materials (the page's default skin). */
async function nodeModel(fs: FileSystem, entry: CatalogEntry, skin?: string) {
  const format = entryFor(entry.kind)!;
  const set = await openModelSet(fs, entry.path, { formats: DEFAULT_FORMATS, format: format.folder ? undefined : format, companions: entry.anims });
  const view = await format.view!(set, createTsBackend());
  const skins = entry.skins.map((s) => s.name);
  const used = skin ?? (skins.includes('default') ? 'default' : skins[0]);
  const materials = await format.materials!(new MaterialResolver(fs), set.data, set.path, { skin: used });
  const clips = view.kind === 'tagged' ? view.clips.map((c) => c.name) : view.clips.map((c) => c.name);
  return { set, view, materials, clips };
}

const entryAt = (path: string) => {
  const e = catalog.find((c) => c.path === path);
  if (!e) throw new Error(`the game has no model ${path}`);
  return e;
};

async function downloaded(click: () => Promise<void>): Promise<{ name: string; bytes: Uint8Array }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await (d as Download).path();
  return { name: (d as Download).suggestedFilename(), bytes: new Uint8Array(readFileSync(path!)) };
}

/** The clip names the page lists (every channel's, once). */
const listedClips = () => page.evaluate(() => [...new Set([...document.querySelectorAll<HTMLOptionElement>('#channels option')].map((o) => o.value))]);

describe('the viewer in Chromium', () => {
  it('starts with its default model, and names its controls by the ARIA patterns', async () => {
    await openViewer();
    expect((await state()).model).toBe('models/worm/worm.md5mesh');
    await expect(page.getByRole('tree', { name: 'Files' }).count()).resolves.toBe(1);
    await expect(treeitem('models/worm/worm.md5mesh').getAttribute('data-format')).resolves.toBe('md5mesh');
    for (const name of OVERLAYS) await expect(page.getByRole('checkbox', { name, exact: true }).count()).resolves.toBe(1);
    await expect(page.getByRole('slider', { name: 'Frame' }).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Download .glb', exact: true }).count()).resolves.toBe(1);
    expect(await page.getByRole('slider', { name: 'Frame' }).getAttribute('aria-valuetext')).toMatch(/^frame \d+, key \d+ of 60$/); // worm.md5anim: 60 frames
  });

  it('opens a picked .pk3: its tree lists what the catalog lists, each model marked by its format', async () => {
    await openGame();
    expect(Number((await state()).models)).toBe(catalog.length);
    await expect(treeitem('game.pk3').getAttribute('data-kind')).resolves.toBe('archive');
    for (const e of catalog) {
      await page.getByRole('searchbox', { name: 'Filter files by name' }).fill(e.path);
      const label = entryFor(e.kind)!.folder ? `${e.path}/` : e.path;
      // a member of the archive, under the archive's folder
      await expect(treeitem('game.pk3').getByRole('treeitem', { name: label, exact: true }).getAttribute('data-format')).resolves.toBe(e.kind);
    }
    // the filter: a name matches the files it is in, and nothing else
    await page.getByRole('searchbox', { name: 'Filter files by name' }).fill('lower.md3');
    const shown = await page.locator('[role="treeitem"][data-kind="file"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(shown).toEqual(game.files.filter((f) => f.path.toLowerCase().includes('lower.md3')).map((f) => f.path));
  });

  for (const format of DEFAULT_FORMATS.filter((f) => f.role === 'model')) {
    it(`picks a ${format.title} from the tree and draws it textured, with its clips, as Node reads it`, async () => {
      const path = game.samples[format.id];
      await pick(path, format.folder ? `${path}/` : path);
      const node = await nodeModel(archive, entryAt(path));
      const s = await state();
      expect(s.format).toBe(format.id);
      expect((await listedClips()).sort()).toEqual([...node.clips].sort()); // a player's lists are per channel
      const found = node.materials.materials.filter((m) => m.diffuse?.path && !m.diffuse.builtin);
      expect(found.length).toBeGreaterThan(0);
      expect(Number(s.textured)).toBe(found.length); // every surface whose image was found is drawn with it
      expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
      await page.locator('#view').screenshot({ path: join(ARTIFACTS, `viewer-${format.id}.png`) });
    });
  }

  it('switches skins: the surfaces take the images the picked .skin names', async () => {
    await pick(PORTALS);
    const skins = await page.getByRole('combobox', { name: 'Skin' }).locator('option').allTextContents();
    expect(skins).toEqual(entryAt(PORTALS).skins.map((s) => s.name));
    for (const skin of skins) {
      await page.getByRole('combobox', { name: 'Skin' }).selectOption(skin);
      await page.waitForFunction((k) => document.body.dataset.state === 'ready' && (document.querySelector('#skin') as HTMLSelectElement).value === k, skin);
      const node = await nodeModel(archive, entryAt(PORTALS), skin);
      await page.waitForFunction((want) => document.body.dataset.images === want, node.materials.materials.map((m) => m.diffuse?.path ?? '').join(','));
    }
  });

  it('lists clips with their frame counts and rates, and scrubs frames by name', async () => {
    await pick(FAERIE);
    const md2 = parseMd2(await (await archive.file(FAERIE))!.bytes());
    const options = await page.locator('#channels select option').allTextContents();
    expect(options).toEqual(md2.clips.map((c) => `${c.name} — ${c.frameCount} ${c.frameCount === 1 ? 'frame' : 'frames'}, 10 fps`)); // Quake 2's rate
    const run = md2.clips.find((c) => c.name === 'run')!;
    await page.locator('#channels select').selectOption('run');
    const slider = page.getByRole('slider', { name: 'Frame' });
    await expect(slider.getAttribute('max')).resolves.toBe(String(run.frameCount - 1));
    const before = await page.locator('#view').screenshot();
    await slider.fill('3');
    await page.waitForFunction(() => document.body.dataset.key === '3');
    const f = run.firstFrame + 3;
    expect(await slider.getAttribute('aria-valuetext')).toBe(`frame ${f} ${md2.frameNames[f]}, key 4 of ${run.frameCount}`);
    expect((await state()).paused).toBe('true');
    expect((await page.locator('#view').screenshot()).equals(before)).toBe(false);
  });

  it('plays at a speed, once or looping, with interpolation on or off', async () => {
    await pick(FAERIE);
    await page.locator('#channels select').selectOption('run');
    const slider = page.getByRole('slider', { name: 'Frame' });
    await slider.fill('0');
    const influences = () => page.evaluate(() => {
      let out: number[] = [];
      window.viewer.model()!.scene.traverse((o: any) => o.morphTargetInfluences && (out = o.morphTargetInfluences.filter((w: number) => w > 1e-6)));
      return out;
    });
    // half a step past key 0 (10 fps): interpolated, two frames weigh half each; stepped, one frame shows
    await page.getByRole('button', { name: 'Play' }).click();
    await page.evaluate(() => window.viewer.advance(0.05));
    expect((await influences()).map((w) => Math.round(w * 100) / 100)).toEqual([0.5, 0.5]);
    await page.getByRole('checkbox', { name: 'Interpolate' }).uncheck();
    expect(await influences()).toEqual([1]);
    await page.getByRole('checkbox', { name: 'Interpolate' }).check();
    // twice the speed: 0.1 s moves two keys
    await slider.fill('0');
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('2');
    await page.evaluate(() => window.viewer.advance(0.1));
    expect((await state()).key).toBe('2');
    // once: past the end it holds the last frame; looping: it comes round
    await page.getByRole('checkbox', { name: 'Loop' }).uncheck();
    await page.evaluate(() => window.viewer.advance(5));
    expect((await state()).key).toBe('5');
    await page.getByRole('checkbox', { name: 'Loop' }).check();
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    await page.evaluate(() => window.viewer.advance(0.15)); // past the key that closes the loop, 0.1 s after the last
    expect((await state()).key).toBe('0');
  });

  it("chooses a Quake 3 player's legs and torso clips separately", async () => {
    const folder = game.samples.player;
    await pick(folder, `${folder}/`);
    const channels = await page.locator('#channels select').evaluateAll((els) => els.map((e) => e.getAttribute('data-channel')));
    expect(channels).toEqual(['legs', 'torso']);
    const node = await nodeModel(archive, entryAt(folder));
    if (node.view.kind !== 'tagged') throw new Error('a player is a tagged view');
    const legs = node.view.clips.find((c) => c.channels.length === 1 && c.channels[0] === 'legs')!;
    const torso = node.view.clips.find((c) => c.channels.length === 1 && c.channels[0] === 'torso')!;
    const both = node.view.clips.find((c) => c.channels.length === 2)!;
    await page.locator('#channels select[data-channel="legs"]').selectOption(legs.name);
    await page.locator('#channels select[data-channel="torso"]').selectOption(torso.name);
    expect((await state()).playing!.split(',').sort()).toEqual([legs.name, torso.name].sort());
    await page.locator('#channels select[data-channel="legs"]').selectOption(both.name);
    expect((await state()).playing).toBe(both.name);
    await expect(page.locator('#channels select[data-channel="torso"]').inputValue()).resolves.toBe(both.name);
  });

  it('toggles each overlay: each draws (and only while on), the skeleton names the joint under the pointer, tags their names', async () => {
    const shoot = () => page.locator('#view').screenshot();
    const cases: { path: string; label?: string; overlay: string; object: RegExp | null }[] = [
      { path: game.samples.md5mesh, overlay: 'Wireframe', object: null },
      { path: game.samples.md5mesh, overlay: 'Skeleton', object: /^skeleton$/ },
      { path: game.samples.md5mesh, overlay: 'Bounding box', object: /^bounding box$/ },
      { path: game.samples.md5mesh, overlay: 'Normals', object: /^normals$/ },
      { path: LAUNCHER, overlay: 'Tags', object: /^tag axes / },
    ];
    for (const c of cases) {
      await pick(c.path);
      await page.getByRole('slider', { name: 'Frame' }).fill('0');
      const off = await shoot();
      await page.getByRole('checkbox', { name: c.overlay, exact: true }).check();
      await page.evaluate(() => window.viewer.advance(0));
      if (c.object) expect((await page.evaluate(() => window.viewer.overlayObjects())).some((n: string) => c.object!.test(n))).toBe(true);
      const on = await shoot();
      expect(on.equals(off), c.overlay).toBe(false);
      if (c.overlay === 'Skeleton') {
        const mesh = (await nodeModel(archive, entryAt(c.path))).set.data as { joints: { names: string[] } };
        const joints: { x: number; y: number; name: string }[] = await page.evaluate(() => window.viewer.joints());
        const box = (await page.locator('#view').boundingBox())!;
        const j = joints.find((x) => x.x > 20 && x.y > 20 && x.x < box.width - 20 && x.y < box.height - 20 && joints.every((o) => o === x || Math.hypot(o.x - x.x, o.y - x.y) > 12))!;
        await page.mouse.move(box.x + j.x, box.y + j.y);
        await expect(page.getByRole('tooltip').textContent()).resolves.toBe(j.name);
        expect(mesh.joints.names).toContain(j.name);
      }
      if (c.overlay === 'Tags') {
        const md3 = parseMd3(await (await archive.file(LAUNCHER))!.bytes());
        expect(await page.locator('.tag-label').allTextContents()).toEqual(md3.tagNames);
      }
      await page.getByRole('checkbox', { name: c.overlay, exact: true }).uncheck();
      await page.evaluate(() => window.viewer.advance(0));
      expect((await shoot()).equals(off), `${c.overlay} off`).toBe(true);
    }
    for (const name of ['Ground grid', 'Axes']) {
      const off = await shoot();
      await page.getByRole('checkbox', { name, exact: true }).check();
      await page.evaluate(() => window.viewer.advance(0));
      expect((await shoot()).equals(off), name).toBe(false);
      await page.getByRole('checkbox', { name, exact: true }).uncheck();
    }
  });

  it('keyboard: space plays and pauses, the arrows step frames, F frames the model', async () => {
    await pick(FAERIE);
    await page.locator('#view').click();
    const paused = (await state()).paused;
    await page.keyboard.press('Space');
    expect((await state()).paused).not.toBe(paused);
    await page.getByRole('slider', { name: 'Frame' }).fill('1');
    await page.locator('#view').focus();
    await page.keyboard.press('ArrowRight');
    expect((await state()).key).toBe('2');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await state()).key).toBe('0');
    const framed = await page.evaluate(() => window.viewer.framed());
    const box = (await page.locator('#view').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const near = await page.evaluate(() => window.viewer.cameraDistance());
    await page.mouse.wheel(0, 800); // zoom out
    await page.waitForFunction((d) => window.viewer.cameraDistance() > d * 1.05, near);
    await page.keyboard.press('f');
    expect(await page.evaluate(() => window.viewer.framed())).toBe(framed + 1);
  });

  it("says what inspect --json says, every warning with its position, and why a missing image is missing", async () => {
    const path = game.samples.md3;
    await pick(path);
    await page.waitForFunction(() => document.body.dataset.inspected === 'true');
    const format = entryFor('md3')!;
    const { summary } = await format.inspect!((await archive.file(path))!.stream(), {});
    for (const key of ['frames', 'surfaces', 'vertices', 'triangles']) {
      await expect(page.locator(`#info dd[data-key="${key}"]`).first().textContent()).resolves.toBe(String(summary[key]));
    }
    const json = JSON.parse((await page.locator('#info pre.json').first().textContent())!);
    expect(json).toEqual({ file: path, ...JSON.parse(JSON.stringify(summary)) });
    // the image the game lacks: its surface says it is missing, with every path the engine would try
    const node = await nodeModel(archive, entryAt(path));
    const missing = node.materials.materials.find((m) => m.diffuse && !m.diffuse.path && !m.diffuse.builtin)!;
    expect(missing.diffuse!.tried.map((t) => t.toLowerCase())).toContain(LEFT_OUT.toLowerCase());
    const row = page.locator(`#info li.missing[data-surface="${missing.surface}"]`);
    await expect(row.textContent()).resolves.toContain(`missing: "${missing.diffuse!.name}" — tried ${missing.diffuse!.tried.join(', ')}`);
    // every material warning is listed with where it points
    const listed = await page.locator('#info ul.warnings li').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
    for (const w of node.materials.warnings) expect(listed).toContain(w.code);
  });

  it('shows every image of the model at full size and saves each as a PNG of its pixels', async () => {
    await pick(game.samples.md2);
    const node = await nodeModel(archive, entryAt(game.samples.md2));
    const paths = [...new Set(node.materials.materials.flatMap((m) => [m.diffuse, m.normal, m.specular, ...(m.animation?.frames ?? []), ...m.others]).filter((i) => i?.path && !i.builtin).map((i) => i!.path!))];
    await page.waitForFunction((n) => document.querySelector('#textures')?.getAttribute('data-images') === String(n), paths.length);
    await page.locator('#textures-section > summary').click(); // open the section: what is in a closed one is hidden
    expect(await page.locator('#textures figure').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(paths);
    const img = decodeImage((await (await archive.file(paths[0]))!.bytes()).slice(), paths[0]);
    const canvas = page.getByRole('img', { name: `${paths[0]} at full size` });
    await expect(canvas.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).resolves.toEqual([img.width, img.height]);
    const png = await downloaded(() => page.locator('#textures figure').first().getByRole('button').click());
    const back = decode(png.bytes);
    expect([back.width, back.height]).toEqual([img.width, img.height]);
    if (img.kind === 'rgba') expect(Buffer.from(back.data as Uint8Array).equals(Buffer.from(img.rgba))).toBe(back.channels === 4);
  });

  it("shows the model's files with their sizes, and times every backend on its clip", async () => {
    await pick(game.samples.md5mesh);
    await page.waitForFunction(() => document.body.dataset.bench === 'done');
    const rows = await page.locator('#perf-model tr[data-path]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-path'), Number(e.getAttribute('data-size'))]));
    const entry = entryAt(game.samples.md5mesh);
    const want = await Promise.all([entry.path, ...entry.anims].map(async (p) => [p, (await archive.file(p))!.size]));
    expect(rows).toEqual(want);
    const backends = await page.locator('#bench tr[data-backend]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-backend'), Number.isFinite(Number(e.getAttribute('data-ms')))]));
    expect(backends).toEqual([['wasm-simd', true], ['wasm-scalar', true], ['ts', true]]);
    for (const t of ['parse', 'view', 'materials', 'build', 'first-frame']) await expect(page.locator(`#perf-model tr[data-time="${t}"]`).count()).resolves.toBe(1);
  });

  it('exports a .glb that three.js reads back textured and animated, and a screenshot PNG of the canvas', async () => {
    await pick(game.samples.md5mesh);
    const glb = await downloaded(() => page.getByRole('button', { name: 'Download .glb' }).click());
    expect(glb.name).toBe('mesh.glb');
    const reader = await h.context.newPage();
    await reader.goto(`${h.url}/viewer-test/gltf.html`);
    await reader.waitForFunction(() => document.body.dataset.ready === 'yes');
    const back = await reader.evaluate((b64) => (window as any).readGlb(b64), Buffer.from(glb.bytes).toString('base64'));
    await reader.close();
    expect(back.animations.map((a: { name: string }) => a.name)).toEqual(await listedClips());
    expect(back.skinned).toBeGreaterThan(0);
    expect(back.textured).toBe(Number((await state()).textured));
    const shot = await downloaded(() => page.getByRole('button', { name: 'Screenshot (PNG)' }).click());
    const png = decode(shot.bytes);
    const size = await page.locator('#view').evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
    expect([png.width, png.height]).toEqual(size);
  });

  it('writes another id format where a registration has a writer (MD2 → MD3), in the worker, as the CLI writes it', async () => {
    await pick(FAERIE);
    const out = await downloaded(() => page.getByRole('button', { name: /^Download \.md3/ }).click());
    expect(out.name).toBe('faerie.md3');
    // the CLI's way (convert IN -o OUT.md3): the model through glTF in memory, float32, with its textures; the writer at its default rate
    const { set } = await nodeModel(archive, entryAt(FAERIE));
    const textures = await resolveModelTextures(archive, set.data, set.path, {});
    const glb = await toGlb(set.data, setGltfOptions(set, { name: 'faerie', textures, quantize: false, warnings: [] }));
    const writer = entryFor('md3')!.writer!;
    const want = await writer.fromGltf({ bytes: glb, resources: {} }, { fps: writer.defaultFps, scale: 1, split: false, out: 'faerie.md3' });
    expect(Buffer.from(out.bytes).equals(Buffer.from(want.files[0].bytes as Uint8Array))).toBe(true);
    const md3 = parseMd3(out.bytes);
    expect(md3.surfaces.length).toBe(1);
    expect(md3.frameCount).toBeGreaterThan(1);
  });

  it('opens a picked game folder: its loose files, and its archive as a folder', async () => {
    const dir = join(WORK, 'baseq3');
    mkdirSync(join(dir, 'models/faerie'), { recursive: true });
    writeFileSync(join(dir, 'models/faerie/faerie.md2'), await (await archive.file(FAERIE))!.bytes());
    const md3 = game.samples.md3;
    writeFileSync(join(dir, 'pak0.pk3'), makeZip([{ name: md3, data: await (await archive.file(md3))!.bytes() }]));
    await openViewer('idle');
    await page.locator('#pick-folder').setInputFiles(dir);
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready');
    expect((await state()).models).toBe('2');
    await expect(treeitem('pak0.pk3').getAttribute('data-kind')).resolves.toBe('archive');
    await pick(md3, md3, 'baseq3'); // read out of pak0.pk3
    await pick('models/faerie/faerie.md2', 'models/faerie/faerie.md2', 'baseq3');
    // the same folder on a web server: listed by its index.txt, its archive read by Range requests
    writeFileSync(join(dir, 'index.txt'), 'models/faerie/faerie.md2\npak0.pk3\n');
    await openViewer('url=/viewer-test/baseq3/');
    expect((await state()).models).toBe('2');
    await expect(treeitem('pak0.pk3').getAttribute('data-kind')).resolves.toBe('archive');
  });

  it("opens a picked Quake pak0.pak: its MDLs listed as MDL, one drawn with the skin it carries through the pak's palette", async () => {
    // LibreQuake's progs and gfx/palette.lmp (../shared/models/LibreQuake), packed here as Quake packs them
    const lq = join(SHARED_MODELS, 'LibreQuake/lq1');
    const models = ['ogre.mdl', 'armor.mdl', 'wizard.mdl'];
    const pak = join(WORK, 'pak0.pak');
    writeFileSync(pak, makePak([{ name: 'gfx/palette.lmp', data: readFileSync(join(lq, 'gfx/palette.lmp')) }, ...models.map((m) => ({ name: `progs/${m}`, data: readFileSync(join(lq, 'progs', m)) }))]));
    await openViewer('idle');
    await page.locator('#pick-files').setInputFiles(pak);
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready');
    expect(Number((await state()).models)).toBe(models.length);
    for (const m of models) await expect(treeitem('pak0.pak').getByRole('treeitem', { name: `progs/${m}`, exact: true }).getAttribute('data-format')).resolves.toBe('mdl');
    await pick('progs/ogre.mdl', 'progs/ogre.mdl', 'pak0.pak');
    const s = await state();
    expect(s.format).toBe('mdl');
    expect(Number(s.textured)).toBe(1); // the one mesh, with skin 0 — decoded with the pak's palette
    expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
    await page.locator('#view').screenshot({ path: join(ARTIFACTS, 'viewer-pak-mdl.png') });
  });

  it('opens files dropped on the page', async () => {
    await openViewer('idle');
    await page.evaluate(async (url) => {
      const dt = new DataTransfer();
      dt.items.add(new File([await (await fetch(url)).arrayBuffer()], 'faerie.md2'));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, '/viewer-test/baseq3/models/faerie/faerie.md2');
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready' && document.body.dataset.model === 'faerie.md2');
    expect((await state()).format).toBe('md2');
  });

  it('stays usable while an archive mounts over HTTP (Range requests), and lists it once it has', async () => {
    await openViewer();
    const url = `${h.url}/viewer-test/game.pk3`;
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let requests = 0;
    await page.route(url, async (route) => {
      requests++;
      await held;
      await route.continue();
    });
    await page.getByRole('textbox', { name: /URL of an archive/ }).fill(url);
    await page.getByRole('button', { name: 'Open URL' }).click();
    await page.waitForFunction(() => document.body.dataset.mount === 'busy');
    // the page answers while the archive's directory is on its way
    const paused = (await state()).paused;
    await page.locator('#view').focus();
    await page.keyboard.press('Space');
    expect((await state()).paused).not.toBe(paused);
    await page.getByRole('checkbox', { name: 'Wireframe', exact: true }).check();
    expect((await state()).mount).toBe('busy');
    release();
    await page.waitForFunction(() => document.body.dataset.mount === 'done' && document.body.dataset.state === 'ready');
    await page.unroute(url);
    expect(Number((await state()).models)).toBe(catalog.length);
    expect(requests).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'Wireframe', exact: true }).uncheck();
  });

  it('shows a format added at run time like the registered ones: marked by its title, and spun as its view says', async () => {
    await openViewer(`formats=/viewer-test/toy-format.js&url=/viewer-test/toy.pk3`);
    const item = treeitem('models/toys/top.toys');
    await expect(item.getAttribute('data-format')).resolves.toBe('toys');
    await expect(item.locator('.badge').getAttribute('title')).resolves.toBe('spinning toy (TOYS)');
    expect((await state()).model).toBe('models/toys/top.toys');
    expect(await page.getByRole('slider', { name: 'Frame' }).getAttribute('max')).toBe(String(TOY_FRAMES - 1));
    const a0 = await page.evaluate(() => window.viewer.spinAngle());
    await page.evaluate(() => window.viewer.advance(0.5));
    const a1 = await page.evaluate(() => window.viewer.spinAngle());
    expect(a1 - a0).toBeCloseTo((50 * Math.PI) / 180, 6); // 100°/s for half a second
    await expect(page.locator('#spin').textContent()).resolves.toContain('100°/s');
  });

  it("shows a malformed file's ModelParseError as Node throws it, and stays usable", async () => {
    const invalid = join(SHARED_MODELS, 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh');
    const bytes = new Uint8Array(readFileSync(invalid));
    let expected: ModelParseError | null = null;
    try {
      parseMd5Mesh(bytes);
    } catch (e) {
      expected = e as ModelParseError;
    }
    expect(expected).toBeInstanceOf(ModelParseError);
    await openViewer();
    await page.locator('#pick-files').setInputFiles(invalid);
    await page.waitForFunction(() => document.body.dataset.state === 'error');
    await expect(page.getByRole('alert').locator('#error-kind').textContent()).resolves.toBe(`ModelParseError ${expected!.code}`);
    // Node's message for the same bytes, after the file it names (ModelParseError.file: where it was picked from)
    await expect(page.getByRole('alert').locator('#error-message').textContent()).resolves.toBe(`picked:InvalidBoneIndex.md5mesh: ${expected!.message}`);
    await page.getByRole('checkbox', { name: 'Axes', exact: true }).check(); // still answering
    await page.getByRole('checkbox', { name: 'Axes', exact: true }).uncheck();
  });

  it('pictures for the docs: a player with its tree and panels, the drone with its overlays (docs/viewer*.png)', async () => {
    await page.setViewportSize({ width: 1400, height: 860 });
    await openGame();
    await pick(game.samples.player, `${game.samples.player}/`);
    await page.getByRole('searchbox', { name: 'Filter files by name' }).fill('');
    await page.locator('#channels select[data-channel="legs"]').selectOption('LEGS_RUN');
    await page.locator('#channels select[data-channel="torso"]').selectOption('TORSO_STAND');
    await page.getByRole('checkbox', { name: 'Ground grid' }).check();
    await page.getByRole('checkbox', { name: 'Tags', exact: true }).check();
    await page.evaluate(() => window.viewer.advance(0.3));
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-page.png') });
    await page.getByRole('checkbox', { name: 'Tags', exact: true }).uncheck();
    await pick(game.samples.md5mesh);
    for (const name of ['Skeleton', 'Bounding box']) await page.getByRole('checkbox', { name, exact: true }).check();
    await page.locator('#textures-section > summary').click();
    await page.evaluate(() => window.viewer.advance(0.2));
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-overlays.png') });
    for (const name of ['Skeleton', 'Bounding box', 'Ground grid']) await page.getByRole('checkbox', { name, exact: true }).uncheck();
    await page.setViewportSize({ width: 1100, height: 680 });
  });

  it('logged no errors (page, console, worker)', () => {
    expect(problems).toEqual([]);
  });
});
