// `convert ARCHIVE --all` (batch conversion on worker threads) and `inspect ARCHIVE`, through the built CLI
// (bin/idtech-models.js → dist/cli.js), each spawned as a user would run it (process start included).
// The archive: every well-formed model file of ../shared/models (md2, md3, md5mesh, md5anim, .skin, animation.cfg)
// zipped by Info-ZIP `zip -9` COPIES times under copy0/ … copyN/ (so a batch lasts a few seconds), into
// target/bench/batch/ (rebuilt each run, never committed).
// Batch: wall time of `convert batch.pk3 --all --force -o OUT` on --jobs 1 and on --jobs = every core, ROUNDS rounds
// interleaved (1, N, then N, 1, …: a change in the machine's load falls on both alike); medians of each, models/s =
// converted models / median wall seconds; speed-up = the ratio of the medians (1-worker / all-cores); CPU s (user +
// sys, all threads) and peak RSS from GNU time when installed; the bound = cores × the 1-worker wall s ÷ the all-cores
// run's CPU s, the speed-up those cores would give were every CPU second of that run packed onto them (a run cannot
// end before its CPU s are done on its cores): work done beside the converting thread — V8's compiling and collecting,
// the kernel's file work — rides on a free core under --jobs 1 but takes the other workers' cores under --jobs N.
// Every run writes to a folder of its own, all removed at the end: ext4 without a journal (this machine's disk) skips
// every inode freed in the last minute when it allocates one, and deleting the last run's 777 files and folders just
// before a run cost that run 0.33 s of kernel CPU on the I/O threads (0.48 s against 0.15 s into a fresh folder). So
// a second batch bench started within a minute of this one's end is slowed by it. How quiet the machine was: the
// 1-minute load average before each run and the CPU seconds every other process used during it (/proc/stat); the run
// counts as quiet when every load average was below 0.5 and the others used under 5% of the cores. `--wait-quiet`
// waits for that before each run (below 0.5, and under 5% busy over 2 s), as the numbers in docs/benchmarks.md were
// taken.
// Inspect: `inspect batch.pk3 --json` (catalog + every model's header: frames, anims, skins) against `unzip -l`
// (names and sizes only), both spawned, best of ROUNDS.
//   node bench/batch.mjs [--quick] [--json] [--rounds N] [--wait-quiet]      (needs zip, unzip, and dist/ built)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { formatRows, isMain, median, ROOT, SHARED } from './lib.mjs';

const DIR = join(ROOT, 'target/bench/batch');
const BIN = join(ROOT, 'bin/idtech-models.js');

function makeArchive(copies) {
  // Not the outputs of an earlier run (removed at its end; see benchBatch): deleting them here would put their
  // freed inodes right before this run's writes.
  mkdirSync(DIR, { recursive: true });
  for (const name of readdirSync(DIR)) if (name !== 'out') rmSync(join(DIR, name), { recursive: true, force: true });
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
/** Below this 1-minute load average, and with other processes under QUIET_BUSY of the cores, the machine is quiet. */
const QUIET_LOAD = 0.5;
const QUIET_BUSY = 0.05;

/** Every CPU's busy and total time (jiffies) so far, from /proc/stat; null where there is none (not Linux). */
function cpuTimes() {
  if (!existsSync('/proc/stat')) return null;
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - f[4], total };
}
const TICK = 100; // USER_HZ: /proc/stat's jiffies per second on Linux

/** Waits until the load average is below QUIET_LOAD and the cores were under QUIET_BUSY busy over 2 s. */
async function waitQuiet(log) {
  for (let waited = 0; ; waited++) {
    if (loadavg()[0] < QUIET_LOAD) {
      const a = cpuTimes();
      await new Promise((r) => setTimeout(r, 2000));
      const b = cpuTimes();
      if (!a || (b.busy - a.busy) / (b.total - a.total) < QUIET_BUSY) return;
    } else await new Promise((r) => setTimeout(r, 5000));
    if (waited % 12 === 11) log(`batch: waiting for a quiet machine (load average ${loadavg()[0].toFixed(2)})…`);
  }
}

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

