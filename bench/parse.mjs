// MD5 parse speed and memory: our TS parsers on the real md5mesh / md5anim files of ../shared/models and on big
// generated files (fixtures/generate-md5.mjs, written to target/bench/parse/, reused across runs, never committed),
//   - from one Uint8Array (parseMd5Mesh / parseMd5Anim),
//   - from a ReadableStream of 64 KiB chunks (parseMd5MeshStream / parseMd5AnimStream), without and with `sizeHint`,
//   - md5anim frame by frame (openMd5AnimFrames over the same stream; constant memory), md5mesh mesh by mesh,
// side by side with the same files through native assimp (`assimp info FILE -r`: its own import time, raw import
// without post-processing) and assimpjs (WASM; ConvertFileList to assjson — it has no import-only call, so its time
// includes a JSON export). The full run also measures the peak RSS of `node bin/idtech-models.js inspect` streaming
// a ~1 GB md5anim. MB = 10^6 bytes. A missing peer is skipped with a note, never a crash.
//   node bench/parse.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
// Writes the `parse` key of bench/results/latest.json (npm run bench writes it in the same run as the skin suites).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { bestMedians, formatRows, isMain, ROOT, runIsolated, SHARED } from './lib.mjs';
import { openMd5AnimFrames, openMd5Meshes, parseMd5Anim, parseMd5AnimStream, parseMd5Mesh, parseMd5MeshStream } from '../dist/node.js';

const CHUNK = 64 * 1024;
const GEN_DIR = join(ROOT, 'target/bench/parse');

/** The real MD5 files measured: the largest of each kind in the shared corpus. */
const REAL = [
  'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh',
  'assimp/test/models-nonbsd/MD5/BoarMan.md5mesh',
  'actors/drone/mesh.md5mesh',
  'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_idle.md5anim',
  'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_reload.md5anim',
  'actors/drone/forward.md5anim',
];

/** Generated files: [name, generator arguments]. The full run's anim is ≥ 100 MB; the 1 GB one is for RSS only. */
const GENERATED = {
  quick: [
    ['gen-anim-10MB', ['--joints', '100', '--frames', '1800', '--loose-bounds', '--anim-only'], 'md5anim'],
    ['gen-mesh-5MB', ['--joints', '64', '--rings', '600', '--sides', '48', '--frames', '1'], 'md5mesh'],
  ],
  full: [
    ['gen-anim-100MB', ['--joints', '100', '--frames', '18000', '--loose-bounds', '--anim-only'], 'md5anim'],
    ['gen-mesh-50MB', ['--joints', '64', '--rings', '3000', '--sides', '100', '--frames', '1'], 'md5mesh'],
  ],
};
const HUGE = ['gen-anim-1GB', ['--joints', '100', '--frames', '182000', '--loose-bounds', '--anim-only']];

