/**
 * The docs name what exists: every path into the repository that README.md and docs/*.md write out (`ts/src/…`,
 * `crates/…`, `scripts/…`, … and a room's file written from its room, `export/textures.ts`, `md5/mesh.ts`) is there,
 * and the README's layout block names every folder of the repository (its top-level folders, each crate, each room of
 * ts/src). The words that list formats are the registrations' (`--help`, the README's CLI block, package.json's
 * description: scripts/cli-help.mjs), and what the README and the help point to is shipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/models.js';
import { DEFAULT_FORMATS } from '../src/registry/formats.js';

/** README.md and docs/*.md; a `*-history.md` page records what was true when it was written, so its paths are not held. */
const DOCS = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md') && !f.endsWith('-history.md')).map((f) => `docs/${f}`)];
const read = (f: string) => readFileSync(join(REPO, f), 'utf8');

/** The folders the repository tracks (what git holds, so node_modules/, dist/ and target/ are not among them). */
const tracked = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);
const folders = (depth: number, under = '') =>
  [...new Set(tracked.filter((f) => f.startsWith(under)).map((f) => f.split('/')).filter((p) => p.length > depth).map((p) => p.slice(0, depth).join('/')))].sort();
const ROOMS = folders(3, 'ts/src/').map((f) => f.split('/')[2]);

/**
 * Path-like words of `text`: from a top-level folder, or a room's file written from the room — a source file under
 * ts/src (md5/ is formats/md5/), a test (`….test.ts`) under ts/test.
 */
