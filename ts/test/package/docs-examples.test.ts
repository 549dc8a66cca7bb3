/**
 * Every ```js / ```ts example of README.md and docs/*.md, read at test time (the docs change; the test follows
 * them), type-checked by tsc against the built package's declarations (dist/types through package.json `exports`,
 * the package linked into a scratch project's node_modules) the way strict consumers compile: `bundler` resolution
 * (where `idtech-models` is the browser front door) and `nodenext` (the `node` condition). Each block is a module of
 * its own (```js as checkJs). Examples are fragments — `bytes`, `draw`, `backend` come from the reader's own code —
 * so a name the block never declares is not an error (TS2304/TS2552: it is `any`); everything the library's types
 * say is: a missing export, a wrong argument, a possibly-null result used as if it were not.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/models.js';
import { typeCheck } from './consumer.js';

interface Block {
  /** `README.md:42`: the doc and the line of the block's first code line. */
  where: string;
  lang: 'js' | 'ts';
  code: string;
}

/** The ```js / ```ts blocks of README.md and docs/*.md, as they are now. */
function docBlocks(): Block[] {
  const docs = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const blocks: Block[] = [];
  for (const doc of docs) {
    const lines = readFileSync(join(REPO, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^\s*```(js|javascript|ts|typescript)\s*$/.exec(lines[i]);
      if (!open) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
      blocks.push({ where: `${doc}:${start + 1}`, lang: open[1].startsWith('t') ? 'ts' : 'js', code: lines.slice(start, end).join('\n') });
      i = end;
    }
  }
  return blocks;
}

/** Names a fragment uses without declaring (TS18004: as a shorthand property): the reader's own code, not the library's. */
const UNDECLARED = /error TS(2304|2552|2582|18004):/;

const dir = mkdtempSync(join(tmpdir(), 'idtech-docs-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modules = join(dir, 'node_modules');
mkdirSync(join(modules, '@types'), { recursive: true });
symlinkSync(REPO, join(modules, 'idtech-models'), 'dir');
// what the examples' own build scripts import (esbuild; Vite, whose client types declare `?worker` imports)
for (const name of ['three', '@types/three', '@types/node', 'esbuild', 'vite']) symlinkSync(join(REPO, 'node_modules', name), join(modules, name), 'dir');
writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-examples', private: true, type: 'module' }));

const blocks = docBlocks();
const fileOf = (b: Block, i: number) => `b${i}_${b.where.replace(/[^A-Za-z0-9]+/g, '_')}.${b.lang}`;
for (const [i, b] of blocks.entries()) {
  // `export {}` makes every block a module (top-level await, no globals shared between blocks)
  writeFileSync(join(dir, fileOf(b, i)), `${b.code}\nexport {};\n`);
}

const resolutions = {
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
} as const;

describe('README and docs examples type-check against the built declarations', () => {
  it('there are examples to check', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.some((b) => b.where.startsWith('README.md'))).toBe(true);
  });

  for (const [name, options] of Object.entries(resolutions)) {
    it(`${name} resolution, strict, no skipLibCheck`, () => {
      const config = join(dir, `tsconfig.${name}.json`);
      writeFileSync(config, JSON.stringify({
        compilerOptions: { target: 'es2022', lib: ['es2022', 'dom', 'dom.iterable'], types: ['node', 'vite/client'], strict: true, noEmit: true, allowJs: true, checkJs: true, ...options },
        files: blocks.map(fileOf),
      }));
      // each diagnostic of a block back at its line in the doc
      const errors = typeCheck(config)
        .filter((d) => !UNDECLARED.test(d))
        .map((d) => {
          const m = /^b(\d+)_[^(]*\((\d+),(\d+)\): (.*)$/s.exec(d);
          if (!m) return d;
          const b = blocks[Number(m[1])];
          const [doc, line] = b.where.split(':');
          return `${doc}:${Number(line) + Number(m[2]) - 1}:${m[3]}: ${m[4]}`;
        });
      expect(errors).toEqual([]);
    });
  }
});
