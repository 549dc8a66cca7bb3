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
/** Real md5anim files, each with the mesh it belongs to (MANIFEST notes: "pairs with X"). */
export function realAnimPairs(): { anim: ManifestRow; mesh: ManifestRow }[] {
  const rows = manifest();
  const out: { anim: ManifestRow; mesh: ManifestRow }[] = [];
  for (const r of rows.filter((x) => x.format === 'md5anim')) {
    const m = /pairs with ([^\s(]+)/.exec(r.notes);
    if (!m) throw new Error(`MANIFEST gives no mesh for ${r.path}`);
    const meshPath = join(dirname(r.path), m[1]);
    const mesh = rows.find((x) => x.path === meshPath);
    if (!mesh) throw new Error(`MANIFEST lists no ${meshPath}`);
    out.push({ anim: r, mesh });
  }
  return out;
}
/** The hand-made invalid files. */
export const invalidFiles = () => manifest().filter((r) => invalid(r.path));

export const read = (absPath: string) => new Uint8Array(readFileSync(absPath));
