/**
 * The command line exercises what users import: every name the CLI's shell and commands take from the library is
 * exported by a public entry (`idtech-models`, `/node`, `/advanced` (and its Node form), `/write`). They import each
 * name from the module that defines it rather than through the entries, because esbuild's code splitting assigns a
 * module to every chunk that can reach it through a re-export: through the entries, every command loaded the whole
 * library (the inspect command's static graph went from 0.3 MB to 0.8 MB; docs/architecture.md). The one exception is
 * the bench suite (`bench/suite.ts`), which is the `bench` command's own and not a library API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/models.js';

const SRC = join(REPO, 'ts/src');
const ENTRIES = ['index.ts', 'node.ts', 'advanced.ts', 'advanced-node.ts', 'write.ts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

/** Every name an entry file exports (following `export *` of other entry files), with the module it comes from. */
function exported(entry: string, seen = new Set<string>()): Map<string, string> {
  const out = new Map<string, string>();
  if (seen.has(entry)) return out;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    const from = resolve(dirname(entry), m[2]).replace(/\.js$/, '.ts');
    for (const part of m[1].split(',').map((p) => p.trim().replace(/^type\s+/, '')).filter(Boolean)) {
      const [orig, alias = orig] = part.split(/\s+as\s+/);
      out.set(`${alias}@${from}`, orig);
      out.set(alias, from);
    }
  }
  for (const m of text.matchAll(/export\s+\*\s+from\s+'([^']+)'/g)) for (const [k, v] of exported(resolve(dirname(entry), m[1]).replace(/\.js$/, '.ts'), seen)) out.set(k, v);
  return out;
}

describe('the command line uses the library through its public surface', () => {
  const publicNames = new Map<string, string>();
  for (const e of ENTRIES) for (const [k, v] of exported(join(SRC, e))) publicNames.set(k, v);
  const cliFiles = [...files(join(SRC, 'cli')), ...files(join(SRC, 'commands'))];

  it('every name taken from a library module is exported by a public entry, from that very module', () => {
    const bad: string[] = [];
    for (const f of cliFiles) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
        const target = resolve(dirname(f), m[2]).replace(/\.js$/, '.ts');
        const rel = relative(SRC, target);
        if (rel.startsWith('cli/') || rel.startsWith('commands/') || rel === 'bench/suite.ts') continue;
        for (const part of m[1].split(',').map((p) => p.trim().replace(/^type\s+/, '')).filter(Boolean)) {
          const name = part.split(/\s+as\s+/)[0];
          const viaEntry = [...publicNames.entries()].some(([k, v]) => k.endsWith(`@${target}`) && v === name);
          if (!viaEntry) bad.push(`${relative(SRC, f)}: ${name} from ${rel}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('the check sees the imports (the commands do use the library)', () => {
    const imports = cliFiles.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/from\s+'(\.\.\/[^']+)'/g)].map((m) => m[1]));
    expect(imports.some((i) => i.includes('registry/'))).toBe(true);
    expect(publicNames.has('toGlb') && publicNames.has('openModelOnDisk') && publicNames.has('DEFAULT_FORMATS')).toBe(true);
  });
});
