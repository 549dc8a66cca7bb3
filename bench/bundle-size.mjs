// What a browser fetches, two ways, gzip -9 per file (bytes are deterministic for one build):
//  - the package's own files: each entry with the chunks it imports statically (chunks it imports with import() are
//    listed apart, fetched only when that code runs), and the two embedded WASM builds;
//  - small apps as a user builds them: the `npm pack`ed package unpacked into a scratch project's node_modules (its
//    dependencies linked from this checkout's), each app importing a few names from 'idtech-models', bundled for
//    the browser in production mode by esbuild (with code splitting, and as one file) and by Vite (rollup). What the
//    app's page loads at start (its entry and the chunks it imports statically) and what comes later (chunks behind
//    import(), and assets such as a worker script).
//   node bench/bundle-size.mjs [--json] [--root DIR] [--docs | --check]
// --root measures another checkout's dist/ (built; e.g. an older commit in a temp clone) with the same apps.
// --docs writes the tables into docs/package.md and docs/benchmarks.md (their bundle-size blocks, scripts/doc-blocks.mjs)
// from this run and the saved runs bench/results/bundle-size-*.json (`--save LABEL` output of earlier builds); --check
// compares them instead and exits 1 naming a stale block. ts/test/bundle.test.ts checks the blocks measured from dist/
// alone (`distBlocks`: no bundler runs); the apps' blocks need the bundlers, so only --check sees them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { reportStale, writeOrCheckBlocks } from '../scripts/doc-blocks.mjs';
import { formatRows, isMain, ROOT } from './lib.mjs';

const gz = (b) => gzipSync(b, { level: 9 }).length;

