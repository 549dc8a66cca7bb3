/**
 * The game's root a loose model's side files are confined to (issue 36): `looseModelRoot` finds the game folder
 * above the model (`locateGameFolder`), else takes the model's own folder — never the working folder's whole disk.
 * Folders made here, in the run's temporary folder.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looseModelRoot } from '../../src/load/game-folder.js';

const slash = (p: string) => p.split('\\').join('/');

describe('looseModelRoot', () => {
  const base = mkdtempSync(join(tmpdir(), 'idtech-loose-root-'));
  const file = (p: string) => {
    mkdirSync(join(base, p, '..'), { recursive: true });
    writeFileSync(join(base, p), '');
    return join(base, p);
  };

  it('a model under models/: the folder holding models/ (its path as given)', async () => {
    const model = file('game/models/mapobjects/x.iqm');
    expect(await looseModelRoot(model)).toEqual({ path: model, root: slash(join(base, 'game')) });
  });

  it('a model in no game folder: its own folder, so an iqm.cfg beside it reaches nothing above', async () => {
    const model = file('loose/sub/x.iqm');
    expect(await looseModelRoot(model)).toEqual({ path: model, root: slash(join(base, 'loose', 'sub')) });
  });

  it('a relative path: the root in its terms when the working folder holds it, else both absolute', async () => {
    const model = file('rel/models/x.iqm');
    const rel = slash(relative(process.cwd(), model));
    const got = await looseModelRoot(rel);
    if (rel.startsWith('../')) expect(got).toEqual({ path: slash(model), root: slash(join(base, 'rel')) });
    else expect(got).toEqual({ path: rel, root: slash(relative(process.cwd(), join(base, 'rel'))) });
  });
});
