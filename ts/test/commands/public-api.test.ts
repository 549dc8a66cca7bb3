/**
 * The command line and the model viewer use the library as users do: through the package's entries, never
 * `idtech-models/advanced` ("expect changes") nor an internal module. In the repository that means:
 * - `ts/src/cli/` and `ts/src/commands/` import library names only from the entry modules (`ts/src/index.ts`,
 *   `node.ts`, `files.ts`, `textures.ts`, `write.ts`, `three.ts`, a format's `formats/md5/public.ts` … — the files package.json
 *   `exports` builds), besides Node's built-ins, their own files and the bench suite (the `bench` command's own, not a
 *   library API). The CLI's build then imports each name from the module that defines it (scripts/entry-imports.mjs:
 *   through an entry, esbuild's code splitting gave every command what the entry re-exports);
 * - `demo/src/` imports `idtech-models`, `idtech-models/<entry>` (not `/advanced`), `three` and its examples, `fflate`,
 *   and its own files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specifiers } from '../../../scripts/house.mjs';
import { REPO } from '../helpers/models.js';

const SRC = join(REPO, 'ts/src');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/** The entry modules: every `types` of package.json `exports` names its source (`./dist/types/X.d.ts` ← `ts/src/X.ts`). */
function entryModules(): Map<string, string> {
  const out = new Map<string, string>(); // ts/src/X.ts → subpath
  const visit = (target: unknown, subpath: string) => {
    if (typeof target !== 'object' || target === null) return;
    const t = target as Record<string, unknown>;
    if (typeof t.types === 'string') out.set(join(REPO, t.types.replace(/^\.\/dist\/types\//, 'ts/src/').replace(/\.d\.ts$/, '.ts')), subpath);
    for (const inner of Object.values(t)) visit(inner, subpath);
  };
  for (const [subpath, target] of Object.entries(pkg.exports)) visit(target, subpath);
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

const NODE = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** What `file` imports that it may not: `allowed(spec, target)` says which specifiers are fine. */
function strayImports(roots: string[], allowed: (spec: string, file: string) => boolean): string[] {
  return roots.flatMap(files).flatMap((f) => (specifiers(readFileSync(f, 'utf8')) as string[]).filter((s) => !allowed(s, f)).map((s) => `${relative(REPO, f)}: ${s}`));
}

describe('the command line and the viewer use the library through its package entries', () => {
  const entries = entryModules();
  const own = ['cli', 'commands'].map((d) => join(SRC, d));
  const cliAllowed = (spec: string, file: string) => {
    if (NODE.has(spec)) return true;
    if (!spec.startsWith('.')) return false;
    const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (own.some((d) => target.startsWith(d + '/'))) return true;
    if (target === join(SRC, 'bench/suite.ts')) return true;
    return entries.has(target) && entries.get(target) !== './advanced';
  };
  const demoAllowed = (spec: string) => {
    if (spec.startsWith('./') || spec.startsWith('../')) return true;
    if (spec === 'three' || spec.startsWith('three/') || spec === 'fflate') return true;
    if (spec === 'idtech-models') return true;
    const sub = spec.startsWith('idtech-models/') ? `./${spec.slice('idtech-models/'.length)}` : null;
    return sub !== null && sub !== './advanced' && sub in pkg.exports;
  };

  it('cli/ and commands/ import library names only from entry modules (not ./advanced), Node built-ins and their own files', () => {
    expect(strayImports(own, cliAllowed)).toEqual([]);
  });

  it("demo/src imports 'idtech-models' and its subpaths but /advanced, three, fflate and its own files", () => {
    const demo = strayImports([join(REPO, 'demo/src')], demoAllowed);
    expect(demo.filter((s) => !/: \.{1,2}\//.test(s))).toEqual([]);
    // its own files stay inside demo/src (no reaching into ts/src)
    expect(files(join(REPO, 'demo/src')).flatMap((f) => (specifiers(readFileSync(f, 'utf8')) as string[]).filter((s) => s.startsWith('.') && !resolve(dirname(f), s).startsWith(join(REPO, 'demo/src'))))).toEqual([]);
  });

  it('the checks see what they are meant to see', () => {
    // the imports exist: the commands take the library, the viewer its entries
    const cliSpecs = files(join(SRC, 'commands')).flatMap((f) => specifiers(readFileSync(f, 'utf8')) as string[]);
    expect(cliSpecs.some((s) => /\/node\.js$/.test(s))).toBe(true);
    expect(files(join(REPO, 'demo/src')).flatMap((f) => specifiers(readFileSync(f, 'utf8')) as string[])).toContain('idtech-models/three');
    // and what the rule refuses is refused
    const cliFile = join(SRC, 'commands/inputs.ts');
    expect(cliAllowed('../load/model-set.js', cliFile)).toBe(false);
    expect(cliAllowed('../advanced.js', cliFile)).toBe(false);
    expect(cliAllowed('../node.js', cliFile)).toBe(true);
    expect(cliAllowed('node:fs', cliFile)).toBe(true);
    expect(demoAllowed('idtech-models/advanced')).toBe(false);
    expect(demoAllowed('idtech-models/md3')).toBe(true);
    expect(entries.has(join(SRC, 'index.ts')) && entries.has(join(SRC, 'formats/md3/public.ts'))).toBe(true);
  });

  it('the entries the CLI takes from are built (every entry module is in package.json exports)', () => {
    for (const e of ['index.ts', 'node.ts', 'files.ts', 'textures.ts', 'write.ts', ...['md5', 'md2', 'md3', 'mdl', 'iqm', 'goldsrc', 'mdc', 'mds', 'mdm'].map((f) => `formats/${f}/public.ts`)]) expect(entries.has(join(SRC, e)), e).toBe(true);
  });
});
