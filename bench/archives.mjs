// Archives (.pk3 .pk4 .dpk): listing against Info-ZIP's `unzip -l`, and member streaming MB/s per inflater, in Node
// (fflate, DecompressionStream, node:zlib) and in headless Chromium (fflate, DecompressionStream).
// Archives are built by Info-ZIP `zip` into target/bench/archives/ (rebuilt each run, never committed):
//   corpus-deflate.pk3   every MANIFEST file of ../shared/models, `zip -9`
//   corpus-stored.pk3    the same, `zip -0` (no inflating: reading + CRC only)
//   entries-20000.pk3    20,000 small generated files (listing cost per entry)
// Listing: ours = open the archive (end records + central directory) and list every path, in this process; `unzip -l`
// = the whole program, process start included (spawned; its start-up alone is measured too, on an empty archive).
// Streaming: every member of the archive inflated, CRC-checked and discarded; MB = 10^6 inflated bytes.
//   node bench/archives.mjs [--quick] [--json]      (needs zip, unzip; Chromium for the browser column)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleSource, formatRows, isMain, ROOT, SHARED } from './lib.mjs';

const DIR = join(ROOT, 'target/bench/archives');

/** The vfs floor for Node, bundled from ts/src (the entry points re-export it later). */
function vfs() {
  return bundleSource(join(DIR, 'vfs-node.mjs'), `export { openArchive } from './ts/src/vfs/node.js';
    export { fflateInflater, streamInflater } from './ts/src/vfs/inflate.js';
    export { zlibInflater } from './ts/src/vfs/node-zlib.js';
    export { crc32Update } from './ts/src/base/crc32.js';`);
}

function makeArchives() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const rows = readFileSync(join(SHARED, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t')[1]).filter((p) => existsSync(join(SHARED, p)));
  const names = rows.join('\n');
  const a = { deflate: join(DIR, 'corpus-deflate.pk3'), stored: join(DIR, 'corpus-stored.pk3'), entries: join(DIR, 'entries-20000.pk3'), empty: join(DIR, 'one.pk3') };
  execFileSync('zip', ['-q', '-X', '-9', a.deflate, '-@'], { cwd: SHARED, input: names });
  execFileSync('zip', ['-q', '-X', '-0', a.stored, '-@'], { cwd: SHARED, input: names });
  const many = join(DIR, 'many');
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(many, `models/d${d}`), { recursive: true });
    for (let f = 0; f < 200; f++) writeFileSync(join(many, `models/d${d}/f${f}.md3`), `file ${d}/${f}\n`);
  }
  execFileSync('zip', ['-q', '-X', '-r', a.entries, 'models'], { cwd: many });
  writeFileSync(join(DIR, 'one.txt'), 'x');
  execFileSync('zip', ['-q', '-X', a.empty, 'one.txt'], { cwd: DIR });
  return { archives: a, entries: rows.length };
}

const best = (xs) => Math.min(...xs);

async function timeAsync(rounds, fn) {
  const t = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  return best(t);
}

function unzipList(path, rounds) {
  const t = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    const p = spawnSync('unzip', ['-l', path], { stdio: ['ignore', 'ignore', 'inherit'] });
    t.push(performance.now() - t0);
    if (p.status !== 0) throw new Error(`unzip -l ${path} failed`);
  }
  return best(t);
}

async function streamAll(archive) {
  let bytes = 0;
  for (const f of await archive.list('')) for await (const c of f.stream()) bytes += c.length;
  return bytes;
}

