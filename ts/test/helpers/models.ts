/** The real models in ../shared/models (never copied into this repository) and the project's fixtures. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const SHARED_MODELS = join(REPO, '..', 'shared', 'models');
export const FIXTURES = join(REPO, 'fixtures');

export interface ManifestRow {
  format: string;
  path: string;
  absPath: string;
  size: number;
  notes: string;
}

export function manifest(): ManifestRow[] {
  const text = readFileSync(join(SHARED_MODELS, 'MANIFEST.tsv'), 'utf8');
  const [, ...rows] = text.trim().split('\n');
  return rows.map((r) => {
    const c = r.split('\t');
    return { format: c[0], path: c[1], absPath: join(SHARED_MODELS, c[1]), size: Number(c[2]), notes: c[7] ?? '' };
  });
}

const invalid = (p: string) => /\/invalid\//.test(p);

/** Real, well-formed md5mesh files. */
export const realMeshes = () => manifest().filter((r) => r.format === 'md5mesh' && !invalid(r.path) && existsSync(r.absPath));
interface AnimPair {
  anim: ManifestRow;
  mesh: ManifestRow;
}
/**
 * Every real md5anim with the mesh it plays on (MANIFEST notes: "pairs with X"), split by what the notes say of their
 * joint names: `same` where they are identical to the mesh's ("joint names identical", "names identical to the mesh"),
 * `renamed` where the anim names some joints otherwise ("(the mesh says …)": Unvanquished's walk and jump on the
 * naked human, which the game plays by index). A row that says neither stops the tests: a new pair is sorted by hand.
 */
export function animPairs(): { same: AnimPair[]; renamed: AnimPair[] } {
  const rows = manifest();
  const out: { same: AnimPair[]; renamed: AnimPair[] } = { same: [], renamed: [] };
  for (const r of rows.filter((x) => x.format === 'md5anim')) {
    const m = /pairs with ([^\s(]+)/.exec(r.notes);
    if (!m) throw new Error(`MANIFEST gives no mesh for ${r.path}`);
    const meshPath = join(dirname(r.path), m[1]);
    const mesh = rows.find((x) => x.path === meshPath);
    if (!mesh) throw new Error(`MANIFEST lists no ${meshPath}`);
    const same = /names identical/.test(r.notes), renamed = /the mesh says/.test(r.notes);
    if (same === renamed) throw new Error(`MANIFEST notes of ${r.path} say neither that its joint names are the mesh's nor which differ`);
    out[same ? 'same' : 'renamed'].push({ anim: r, mesh });
  }
  return out;
}
/** Real md5anim files, each with its mesh: every pair the engine plays (by joint index, as Daemon; pose/anim-mesh-match.ts). */
export const realAnimPairs = (): AnimPair[] => [...animPairs().same, ...animPairs().renamed];
/** The pairs whose joint names are the mesh's: what Doom 3 plays too (idMD5Anim::CheckModelHierarchy). */
export const sameNamePairs = (): AnimPair[] => animPairs().same;
/**
 * md5anims played on a mesh whose joints they name otherwise (U1 walk, jump): Daemon plays them by joint index with
 * an ENGINE_LIMIT warning per differing name; Doom 3 refuses them.
 */
export const renamedAnimPairs = (): AnimPair[] => animPairs().renamed;
/** The hand-made invalid files. */
export const invalidFiles = () => manifest().filter((r) => invalid(r.path));

export const read = (absPath: string) => new Uint8Array(readFileSync(absPath));
