// `idtech-models inspect` on a small file, whole process, for one or more checkouts (each built: its dist/), the
// runs interleaved so that a busy machine slows them alike: the process's CPU time (user + system, from its start to
// its exit, as the process itself counts it: a preloaded hook writes `process.cpuUsage()` on exit, to the
// microsecond) and its wall time from start to exit, medians, and each checkout's ratio to the first. On a loaded
// machine the wall time mostly measures the wait for a core; the CPU time is the cost. Also the script files the
// command loads (a module loader hook counts them, in one more run: what Node reads and compiles).
//   node bench/cli-startup.mjs [--runs N] [--json] [--docs] [ROOT …]     (default: this checkout)
// --docs writes the table into docs/benchmarks.md between its cli-startup markers (with each checkout's commit).
// The model is copied into a fresh folder, so no game folder above it is mounted: what is measured is the command's
// start, not a texture search.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { formatRows, isMain, median, ROOT, SHARED } from './lib.mjs';

/** A small MD3 of the corpus (MANIFEST.tsv: watercan.md3, 2,748 bytes, one surface). */
const MODEL = 'assimp/test/models-nonbsd/MD3/watercan.md3';

/** The script files (and their bytes) one `inspect` run loads: a module loader hook in the child counts them. */
function loadedScripts(root, file, dir) {
  const log = join(dir, 'loaded.txt');
  writeFileSync(join(dir, 'hooks.mjs'), "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  const r = await next(url, context);\n  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, `${r.source?.length ?? 0}\\n`);\n  return r;\n}\n");
  writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), join(root, 'bin/idtech-models.js'), 'inspect', file], { env: { ...process.env, LOADED_LOG: log }, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${root}: inspect exited with ${r.status}`);
  const sizes = readFileSync(log, 'utf8').trim().split('\n').map(Number);
  return { files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

export function benchCliStartup({ roots = [ROOT], runs = 20 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'idtech-cli-startup-'));
  try {
    const file = join(dir, 'watercan.md3');
    copyFileSync(join(SHARED, MODEL), file);
    const hook = join(dir, 'cpu-on-exit.cjs');
    writeFileSync(hook, "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(3, `${u.user + u.system} ${process.uptime()}\\n`); });\n");
    const samples = roots.map(() => ({ wall: [], cpu: [] }));
    for (let i = 0; i < runs; i++) {
      roots.forEach((root, k) => {
        // the preloaded hook writes the process's CPU µs and uptime on fd 3; the command's own output is ignored
        const r = spawnSync(process.execPath, ['--require', hook, join(root, 'bin/idtech-models.js'), 'inspect', file], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
        if (r.status !== 0) throw new Error(`${root}: inspect exited with ${r.status}: ${r.stderr}`);
        const [cpuMicros, uptime] = r.output[3].trim().split(' ').map(Number);
        samples[k].wall.push(uptime);
        samples[k].cpu.push(cpuMicros / 1e6);
      });
    }
    const rows = roots.map((root, k) => ({ root, wall: median(samples[k].wall), cpu: median(samples[k].cpu), scripts: loadedScripts(root, file, dir) }));
    for (const r of rows) {
      r.wallRatio = r.wall / rows[0].wall;
      r.cpuRatio = r.cpu / rows[0].cpu;
    }
    return { date: new Date().toISOString(), model: MODEL, runs, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatCliStartupTable(r) {
  return formatRows(
    ['checkout', 'cpu ms (median)', 'wall ms (median)', 'vs first (cpu, wall)', 'script files loaded', 'their bytes'],
    r.rows.map((x) => [x.root, (x.cpu * 1000).toFixed(1), (x.wall * 1000).toFixed(1), `${x.cpuRatio.toFixed(3)}×, ${x.wallRatio.toFixed(2)}×`, String(x.scripts.files), String(x.scripts.bytes)]),
  );
}

/**
 * A checkout as the docs name it: its commit (and `+` when its sources have changes); a folder outside git (a commit's
 * files exported and built, `git archive`) by its own name.
 */
function commitName(root) {
  const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return `${git('log', '-1', '--format=%h')}${git('status', '--porcelain', '--', 'ts', 'scripts') ? '+' : ''}`;
  } catch {
    return basename(root);
  }
}

function writeDocs(r) {
  const path = join(ROOT, 'docs/benchmarks.md');
  const table = ['| build | CPU ms (median) | vs the first | script files loaded | their bytes |', '|---|---|---|---|---|',
    ...r.rows.map((x) => `| ${commitName(x.root)} | ${(x.cpu * 1000).toFixed(1)} | ${x.cpuRatio.toFixed(3)}× | ${x.scripts.files} | ${x.scripts.bytes.toLocaleString('en-US')} |`)].join('\n');
  const text = readFileSync(path, 'utf8');
  const re = /(<!-- cli-startup -->\n)[\s\S]*?(<!-- \/cli-startup -->)/;
  if (!re.test(text)) throw new Error('docs/benchmarks.md has no <!-- cli-startup --> … <!-- /cli-startup --> block');
  writeFileSync(path, text.replace(re, `$1${table}\n\n(${r.runs} runs each, interleaved, ${r.date.slice(0, 16)}; \`${r.model}\`)\n$2`));
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 20;
  const roots = args.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1));
  const r = benchCliStartup({ roots: roots.length ? roots : [ROOT], runs });
  if (args.includes('--docs')) writeDocs(r);
  console.log(args.includes('--json') ? JSON.stringify(r) : formatCliStartupTable(r));
}