/** Both browser inflaters in headless Chromium, over the deflated corpus archive (ts/test/browser/vfs-page.ts). */
async function browserSpeeds(archive, rounds) {
  const env = join(ROOT, 'target/toolchain.env');
  const chromiumPath = process.env.CHROMIUM || (existsSync(env) && /^CHROMIUM='([^']*)'/m.exec(readFileSync(env, 'utf8'))?.[1]) || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) return { note: `no Chromium at ${chromiumPath}` };
  const pageDir = join(DIR, 'page');
  mkdirSync(pageDir, { recursive: true });
  await build({ entryPoints: [join(ROOT, 'ts/test/browser/vfs-page.ts')], outfile: join(pageDir, 'vfs-page.js'), bundle: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'warning' });
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="vfs-page.js"></script></body>');
  const { startServer } = await import('../scripts/serve.mjs');
  const { chromium } = await import('playwright-core');
  const server = await startServer({ port: 0, extra: { '/page/': pageDir, '/archives/': DIR } });
  const context = await chromium.launchPersistentContext('', { executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/page/`);
    await page.waitForFunction(() => document.body.dataset.vfs === 'ready');
    return await page.evaluate(([u, r]) => window.vfsPage.inflateSpeed(u, r), [`/archives/${archive.split('/').pop()}`, rounds]);
  } finally {
    await context.close();
    await server.close();
  }
}

export async function benchArchives({ quick = false, log = () => {} } = {}) {
  const rounds = quick ? 3 : 7;
  const { archives, entries } = makeArchives();
  const lib = await vfs();
  log('archives: listing…');
  const listing = [];
  for (const [label, path] of [['corpus (deflate)', archives.deflate], ['20,000 entries', archives.entries]]) {
    let count = 0;
    const ours = await timeAsync(rounds, async () => {
      const a = await lib.openArchive(path);
      count = (await a.list('')).length;
      await a.close();
    });
    const unzip = unzipList(path, rounds);
    listing.push({ archive: label, entries: count, bytes: statSync(path).size, ours_ms: ours, unzip_ms: unzip, ratio: unzip / ours });
  }
  const unzipStartMs = unzipList(archives.empty, rounds);

  log('archives: member streaming…');
  const streaming = [];
  const inflaters = [lib.zlibInflater, lib.streamInflater, lib.fflateInflater];
  for (const inflater of inflaters) {
    let bytes = 0;
    const ms = await timeAsync(rounds, async () => {
      const a = await lib.openArchive(archives.deflate, { inflater });
      bytes = await streamAll(a);
      await a.close();
    });
    streaming.push({ where: 'node', inflater: inflater.name, archive: 'corpus (deflate)', mb: bytes / 1e6, ms, mb_per_s: bytes / 1e6 / (ms / 1000) });
  }
  {
    let bytes = 0;
    const ms = await timeAsync(rounds, async () => {
      const a = await lib.openArchive(archives.stored);
      bytes = await streamAll(a);
      await a.close();
    });
    streaming.push({ where: 'node', inflater: 'stored (read + CRC)', archive: 'corpus (stored)', mb: bytes / 1e6, ms, mb_per_s: bytes / 1e6 / (ms / 1000) });
  }
  const big = new Uint8Array(64 << 20).map((_, i) => (i * 2654435761) >>> 24);
  const crcMs = await timeAsync(rounds, async () => lib.crc32Update(0, big));
  log('archives: Chromium…');
  let browser;
  try {
    browser = await browserSpeeds(archives.deflate, rounds);
  } catch (e) {
    browser = { note: `Chromium run failed: ${e.message}` };
  }
  for (const [inflater, mbps] of Object.entries(browser)) {
    if (typeof mbps === 'number') streaming.push({ where: 'chromium', inflater, archive: 'corpus (deflate)', mb_per_s: mbps });
  }
  return { corpus_entries: entries, listing, unzip_start_ms: unzipStartMs, streaming, crc32_mb_per_s: big.length / 1e6 / (crcMs / 1000), browser_note: browser.note };
}

export function formatArchivesTable(r) {
  const list = formatRows(
    ['listing', 'entries', 'ours ms', 'unzip -l ms', 'unzip / ours'],
    r.listing.map((x) => [x.archive, String(x.entries), x.ours_ms.toFixed(2), x.unzip_ms.toFixed(2), `${x.ratio.toFixed(2)}×`]),
  );
  const stream = formatRows(['streaming every member', 'where', 'MB/s'], r.streaming.map((x) => [x.inflater, x.where, x.mb_per_s.toFixed(0)]));
  return `${list}\n(unzip -l start-up alone, on a one-entry archive: ${r.unzip_start_ms.toFixed(2)} ms)\n\n${stream}\nCRC-32 (ours): ${r.crc32_mb_per_s.toFixed(0)} MB/s${r.browser_note ? `\n${r.browser_note}` : ''}`;
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const r = await benchArchives({ quick, log: (m) => console.error(m) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(formatArchivesTable(r));
}
