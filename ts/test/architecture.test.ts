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

  test('docs/architecture.svg shows the rooms and arrows the code has (node scripts/house.mjs redraws it)', async () => {
    await expect(execChild(process.execPath, [join(REPO, 'scripts/house.mjs'), '--check'])).resolves.toBeTypeOf('string');
  });

  test('the check sees what it is meant to see', () => {
    expect(specifiers(`import { a } from './a.js';\nimport type { B } from "../b.js";\nexport * from './c.js';\nconst d = await import('./d.js');\n// import { e } from './e.js';`)).toEqual(['./a.js', '../b.js', './c.js', './d.js']);
    expect(roomOf(join(SRC, 'formats/md5/mesh.ts'))).toBe('formats/md5');
    expect(roomOf(join(SRC, 'pose/md5-poser.ts'))).toBe('pose');
    expect(roomOf(join(SRC, 'index.ts'))).toBe('entry');
  });
});
