// The CLI's build: what its source imports from the package's entries (`ts/src/node.ts`, `files.ts`, `write.ts` …),
// the build imports from the modules that define it.
//
// Why: the CLI's source takes the library only through the public entries (ts/test/commands/public-api.test.ts holds
// it), as any user's program would; but esbuild's code splitting gives a module to every chunk of the CLI that can
// reach its file through an import statement, used or not, so through an entry every command — the shell answering
// `--help` included — loaded whatever the entry re-exports (the shell's static graph went from 21 KB to 63 KB: the
// material engine, which the entry reaches through `MaterialResolver`). Rewriting each such import to the defining
// modules gives esbuild what each file uses, no more; what is imported is the same binding either way.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const strip = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const tsOf = (from, spec) => resolve(dirname(from), spec).replace(/\.js$/, '.ts');

/** Every name `entry` exports (following `export *`), as [public name → { file, name }]. */
function exportsOf(entry, cache, seen = new Set()) {
  if (cache.has(entry)) return cache.get(entry);
  const out = new Map();
  if (seen.has(entry)) return out;
  seen.add(entry);
  const text = strip(readFileSync(entry, 'utf8'));
  for (const m of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    const file = tsOf(entry, m[3]);
    for (const part of m[2].split(',').map((p) => p.trim()).filter(Boolean)) {
      const typeOnly = Boolean(m[1]) || part.startsWith('type ');
      const [orig, alias = orig] = part.replace(/^type\s+/, '').split(/\s+as\s+/);
      out.set(alias, { file, name: orig, typeOnly });
    }
  }
  for (const m of text.matchAll(/export\s+\*\s+from\s+'([^']+)'/g)) {
    for (const [k, v] of exportsOf(tsOf(entry, m[1]), cache, seen)) if (!out.has(k)) out.set(k, v);
  }
  cache.set(entry, out);
  return out;
}

/**
 * An esbuild plugin: in the files under `dirs` (absolute), an import or re-export of names from one of `entries`
 * (absolute paths of ts/src entry files) becomes one import per defining module. Type-only names are dropped (tsc
 * has checked them; esbuild erases them anyway).
 */
export function entryImportsDirect({ dirs, entries }) {
  const cache = new Map();
  const isEntry = new Set(entries);
  const rewrite = (file, text) => text.replace(/\b(import|export)\s+(type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)';/g, (all, kind, typeAll, list, spec) => {
    const target = tsOf(file, spec);
    if (!isEntry.has(target)) return all;
    if (typeAll) return '';
    const names = exportsOf(target, cache);
    const byFile = new Map();
    for (const part of list.split(',').map((p) => p.trim()).filter(Boolean)) {
      if (part.startsWith('type ')) continue;
      const [orig, local = orig] = part.split(/\s+as\s+/);
      const at = names.get(orig);
      if (!at) throw new Error(`${relative(process.cwd(), file)}: ${orig} is not exported by ${relative(process.cwd(), target)}`);
      if (at.typeOnly) continue;
      const to = `./${relative(dirname(file), at.file).replace(/\\/g, '/').replace(/\.ts$/, '.js')}`.replace(/^\.\/\.\.\//, '../');
      if (!byFile.has(to)) byFile.set(to, []);
      byFile.get(to).push(at.name === local ? local : `${at.name} as ${local}`);
    }
    return [...byFile].map(([to, parts]) => `${kind} { ${parts.join(', ')} } from '${to}';`).join('\n');
  });
  return {
    name: 'entry-imports-direct',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!dirs.some((d) => args.path.startsWith(d + '/') || args.path.startsWith(join(d, '/')))) return undefined;
        return { contents: rewrite(args.path, readFileSync(args.path, 'utf8')), loader: 'ts' };
      });
    },
  };
}