/** `file`'s static import graph (in `dist`) and the chunks reachable only through import(). */
export function importGraph(file, dist = join(ROOT, 'dist')) {
  const statics = [];
  const lazy = new Set();
  const visit = (f, dynamic) => {
    if (statics.includes(f) || (dynamic && lazy.has(f))) return;
    if (dynamic) lazy.add(f);
    else statics.push(f);
    const code = readFileSync(join(dist, f), 'utf8');
    // import/export … from "./x.js" and bare import "./x.js", minified or not (statements start a line or follow ; or });
    // paths relative to dist/ (the CLI's commands are in dist/cli/ and import ../chunk-*.js)
    const at = (spec) => posix.join(posix.dirname(f), spec);
    for (const m of code.matchAll(/(?:^|[;}])\s*(?:import|export)\s*(?:[^;'"()]*?\bfrom\s*)?["'](\.\.?\/[^"']+)["']/gm)) visit(at(m[1]), dynamic);
    for (const m of code.matchAll(/\bimport\(\s*["'](\.\.?\/[^"']+)["']\s*\)/g)) visit(at(m[1]), true);
  };
  visit(file, false);
  return { statics, lazy: [...lazy].filter((f) => !statics.includes(f)) };
}

const sizes = (dist, files) => files.reduce((s, f) => {
  const b = readFileSync(join(dist, f));
  return { raw: s.raw + b.length, gzip: s.gzip + gz(b) };
}, { raw: 0, gzip: 0 });

/** The package's own entries: what importing each fetches at once, and later. */
function entryRows(root) {
  const dist = join(root, 'dist');
  const rows = [];
  for (const entry of ['browser.js', 'md5.js', 'md2.js', 'md3.js', 'mdl.js', 'iqm.js', 'goldsrc.js', 'mdc.js', 'mds.js', 'mdm.js', 'node.js', 'advanced.js', 'worker.js']) {
    const g = importGraph(entry, dist);
    rows.push({ what: `\`${entry}\` + its static chunks`, files: g.statics.length, ...sizes(dist, g.statics) });
    if (g.lazy.length) rows.push({ what: '  what it may load later (`import()`)', files: g.lazy.length, ...sizes(dist, g.lazy) });
  }
  // each WASM build's chunk (its bytes base64 inside, with its glue): part of the entries' "later" above
  const chunks = readdirSync(dist).filter((f) => /^chunk-.+\.js$/.test(f)).map((f) => ({ f, code: readFileSync(join(dist, f), 'utf8') }));
  for (const [build, file, when] of WASM_BUILDS) {
    const wasm = join(root, 'ts/wasm', file);
    if (!existsSync(wasm)) continue;
    const base64 = readFileSync(wasm).toString('base64');
    const chunk = chunks.find((c) => c.code.includes(base64));
    if (chunk) rows.push({ what: `the ${build} WASM build, a chunk of its own: ${when}`, files: 1, ...sizes(dist, [chunk.f]) });
  }
  return rows;
}

const WASM_BUILDS = [
  ['SIMD', 'simd/idtech_wasm_bg.wasm', 'loaded with the first backend where the CPU has SIMD'],
  ['scalar', 'scalar/idtech_wasm_bg.wasm', 'loaded with the first backend only where SIMD is missing'],
  ['shared-memory', 'threads/idtech_threads.wasm', 'loaded with the first `BakePool` whose workers share one memory'],
];

/** The CLI's script, raw bytes (Node reads it from disk): what every command loads, `inspect`, and all of it. */
function cliRows(root) {
  const dist = join(root, 'dist');
  const shell = importGraph('cli.js', dist);
  const inspectChunk = shell.lazy.find((f) => /^cli\/inspect-[A-Z0-9]+\.js$/.test(f));
  if (!inspectChunk) throw new Error(`${dist}/cli.js imports no cli/inspect-*.js`);
  const inspect = new Set([...shell.statics, ...importGraph(inspectChunk, dist).statics]);
  return [
    { what: '`dist/cli.js` + its static chunks: what every command loads', files: shell.statics.length, ...sizes(dist, shell.statics) },
    { what: '`inspect`: the above + its command chunk and that chunk\'s static chunks (a format\'s room comes on reading a file)', files: inspect.size, ...sizes(dist, [...inspect]) },
    { what: "every file the CLI may load (every command, every room, the writers, glTF Transform, the bench suite)", files: shell.statics.length + shell.lazy.length, ...sizes(dist, [...shell.statics, ...shell.lazy]) },
  ];
}

// The apps: each uses what it imports, so a bundler cannot drop it. `bytes` is a model's bytes.
const PRELUDE = "const bytes = new Uint8Array(await (await fetch(location.hash.slice(1))).arrayBuffer());\n";
export const APPS = [
  { id: 'md3', imports: 'parseMd3 (/md3)', code: "import { parseMd3 } from 'idtech-models/md3';\n" + PRELUDE + 'console.log(parseMd3(bytes));' },
  { id: 'md2', imports: 'parseMd2 (/md2)', code: "import { parseMd2 } from 'idtech-models/md2';\n" + PRELUDE + 'console.log(parseMd2(bytes));' },
  { id: 'md5-stream', imports: 'parseMd5MeshStream (/md5)', code: "import { parseMd5MeshStream } from 'idtech-models/md5';\nconsole.log(await parseMd5MeshStream((await fetch(location.hash.slice(1))).body));" },
  {
    id: 'md3-poser', imports: 'parseMd3, Md3Poser (/md3), createBackend',
    code: "import { createBackend } from 'idtech-models';\nimport { Md3Poser, parseMd3 } from 'idtech-models/md3';\n" + PRELUDE + "const poser = new Md3Poser(await createBackend('auto'), parseMd3(bytes)).poseBlend(0, 1, 0.5);\nconsole.log(poser.positions);",
  },
  {
    id: 'md3-glb', imports: 'parseMd3, md3Model (/md3), toGlb',
    code: "import { toGlb } from 'idtech-models';\nimport { md3Model, parseMd3 } from 'idtech-models/md3';\n" + PRELUDE + 'console.log((await toGlb(parseMd3(bytes), { format: md3Model })).byteLength);',
  },
  { id: 'playable', imports: 'openPlayable', code: "import { openPlayable } from 'idtech-models';\n" + PRELUDE + "console.log(await openPlayable([{ name: location.hash.slice(1), source: bytes }]));" },
  { id: 'everything', imports: '* as lib', code: "import * as lib from 'idtech-models';\nconsole.log(lib);" },
];

/** The package as a user installs it: `npm pack` of `root`, unpacked into `app/node_modules/idtech-models`. */
function installPacked(root, scratch) {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', root, '--json', '--pack-destination', scratch, '--loglevel=error'], { cwd: scratch, encoding: 'utf8' }));
  const installed = join(scratch, 'app/node_modules/idtech-models');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, packed.filename), '-C', installed, '--strip-components=1']);
  // Its runtime dependencies, as npm would place them beside it (their own dependencies resolve from their real
  // path, this checkout's node_modules, as bundlers follow symlinks).
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    const link = join(scratch, 'app/node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules', name)), link, 'dir');
  }
  return { app: join(scratch, 'app'), tarball: packed.size, files: packed.entryCount };
}

