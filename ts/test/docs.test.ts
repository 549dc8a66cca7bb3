/**
 * The docs name what exists: every path into the repository that README.md and docs/*.md write out (`ts/src/…`,
 * `crates/…`, `scripts/…`, … and a room's file written from its room, `export/textures.ts`, `md5/mesh.ts`) is there,
 * and the README's layout block names every folder of the repository (its top-level folders, each crate, each room of
 * ts/src).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/models.js';

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