function generate(name, args, log) {
  mkdirSync(GEN_DIR, { recursive: true });
  const prefix = join(GEN_DIR, name);
  const stamp = `${prefix}.args`;
  const want = args.join(' ');
  const done = existsSync(stamp) && readFileSync(stamp, 'utf8') === want;
  if (!done) {
    log(`generating ${name} (${want})…`);
    execFileSync(process.execPath, [join(ROOT, 'fixtures/generate-md5.mjs'), prefix, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(stamp, want);
  }
  return prefix;
}

function streamOf(bytes) {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
}

async function drain(reader) {
  let n = 0;
  for await (const _ of reader) n++;
  return n;
}

/**
 * Whole process, wall clock, as a user meets it: `idtech-models inspect FILE` against `assimp info FILE`, interleaved
 * run by run (the machine's noise hits both alike); min and median of `runs` each.
 */
function wholeProcess(file, runs) {
  const bin = assimpPath();
  const ours = [], theirs = [];
  const time = (cmd, args) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 600_000 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  for (let i = 0; i < runs; i++) {
    ours.push(time(process.execPath, [join(ROOT, 'bin/idtech-models.js'), 'inspect', file]));
    if (bin) theirs.push(time(bin, ['info', file]));
  }
  const stats = (xs) => (xs.length ? { min_ms: Math.min(...xs), median_ms: xs.sort((a, b) => a - b)[xs.length >> 1] } : null);
  const o = stats(ours), a = stats(theirs);
  return { file: basename(file), bytes: statSync(file).size, runs, inspect: o, assimp_info: a, speedup_median: a ? a.median_ms / o.median_ms : null };
}

/** assimp's own import time for `file` (best of `runs`), or a note why not. */
function assimpNative(file, runs) {
  const bin = assimpPath();
  if (!bin) return { note: 'assimp not found (ASSIMP= in target/toolchain.env, or on PATH)' };
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(bin, ['info', file, '-r'], { encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
    const m = /import took approx\. ([\d.e+-]+) seconds/.exec(r.stdout ?? '');
    if (!m) return { note: `assimp info failed on ${basename(file)}: ${(r.stderr || r.stdout || String(r.error)).trim().split('\n').pop()}` };
    best = Math.min(best, Number(m[1]) * 1000);
  }
  return { ms: best };
}

let assimpBin;
function assimpPath() {
  if (assimpBin !== undefined) return assimpBin;
  const env = join(ROOT, 'target/toolchain.env');
  const fromEnv = existsSync(env) ? /^ASSIMP='?([^'\n]+)'?$/m.exec(readFileSync(env, 'utf8'))?.[1] : undefined;
  const which = spawnSync('sh', ['-c', 'command -v assimp'], { encoding: 'utf8' }).stdout.trim();
  assimpBin = [fromEnv, which].find((p) => p && existsSync(p)) ?? null;
  return assimpBin;
}

/** assimpjs in a child process (it is synchronous and may run long or out of memory): best of `runs`, in ms. */
function assimpJs(file, runs) {
  const require = createRequire(import.meta.url);
  let main;
  try {
    main = require.resolve('assimpjs');
  } catch {
    return { note: 'assimpjs not installed (npm install)' };
  }
  const script = `
    const ajs = await require(${JSON.stringify(main)})();
    const bytes = new Uint8Array(require('node:fs').readFileSync(${JSON.stringify(file)}));
    let best = Infinity;
    for (let i = 0; i < ${runs}; i++) {
      const t = performance.now();
      const list = new ajs.FileList();
      list.AddFile(${JSON.stringify(basename(file))}, bytes);
      const r = ajs.ConvertFileList(list, 'assjson');
      const dt = performance.now() - t;
      if (!r.IsSuccess()) { console.log(JSON.stringify({ note: 'assimpjs failed: ' + r.GetErrorCode() })); process.exit(0); }
      best = Math.min(best, dt);
    }
    console.log(JSON.stringify({ ms: best }));`;
  const r = spawnSync(process.execPath, ['-e', `(async () => {${script}})()`], { encoding: 'utf8', timeout: 900_000 });
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop());
  } catch {
    return { note: `assimpjs did not finish on ${basename(file)} (${r.signal ?? r.status}): ${(r.stderr || '').trim().split('\n').pop() ?? ''}` };
  }
}