export function namedPaths(text: string): string[] {
  const out: string[] = [];
  const top = /(?<![\w./@:-])((?:ts\/src|ts\/test|crates|scripts|bench|fixtures|demo|docs|bin)\/[A-Za-z0-9_.\/-]*)/g;
  for (const m of text.matchAll(top)) out.push(m[1].replace(/[.,]+$/, ''));
  const rooms = [...ROOMS, 'md5', 'md2', 'md3'].join('|');
  const inRoom = new RegExp(`(?<![\\w./@:-])((?:${rooms})\\/[A-Za-z0-9_.\\/-]*\\.ts)(?![\\w/])`, 'g');
  for (const m of text.matchAll(inRoom)) {
    const p = m[1];
    out.push(p.endsWith('.test.ts') ? `ts/test/${p}` : /^md[235]\//.test(p) ? `ts/src/formats/${p}` : `ts/src/${p}`);
  }
  return out;
}

describe('the docs name what exists', () => {
  it('every path into the repository that README.md and docs/ write out exists', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const doc of DOCS) {
      for (const p of namedPaths(read(doc))) {
        checked++;
        if (!existsSync(join(REPO, p))) missing.push(`${doc}: ${p}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(200); // the check reads the docs' paths, not nothing
  });

  it('the check finds a path that is not there', () => {
    expect(namedPaths('see `ts/src/quat.ts`, the tokenizer (`md5/tokenizer.ts`), export/textures.ts and md5/anim.test.ts.')).toEqual([
      'ts/src/quat.ts',
      'ts/src/formats/md5/tokenizer.ts',
      'ts/src/export/textures.ts',
      'ts/test/md5/anim.test.ts',
    ]);
    expect(namedPaths('https://example.com/scripts/x.sh and node_modules/three/src/a.ts')).toEqual([]);
  });

  it("the README's layout block names every folder: top level, each crate, each room of ts/src", () => {
    const readme = read('README.md');
    const block = /## Layout[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const named = new Set(block.split('\n').map((l) => /^(\S+\/)\s/.exec(l)?.[1]).filter(Boolean));
    const wanted = [...folders(1).filter((f) => f !== 'ts' && f !== 'crates'), ...folders(2, 'crates/'), 'ts/test', ...folders(3, 'ts/src/')].map((f) => `${f}/`);
    expect(wanted.length).toBeGreaterThan(25);
    expect(wanted.filter((f) => !named.has(f))).toEqual([]);
    expect([...named].filter((f) => !existsSync(join(REPO, f!)))).toEqual([]);
  });
});

describe('the words that name the formats come from the registrations', () => {
  // scripts/cli-help.mjs reads the built CLI (dist/), as the CLI tests do
  const help = execFileSync(process.execPath, [join(REPO, 'bin/idtech-models.js'), '--help'], { encoding: 'utf8' });
  const models = DEFAULT_FORMATS.filter((f) => f.role === 'model');

  it('`--help` lists every registered format: its name, its files, its line; the archives; the id formats written', () => {
    for (const f of models) {
      const files = f.folder ? `a ${f.folder.noun}` : f.extensions[0];
      expect(help, f.id).toContain(`  ${f.name} (${files}`);
      expect(help.replace(/\s+/g, ' '), f.id).toContain(f.description);
    }
    expect(help).toContain('.pk3/.pk4/.dpk/.pak');
    for (const f of DEFAULT_FORMATS) for (const x of f.writer?.extensions ?? []) expect(help).toMatch(new RegExp(`writes: .*\\${x}\\b`));
    // the no-`-o` message names every output, the id formats' from their writers
    let noOut = '';
    try {
      execFileSync(process.execPath, [join(REPO, 'bin/idtech-models.js'), 'convert', 'x.md2'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      noOut = (e as { stderr: string }).stderr;
    }
    const outputs = ['.glb', '.gltf', '.obj', ...DEFAULT_FORMATS.flatMap((f) => f.writer?.extensions ?? [])];
    expect(outputs.length).toBeGreaterThan(6);
    for (const x of outputs) expect(noOut.split('\n')[0]).toContain(x);
  });

  it("README's CLI block is `--help` and package.json's description names every format (node scripts/cli-help.mjs --check)", async () => {
    const { README_BLOCK, packageDescription } = await import('../../scripts/cli-help.mjs');
    const { staleBlocks } = await import('../../scripts/doc-blocks.mjs');
    expect(staleBlocks(read('README.md'), { 'cli-help': README_BLOCK(help) })).toEqual([]);
    const description: string = JSON.parse(read('package.json')).description;
    expect(description).toBe(packageDescription(help));
    for (const name of ['MD5', 'MD2', 'MD3', 'Quake MDL', 'IQM', '.pk3/.pk4/.dpk/.pak']) expect(description).toContain(name);
    // a format more in the help makes both stale
    const more = help.replace('\nwrites:', '\n  TOY (.toy): a made-up format\nwrites:');
    expect(staleBlocks(read('README.md'), { 'cli-help': README_BLOCK(more) })).toEqual(['cli-help']);
    expect(packageDescription(more)).toContain(', TOY)'); // the made-up format after the registered ones
  });

  it('README.md and every --help point only to docs the package ships (package.json "files")', () => {
    const files: string[] = JSON.parse(read('package.json')).files;
    const glob = (p: string) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`);
    const ships = (path: string) => files.some((p) => !p.startsWith('!') && glob(p).test(path)) && !files.some((p) => p.startsWith('!') && glob(p.slice(1)).test(path));
    const helps = [help, ...['inspect', 'convert', 'bench'].map((c) => execFileSync(process.execPath, [join(REPO, 'bin/idtech-models.js'), c, '--help'], { encoding: 'utf8' }))].join('\n');
    const pointed = [...read('README.md').matchAll(/\]\((docs\/[^)#\s]+)/g), ...helps.matchAll(/(docs\/[\w.-]+\.\w+)/g)].map((m) => m[1]);
    expect(pointed.length).toBeGreaterThan(20);
    expect([...new Set(pointed)].filter((p) => !ships(p) || !existsSync(join(REPO, p)))).toEqual([]);
    expect(ships('docs/cli.md') && !ships('docs/three.png') && !ships('dist/demo/index.html') && ships('dist/cli.js')).toBe(true);
  });
});
