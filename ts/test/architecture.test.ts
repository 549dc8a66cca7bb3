/**
 * The house has one direction: every import under ts/src points to a lower floor, or stays in its own room. The
 * floors are read from docs/architecture.md (the ```layers block) and the picture docs/architecture.svg is drawn from
 * the code by scripts/house.mjs, so the map in the docs, the picture and this check are one list, kept true.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { floors, roomOf, specifiers } from '../../scripts/house.mjs';
import { execChild } from './helpers/child.js';
import { REPO } from './helpers/models.js';

const SRC = join(REPO, 'ts/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Floor name → height (the ground is 0). */
function ranks(): Map<string, number> {
  const levels: string[][] = floors();
  const rank = new Map<string, number>();
  levels.forEach((names, i) => names.forEach((n) => rank.set(n, levels.length - 1 - i)));
  return rank;
}

const floorOf = (room: string) => room.split('/')[0];

/**
 * The two doors that list pieces of every format's room by name — what is written (`idtech-models/write`) and the
 * rooms behind the doors (`idtech-models/advanced`) — and are left out of the count of a room's importers
 * (docs/architecture.md, "A format is one folder").
 */
const GATHERING_DOORS = ['write.ts', 'advanced.ts'];

/** Each module's imports of other modules under ts/src (type-only and `import()` too: a circle is a circle to a reader). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const to = (specifiers(readFileSync(file, 'utf8')) as string[]).filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
    graph.set(file, to.filter((t) => t.startsWith(SRC + '/')));
  }
  return graph;
}

/** The import circles of `graph`: its strongly connected components of more than one module, or a module importing itself (Tarjan). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>(), out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const c: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1 || graph.get(v)?.includes(v)) out.push(c.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('the one-way house', () => {
  const rank = ranks();
  const files = sourceFiles(SRC);

  test('every folder under ts/src is on a floor of docs/architecture.md', () => {
    const missing = new Set(files.map((f) => floorOf(roomOf(f))).filter((f) => !rank.has(f)));
    expect([...missing].sort()).toEqual([]);
  });

  test('no import points up, and rooms on one floor do not import each other', () => {
    const bad: string[] = [];
    for (const file of files) {
      const from: string = roomOf(file);
      for (const spec of specifiers(readFileSync(file, 'utf8')) as string[]) {
        if (!spec.startsWith('.')) continue; // packages: the bundle tests check what may be imported
        const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        if (!target.startsWith(SRC + '/')) continue; // the embedded wasm glue (ts/wasm) sits outside the house
        const to: string = roomOf(target);
        const line = `${relative(SRC, file)} → ${spec}`;
        if (floorOf(to) === floorOf(from)) {
          // same floor: same room, or the floor's own top-level files (shared by its rooms)
          if (to !== from && to !== floorOf(to)) bad.push(`${line} (sideways: ${from} → ${to})`);
        } else if (rank.get(floorOf(to))! >= rank.get(floorOf(from))!) {
          bad.push(`${line} (${floorOf(from)} → ${floorOf(to)} points ${rank.get(floorOf(to)) === rank.get(floorOf(from)) ? 'sideways' : 'up'})`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  test('no import circle among the modules of ts/src (a room re-exporting what lazily imports it is one)', () => {
    expect(circles(importGraph(files)).map((c) => c.map((f) => relative(SRC, f)).join(' ⇄ '))).toEqual([]);
  });

  test('a format is one folder: outside formats/<x>/, the list (registry/formats.ts) alone imports it, and its door is inside', () => {
    const graph = importGraph(files);
    const rooms = readdirSync(join(SRC, 'formats'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const importersOf = (room: string, skip: readonly string[] = []) => {
      const dir = join(SRC, 'formats', room) + '/';
      return files.filter((f) => !f.startsWith(dir) && !skip.includes(relative(SRC, f)) && graph.get(f)!.some((t) => t.startsWith(dir))).map((f) => relative(SRC, f)).sort();
    };
    // every room, each imported by the list: a folder the list does not name is a format nobody can reach
    expect(Object.fromEntries(rooms.map((r) => [r, importersOf(r, GATHERING_DOORS)]))).toEqual(Object.fromEntries(rooms.map((r) => [r, ['registry/formats.ts']])));
    // the two doors left out do gather rooms (the count above would see them), and are doors: no code of their own
    expect(rooms.filter((r) => importersOf(r).includes('write.ts'))).toEqual(expect.arrayContaining(['md2', 'md3', 'md5', 'mdl', 'iqm']));
    for (const door of GATHERING_DOORS) expect(readFileSync(join(SRC, door), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').trim().split(/;\s*/).filter(Boolean).every((s) => /^export\b[\s\S]*\bfrom\s/.test(s)), door).toBe(true);
    // each room's package door (`idtech-models/<x>`) is its public.ts
    const types = JSON.stringify(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).exports);
    for (const r of rooms) expect(types, r).toContain(`"./dist/types/formats/${r}/public.d.ts"`);
  });

  test('docs/architecture.svg shows the rooms and arrows the code has (node scripts/house.mjs redraws it)', async () => {
    await expect(execChild(process.execPath, [join(REPO, 'scripts/house.mjs'), '--check'])).resolves.toBeTypeOf('string');
  });

  test('the check sees what it is meant to see', () => {
    expect(specifiers(`import { a } from './a.js';\nimport type { B } from "../b.js";\nexport * from './c.js';\nconst d = await import('./d.js');\n// import { e } from './e.js';`)).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
    expect(roomOf(join(SRC, 'formats/md5/mesh.ts'))).toBe('formats/md5');
    expect(roomOf(join(SRC, 'pose/md5-poser.ts'))).toBe('pose');
    expect(roomOf(join(SRC, 'index.ts'))).toBe('entry');
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []], ['e', ['e']], ['f', ['d']]]);
    expect(circles(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });
});
