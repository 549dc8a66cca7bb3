// Copies the public declarations into dist/types: the `types` files that package.json `exports` names, and every
// declaration file they reach through relative imports (`from './x.js'`, `import('./x.js')`), nothing else.
// tsc (scripts/build.sh) emits the whole of ts/src into target/types, CLI, bench suite and worker script included;
// those are reachable from no public entry, so they stay out of the package.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const EMITTED = 'target/types';
const SHIPPED = 'dist/types';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** The `types` paths in `exports`, relative to dist/types. */
function typeEntries(target, found = new Set()) {
  if (typeof target === 'object' && target !== null) {
    for (const [key, inner] of Object.entries(target)) {
      if (key === 'types' && typeof inner === 'string') found.add(relative(SHIPPED, normalize(inner)));
      else typeEntries(inner, found);
    }
  }
  return found;
}

const IMPORT = /\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const queue = [...typeEntries(pkg.exports)];
const reached = new Set();
while (queue.length) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  const path = join(EMITTED, file);
  if (!existsSync(path)) throw new Error(`${path} is missing (named by package.json exports, or imported by a declaration file)`);
  reached.add(file);
  for (const m of readFileSync(path, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    queue.push(normalize(join(dirname(file), spec.replace(/\.js$/, '.d.ts'))));
  }
}

rmSync(SHIPPED, { recursive: true, force: true });
for (const file of reached) {
  mkdirSync(dirname(join(SHIPPED, file)), { recursive: true });
  cpSync(join(EMITTED, file), join(SHIPPED, file));
}
console.error(`[build] ${reached.size} declaration files → ${SHIPPED}`);