/** Sums the output files of a build: `chunks` maps file → { bytes, imports (static), dynamicImports }. */
function startAndLater(entry, chunks, assets) {
  const start = new Set();
  const later = new Set();
  const visit = (f, dynamic) => {
    if (start.has(f) || (dynamic && later.has(f))) return;
    (dynamic ? later : start).add(f);
    for (const i of chunks.get(f).imports) visit(i, dynamic);
    for (const i of chunks.get(f).dynamicImports) visit(i, true);
  };
  visit(entry, false);
  // an asset (a worker script) counts when the code kept names it: bundlers emit what `new URL(…, import.meta.url)`
  // names before they drop unused code
  const code = [...start, ...later].map((f) => Buffer.from(chunks.get(f).code).toString('utf8')).join('\n');
  const named = [...assets.keys()].filter((f) => code.includes(f.split('/').pop()));
  const sum = (files) => [...files].reduce((n, f) => n + gz(chunks.get(f)?.code ?? assets.get(f)), 0);
  const result = { start: sum(start), later: sum([...later].filter((f) => !start.has(f))) + sum(named), files: start.size };
  // the code loaded at start, for tests to look into (not part of the JSON)
  Object.defineProperty(result, 'startCode', { value: [...start].map((f) => Buffer.from(chunks.get(f).code).toString('utf8')).join('\n') });
  return result;
}

const PRODUCTION = { 'process.env.NODE_ENV': '"production"' };

async function esbuildApp(app, file, splitting) {
  const { build } = await import('esbuild');
  const r = await build({
    entryPoints: [file], absWorkingDir: app, bundle: true, splitting, format: 'esm', platform: 'browser', target: 'es2022',
    minify: true, define: PRODUCTION, write: false, outdir: join(app, 'out'), metafile: true, logLevel: 'silent',
  });
  const chunks = new Map();
  for (const o of r.outputFiles) {
    const meta = r.metafile.outputs[relative(app, o.path)];
    chunks.set(relative(app, o.path), {
      code: o.contents,
      imports: meta.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path),
      dynamicImports: meta.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path),
    });
  }
  const entry = Object.keys(r.metafile.outputs).find((o) => r.metafile.outputs[o].entryPoint === relative(app, file));
  return startAndLater(entry, chunks, new Map());
}

async function viteApp(app, file) {
  const { build } = await import('vite');
  const result = await build({
    root: app, configFile: false, logLevel: 'silent', mode: 'production',
    build: { write: false, minify: true, target: 'es2022', rollupOptions: { input: file } },
  });
  const { output } = Array.isArray(result) ? result[0] : result;
  const chunks = new Map();
  const assets = new Map();
  for (const o of output) {
    if (o.type === 'chunk') chunks.set(o.fileName, { code: o.code, imports: o.imports, dynamicImports: o.dynamicImports });
    else if (/\.m?js$/.test(o.fileName)) assets.set(o.fileName, o.source); // a worker script: fetched when it is created
  }
  return startAndLater(output.find((o) => o.type === 'chunk' && o.isEntry).fileName, chunks, assets);
}

export const BUNDLERS = [
  { id: 'esbuild-split', what: 'esbuild, splitting', run: (app, file) => esbuildApp(app, file, true) },
  { id: 'esbuild', what: 'esbuild, one file', run: (app, file) => esbuildApp(app, file, false) },
  { id: 'vite', what: 'Vite (rollup)', run: viteApp },
];

/**
 * The package as a bundler resolves it by its `exports`, without packing: `app/node_modules/idtech-models` a link
 * to `root` (what the tests build against; the bench installs the packed tarball).
 */
