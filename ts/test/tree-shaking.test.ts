/**
 * What a user's bundler can leave out. A bundler drops a module's unused top-level statements only when it can prove
 * them free of side effects: esbuild (the strictest of the common ones) keeps any call or `new` it does not know to be
 * pure, an object or array spread, a loop at the top level. In dist/ the modules are merged into chunks, where
 * package.json's `sideEffects` no longer separates them: one impure statement keeps what it names in every app that
 * loads its chunk (an MD5 parse carried the format registry, and through it glTF Transform). So every library module's
 * top level must be droppable: computed tables are built by functions marked `/* @__PURE__ *\/` (true: they only
 * compute), or on first use.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/models.js';

const SRC = join(REPO, 'ts/src');
/** `var A = 64 * 1024, B = A / 4;`: names bound to arithmetic on numbers and on such names. */
const NUMBER_CONSTANTS = /^var (?:[\w$]+ = [\w$ ()*\/+\-<>|&]+(?:, |;$))+$/;
/** Programs, not library modules: their top level is what they run. */
const PROGRAMS = /^(cli|commands|bench)\/|^worker\/worker\.ts$|^bake\/bake-worker\.ts$/;

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? modules(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

/**
 * Every library module imported for its side effects alone (`import "./x.ts"`), each forced to count as having side
 * effects (as modules merged into one chunk do): what esbuild keeps is the top-level code it cannot drop, by module.
 */
async function undroppable(files: string[]): Promise<Map<string, string>> {
  const result = await build({
    stdin: { contents: files.map((f) => `import ${JSON.stringify(f)};`).join('\n'), resolveDir: SRC, loader: 'js' },
    // minifySyntax as dist/ is built (it folds `64 * 1024`, which esbuild otherwise keeps as an expression)
    bundle: true, write: false, format: 'esm', minifySyntax: true, platform: 'neutral', target: 'es2022', logLevel: 'silent', mainFields: ['module', 'main'],
    external: ['node:*', 'three'],
    plugins: [{
      name: 'library-modules-have-side-effects',
      setup(b) {
        b.onResolve({ filter: /.*/ }, async (a) => {
          // what import() loads is not part of the module (and would come wrapped, kept whole)
          if (a.kind === 'dynamic-import') return { path: a.path, external: true };
          if (a.pluginData) return undefined;
          const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: true });
          return r.errors.length || r.external || !r.path.startsWith(SRC) ? undefined : { path: r.path, sideEffects: true };
        });
      },
    }],
  });
  // esbuild labels each module's code with a `// path` line; its top-level statements start at column 0
  const kept = new Map<string, string>();
  for (const section of result.outputFiles[0].text.split(/^\/\/ (?=\S)/m).slice(1)) {
    const [path, ...code] = section.split('\n');
    // import statements of externals (node:*, three) are not code
    const text = code.join('\n').replace(/^import\b[^;]*?["'][^"']+["'];$/gm, '');
    // nor a number a minifier leaves computed (`var READ_CHUNK = 64 * 1024`: esbuild keeps such a product, rollup
    // drops it; it does nothing either way)
    const statements = text.split(/\n(?=\S)/).map((s) => s.trim()).filter(Boolean);
    const body = statements.filter((s) => !NUMBER_CONSTANTS.test(s)).join('\n');
    const file = path.replace(/^(\.\.\/)*/, '').replace(/^.*?ts\/src\//, '');
    if (body && !file.startsWith('node_modules/')) kept.set(file, body);
  }
  return kept;
}

describe('tree shaking', () => {
  it("no library module's top level does work a bundler must keep (calls, `new`, spreads, loops at load)", async () => {
    const library = modules(SRC).filter((f) => !PROGRAMS.test(relative(SRC, f)));
    expect(library.length).toBeGreaterThan(150);
    const kept = await undroppable(library);
    const report = [...kept].map(([file, code]) => `${file}:\n${code.split('\n').slice(0, 4).join('\n')}`).join('\n\n');
    expect(report).toBe('');
  });

  it('the check sees a top level that does work (a table filled by a loop at load, a spread)', async () => {
    // the probe is real: a program's top level (it runs what it does) is kept
    const kept = await undroppable([join(SRC, 'bake/bake-worker.ts')]);
    expect([...kept.keys()]).toContain('bake/bake-worker.ts');
  });
});