/** Peak RSS (KiB) of `node bin/idtech-models.js inspect FILE`, with /usr/bin/time -v or the child's own maxRSS. */
function inspectRss(file) {
  const bin = join(ROOT, 'bin/idtech-models.js');
  const t0 = performance.now();
  if (existsSync('/usr/bin/time')) {
    const r = spawnSync('/usr/bin/time', ['-v', process.execPath, bin, 'inspect', file, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const kib = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
    if (r.status !== 0 || !kib) throw new Error(`inspect failed: ${r.stderr}`);
    return { kib: Number(kib), ms: performance.now() - t0, how: '/usr/bin/time -v', frames: JSON.parse(r.stdout).frames };
  }
  // argv[2] must be the command: splice a placeholder where the script path would be.
  const wrapper = `process.on('exit', () => process.stderr.write('MAXRSS ' + process.resourceUsage().maxRSS + '\\n')); process.argv.splice(1, 0, 'cli'); await import(${JSON.stringify(new URL('../dist/cli.js', import.meta.url).href)});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', wrapper, 'inspect', file, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const kib = /MAXRSS (\d+)/.exec(r.stderr)?.[1];
  if (r.status !== 0 || !kib) throw new Error(`inspect failed: ${r.stderr}`);
  return { kib: Number(kib), ms: performance.now() - t0, how: 'process.resourceUsage().maxRSS', frames: JSON.parse(r.stdout).frames };
}

/** Our parsers on one file: MB/s from one buffer, from a 64 KiB stream, and element by element. */
async function oursOn(bytes, kind, big, quick) {
  const parse = kind === 'md5anim' ? parseMd5Anim : parseMd5Mesh;
  const parseStream = kind === 'md5anim' ? parseMd5AnimStream : parseMd5MeshStream;
  const elements = kind === 'md5anim' ? async () => drain(await openMd5AnimFrames(streamOf(bytes), { keepBounds: false })) : async () => drain(await openMd5Meshes(streamOf(bytes)));
  const options = big ? { time: 0, iterations: quick ? 2 : 3, warmupIterations: 1, warmupTime: 0 } : { time: quick ? 100 : 300, warmupTime: 50 };
  const best = await bestMedians(quick ? 2 : 3, options, (bench) => {
    bench.add('buffer', () => parse(bytes));
    bench.add('stream', () => parseStream(streamOf(bytes)));
    bench.add('stream sized', () => parseStream(streamOf(bytes), { sizeHint: bytes.length }));
    bench.add('elements', elements);
  });
  const mbps = (ms) => bytes.length / 1e6 / (ms / 1000);
  return { buffer: mbps(best.get('buffer')), stream: mbps(best.get('stream')), streamSized: mbps(best.get('stream sized')), elements: mbps(best.get('elements')) };
}

export async function benchParse({ quick = false, log = () => {} } = {}) {
  const files = [];
  for (const rel of REAL) {
    const abs = join(SHARED, rel);
    if (!existsSync(abs)) throw new Error(`${abs} not found: the shared models are part of the benchmark`);
    files.push({ name: rel.split('/').pop(), path: abs, kind: rel.endsWith('.md5anim') ? 'md5anim' : 'md5mesh', big: false, source: 'real' });
  }
  for (const [name, args, kind] of GENERATED[quick ? 'quick' : 'full']) {
    const prefix = generate(name, args, log);
    files.push({ name: `${name}.${kind}`, path: `${prefix}.${kind}`, kind, big: true, source: 'generated' });
  }

  const rows = [];
  for (const f of files) {
    log(`parse: ${f.name}…`);
    const b = readFileSync(f.path);
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const ours = await oursOn(bytes, f.kind, f.big, quick);
    const native = assimpNative(f.path, f.big ? 2 : 5);
    const js = quick && f.big ? { note: 'assimpjs skipped on generated files in --quick' } : assimpJs(f.path, f.big ? 1 : 3);
    const mbps = (ms) => (ms ? bytes.length / 1e6 / (ms / 1000) : null);
    const row = {
      file: f.name,
      kind: f.kind,
      source: f.source,
      bytes: bytes.length,
      ts_buffer_mbps: ours.buffer,
      ts_stream_mbps: ours.stream,
      ts_stream_sized_mbps: ours.streamSized,
      ts_elements_mbps: ours.elements,
      assimp_mbps: mbps(native.ms),
      assimpjs_mbps: mbps(js.ms),
      stream_vs_buffer: ours.stream / ours.buffer,
      stream_sized_vs_buffer: ours.streamSized / ours.buffer,
      buffer_vs_assimp: native.ms ? ours.buffer / mbps(native.ms) : null,
      stream_vs_assimp: native.ms ? ours.stream / mbps(native.ms) : null,
      buffer_vs_assimpjs: js.ms ? ours.buffer / mbps(js.ms) : null,
      notes: [native.note, js.note].filter(Boolean),
    };
    rows.push(row);
  }

  // Whole process on the largest generated md5anim and md5mesh: what `time idtech-models inspect` says.
  const whole = files.filter((f) => f.big).map((f) => (log(`whole process: inspect vs assimp info on ${f.name}…`), wholeProcess(f.path, quick ? 3 : 7)));

  let rss = { note: 'full run only (not measured with --quick)' };
  if (!quick) {
    const prefix = generate(...HUGE, log);
    const file = `${prefix}.md5anim`;
    log(`rss: inspect ${basename(file)} (${(statSync(file).size / 1e6).toFixed(0)} MB)…`);
    const r = inspectRss(file);
    rss = { file: basename(file), bytes: statSync(file).size, frames: r.frames, peak_rss_mib: r.kib / 1024, seconds: r.ms / 1000, measured_with: r.how, target_mib: 64 };
  }

  return {
    notes:
      'MB = 1e6 bytes; best median of several rounds (tinybench). buffer = one Uint8Array; stream = ReadableStream of 64 KiB chunks; ' +
      '+size = the same stream with sizeHint (what a Content-Length or a file size gives: the md5anim frame store is sized once); ' +
      'elements = md5anim frame by frame (openMd5AnimFrames, keepBounds false) / md5mesh mesh by mesh, over the same stream. ' +
      'assimp = `assimp info FILE -r` import time (raw, no post-processing; best of runs); assimpjs = ConvertFileList to assjson ' +
      '(import + JSON export: it has no import-only call), in a child process.',
    rows,
    whole_process: whole,
    rss,
  };
}

const f1 = (v) => (v == null ? '—' : v.toFixed(1));
const x2 = (v) => (v == null ? '—' : `${v.toFixed(2)}×`);

export function formatParseTable(parse) {
  const head = ['file', 'MB', 'buffer MB/s', 'stream MB/s', '+size MB/s', 'frames/meshes MB/s', 'assimp MB/s', 'assimpjs MB/s', 'stream/buffer', '+size/buffer', 'buffer/assimp', 'buffer/assimpjs'];
  const body = parse.rows.map((r) => [
    r.file,
    (r.bytes / 1e6).toFixed(r.bytes < 1e6 ? 3 : 1),
    f1(r.ts_buffer_mbps),
    f1(r.ts_stream_mbps),
    f1(r.ts_stream_sized_mbps),
    f1(r.ts_elements_mbps),
    f1(r.assimp_mbps),
    f1(r.assimpjs_mbps),
    x2(r.stream_vs_buffer),
    x2(r.stream_sized_vs_buffer),
    x2(r.buffer_vs_assimp),
    x2(r.buffer_vs_assimpjs),
  ]);
  const lines = [formatRows(head, body)];
  for (const r of parse.rows) for (const n of r.notes) lines.push(`note: ${r.file}: ${n}`);
  for (const w of parse.whole_process ?? []) {
    const ms = (x) => (x ? `${x.median_ms.toFixed(0)} ms (min ${x.min_ms.toFixed(0)})` : '—');
    lines.push(`whole process, ${w.file} (${(w.bytes / 1e6).toFixed(0)} MB): idtech-models inspect ${ms(w.inspect)} vs assimp info ${ms(w.assimp_info)} → ${x2(w.speedup_median)} (medians of ${w.runs}, interleaved)`);
  }
  const s = parse.rss;
  lines.push(
    s.peak_rss_mib != null
      ? `inspect streaming ${s.file} (${(s.bytes / 1e6).toFixed(0)} MB, ${s.frames} frames): peak RSS ${s.peak_rss_mib.toFixed(1)} MiB (target ≤ ${s.target_mib}), ${s.seconds.toFixed(1)} s, ${s.measured_with}`
      : `inspect RSS: ${s.note}`,
  );
  return lines.join('\n');
}

/**
 * {@link benchParse} in a fresh Node process, as `npm run bench` runs it. Run after the other suites in their process,
 * the same parsers measured 15–25% slower (2026-11-25: the 66 MB md5mesh 218 against 262 MB/s, the 100 MB md5anim 343
 * against 457 MB/s, the same build and quiet machine): the JIT's and the heap's state left by a dozen unrelated suites,
 * not the parser. A user's process that parses models does not carry that; assimp is a process of its own too.
 */
export function benchParseIsolated({ quick = false } = {}) {
  return runIsolated(import.meta.url, ['--results-on-stdout', ...(quick ? ['--quick'] : [])]);
}

if (isMain(import.meta.url) && process.argv.includes('--results-on-stdout')) {
  // benchParseIsolated's child: progress on stderr, the results as JSON on stdout, nothing written.
  const parse = await benchParse({ quick: process.argv.includes('--quick'), log: (m) => console.error(m) });
  console.log(JSON.stringify(parse));
} else if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const jsonOnly = process.argv.includes('--json');
  const parse = await benchParse({ quick, log: jsonOnly ? () => {} : (m) => console.error(m) });
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'latest.json');
  // Keep what the other suites wrote; replace only the parse results.
  const out = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  out.parse = { date: new Date().toISOString(), node: process.version, quick, ...parse };
  writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  if (jsonOnly) console.log(JSON.stringify(out.parse));
  else console.log(`${formatParseTable(out.parse)}\n\nwrote the parse key of bench/results/latest.json`);
}
