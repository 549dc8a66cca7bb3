// The model viewer (dist/demo/, docs/demo.md) in headless Chromium (Debian's, --disable-gpu: SwiftShader WebGL),
// measured as docs/demo.md reports it:
//   1. listing a 100 MB .pk3 (the corpus zipped over and over by Info-ZIP `zip -6` until it passes 100 MiB): picked as
//      a File, and over HTTP with Range requests; from the request to the tree on screen (page side), and the worker's
//      share (mount, list, catalogue);
//   2. pick → first drawn textured frame, per model: the median of --rounds picks, each model picked after another so
//      nothing is cached, with where the time went (worker: read + parse, view, materials, images; page: build);
//   3. frame time while a Quake 3 player animates: display-frame intervals and this thread's time per frame over
//      about 4 s of the real clock.
// Archives are built into target/bench/viewer/ (never committed). Needs `zip` and Chromium.
//   node bench/viewer.mjs [--rounds N] [--json]
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';
import { formatRows, ROOT, SHARED } from './lib.mjs';
import { syntheticModel } from './synthetic.mjs';

const DIR = join(ROOT, 'target/bench/viewer');
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const ROUNDS = Number(arg('--rounds', 5));
const json = process.argv.includes('--json');
const log = (...a) => process.stderr.write(`${a.join(' ')}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const MiB = (n) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/** The corpus, copied by symlink under r0/, r1/ … and zipped until the archive passes 100 MiB. */
function bigArchive() {
  const out = join(DIR, 'big.pk3');
  const stage = join(DIR, 'big');
  mkdirSync(stage, { recursive: true });
  for (let r = 0; !existsSync(out) || statSync(out).size < 100 * 2 ** 20; r++) {
    symlinkSync(SHARED, join(stage, `r${r}`));
    execFileSync('zip', ['-q', '-r', '-6', out, `r${r}`], { cwd: stage });
  }
  return out;
}

/** The models picked: the viewer test's kinds, the biggest real MD5 (rifle_view and its anims), a synthetic ~5 MB MD5. */
async function modelsArchive() {
  const stage = join(DIR, 'models');
  const put = (from, to) => {
    mkdirSync(dirname(join(stage, to)), { recursive: true });
    copyFileSync(join(SHARED, from), join(stage, to));
  };
  for (const f of ['mesh.md5mesh', 'forward.md5anim', 'idle.md5anim', 'death.md5anim', 'md5.cfg', 'skin.jpg', 'mask.jpg', 'normals.png']) put(`actors/drone/${f}`, `actors/drone/${f}`);
  for (const f of ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg', 'lower_default.skin', 'upper_default.skin', 'head_default.skin', 'human_bsuit.jpg']) put(`res-players_src.dpkdir/models/players/human_bsuit/${f}`, `models/players/human_bsuit/${f}`);
  for (const f of ['stasis.md3', 'bubbles.png', 'chamber.png', 'flowpipe.png', 'lifemeter.png', 'lifemeter2.png', 'meters.jpg', 'window.png']) put(`res-tremulous_src.dpkdir/models/mapobjects/stasis/${f}`, `models/mapobjects/stasis/${f}`);
  put('res-tremulous_src.dpkdir/scripts/stasis.shader', 'scripts/stasis.shader');
  for (const f of ['grenade_launcher.md3', 'launcher_d.jpg', 'launcher_n.tga', 'launcher_s.tga']) put(`aaa-assets/models/weapons/grenade_launcher/${f}`, `models/weapons/grenade_launcher/${f}`);
  put('aaa-assets/scripts/grenade_launcher.shader', 'scripts/grenade_launcher.shader');
  put('assimp/test/models/MD2/faerie.md2', 'models/faerie/faerie.md2');
  for (const f of ['rifle_view.md5mesh', 'rifle_view_idle.md5anim', 'rifle_view_reload.md5anim']) put(`res-weapons_src.dpkdir/models/weapons/rifle/${f}`, `models/weapons/rifle/${f}`);
  const { writeMd5Mesh, writeMd5Anim } = await import('../dist/write.js');
  const { mesh, anim } = syntheticModel({ vertices: 30000, joints: 64, frames: 40 });
  mkdirSync(join(stage, 'models/synthetic'), { recursive: true });
  writeFileSync(join(stage, 'models/synthetic/big.md5mesh'), writeMd5Mesh(mesh));
  writeFileSync(join(stage, 'models/synthetic/walk.md5anim'), writeMd5Anim(anim));
  const out = join(DIR, 'models.pk3');
  execFileSync('zip', ['-q', '-r', '-6', out, '.'], { cwd: stage });
  return out;
}

const PICKS = [
  { label: 'drone (MD5, 3 md5anims, md5.cfg skin)', path: 'actors/drone/mesh.md5mesh' },
  { label: 'faerie (MD2, 198 frames)', path: 'models/faerie/faerie.md2' },
  { label: 'stasis (MD3, shader, 7 images)', path: 'models/mapobjects/stasis/stasis.md3' },
  { label: 'grenade launcher (MD3, 60 frames, TGA maps)', path: 'models/weapons/grenade_launcher/grenade_launcher.md3' },
  { label: 'human_bsuit (Quake 3 player)', path: 'models/players/human_bsuit' },
  { label: 'rifle_view (MD5 + 2 md5anims)', path: 'models/weapons/rifle/rifle_view.md5mesh' },
  { label: 'synthetic (MD5, 30k vertices + md5anim)', path: 'models/synthetic/big.md5mesh' },
];

async function main() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  log('[viewer] building archives');
  const big = bigArchive();
  const models = await modelsArchive();
  const server = await startServer({ port: 0, extra: { '/bench/': DIR } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  const ready = () => page.waitForFunction(() => document.body.dataset.mount !== 'busy' && ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 300_000 });
  const result = { big: { bytes: statSync(big).size }, listing: {}, picks: [], frames: null };
  try {
    // 1. listing
    for (const how of ['file', 'url']) {
      const rows = [];
      for (let r = 0; r < ROUNDS; r++) {
        await page.goto(`${server.url}/demo/?idle`);
        await ready();
        if (how === 'file') await page.locator('#pick-files').setInputFiles(big);
        else {
          await page.locator('#url').fill(`${server.url}/bench/big.pk3`);
          await page.locator('#url-form button').click();
        }
        await page.waitForFunction(() => document.body.dataset.mount === 'done', null, { timeout: 300_000 });
        rows.push(await page.evaluate(() => ({ page: Number(document.body.dataset.mountMs), worker: window.viewer.listing().ms, files: window.viewer.listing().files.length, models: window.viewer.listing().models.length })));
        await ready();
      }
      result.listing[how] = { page: median(rows.map((x) => x.page)), worker: median(rows.map((x) => x.worker)), files: rows[0].files, models: rows[0].models };
      log(`[viewer] list ${how}: ${ms(result.listing[how].page)}`);
    }
    // 2. pick → first frame
    await page.goto(`${server.url}/demo/?idle`);
    await ready();
    await page.locator('#pick-files').setInputFiles(models);
    await ready();
    const sizes = await page.evaluate(() => Object.fromEntries(window.viewer.listing().models.map((m) => [m.path, m.size])));
    const samples = Object.fromEntries(PICKS.map((p) => [p.path, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const p of PICKS) {
        await page.evaluate((path) => window.viewer.open(path), p.path);
        await ready();
        samples[p.path].push(await page.evaluate(() => window.viewer.times()));
      }
    }
    for (const p of PICKS) {
      const s = samples[p.path];
      const pick = (k) => median(s.map((x) => x[k]));
      result.picks.push({ label: p.label, bytes: sizes[p.path], firstFrame: pick('firstFrame'), parse: pick('parse'), view: pick('view'), materials: pick('materials'), images: pick('images'), build: pick('build') });
    }
    // 3. a player animating on the real clock
    await page.goto(`${server.url}/demo/?idle`);
    await ready();
    await page.locator('#pick-files').setInputFiles(models);
    await ready();
    await page.evaluate(() => window.viewer.open('models/players/human_bsuit'));
    await ready();
    await page.locator('#channels select[data-channel="legs"]').selectOption('LEGS_RUN');
    await page.locator('#channels select[data-channel="torso"]').selectOption('TORSO_GESTURE');
    await page.evaluate(() => window.viewer.frameTimes());
    await page.waitForTimeout(4000);
    const f = await page.evaluate(() => window.viewer.frameTimes());
    const intervals = f.interval.slice(1);
    result.frames = { count: intervals.length, interval: { median: median(intervals), p95: pct(intervals, 0.95) }, cpu: { median: median(f.cpu), p95: pct(f.cpu, 0.95) } };
  } finally {
    await browser.close();
    await server.close();
  }
  if (json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  const l = result.listing;
  console.log(`listing ${MiB(result.big.bytes)} (${l.file.files} files, ${l.file.models} models): picked file ${ms(l.file.page)} (worker ${ms(l.file.worker)}), over HTTP ${ms(l.url.page)} (worker ${ms(l.url.worker)})\n`);
  console.log(formatRows(['pick → first frame', 'bytes', 'total', 'parse', 'view', 'materials', 'images', 'build'], result.picks.map((p) => [p.label, MiB(p.bytes), ms(p.firstFrame), ms(p.parse), ms(p.view), ms(p.materials), ms(p.images), ms(p.build)])));
  const fr = result.frames;
  console.log(`\nQuake 3 player animating (LEGS_RUN + TORSO_GESTURE), ${fr.count} frames: interval median ${ms(fr.interval.median)}, p95 ${ms(fr.interval.p95)}; page thread per frame median ${ms(fr.cpu.median)}, p95 ${ms(fr.cpu.p95)}`);
  writeFileSync(join(DIR, 'results.json'), JSON.stringify(result, null, 2));
}

await main();
