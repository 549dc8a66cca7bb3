#!/usr/bin/env node
/**
 * A digest of everything the built CLI makes from the shared corpus: for every model file a registration reads, its
 * .glb, its .obj (+ .mtl) and `inspect --json`; and the .glb files of `convert ROOT --all` (players, paired md5anims,
 * archives). A refactor that must not change outputs runs this before and after and compares the two lists:
 *
 *   node scripts/output-digest.mjs > /tmp/before.tsv   (on the old build)
 *   node scripts/output-digest.mjs > /tmp/after.tsv    (on the new build)
 *   diff /tmp/before.tsv /tmp/after.tsv
 *
 * Each line: sha256, byte count, what was made. A failed command is a line too (its exit code and the first line of
 * its stderr), so a model that starts or stops failing shows in the diff. Options: `--root DIR` (default
 * ../shared/models), `--jobs N` (default 2), `--cli PATH` (default bin/idtech-models.js).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const root = resolve(arg('--root', join(repo, '..', 'shared', 'models')));
const jobs = Number(arg('--jobs', '2'));
const cli = resolve(arg('--cli', join(repo, 'bin', 'idtech-models.js')));

/** Model files by their bytes, not their extension (Half-Life's `.mdl` is `IDST`). */
const IDENTS = { '.md2': ['IDP2'], '.md3': ['IDP3'], '.mdl': ['IDPO', 'RAPO', 'MD16'], '.iqm': ['INTE'], '.md5mesh': null };
function models(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) models(p, out);
    else {
      const ext = Object.keys(IDENTS).find((x) => e.name.toLowerCase().endsWith(x));
      if (!ext) continue;
      const want = IDENTS[ext];
      if (want && !want.includes(readFileSync(p).subarray(0, 4).toString('latin1'))) continue;
      out.push(p);
    }
  }
  return out;
}

const run = (args) =>
  new Promise((done) => {
    execFile('nice', ['-n', '5', process.execPath, cli, ...args], { maxBuffer: 1 << 28 }, (err, stdout, stderr) =>
      done({ code: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const firstLine = (s) => s.split('\n').find((l) => l.trim()) ?? '';

const work = mkdtempSync(join(tmpdir(), 'digest-'));
const lines = [];
async function one(file, i) {
  const name = relative(root, file);
  const out = join(work, String(i));
  for (const ext of ['glb', 'obj']) {
    const r = await run(['convert', file, '-o', `${out}.${ext}`]);
    if (r.code !== 0) lines.push(`exit ${r.code}\t-\t${name} → .${ext}\t${firstLine(r.stderr)}`);
    else {
      lines.push(`${sha(readFileSync(`${out}.${ext}`))}\t${statSync(`${out}.${ext}`).size}\t${name} → .${ext}`);
      if (ext === 'obj') {
        try {
          lines.push(`${sha(readFileSync(`${out}.mtl`))}\t${statSync(`${out}.mtl`).size}\t${name} → .mtl`);
        } catch {
          /* no material library */
        }
      }
    }
  }
  const r = await run(['inspect', file, '--json']);
  lines.push(r.code === 0 ? `${sha(r.stdout)}\t${r.stdout.length}\t${name} → inspect --json` : `exit ${r.code}\t-\t${name} → inspect\t${firstLine(r.stderr)}`);
}

const files = models(root);
let next = 0;
await Promise.all(
  Array.from({ length: jobs }, async () => {
    while (next < files.length) {
      const i = next++;
      await one(files[i], i);
    }
  }),
);
const batch = join(work, 'all');
const b = await run(['convert', root, '--all', '--jobs', String(jobs), '-o', batch]);
lines.push(`exit ${b.code}\t-\tconvert --all\t${b.code ? firstLine(b.stderr) : ''}`);
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
try {
  for (const f of walk(batch)) lines.push(`${sha(readFileSync(f))}\t${statSync(f).size}\t--all → ${relative(batch, f)}`);
} catch {
  /* --all wrote nothing */
}
rmSync(work, { recursive: true, force: true });
lines.sort((a, b) => (a.split('\t')[2] < b.split('\t')[2] ? -1 : 1));
process.stdout.write(lines.join('\n') + '\n');
process.stderr.write(`${files.length} models, ${lines.length} outputs\n`);