export async function benchBatch({ quick = false, rounds: batchRounds, waitForQuiet = false, log = () => {} } = {}) {
  const copies = quick ? 3 : 8;
  const rounds = quick ? 1 : 2;
  const runs = batchRounds ?? (quick ? 1 : 3);
  log(`batch: building an archive of ${copies} copies of the corpus models…`);
  const { archive, members, bytes } = makeArchive(copies);
  const cores = availableParallelism();
  const configs = [...new Set([1, cores])];
  const samples = new Map(configs.map((j) => [j, []]));
  for (let r = 0; r < runs; r++) {
    for (const jobs of r % 2 ? [...configs].reverse() : configs) {
      if (waitForQuiet) await waitQuiet(log);
      const out = join(DIR, 'out', `${Date.now()}-jobs${jobs}-round${r}`);
      const load = loadavg()[0];
      const before = cpuTimes();
      const { ms, p, cpu_s, rss_mb } = timed(process.execPath, [BIN, 'convert', archive, '--all', '--force', '--jobs', String(jobs), '-o', out, '--json']);
      const after = cpuTimes();
      if (p.status !== 0) throw new Error(`convert --all --jobs ${jobs} failed (${p.status}): ${p.stderr.slice(-2000)}`);
      // What every other process used meanwhile: the machine's busy time less this run's own CPU.
      const others_cpu_s = before && cpu_s !== null ? Math.max(0, (after.busy - before.busy) / TICK - cpu_s) : null;
      samples.get(jobs).push({ models: JSON.parse(p.stdout).converted, wall_ms: ms, cpu_s, rss_mb, load, others_cpu_s });
      log(`batch: --jobs ${jobs}: ${(ms / 1000).toFixed(2)} s (load average ${load.toFixed(2)}${others_cpu_s === null ? '' : `, others ${others_cpu_s.toFixed(2)} CPU s`})`);
    }
  }
  const batch = configs.map((jobs) => {
    const s = samples.get(jobs);
    const wall = median(s.map((x) => x.wall_ms));
    const cpu = s.every((x) => x.cpu_s !== null) ? median(s.map((x) => x.cpu_s)) : null;
    const rss = s.every((x) => x.rss_mb !== null) ? median(s.map((x) => x.rss_mb)) : null;
    return { jobs, models: s[0].models, runs: s.length, wall_ms: wall, min_ms: Math.min(...s.map((x) => x.wall_ms)), max_ms: Math.max(...s.map((x) => x.wall_ms)), models_per_s: s[0].models / (wall / 1000), cpu_s: cpu, rss_mb: rss };
  });
  rmSync(join(DIR, 'out'), { recursive: true, force: true });
  const one = batch[0];
  for (const b of batch) {
    b.speedup = one.wall_ms / b.wall_ms;
    b.bound = b.jobs > 1 && b.cpu_s ? (Math.min(b.jobs, cores) * one.wall_ms) / 1000 / b.cpu_s : null;
  }
  const all = [...samples.values()].flat();
  const quiet = {
    max_load: Math.max(...all.map((x) => x.load)),
    // cores · seconds: the fraction of the machine the other processes used while we measured
    max_others_busy: all.every((x) => x.others_cpu_s !== null) ? Math.max(...all.map((x) => x.others_cpu_s / cores / (x.wall_ms / 1000))) : null,
  };
  quiet.quiet = quiet.max_load < QUIET_LOAD && quiet.max_others_busy !== null && quiet.max_others_busy < QUIET_BUSY;

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
  return { archive: { copies, members, bytes, models: one.models, listed }, cores, load_average: loadavg(), quiet, runs: Object.fromEntries(samples), batch, inspect, node_start_ms: nodeStart };
}

export function formatBatchTable(r) {
  const q = r.quiet;
  const quiet = q ? `; ${q.quiet ? 'quiet' : 'NOT quiet'}: load average ≤ ${q.max_load.toFixed(2)} before each run${q.max_others_busy === null ? '' : `, other processes ≤ ${(q.max_others_busy * 100).toFixed(1)}% of the cores during each`}` : '';
  const head = `archive: ${r.archive.members} members (${(r.archive.bytes / 1e6).toFixed(1)} MB, zip -9), ${r.archive.models} models; ${r.cores} cores${quiet}`;
  const batch = formatRows(
    ['convert --all', 'models', 'runs', 'wall s (median)', 'min–max', 'models/s', 'speed-up', 'bound', 'CPU s', 'peak RSS MB'],
    r.batch.map((b) => [`--jobs ${b.jobs}`, String(b.models), String(b.runs), (b.wall_ms / 1000).toFixed(2), `${(b.min_ms / 1000).toFixed(2)}–${(b.max_ms / 1000).toFixed(2)}`, b.models_per_s.toFixed(1), `${b.speedup.toFixed(2)}×`, b.bound ? `${b.bound.toFixed(2)}×` : '-', b.cpu_s?.toFixed(2) ?? '-', b.rss_mb?.toFixed(0) ?? '-']),
  );
  const ours = r.inspect[0].ms, unzip = r.inspect[1].ms;
  const list = formatRows(['listing (spawned)', 'ms'], r.inspect.map((x) => [x.command, x.ms.toFixed(1)]));
  return `${head}\n${batch}\n\n${list}\ninspect ÷ unzip -l: ${(ours / unzip).toFixed(1)}× (node's own start-up: ${r.node_start_ms.toFixed(1)} ms; inspect lists ${r.archive.listed} models with frames, anims and skins)`;
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--rounds');
  const rounds = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const r = await benchBatch({ quick, rounds, waitForQuiet: process.argv.includes('--wait-quiet'), log: (m) => console.error(m) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else console.log(formatBatchTable(r));
}