export function linkPackage(root, scratch) {
  const app = join(scratch, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(root, join(app, 'node_modules', 'idtech-models'), 'dir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  return app;
}

/** One app (`APPS` entry) built by one bundler (`BUNDLERS` id) in the project folder `app`. */
export async function measureApp(app, appId, bundlerId) {
  const a = APPS.find((x) => x.id === appId);
  const file = join(app, `${a.id}.js`);
  writeFileSync(file, a.code + '\n');
  return BUNDLERS.find((b) => b.id === bundlerId).run(app, file);
}

/** Every app with every bundler, against the package packed from `root`. */
async function appRows(root) {
  const scratch = mkdtempSync(join(tmpdir(), 'idtech-bundle-size-'));
  try {
    const { app, tarball, files } = installPacked(root, scratch);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const rows = [];
    for (const a of APPS) {
      const row = { app: a.id, imports: a.imports };
      for (const b of BUNDLERS) row[b.id] = await measureApp(app, a.id, b.id);
      rows.push(row);
    }
    return { rows, tarball, files };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `root`'s HEAD: its short hash and commit time (null outside git). */
function commitOf(root) {
  try {
    const [hash, time] = execFileSync('git', ['log', '-1', '--format=%h %ct'], { cwd: root, encoding: 'utf8' }).trim().split(' ');
    return { hash, time: Number(time) };
  } catch {
    return null;
  }
}

export async function benchBundleSize({ root = ROOT } = {}) {
  const front = importGraph('browser.js', join(root, 'dist'));
  const apps = await appRows(root);
  const commit = commitOf(root);
  return {
    date: new Date().toISOString(),
    commit,
    cli: cliRows(root),
    dirty: commit !== null && execFileSync('git', ['status', '--porcelain', '--', 'ts', 'scripts', 'package.json'], { cwd: root, encoding: 'utf8' }).trim() !== '',
    rows: entryRows(root),
    frontDoor: { files: front.statics.length, ...sizes(join(root, 'dist'), front.statics) },
    apps: apps.rows,
    tarball: apps.tarball,
  };
}

const kb = (n) => (n / 1024).toFixed(1);

export function formatBundleSizeTable(r) {
  const entries = formatRows(['what', 'raw bytes', 'gzip bytes'], r.rows.map((x) => [`${x.what} (${x.files} files)`, String(x.raw), String(x.gzip)]));
  const apps = formatRows(
    ['app (imports)', ...BUNDLERS.map((b) => `${b.id} KB at start + later`)],
    r.apps.map((a) => [`${a.app} (${a.imports})`, ...BUNDLERS.map((b) => `${kb(a[b.id].start)} + ${kb(a[b.id].later)}`)]),
  );
  return `${entries}\n\nApps built by a user's bundler from the packed package (gzip -9 KB: loaded at start + loaded later)\n${apps}`;
}

// --- docs/package.md: the tables between its bundle-size:NAME markers (scripts/doc-blocks.mjs), generated ------------

/** The saved runs (bench/results/bundle-size-*.json, written by --save LABEL), oldest commit first. */
function savedRuns() {
  const dir = join(ROOT, 'bench/results');
  return readdirSync(dir).filter((f) => /^bundle-size-.+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8'))).sort((a, b) => a.commit.time - b.commit.time);
}

const n = (x) => x.toLocaleString('en-US');

/** The blocks measured from `root`'s dist/ alone (no bundler): the front door against the saved runs, the entries, the CLI. */
export function distBlocks(root = ROOT) {
  const dist = join(root, 'dist');
  const front = importGraph('browser.js', dist);
  const current = { label: THIS_BUILD, frontDoor: { files: front.statics.length, ...sizes(dist, front.statics) } };
  return {
    'bundle-size:front-door': frontDoorTable([...savedRuns(), current]),
    'bundle-size:entries': `| what a browser fetches | files | raw bytes | gzip -9 bytes |\n|---|---:|---:|---:|\n${entryRows(root).map((r) => `| ${r.what.replace(/^ {2}/, '… ')} | ${r.files} | ${n(r.raw)} | ${n(r.gzip)} |`).join('\n')}`,
    'bundle-size:cli': `| the CLI, \`node bin/idtech-models.js …\` | files | bytes of script |\n|---|---:|---:|\n${cliRows(root).map((r) => `| ${r.what} | ${r.files} | ${n(r.raw)} |`).join('\n')}`,
  };
}

const THIS_BUILD = 'this build';

function frontDoorTable(runs) {
  return `${tableHead(runs, 'what a browser fetches')}\n| \`import 'idtech-models'\`: \`dist/browser.js\` + its static chunks, gzip | ${runs.map((r) => `${n(r.frontDoor.gzip)} (${r.frontDoor.files} files)`).join(' | ')} |\n| the same, raw | ${runs.map((r) => n(r.frontDoor.raw)).join(' | ')} |`;
}

const tableHead = (runs, first) => `| ${first} | ${runs.map((r) => r.label).join(' | ')} |\n|---|${runs.map(() => '---|').join('')}`;

function docsTables(runs) {
  const head = (first) => tableHead(runs, first);
  const apps = BUNDLERS.map((b) => {
    // the apps as this build writes them (what each imports moved to the per-format entries: issue 37)
    const rows = runs.at(-1).apps.map((a) => `| ${a.app}: \`${a.imports}\` | ${runs.map((r) => {
      const x = r.apps.find((y) => y.app === a.app)?.[b.id];
      return x ? `${n(x.start)} + ${n(x.later)}` : '—';
    }).join(' | ')} |`);
    return `**${b.what}** (gzip bytes: at start + later)\n\n${head('app')}\n${rows.join('\n')}`;
  });
  // docs/benchmarks.md: the front door and the one-parser apps, every bundler
  const summaryRows = ['md3', 'md2', 'md5-stream'].flatMap((id) => BUNDLERS.map((b) => `| ${id} (\`${runs.at(-1).apps.find((a) => a.app === id).imports}\`), ${b.what}, at start | ${runs.map((r) => {
    const x = r.apps.find((y) => y.app === id)?.[b.id];
    return x ? n(x.start) : '—';
  }).join(' | ')} |`));
  const summary = `${head('gzip bytes')}\n| the front door's static fetch | ${runs.map((r) => n(r.frontDoor.gzip)).join(' | ')} |\n${summaryRows.join('\n')}`;
  return { 'bundle-size:apps': apps.join('\n\n'), 'bundle-size:summary': summary };
}

/** Writes (or with `check` compares) every bundle-size block of the docs; true when all were current. */
function writeDocs(runs, root, check) {
  const tables = { ...distBlocks(root), ...docsTables(runs) };
  let current = true;
  for (const [doc, names] of [['docs/package.md', ['bundle-size:front-door', 'bundle-size:entries', 'bundle-size:cli', 'bundle-size:apps']], ['docs/benchmarks.md', ['bundle-size:summary']]]) {
    const stale = writeOrCheckBlocks(join(ROOT, doc), Object.fromEntries(names.map((k) => [k, tables[k]])), check);
    reportStale(doc, stale, 'node bench/bundle-size.mjs --docs');
    current &&= stale.length === 0;
  }
  return current;
}

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

if (isMain(import.meta.url)) {
  const r = await benchBundleSize({ root: option('--root') ?? ROOT });
  const label = option('--save');
  if (label) {
    // a run to compare against later: a build of another commit (its dist/ as built from that commit's sources)
    if (!r.commit || r.dirty) throw new Error('--save: the measured checkout must be a git commit without changes to ts/, scripts/ or package.json');
    const file = join(ROOT, 'bench/results', `bundle-size-${r.commit.hash}.json`);
    writeFileSync(file, JSON.stringify({ label, ...r }, null, 1) + '\n');
    console.error(`wrote ${relative(ROOT, file)}`);
  }
  const check = process.argv.includes('--check');
  if (process.argv.includes('--docs') || check) {
    // the saved runs are earlier builds; this one is "this build" whatever its commit, so the check does not go
    // stale on every commit
    const current = writeDocs([...savedRuns(), { ...r, label: THIS_BUILD }], option('--root') ?? ROOT, check);
    if (!check) console.error('wrote docs/package.md and docs/benchmarks.md');
    else if (current) console.error('docs/package.md and docs/benchmarks.md: the bundle-size blocks are current');
  }
  console.log(process.argv.includes('--json') ? JSON.stringify(r, null, 1) : formatBundleSizeTable(r));
}
