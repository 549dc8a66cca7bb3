// An entry's re-exports through doors: one small file per chunk the entry re-exports from
// (`export { a as parseMd3, … } from "./chunk-X.js"`), which the entry star-exports. scripts/bundle.mjs applies it
// to the split library build.
//
// Why: a user's esbuild with code splitting gives a module to an app's chunks when the app can reach its file from
// what it imports, through any import statement of a file it loads, used or not; and every import() in the package
// becomes an entry of the user's build, whose code is then live. Through an entry that imports all its chunks, an app
// that imports only `parseMd3` reached every chunk, and carried whatever the package's lazily loaded chunks use of
// them (the format registry, the materials, the posers: 69 KB gzip of the 72 it loaded). Through doors it reaches the
// doors it uses, and the chunks behind them. Rollup and esbuild without splitting follow what is used anyway; for
// Node and browsers loading dist/ as it is, a door is one more small file per chunk (docs/package.md "What an app
// carries").
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';

const IMPORT = /^import \{([^}]*)\} from "(\.\/chunk-[A-Z0-9]+\.js)";\n/gm;
/** `import "./chunk-X.js";`: esbuild keeps the chunks' order with these; every module here is free of side effects. */
const BARE_IMPORT = /^import "\.\/chunk-[A-Z0-9]+\.js";\n/gm;
const EXPORT = /^export \{([^}]*)\};\n?$/m;

/** `a as b, c` → [[a, b], [c, c]] */
const specifiers = (list) => list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
  const [from, as = from] = s.split(/\s+as\s+/);
  return [from, as];
});

/**
 * Rewrites `entry` (esbuild's output, not yet whitespace-minified) so that what it re-exports from chunks comes
 * through door files; returns the new entry text and the doors (file name → text). Names the entry's own code uses
 * stay imported by it.
 */
export function doorsOf(entryText) {
  const exportMatch = EXPORT.exec(entryText);
  if (!exportMatch) return { text: entryText, doors: new Map() };
  const imported = new Map(); // local name → { chunk, name }
  for (const m of entryText.matchAll(IMPORT)) for (const [name, local] of specifiers(m[1])) imported.set(local, { chunk: m[2], name });
  const own = entryText.replace(IMPORT, '').replace(EXPORT, '');
  const usedByOwnCode = (local) => new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}(?![\\w$])`).test(own);

  const byChunk = new Map(); // chunk → [[name in chunk, public name]]
  const kept = []; // export specifiers the entry keeps
  for (const [local, as] of specifiers(exportMatch[1])) {
    const from = imported.get(local);
    if (!from) {
      kept.push(local === as ? local : `${local} as ${as}`);
      continue;
    }
    if (!byChunk.has(from.chunk)) byChunk.set(from.chunk, []);
    byChunk.get(from.chunk).push([from.name, as]);
  }
  const doors = new Map();
  const stars = [];
  for (const [chunk, names] of byChunk) {
    const text = `export { ${names.map(([n, as]) => (n === as ? n : `${n} as ${as}`)).join(', ')} } from "${chunk}";\n`;
    const file = `chunk-${createHash('sha256').update(text).digest('base64url').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase()}.js`;
    doors.set(file, text);
    stars.push(`export * from "./${file}";\n`);
  }
  // the entry's imports: only what its own code uses
  const imports = [...entryText.matchAll(IMPORT)].flatMap((m) => {
    const left = specifiers(m[1]).filter(([, local]) => usedByOwnCode(local));
    return left.length ? [`import { ${left.map(([n, l]) => (n === l ? n : `${n} as ${l}`)).join(', ')} } from "${m[2]}";\n`] : [];
  });
  const text = imports.join('') + own.trimEnd() + '\n' + stars.join('') + (kept.length ? `export { ${kept.join(', ')} };\n` : '');
  return { text, doors };
}

/**
 * Applies `doorsOf` to esbuild's output files for the entries in `entryFiles` (paths), and drops the bare imports of
 * chunks from every file: esbuild writes them to keep evaluation order, but each module of the library is free of
 * side effects (package.json `sideEffects`; tests/tree-shaking.test.ts holds it), so users' bundlers drop them
 * (esbuild says so as it does), and through them an app would reach chunks it does not use. Returns the files to
 * write (path → text or bytes).
 */
export function withDoors(outputFiles, entryFiles) {
  const files = new Map(outputFiles.map((f) => [f.path, f.path.endsWith('.js') ? f.text.replace(BARE_IMPORT, '') : f.contents]));
  for (const path of entryFiles) {
    const { text, doors } = doorsOf(files.get(path));
    files.set(path, text);
    for (const [file, door] of doors) files.set(join(dirname(path), file), door);
  }
  return files;
}

