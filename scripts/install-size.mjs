// What `npm install idtech-models` costs a user: each given checkout `npm pack`ed, the tarball installed into a
// scratch project (offline: its runtime dependencies, and theirs, packed from the checkout's own node_modules, as
// ts/test/package/consumer.ts does), then the tarball, npm's unpacked size and the consumer's whole node_modules
// measured (bytes of every file, and their count), and what the tarball holds, folder by folder.
//   node scripts/install-size.mjs [--write | --check]     this checkout; writes (or checks) docs/package.md's
//                                                         install-size blocks: the figures there are generated
//   node scripts/install-size.mjs CHECKOUT[=LABEL]…       other checkouts, a row each (LABEL, else the git commit),
//                                                         printed only: for comparisons kept in benchmarks-history.md
// ts/test/package/installed.test.ts checks the blocks against the tarball it packs and installs.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportStale, writeOrCheckBlocks } from './doc-blocks.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const git = (args, cwd) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** The folders of `repo`'s runtime dependencies and of theirs, found as Node finds them (nearest node_modules up). */
function runtimeFolders(repo) {
  const found = new Map();
  const visit = (from, deps) => {
    for (const name of Object.keys(deps ?? {})) {
      let folder = null;
      for (let dir = from; ; dir = dirname(dir)) {
        const candidate = join(dir, 'node_modules', name);
        if (existsSync(join(candidate, 'package.json'))) {
          folder = candidate;
          break;
        }
        if (dir === repo || dirname(dir) === dir) break;
      }
      if (!folder) throw new Error(`runtime dependency ${name} of ${from} is not installed in ${repo}`);
      if (found.has(folder)) continue;
      found.set(folder, name);
      visit(folder, JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).dependencies);
    }
  };
  visit(repo, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).dependencies);
  return [...found.keys()];
}

/** Bytes and count of the files under `dir` (symlinks not followed). */
function treeSize(dir) {
  let bytes = 0, files = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) {
      const sub = treeSize(p);
      bytes += sub.bytes;
      files += sub.files;
    } else if (st.isFile()) {
      bytes += st.size;
      files++;
    }
  }
  return { bytes, files };
}

/**
 * The figures of one install: `packed` is `npm pack --json`'s entry for the tarball (size, unpackedSize, entryCount,
 * files with their sizes), `consumer` the project it was installed into.
 */
export function measureInstall(packed, consumer, label) {
  const modules = join(consumer, 'node_modules');
  const all = treeSize(modules);
  const own = treeSize(join(modules, 'idtech-models'));
  // installed packages are real folders (a test links @types/node in beside them; links are not installs)
  const folders = (dir) => readdirSync(dir).filter((n) => !n.startsWith('.') && lstatSync(join(dir, n)).isDirectory());
  const packages = folders(modules).flatMap((n) => (n.startsWith('@') ? folders(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
  return {
    label,
    tarball_bytes: packed.size,
    unpacked_bytes: packed.unpackedSize,
    packed_files: packed.entryCount,
    files: packed.files.map((f) => ({ path: f.path, size: f.size })),
    node_modules_bytes: all.bytes,
    node_modules_files: all.files,
    idtech_models_bytes: own.bytes,
    packages,
  };
}

export function installSize(repo, label) {
  const root = mkdtempSync(join(tmpdir(), 'idtech-install-size-'));
  try {
    const [packed] = JSON.parse(npm(['pack', repo, '--json', '--pack-destination', root], root));
    const deps = runtimeFolders(repo).map((folder) => join(root, JSON.parse(npm(['pack', folder, '--json', '--ignore-scripts', '--pack-destination', root], root))[0].filename));
    const consumer = join(root, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-package-lock', '--ignore-scripts', join(root, packed.filename), ...deps], consumer);
    return { checkout: repo, ...measureInstall(packed, consumer, label ?? git(['rev-parse', '--short', 'HEAD'], repo)) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (n) => n.toLocaleString('en-US');
/**
 * The tarball's size in kB. docs/package.md ships in it (README.md points to it) and holds these figures, so the
 * tarball's gzip size moves by a few bytes with their own digits: no exact byte count is its own fixed point (writing
 * one measured 1,733,215 B, packed 1,733,217 B, and back). A kB is far wider than that wobble; the unpacked sizes stay
 * exact (they change only with the figures' length).
 */
const kB = (n) => `${fmt(Math.round(n / 1000))} kB`;

export function installSizeTable(rows) {
  const lines = [
    '| checkout | tarball | unpacked (files) | node_modules after install (files) | of it idtech-models | packages installed |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${kB(r.tarball_bytes)} | ${fmt(r.unpacked_bytes)} B (${r.packed_files}) | ${fmt(r.node_modules_bytes)} B (${fmt(r.node_modules_files)}) | ${fmt(r.idtech_models_bytes)} B | ${r.packages.join(', ')} |`),
  ];
  return lines.join('\n');
}

// What the tarball holds, one row per kind of file (the first matching pattern takes a file).
const CONTENTS = [
  ['`dist/*.js`: the entries, the worker scripts and the chunks they share', /^dist\/[^/]+\.js$/],
  ["`dist/cli/`: the CLI's commands, each loaded when it runs", /^dist\/cli\//],
  ['`dist/types/`: the public declarations', /^dist\/types\//],
  ["`docs/`: the manual's pages (what README.md and `--help` point to) and the README's picture", /^docs\//],
  ['the rest: `package.json`, `README.md`, `LICENSE`, `bin/`, `dist/THIRD-PARTY-NOTICES.md`', /./],
];

export function contentsTable(row) {
  const groups = CONTENTS.map(([what]) => ({ what, files: 0, bytes: 0 }));
  for (const f of row.files) {
    const g = groups[CONTENTS.findIndex(([, re]) => re.test(f.path))];
    g.files++;
    g.bytes += f.size;
  }
  return [
    '| in the tarball | files | bytes |',
    '|---|---:|---:|',
    ...groups.map((g) => `| ${g.what} | ${g.files} | ${fmt(g.bytes)} |`),
    `| all (npm's unpacked size) | ${row.packed_files} | ${fmt(row.unpacked_bytes)} |`,
  ].join('\n');
}

/** docs/package.md's generated blocks, from this checkout's install (`measureInstall`'s row). */
export function installSizeBlocks(row) {
  return { 'install-size': installSizeTable([row]), 'install-size:contents': contentsTable(row) };
}

export const DOC = join(ROOT, 'docs', 'package.md');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const mode = args.find((a) => a === '--write' || a === '--check');
  const repos = args.filter((a) => !a.startsWith('--')).map((a) => a.split('='));
  if (mode && repos.length) throw new Error(`${mode} is about this checkout only; other checkouts are printed`);
  const rows = (repos.length ? repos : [[ROOT, 'this build']]).map(([path, label]) => installSize(resolve(path), label));
  console.log(installSizeTable(rows));
  if (mode) reportStale(DOC, writeOrCheckBlocks(DOC, installSizeBlocks(rows[0]), mode === '--check'), 'node scripts/install-size.mjs --write');
}
