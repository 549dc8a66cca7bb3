/**
 * The viewer's part of issue 41 (what a new user met), in real Chromium as viewer.test.ts drives it: by ARIA role and
 * name, picked files and folders, drops; expected values read by this process from the same files. Each test fails
 * on the page as it was before its fix.
 *
 * 1. A folder or archive whose first model has frames named by digits alone (clips with empty names in the file:
 *    Quake's progs/dog.mdl, Tremulous' overmind.md3) opens and draws, with no error.
 * 2. Any animation of the open game plays on the open model: an md5anim picked in the tree (Unvanquished keeps a
 *    body's in another folder) or dropped on the page is added and plays; one that does not fit is refused with
 *    the library's ANIM_MESH_MISMATCH on screen, the model kept as it was.
 * 3. After a failed open (a .txt, a truncated .pk3, a model that does not parse) nothing of the model before stays
 *    on screen or in the panels; the filter text does not outlive its listing.
 * 4. What modders reach for: a surface hidden or isolated (the triangles three.js draws), the UV layout over the
 *    texture (each surface's triangles where the file's texture coordinates put them), orthographic front / side /
 *    top views and the light and exposure (the camera's direction, the pixels' brightness), the pose on screen as an
 *    .obj (the file's vertices at the frame on show), a vertex / triangle / joint picked (its numbers as the file has
 *    them), a model hung on a tag (where the file's tag puts it), an animMap cycled (its pictures at its rate).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { toGlb } from '../../src/registry/gltf.js';
import { unzipSync } from 'fflate';
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
  // DEV_TIMEOUT=ms while working on these tests: a wait that will not end fails in that time, not in LOADED_MS
  if (process.env.DEV_TIMEOUT) page.setDefaultTimeout(Number(process.env.DEV_TIMEOUT));
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

/** Picks `files` with Open files… (or a folder with Open folder…) and waits for the mount and the open it starts to settle. */
async function pickFiles(files: string | string[], folder = false): Promise<void> {
  await page.evaluate(() => (document.body.dataset.mount = 'picking'));
  await page.locator(folder ? '#pick-folder' : '#pick-files').setInputFiles(files);
  await page.waitForFunction(() => (document.body.dataset.mount === 'done' || document.body.dataset.mount === 'error') && document.body.dataset.state !== 'loading');
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

  /** Unvanquished's naked human, its animations in a folder of their own (README group U1), and the Red Eclipse drone's md5anims (another skeleton). */
  const NAKED = 'res-players_src.dpkdir/models/players';
  const BODY = 'models/players/human_naked/body.md5mesh';
  function unvanquished(): string {
    const p = join(WORK, 'unv.pk3');
    const members = [
      ...['body.md5mesh', 'character.cfg'].map((f) => ({ name: `models/players/human_naked/${f}`, data: corpus(`${NAKED}/human_naked/${f}`) })),
      ...['walk', 'jump'].map((f) => ({ name: `models/players/human_nobsuit_common/${f}.md5anim`, data: corpus(`${NAKED}/human_nobsuit_common/${f}.md5anim`) })),
      { name: 'models/drone/idle.md5anim', data: corpus('actors/drone/idle.md5anim') },
    ];
    writeFileSync(p, makeZip(members));
    writeFileSync(join(WORK, 'swim.md5anim'), corpus(`${NAKED}/human_nobsuit_common/swim.md5anim`));
    return p;
  }
  const filter = () => page.getByRole('searchbox', { name: 'Filter files by name' });
  const treeitem = (label: string) => page.getByRole('treeitem', { name: label, exact: true });
  /** Clears the page's answer to the last animation added, does `act`, and waits for the answer (the clip added, or refused). */
  async function adding(act: () => Promise<unknown>): Promise<Record<string, string | undefined>> {
    await page.evaluate(() => {
      delete document.body.dataset.added;
      delete document.body.dataset.refused;
    });
    await act();
    await page.waitForFunction(() => (document.body.dataset.added !== undefined && document.body.dataset.added !== '') || document.body.dataset.refused !== undefined);
    await settled();
    return state();
  }
  const frames = (anim: string) => parseMd5Anim(corpus(`${NAKED}/human_nobsuit_common/${anim}.md5anim`)).frameCount;

  it('2. plays an md5anim of the game on the open mesh: picked in the tree, dropped on the page, refused when it does not fit', async () => {
    await openViewer('idle');
    await pickFiles(unvanquished());
    expect((await state()).model).toBe(BODY);
    const clipsBefore = await listedClips();
    expect(clipsBefore).not.toContain('walk');
    // picked in the tree: the animation file is marked, and plays
    await filter().fill('walk.md5anim');
    const item = treeitem('models/players/human_nobsuit_common/walk.md5anim');
    await expect(item.getAttribute('data-animation')).resolves.toBe('true');
    let s = await adding(() => item.locator('.row').click());
    expect(s.added).toBe('walk');
    expect(s.model).toBe(BODY);
    expect(s.playing).toBe('walk');
    expect(s.paused).toBe('false');
    expect(await listedClips()).toEqual([...clipsBefore, 'walk']);
    await expect(page.getByRole('slider', { name: 'Frame' }).getAttribute('max')).resolves.toBe(String(frames('walk') - 1));
    // it moves the model: two times of the clip draw differently
    await page.evaluate(() => window.viewer.advance(0));
    const at0 = await page.locator('#view').screenshot();
    await page.evaluate(() => window.viewer.advance(0.4));
    expect((await page.locator('#view').screenshot()).equals(at0)).toBe(false);
    expect(await page.evaluate(() => window.viewer.opened().files.map((f: { path: string }) => f.path))).toContain('models/players/human_nobsuit_common/walk.md5anim');
    // dropped on the page: added beside the ones before
    s = await adding(() =>
      page.evaluate(async (url) => {
        const dt = new DataTransfer();
        dt.items.add(new File([await (await fetch(url)).arrayBuffer()], 'swim.md5anim'));
        document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, '/viewer-issue41/swim.md5anim'),
    );
    expect(s.added).toBe('swim');
    expect(s.playing).toBe('swim');
    expect(s.listing).toBe('unv.pk3'); // the game stays open: the drop did not replace it
    expect(await listedClips()).toEqual([...clipsBefore, 'walk', 'swim']);
    await expect(page.getByRole('slider', { name: 'Frame' }).getAttribute('max')).resolves.toBe(String(frames('swim') - 1));
    // another skeleton's animation: refused, said, and the model as it was
    await filter().fill('idle.md5anim');
    s = await adding(() => treeitem('models/drone/idle.md5anim').locator('.row').click());
    expect(s.refused).toBe('models/drone/idle.md5anim');
    expect(s.state).toBe('ready');
    expect(s.model).toBe(BODY);
    await expect(page.getByRole('alert').locator('#error-kind').textContent()).resolves.toBe('ModelParseError ANIM_MESH_MISMATCH');
    await expect(page.getByRole('alert').locator('#error-message').textContent()).resolves.toContain('idle.md5anim');
    expect(await listedClips()).toEqual([...clipsBefore, 'walk', 'swim']);
    expect(await page.evaluate(() => window.viewer.coverage())).toBeGreaterThan(0.01);
  });

  it('2. an animation picked with no model open says to open one first', async () => {
    await openViewer('idle');
    await page.locator('#pick-files').setInputFiles(join(WORK, 'swim.md5anim'));
    await page.waitForFunction(() => document.body.dataset.mount === 'done');
    await treeitem('swim.md5anim').locator('.row').click();
    await expect(page.getByRole('alert').locator('#error-message').textContent()).resolves.toMatch(/an animation plays on a model: open one first/);
  });

  it('3. a failed open clears the model and its panels (the error alone), and the filter starts empty on a new listing', async () => {
    const txt = join(WORK, 'notes.txt');
    writeFileSync(txt, 'not a model\n');
    const whole = readFileSync(unvanquished());
    const truncated = join(WORK, 'truncated.pk3');
    writeFileSync(truncated, whole.subarray(0, whole.length >> 1));
    const invalid = join(SHARED_MODELS, 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh');
    const nothingLeft = async (what: string) => {
      const s = await state();
      expect(s.model, what).toBeUndefined();
      expect(await page.locator('#error').isVisible(), what).toBe(true);
      expect(await page.locator('#info').textContent(), what).toBe('');
      expect(await page.locator('#perf-model').textContent(), what).toBe('');
      expect(await page.locator('#export-buttons').textContent(), what).toBe('');
      expect(await page.locator('#channels').textContent(), what).toBe('');
      expect(await page.locator('#frame-text').textContent(), what).toBe('');
      expect(await page.evaluate(() => window.viewer.model()), what).toBeNull();
      expect(await page.evaluate(() => window.viewer.coverage()), what).toBe(0);
      await expect(filter().inputValue(), what).resolves.toBe('');
    };
    for (const [bad, message] of [
      [txt, /no model here/],
      [truncated, /./],
      [invalid, /InvalidBoneIndex\.md5mesh/],
    ] as const) {
      await openViewer('idle');
      await pickFiles(join(WORK, 'unv.pk3'));
      expect((await state()).model).toBe(BODY);
      await page.waitForFunction(() => document.body.dataset.inspected === 'true');
      expect(await page.locator('#info').textContent()).not.toBe('');
      await filter().fill('walk');
      await expect(page.locator('#tree-note').textContent()).resolves.toBe('1 match');
      await pickFiles(bad);
      await nothingLeft(bad);
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(message);
      await expect(page.locator('#tree-note').textContent()).resolves.toBe('');
    }
    // and the page opens the next one as usual
    await pickFiles(join(WORK, 'unv.pk3'));
    expect((await state()).model).toBe(BODY);
    expect(await page.locator('#error').isHidden()).toBe(true);
  });

  describe('4. what modders reach for, on the grenade launcher of aaa-assets', () => {
    const LAUNCHER = 'models/weapons/grenade_launcher/grenade_launcher.md3';
    const md3 = () => parseMd3(corpus(`aaa-assets/${LAUNCHER}`));
    const drawn = () => page.evaluate(() => window.viewer.drawnTriangles());
    async function openLauncher(): Promise<void> {
      if ((await state()).listing !== 'aaa-assets') {
        await openViewer('idle');
        await pickFiles(join(SHARED_MODELS, 'aaa-assets'), true);
      }
      if ((await state()).model !== LAUNCHER) {
        await filter().fill(LAUNCHER);
        await treeitem(LAUNCHER).locator('.row').click();
        await page.waitForFunction((p) => document.body.dataset.model === p && document.body.dataset.state === 'ready', LAUNCHER);
      }
    }

    it('hides a surface, isolates one, shows them all: three.js draws the triangles of the surfaces shown', async () => {
      await openLauncher();
      const surfaces = md3().surfaces;
      expect(surfaces.length).toBeGreaterThan(1);
      const tris = surfaces.map((x) => x.triangleCount);
      const total = tris.reduce((a, b) => a + b, 0);
      await expect(page.locator('#surfaces input[data-surface]').count()).resolves.toBe(surfaces.length);
      expect(await drawn()).toBe(total);
      await page.getByRole('checkbox', { name: `Show ${surfaces[0].name}`, exact: true }).uncheck();
      expect(await drawn()).toBe(total - tris[0]);
      expect((await state()).hidden).toBe('0');
      await page.getByRole('button', { name: `Isolate ${surfaces[1].name}`, exact: true }).click();
      expect(await drawn()).toBe(tris[1]);
      await expect(page.getByRole('checkbox', { name: `Show ${surfaces[0].name}`, exact: true }).isChecked()).resolves.toBe(false);
      await expect(page.getByRole('checkbox', { name: `Show ${surfaces[1].name}`, exact: true }).isChecked()).resolves.toBe(true);
      await page.locator('#surfaces').getByRole('button', { name: 'Show all' }).click();
      expect(await drawn()).toBe(total);
      expect((await state()).hidden).toBe('');
    });

    it('draws the UV layout over the texture: each surface’s triangles where its texture coordinates put them', async () => {
      await openLauncher();
      const model = md3();
      const images = (await state()).images!.split(','); // the diffuse image of each surface, in order
      await page.waitForFunction(() => Number(document.querySelector('#textures')?.getAttribute('data-images')) > 0);
      await page.locator('#textures-section > summary').click();
      expect(await page.locator('canvas.uv-layout').count()).toBe(0);
      await page.getByRole('checkbox', { name: 'UV layout' }).check();
      const figures = await page.locator('#textures figure').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')!));
      let checked = 0;
      for (const path of figures) {
        const users = images.flatMap((p, k) => (p === path ? [k] : []));
        if (!users.length) continue;
        const fig = page.locator(`#textures figure[data-path="${path}"]`);
        await expect(fig.getAttribute('data-uv-triangles')).resolves.toBe(String(users.reduce((n, k) => n + model.surfaces[k].triangleCount, 0)));
        // a corner of the first triangle of each user: the layout has drawn there (3×3 pixels around it)
        const corners = users.map((k) => {
          const v = model.surfaces[k].triangles[0];
          const s0 = model.surfaces[k].st[v * 2], t0 = model.surfaces[k].st[v * 2 + 1];
          return [s0 - Math.floor(s0), t0 - Math.floor(t0)];
        });
        const alphas = await fig.locator('canvas.uv-layout').evaluate((c: HTMLCanvasElement, corners: number[][]) => {
          const ctx = c.getContext('2d')!;
          return corners.map(([s, t]) => {
            const x = Math.min(c.width - 2, Math.max(1, Math.floor(s * c.width))), y = Math.min(c.height - 2, Math.max(1, Math.floor(t * c.height)));
            const d = ctx.getImageData(x - 1, y - 1, 3, 3).data;
            let a = 0;
            for (let i = 3; i < d.length; i += 4) a = Math.max(a, d[i]);
            return a;
          });
        }, corners);
        for (const a of alphas) expect(a).toBeGreaterThan(0);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
      await page.getByRole('checkbox', { name: 'UV layout' }).uncheck();
      expect(await page.locator('canvas.uv-layout').count()).toBe(0);
      await page.locator('#textures-section > summary').click();
    });

    it('looks from the front, the side and the top with an orthographic camera; the light and the exposure change what is drawn', async () => {
      await openLauncher();
      const view = page.getByRole('combobox', { name: 'View' });
      const shots: Buffer[] = [];
      for (const [v, dir] of [['front', [-1, 0, 0]], ['side', [0, 0, -1]], ['top', [0, -1, 0]]] as const) {
        await view.selectOption(v);
        const cam = await page.evaluate(() => window.viewer.camera());
        expect(cam.orthographic, v).toBe(true);
        cam.direction.forEach((x: number, i: number) => expect(x, `${v} ${i}`).toBeCloseTo(dir[i], 3));
        expect(await page.evaluate(() => window.viewer.coverage()), v).toBeGreaterThan(0.005); // the model in view
        shots.push(await page.locator('#view').screenshot());
      }
      expect(shots[0].equals(shots[1]) || shots[1].equals(shots[2]) || shots[0].equals(shots[2])).toBe(false);
      await view.selectOption('perspective');
      expect((await page.evaluate(() => window.viewer.camera())).orthographic).toBe(false);
      const bright = () => page.evaluate(() => window.viewer.brightness());
      const normal = await bright();
      await page.getByRole('slider', { name: 'Light' }).fill('0.2');
      expect(await bright()).toBeLessThan(normal);
      await page.getByRole('slider', { name: 'Light' }).fill('1');
      expect(await bright()).toBe(normal);
      await page.getByRole('slider', { name: 'Exposure' }).fill('0.3');
      expect(await bright()).toBeLessThan(normal);
      await page.getByRole('slider', { name: 'Exposure' }).fill('2');
      expect(await bright()).toBeGreaterThan(normal);
      await page.getByRole('slider', { name: 'Exposure' }).fill('1');
    });

    it('picks a triangle and a vertex under the pointer: its surface, its corners and the vertex as the file has them at the frame on show', async () => {
      await openLauncher();
      const model = md3();
      await page.getByRole('slider', { name: 'Frame' }).fill('0');
      await page.waitForFunction(() => document.body.dataset.key === '0');
      const f = Number((await state()).frame);
      await page.getByRole('checkbox', { name: 'Pick' }).check();
      const box = (await page.locator('#view').boundingBox())!;
      const first = model.surfaces[0];
      let picked: Record<string, string | undefined> = {};
      // the middle of surface 0's triangles, one after another, until the pointer is on the model there
      for (let t = 0; t < first.triangleCount && picked.kind !== 'vertex'; t += Math.max(1, Math.floor(first.triangleCount / 12))) {
        const corners = await Promise.all([0, 1, 2].map((c) => page.evaluate((i) => window.viewer.projectVertex(i), first.triangles[t * 3 + c])));
        const x = corners.reduce((a, c) => a + c.x, 0) / 3, y = corners.reduce((a, c) => a + c.y, 0) / 3;
        if (x < 2 || y < 2 || x > box.width - 2 || y > box.height - 2) continue;
        await page.evaluate(() => delete document.getElementById('picked')!.dataset.kind);
        await page.mouse.click(box.x + x, box.y + y);
        picked = await page.locator('#picked').evaluate((e) => ({ ...e.dataset }));
      }
      expect(picked.kind).toBe('vertex');
      const s = Number(picked.surface), t = Number(picked.triangle), v = Number(picked.vertex);
      const offset = model.surfaces.slice(0, s).reduce((n, x) => n + x.vertexCount, 0);
      const srf = model.surfaces[s];
      const corners = [0, 1, 2].map((c) => srf.triangles[t * 3 + c] + offset).sort((a, b) => a - b);
      expect(picked.corners).toBe(corners.join(' '));
      expect(corners).toContain(v);
      const local = v - offset;
      const want = [0, 1, 2].map((c) => srf.xyzNormals[(f * srf.vertexCount + local) * 4 + c] / 64);
      picked.position!.split(' ').map(Number).forEach((x, c) => expect(Math.abs(x - want[c])).toBeLessThan(0.01));
      await expect(page.locator('#picked dd[data-key="surface"]').textContent()).resolves.toContain(srf.name);
      await expect(page.locator('#picked dd[data-key="st"]').textContent()).resolves.toBe([srf.st[local * 2], srf.st[local * 2 + 1]].map((x) => Math.round(x * 1e4) / 1e4).join(', '));
      await page.getByRole('checkbox', { name: 'Pick' }).uncheck();
    });

    it('hangs another model of the game on a tag by hand: it follows the tag as the file places it, frame by frame', async () => {
      await openLauncher();
      const host = md3();
      const PORTALS = 'models/fx/portal/portals.md3';
      const portals = parseMd3(corpus(`aaa-assets/${PORTALS}`));
      const total = (m: typeof host) => m.surfaces.reduce((n, x) => n + x.triangleCount, 0);
      expect(host.tagCount).toBeGreaterThan(0);
      const tag = host.tagNames[0];
      await page.locator('#hang-section > summary').click();
      await expect(page.getByRole('combobox', { name: 'Tag' }).locator('option').allTextContents()).resolves.toEqual(host.tagNames);
      await page.getByRole('combobox', { name: 'Tag' }).selectOption(tag);
      await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption(PORTALS);
      const alone = await drawn();
      await page.getByRole('button', { name: 'Hang', exact: true }).click();
      await page.waitForFunction((want) => document.body.dataset.hung === want, `${tag}=${PORTALS}`);
      // the hung model's triangles, and drawn (a two-sided blended surface is drawn in two passes: at least once)
      expect(await page.evaluate((t) => window.viewer.hungTriangles(t), tag)).toBe(total(portals));
      expect(await drawn()).toBeGreaterThanOrEqual(alone + total(portals));
      for (const key of [0, 9]) {
        await page.getByRole('slider', { name: 'Frame' }).fill(String(key));
        await page.waitForFunction((k) => document.body.dataset.key === String(k), key);
        const f = Number((await state()).frame);
        const at = await page.evaluate((t) => window.viewer.hungAt(t), tag);
        // the tag where the file puts it at this frame, and the hung model's origin on it
        at.tagInRoot.forEach((x: number, c: number) => expect(x).toBeCloseTo(host.tagOrigins[f * host.tagCount * 3 + c], 2));
        at.hung.forEach((x: number, c: number) => expect(x).toBeCloseTo(at.tag[c], 4));
      }
      await page.getByRole('button', { name: 'Take off' }).click();
      expect((await state()).hung).toBe('');
      expect(await drawn()).toBe(alone);
      await page.locator('#hang-section > summary').click();
    });

    it('exports the pose on screen as .obj: the file’s vertices at the frame on show, every triangle', async () => {
      await openLauncher();
      const model = md3();
      const slider = page.getByRole('slider', { name: 'Frame' });
      await slider.fill('7');
      await page.waitForFunction(() => document.body.dataset.key === '7');
      const f = Number((await state()).frame);
      expect(f).toBeGreaterThan(0);
      const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download pose (.obj)' }).click()]);
      expect((d as Download).suggestedFilename()).toBe(`grenade_launcher_frame${f}.obj`);
      const text = readFileSync((await (d as Download).path())!, 'utf8');
      const v = text.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number));
      const faces = text.split('\n').filter((l) => l.startsWith('f ')).length;
      const want = model.surfaces.flatMap((srf) => Array.from({ length: srf.vertexCount }, (_, i) => [0, 1, 2].map((c) => srf.xyzNormals[(f * srf.vertexCount + i) * 4 + c] / 64)));
      expect(v.length).toBe(want.length);
      let worst = 0;
      for (let i = 0; i < want.length; i++) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(v[i][c] - want[i][c]));
      expect(worst).toBeLessThan(0.01); // the page's morph targets are int16 over the model's box
      expect(faces).toBe(model.surfaces.reduce((n, srf) => n + srf.triangleCount, 0));
      // and not frame 0's: the pose is the one on show
      const frame0 = model.surfaces.flatMap((srf) => Array.from({ length: srf.vertexCount }, (_, i) => [0, 1, 2].map((c) => srf.xyzNormals[i * 4 + c] / 64)));
      const movedFrom0 = (p: number[][]) => p.some((x, i) => x.some((y, c) => Math.abs(y - frame0[i][c]) > 0.05));
      expect(movedFrom0(want)).toBe(true);
      expect(movedFrom0(v)).toBe(true);
    });
  });

  it('4. picks a joint of the skeleton: its number, name and parent as the md5mesh has them', async () => {
    await openViewer('idle');
    await pickFiles(unvanquished());
    expect((await state()).model).toBe(BODY);
    const mesh = parseMd5Mesh(corpus(`${NAKED}/human_naked/body.md5mesh`));
    await page.getByRole('checkbox', { name: 'Skeleton', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Pick' }).check();
    await page.evaluate(() => window.viewer.advance(0));
    const joints: { x: number; y: number; name: string }[] = await page.evaluate(() => window.viewer.joints());
    const box = (await page.locator('#view').boundingBox())!;
    const k = joints.findIndex((x) => x.x > 20 && x.y > 20 && x.x < box.width - 20 && x.y < box.height - 20 && joints.every((o) => o === x || Math.hypot(o.x - x.x, o.y - x.y) > 12));
    expect(k).toBeGreaterThanOrEqual(0);
    await page.mouse.click(box.x + joints[k].x, box.y + joints[k].y);
    const picked = await page.locator('#picked').evaluate((e) => ({ ...e.dataset }));
    expect(picked.kind).toBe('joint');
    expect(Number(picked.joint)).toBe(k);
    expect(picked.name).toBe(mesh.joints.names[k]);
    expect(Number(picked.parent)).toBe(mesh.joints.parents[k]);
    // a vertex of the body names the joints that move it, by the md5mesh's names (vertices one after another until
    // the pointer is on the body there)
    await page.getByRole('checkbox', { name: 'Skeleton', exact: true }).uncheck();
    let kind: string | null = null;
    for (let i = 0; i < 400 && kind !== 'vertex'; i += 7) {
      const at: { x: number; y: number } = await page.evaluate((n) => window.viewer.projectVertex(n), i);
      if (at.x < 2 || at.y < 2 || at.x > box.width - 2 || at.y > box.height - 2) continue;
      await page.evaluate(() => delete document.getElementById('picked')!.dataset.kind);
      await page.mouse.click(box.x + at.x, box.y + at.y);
      kind = await page.locator('#picked').getAttribute('data-kind');
    }
    expect(kind).toBe('vertex');
    const named = (await page.locator('#picked dd[data-key="joints"]').textContent())!.split(', ').map((x) => x.replace(/ [\d.]+$/, ''));
    expect(named.length).toBeGreaterThan(0);
    for (const n of named) expect(mesh.joints.names).toContain(n);
    await page.getByRole('checkbox', { name: 'Pick' }).uncheck();
  });

  it('4. plays a shader’s animMap: the surface cycles its pictures at the shader’s rate, on the page’s clock', async () => {
    // the corpus has no model whose shader animates, so portals.md3 is given a skin naming portals.shader's animMap
    // shader (`gfx/portalgun/red`: animMap 24, four pictures) for its ring
    const A = 'aaa-assets';
    const md3 = parseMd3(corpus(`${A}/models/fx/portal/portals.md3`));
    const ring = md3.surfaces.findIndex((x) => x.name === 'portalring');
    expect(ring).toBeGreaterThanOrEqual(0);
    const red = [1, 2, 3, 4].map((i) => `gfx/portalgun/red_${i}.jpg`);
    const pk3 = join(WORK, 'animmap.pk3');
    writeFileSync(
      pk3,
      makeZip([
        { name: 'models/fx/portal/portals.md3', data: corpus(`${A}/models/fx/portal/portals.md3`) },
        { name: 'models/fx/portal/portals_default.skin', data: new TextEncoder().encode('portalring,gfx/portalgun/red\nportalcenter,models/fx/portal/bluecenter\n') },
        { name: 'models/fx/portal/bluecenter.jpg', data: corpus(`${A}/models/fx/portal/bluecenter.jpg`) },
        { name: 'scripts/portals.shader', data: corpus(`${A}/scripts/portals.shader`) },
        ...red.map((p) => ({ name: p, data: corpus(`${A}/${p}`) })),
      ]),
    );
    await openViewer('idle');
    await pickFiles(pk3);
    expect((await state()).model).toBe('models/fx/portal/portals.md3');
    await page.waitForFunction(() => document.body.dataset.shaderAnims !== undefined);
    const frames = () => page.evaluate(() => window.viewer.shaderFrames());
    expect(await frames()).toEqual([{ surface: ring, frame: 0, frames: 4, fps: 24, path: red[0] }]);
    if ((await state()).paused === 'true') await page.getByRole('button', { name: /Play/ }).click();
    const shot0 = await page.locator('#view').screenshot();
    await page.evaluate(() => window.viewer.advance(2.5 / 24));
    expect((await frames())[0]).toMatchObject({ frame: 2, path: red[2] });
    expect((await page.locator('#view').screenshot()).equals(shot0)).toBe(false);
    await page.evaluate(() => window.viewer.advance(2 / 24)); // 4.5 pictures in: round to the first again
    expect((await frames())[0]).toMatchObject({ frame: 0, path: red[0] });
    // paused, it holds
    await page.getByRole('button', { name: /Play/ }).click();
    expect((await state()).paused).toBe('true');
    await page.evaluate(() => window.viewer.advance(1 / 24));
    expect((await frames())[0].frame).toBe(0);
  });

  it('4. plays tcMod scroll and rotate: portals.md3 as Tremulous ships it, its ring scrolling and its centre turning as ioquake3 moves them', async () => {
    await openViewer('idle');
    await pickFiles(join(SHARED_MODELS, 'aaa-assets'), true);
    await filter().fill('portals.md3');
    await treeitem('models/fx/portal/portals.md3').locator('.row').click();
    // the folder's first model opened on its own before the click; its textures may settle after portals.md3's open
    // began: wait for portals.md3's own texture animations, not for the flag alone
    await page.waitForFunction(() => document.body.dataset.model === 'models/fx/portal/portals.md3' && document.body.dataset.shaderAnims !== undefined && document.body.dataset.state === 'ready' && window.viewer.texMods().length >= 2);
    await settled();
    await page.waitForFunction(() => window.viewer.texMods().length >= 2);
    const skin = await page.getByRole('combobox', { name: 'Skin' }).inputValue();
    const md3 = parseMd3(corpus('aaa-assets/models/fx/portal/portals.md3'));
    const surface = (name: string) => md3.surfaces.findIndex((x) => x.name === name);
    const mods = () => page.evaluate(() => window.viewer.texMods());
    // the skin's shaders (portals.shader): `models/fx/portal/<skin>ring` scrolls -0.2 0, `…center` rotates -5
    expect((await mods()).map((m: { surface: number; kinds: string[] }) => [m.surface, m.kinds]).sort()).toEqual([[surface('portalcenter'), ['rotate']], [surface('portalring'), ['scroll']]].sort());
    if ((await state()).paused === 'true') await page.getByRole('button', { name: /Play/ }).click();
    const at = async (name: string) => (await mods()).find((m: { surface: number }) => m.surface === surface(name))!.uv as number[];
    const shot0 = await page.locator('#view').screenshot();
    await page.evaluate(() => window.viewer.advance(3));
    // 3 s: the ring's s moved by frac(-0.2 · 3) = 0.4 (three's uv: u + 0.4, v as it was)
    const ring = await at('portalring');
    expect(ring[6]).toBeCloseTo(0.4, 5);
    expect(ring[7]).toBeCloseTo(0, 5);
    expect([ring[0], ring[1], ring[3], ring[4]]).toEqual([1, 0, 0, 1]);
    // the centre turned by −(−5°/s) · 3 s = 15° about the middle in the file's (s, t) — −15° in three's uv, whose v
    // runs the other way (the uv's middle stays where it is)
    const c = await at('portalcenter');
    expect((Math.atan2(c[1], c[0]) * 180) / Math.PI).toBeCloseTo(-15, 3);
    expect(c[0] * 0.5 + c[3] * 0.5 + c[6]).toBeCloseTo(0.5, 5);
    expect(c[1] * 0.5 + c[4] * 0.5 + c[7]).toBeCloseTo(0.5, 5);
    expect((await page.locator('#view').screenshot()).equals(shot0), `skin ${skin}`).toBe(false);
  });

  it('4. downloads every model of the open archive as a .glb, in one .zip: each at its path, its clips its animations, its skin embedded; one that fails is named', async () => {
    mkdirSync(join(WORK, 'every'), { recursive: true });
    const p = join(WORK, 'every', 'pak0.pak'); // Quake reads pak0.pak, pak1.pak …: a .pak by another name is no archive to it
    const models = ['progs/dog.mdl', 'progs/armor.mdl', 'progs/g_axe.mdl'];
    writeFileSync(p, makePak([
      { name: 'gfx/palette.lmp', data: corpus('LibreQuake/lq1/gfx/palette.lmp') },
      ...models.map((m) => ({ name: m, data: corpus(`LibreQuake/lq1/${m}`) })),
      // a model the catalog lists that does not parse: cut inside its skin
      { name: 'progs/cut.mdl', data: corpus('LibreQuake/lq1/progs/dog.mdl').slice(0, 200) },
    ]));
    await openViewer('idle');
    await pickFiles(p);
    const all = page.getByRole('button', { name: 'Download every model (.zip of .glb)' });
    expect(await all.isEnabled()).toBe(true);
    const [d] = await Promise.all([page.waitForEvent('download'), all.click()]);
    expect((d as Download).suggestedFilename()).toBe('pak0-glb.zip');
    const zip = unzipSync(new Uint8Array(readFileSync((await (d as Download).path())!)));
    expect(Object.keys(zip).sort()).toEqual(models.map((m) => m.replace(/\.mdl$/, '.glb')).sort());
    for (const m of models) {
      const glb = zip[m.replace(/\.mdl$/, '.glb')];
      expect(new TextDecoder().decode(glb.subarray(0, 4)), m).toBe('glTF');
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
      // the library's export of the same file has the same animations (its clips); its skin is an embedded PNG
      const alone = await toGlb(parseMdl(corpus(`LibreQuake/lq1/${m}`)));
      const aloneJson = JSON.parse(new TextDecoder().decode(alone.subarray(20, 20 + new DataView(alone.buffer, alone.byteOffset).getUint32(12, true))));
      const names = (j: { animations?: { name: string }[] }) => (j.animations ?? []).map((a) => a.name);
      expect(names(json), m).toEqual(names(aloneJson));
      expect(json.meshes.length, m).toBe(aloneJson.meshes.length);
      expect(json.images?.length, m).toBeGreaterThanOrEqual(1);
      expect(json.images[0].mimeType, m).toBe('image/png');
    }
    const result = await page.locator('#export-result').textContent();
    expect(result).toMatch(/pak0-glb\.zip: \d+ bytes, 3 of 4 models as \.glb, 1 failed/);
    expect(result).toMatch(/progs\/cut\.mdl: not exported: TRUNCATED/);
    // the model on screen is untouched by it
    expect((await state()).state).toBe('ready');
  });

  it('logged no errors (page, console, worker)', () => {
    expect(problems).toEqual([]);
  });
});
