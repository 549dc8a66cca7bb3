// What `npm install idtech-models` costs a user: each given checkout `npm pack`ed, the tarball installed into a
// scratch project (offline: its runtime dependencies, and theirs, packed from the checkout's own node_modules, as
// ts/test/package/consumer.ts does), then the tarball, npm's unpacked size and the consumer's whole node_modules
// measured (bytes of every file, and their count).
//   node scripts/install-size.mjs [--write] [CHECKOUT[=LABEL]…]   (default: this checkout; LABEL names its row,
//   else its git commit)
// --write puts the table into docs/package.md between its install-size markers: the figures there are generated.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function installSize(repo, label) {
  const root = mkdtempSync(join(tmpdir(), 'idtech-install-size-'));
  try {
    const [packed] = JSON.parse(npm(['pack', repo, '--json', '--pack-destination', root], root));
    const deps = runtimeFolders(repo).map((folder) => join(root, JSON.parse(npm(['pack', folder, '--json', '--ignore-scripts', '--pack-destination', root], root))[0].filename));
    const consumer = join(root, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-package-lock', '--ignore-scripts', join(root, packed.filename), ...deps], consumer);
    const modules = join(consumer, 'node_modules');
    const all = treeSize(modules);
    const own = treeSize(join(modules, 'idtech-models'));
    const packages = readdirSync(modules).flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : n.startsWith('.') ? [] : [n]));
    return {
      checkout: repo,
      label: label ?? git(['rev-parse', '--short', 'HEAD'], repo),
      tarball_bytes: packed.size,
      unpacked_bytes: packed.unpackedSize,
      packed_files: packed.entryCount,
      node_modules_bytes: all.bytes,
      node_modules_files: all.files,
      idtech_models_bytes: own.bytes,
      packages,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (n) => n.toLocaleString('en-US');

export function installSizeTable(rows) {
  const lines = [
    '| checkout | tarball | unpacked (files) | node_modules after install (files) | of it idtech-models | packages installed |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${fmt(r.tarball_bytes)} B | ${fmt(r.unpacked_bytes)} B (${r.packed_files}) | ${fmt(r.node_modules_bytes)} B (${fmt(r.node_modules_files)}) | ${fmt(r.idtech_models_bytes)} B | ${r.packages.join(', ')} |`),
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  const repos = args.filter((a) => a !== '--write').map((a) => a.split('='));
  const rows = (repos.length ? repos : [[ROOT]]).map(([path, label]) => installSize(resolve(path), label));
  const table = installSizeTable(rows);
  console.log(table);
  if (write) {
    const doc = join(ROOT, 'docs', 'package.md');
    const text = readFileSync(doc, 'utf8');
    const begin = '<!-- install-size:begin (node scripts/install-size.mjs --write … writes this table) -->';
    const end = '<!-- install-size:end -->';
    const at = text.indexOf(begin), to = text.indexOf(end);
    if (at < 0 || to < at) throw new Error(`${doc} has no ${begin} … ${end} block`);
    writeFileSync(doc, text.slice(0, at + begin.length) + `\n${table}\n` + text.slice(to));
  }
}
