/**
 * Which model a set of file names makes, decided from the names alone (before anything is read): one .md5mesh with
 * any number of .md5anims (each a clip), one .md2, one .md3, or a Quake 3 player — a folder (a name ending in `/`)
 * or the files lower.md3, upper.md3 and head.md3 (with animation.cfg and weapon.md3 if given). ioquake3 loads a
 * player from models/players/NAME/ as those three parts and animation.cfg (cg_players.c
 * CG_RegisterClientModelname); here animation.cfg may be missing (each part then plays all its frames), as in
 * the CLI's player folders.
 */
import { formatForName } from '../formats/format.js';
import { DEFAULT_FORMATS } from '../registry/formats.js';

const kindFromName = (name: string) => formatForName(name, DEFAULT_FORMATS)?.id ?? null;

export type ModelInputs =
  | { kind: 'md5mesh'; mesh: string; anims: string[] }
  | { kind: 'md2'; file: string }
  | { kind: 'md3'; file: string }
  | { kind: 'player'; folder: string; lower: string; upper: string; head: string; cfg: string | null; weapon: string | null; optionalProbe: boolean };

const baseName = (p: string) => p.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '');
const folderOf = (p: string) => p.slice(0, p.replace(/\\/g, '/').lastIndexOf('/') + 1);

export function classifyInputs(names: readonly string[]): ModelInputs {
  if (names.length === 0) throw new Error('no files given');
  const folders = names.filter((n) => /[\\/]$/.test(n));
  if (folders.length > 0) {
    if (names.length > 1) throw new Error(`a player folder is loaded on its own: got ${names.join(', ')}`);
    const f = folders[0].replace(/\\/g, '/');
    // the optional files are looked for (a folder gives no list): a missing one is no error
    return { kind: 'player', folder: f, lower: `${f}lower.md3`, upper: `${f}upper.md3`, head: `${f}head.md3`, cfg: `${f}animation.cfg`, weapon: `${f}weapon.md3`, optionalProbe: true };
  }
  const byBase = new Map(names.map((n) => [baseName(n).toLowerCase(), n]));
  if (byBase.has('lower.md3') && byBase.has('upper.md3') && byBase.has('head.md3')) {
    const lower = byBase.get('lower.md3')!;
    return { kind: 'player', folder: folderOf(lower), lower, upper: byBase.get('upper.md3')!, head: byBase.get('head.md3')!, cfg: byBase.get('animation.cfg') ?? null, weapon: byBase.get('weapon.md3') ?? null, optionalProbe: false };
  }
  const kinds = names.map((n) => kindFromName(n));
  const unknown = names.filter((_, i) => kinds[i] === null || kinds[i] === 'md5camera');
  if (unknown.length) throw new Error(`${unknown.join(', ')}: not a model file this reads (.md5mesh with .md5anim, .md2, .md3, a player folder)`);
  const primaries = names.filter((_, i) => kinds[i] !== 'md5anim');
  const anims = names.filter((_, i) => kinds[i] === 'md5anim');
  if (primaries.length === 0) throw new Error('an .md5anim plays on its .md5mesh: load them together');
  if (primaries.length > 1) throw new Error(`one model at a time: got ${primaries.join(', ')}`);
  const kind = kindFromName(primaries[0]) as 'md5mesh' | 'md2' | 'md3';
  if (kind !== 'md5mesh' && anims.length) throw new Error(`.md5anim files play on an .md5mesh, not on an .${kind}`);
  if (kind === 'md5mesh') return { kind, mesh: primaries[0], anims };
  return kind === 'md2' ? { kind, file: primaries[0] } : { kind, file: primaries[0] };
}

/** The model's name: its file name without extension, or a player's folder name. */
export function modelName(inputs: ModelInputs): string {
  const path = inputs.kind === 'player' ? inputs.folder : inputs.kind === 'md5mesh' ? inputs.mesh : inputs.file;
  return baseName(path).replace(/\.[^.]*$/, '') || 'model';
}
