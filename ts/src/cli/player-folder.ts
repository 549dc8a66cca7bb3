/**
 * A Quake 3 player folder → its parts and animation.cfg (what `toGlb` takes as a player). ioquake3 (code/cgame/cg_players.c, CG_RegisterClientModelname) loads a
 * player from models/players/NAME/ as lower.md3, upper.md3, head.md3 and animation.cfg, and refuses it without
 * any of them. Here animation.cfg is optional (without it, export/gltf-player.ts gives each part one clip of all
 * its frames), and a weapon.md3 lying in the folder hangs on upper's tag_weapon (the engine takes weapons from
 * models/weapons2/, a folder export keeps one with the player). Names match in any case (LOWER.MD3 from old
 * Windows copies), like the engine's lookups in pk3 archives.
 */
import { readdir } from 'node:fs/promises';
import { kindFromName } from '../formats/detect.js';
import { folderFileSystem } from '../load/node.js';
import { loadPlayerFrom, PLAYER_PART_FILES } from '../load/vfs-models.js';
import type { GltfPlayer } from '../export/gltf.js';
import { badInput, load } from './input.js';
import { parseWarnings, type FileWarning } from './warnings.js';

/** What a player folder holds, for help and messages. */
export const PLAYER_FOLDER = 'lower.md3, upper.md3 and head.md3 (animation.cfg and weapon.md3 optional)';

export async function loadPlayerFolder(dir: string): Promise<{ player: GltfPlayer; warnings: FileWarning[] }> {
  const names = await load(dir, () => readdir(dir));
  const find = (name: string) => names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name);
  const missing = PLAYER_PART_FILES.filter((n) => !find(n));
  if (missing.length) {
    // A folder of loose models (an md5mesh with its anims, MD2s): say how to convert one of them instead.
    const models = names.filter((n) => { const k = kindFromName(n); return k !== null && k !== 'md5anim' && k !== 'md5camera'; }).sort();
    const anims = names.some((n) => kindFromName(n) === 'md5anim') ? ', with --anim for an .md5anim' : '';
    const hint = models.length ? `; to convert one model in it, name its file (${models.slice(0, 3).join(', ')}${models.length > 3 ? ', …' : ''}${anims})` : '';
    throw badInput(dir, `not a Quake 3 player folder: a player folder holds ${PLAYER_FOLDER}; this one has no ${missing.join(', ')}${hint}`);
  }
  // The rest as from any file system (load/vfs-models.ts: the same reader as a player inside an archive).
  const p = await loadPlayerFrom(folderFileSystem(dir), '', (f, read) => load(f.origin, read));
  const warnings = p.warnings.flatMap((w) => parseWarnings(w.file, w.warnings));
  return { player: { models: p.models, animations: p.animations }, warnings };
}
