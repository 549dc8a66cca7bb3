/**
 * The house has one direction: every import under ts/src points to a lower layer (or stays in its own room).
 * The layers are read from docs/architecture.md (the `layers` block), so the picture in the docs and this check
 * are one list, written once.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'ts/src');

/** Top line first: each line a floor, its words the folders (rooms) on it; the last floor is the ground. */
export function readLayers(): Map<string, number> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /```layers\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/architecture.md has no ```layers block');
  const floors = block[1].split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
  const rank = new Map<string, number>();
  floors.forEach((line, i) => {
    for (const room of line.split(/\s+/)) rank.set(room, floors.length - 1 - i);
  });
  return rank;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, `import type`, and `import()` with a literal. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/(?:^|[;\s])import\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/import\(\s*(['"])([^'"]+)\1\s*\)/g)) out.push(m[2]);
  return out;
}

/** `formats/md5/mesh.ts` → room `formats/md5`, floor `formats`; a file at the top of ts/src is the `entry` floor. */
function place(file: string): { floor: string; room: string } {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return { floor: 'entry', room: 'entry' };
  return { floor: parts[0], room: parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0] };
}

describe('the one-way house', () => {
  const layers = readLayers();
  const files = sourceFiles(SRC);

  test('every folder under ts/src is on a floor of docs/architecture.md', () => {
    const floors = new Set(files.map((f) => place(f).floor));
    expect([...floors].filter((f) => !layers.has(f)).sort()).toEqual([]);
  });

  test('no import points up, and rooms on one floor do not import each other', () => {
    const bad: string[] = [];
    for (const file of files) {
      const from = place(file);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue; // packages: checked by the bundle tests
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(SRC + '/')) continue; // the embedded wasm glue (ts/wasm) sits outside the house
        const to = place(target.replace(/\.js$/, '.ts'));
        const line = `${relative(SRC, file)} → ${spec}`;
        if (to.floor === from.floor) {
          // same floor: same room, or the floor's own top-level files (shared by its rooms)
          if (to.room !== from.room && to.room !== to.floor) bad.push(`${line} (sideways: ${from.room} → ${to.room})`);
        } else if (layers.get(to.floor)! >= layers.get(from.floor)!) {
          bad.push(`${line} (${from.floor} → ${to.floor} points ${layers.get(to.floor) === layers.get(from.floor) ? 'sideways' : 'up'})`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  test('the check sees what it is meant to see', () => {
    expect(specifiers(`import { a } from './a.js';\nimport type { B } from "../b.js";\nexport * from './c.js';\nconst d = await import('./d.js');\n// import { e } from './e.js';`)).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
    expect(place(join(SRC, 'formats/md5/mesh.ts'))).toEqual({ floor: 'formats', room: 'formats/md5' });
    expect(place(join(SRC, 'index.ts'))).toEqual({ floor: 'entry', room: 'entry' });
  });
});
