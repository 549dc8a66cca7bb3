// `convert ARCHIVE --all` (batch conversion on worker threads) and `inspect ARCHIVE`, through the built CLI
// (bin/idtech-models.js → dist/cli.js), each spawned as a user would run it (process start included).
// The archive: every well-formed model file of ../shared/models (md2, md3, md5mesh, md5anim, .skin, animation.cfg)
// zipped by Info-ZIP `zip -9` COPIES times under copy0/ … copyN/ (so a batch lasts a few seconds), into
// target/bench/batch/ (rebuilt each run, never committed).
// Batch: wall time of `convert batch.pk3 --all --force -o OUT` on --jobs 1 and on --jobs = every core, best of
// ROUNDS; models/s = converted models / wall seconds; speed-up = 1-worker wall / all-cores wall; CPU s (user + sys,
// all threads) and peak RSS from GNU time when installed; the load average says how busy the machine was.
// Inspect: `inspect batch.pk3 --json` (catalog + every model's header: frames, anims, skins) against `unzip -l`
// (names and sizes only), both spawned, best of ROUNDS.
//   node bench/batch.mjs [--quick] [--json]      (needs zip, unzip, and dist/ built)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { formatRows, isMain, ROOT, SHARED } from './lib.mjs';

const DIR = join(ROOT, 'target/bench/batch');
const BIN = join(ROOT, 'bin/idtech-models.js');

function makeArchive(copies) {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const rows = readFileSync(join(SHARED, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t'));
  const files = rows
    .filter(([format, path]) => ['md2', 'md3', 'md5mesh', 'md5anim', 'skin', 'cfg'].includes(format) && !/malformed|\/invalid\//.test(path) && existsSync(join(SHARED, path)))
    .map(([, path]) => path);
  // copyK/ is a link to the models folder: zip stores what it points at, under the copy's name.
  for (let k = 0; k < copies; k++) symlinkSync(SHARED, join(DIR, `copy${k}`));
  const names = Array.from({ length: copies }, (_, k) => files.map((f) => `copy${k}/${f}`)).flat();
  const archive = join(DIR, 'batch.pk3');
  execFileSync('zip', ['-q', '-X', '-9', archive, '-@'], { cwd: DIR, input: names.join('\n') });
  return { archive, members: names.length, bytes: statSync(archive).size };
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/**
 * Runs a command; wall ms, and (where GNU time is installed) the CPU seconds it and its threads used and its peak
 * RSS: on a machine shared with other work, CPU shows whether workers really ran side by side when wall time cannot.
 */
function timed(cmd, args) {
  const stats = join(DIR, 'time.txt');
  const [c, a] = TIME ? [TIME, ['-f', '%U %S %M', '-o', stats, cmd, ...args]] : [cmd, args];
  const t0 = performance.now();
  const p = spawnSync(c, a, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (!TIME) return { ms, p, cpu_s: null, rss_mb: null };
  const [user, sys, kb] = readFileSync(stats, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { ms, p, cpu_s: user + sys, rss_mb: kb / 1024 };
}

export async function benchBatch({ quick = false, log = () => {} } = {}) {
  const copies = quick ? 3 : 8;
  const rounds = quick ? 1 : 2;
  log(`batch: building an archive of ${copies} copies of the corpus models…`);
  const { archive, members, bytes } = makeArchive(copies);
  const cores = availableParallelism();
  const batch = [];
  for (const jobs of [...new Set([1, cores])]) {
    let best = null;
    for (let r = 0; r < rounds; r++) {
      const out = join(DIR, `out-${jobs}`);
      rmSync(out, { recursive: true, force: true });
      const { ms, p, cpu_s, rss_mb } = timed(process.execPath, [BIN, 'convert', archive, '--all', '--force', '--jobs', String(jobs), '-o', out, '--json']);
      if (p.status !== 0) throw new Error(`convert --all --jobs ${jobs} failed (${p.status}): ${p.stderr.slice(-2000)}`);
      const j = JSON.parse(p.stdout);
      if (!best || ms < best.wall_ms) best = { jobs, models: j.converted, wall_ms: ms, models_per_s: j.converted / (ms / 1000), cpu_s, rss_mb };
    }
    log(`batch: --jobs ${jobs}: ${best.models} models in ${(best.wall_ms / 1000).toFixed(2)} s`);
    batch.push(best);
  }
  const one = batch[0];
  for (const b of batch) b.speedup = one.wall_ms / b.wall_ms;

  const inspect = [];
  let listed = 0;
  for (const [label, cmd, args] of [
    ['idtech-models inspect --json', process.execPath, [BIN, 'inspect', archive, '--json']],
    ['unzip -l', 'unzip', ['-l', archive]],
  ]) {
    let ms = Infinity;
    for (let r = 0; r < rounds + 1; r++) {
      const t = timed(cmd, args);
      if (t.p.status !== 0) throw new Error(`${label} failed: ${t.p.stderr}`);
      if (label.startsWith('idtech')) listed = JSON.parse(t.p.stdout).models.length;
      ms = Math.min(ms, t.ms);
    }
    inspect.push({ command: label, ms });
  }
  const nodeStart = Math.min(...Array.from({ length: 3 }, () => timed(process.execPath, ['-e', '0']).ms));
  return { archive: { copies, members, bytes, models: one.models, listed }, cores, load_average: loadavg(), batch, inspect, node_start_ms: nodeStart };
}

export function formatBatchTable(r) {
  const head = `archive: ${r.archive.members} members (${(r.archive.bytes / 1e6).toFixed(1)} MB, zip -9), ${r.archive.models} models; ${r.cores} cores, load average ${r.load_average.map((x) => x.toFixed(1)).join(' ')}`;
  const batch = formatRows(
    ['convert --all', 'models', 'wall s', 'models/s', 'speed-up', 'CPU s', 'peak RSS MB'],
    r.batch.map((b) => [`--jobs ${b.jobs}`, String(b.models), (b.wall_ms / 1000).toFixed(2), b.models_per_s.toFixed(1), `${b.speedup.toFixed(2)}×`, b.cpu_s?.toFixed(2) ?? '-', b.rss_mb?.toFixed(0) ?? '-']),
  );
  const ours = r.inspect[0].ms, unzip = r.inspect[1].ms;
  const list = formatRows(['listing (spawned)', 'ms'], r.inspect.map((x) => [x.command, x.ms.toFixed(1)]));
  return `${head}\n${batch}\n\n${list}\ninspect ÷ unzip -l: ${(ours / unzip).toFixed(1)}× (node's own start-up: ${r.node_start_ms.toFixed(1)} ms; inspect lists ${r.archive.listed} models with frames, anims and skins)`;
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const r = await benchBatch({ quick, log: (m) => console.error(m) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(formatBatchTable(r));
}
