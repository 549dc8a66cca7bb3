/** Native assimp (`assimp info`, scripts/setup.sh installs it) as another reader of the files the writers make: its own loaders, not ours. */
import { execChild } from './child.js';

/** `assimp info PATH FLAGS…`'s report; a rejection when assimp cannot read the file (it exits non-zero). */
export const assimpInfo = (path: string, ...flags: string[]): Promise<string> => execChild('assimp', ['info', path, ...flags]);

/** A number `assimp info` reports (`Meshes`, `Vertices`, `Faces`, `Animations`, …), or '?' when it reports none. */
export const assimpField = (info: string, name: string): string => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? '?';

/** Its counts of meshes, vertices and faces, as one string to compare (`--raw`: without joining identical vertices). */
export async function assimpCounts(path: string, ...flags: string[]): Promise<string> {
  const info = await assimpInfo(path, ...flags);
  return `meshes ${assimpField(info, 'Meshes')} vertices ${assimpField(info, 'Vertices')} faces ${assimpField(info, 'Faces')}`;
}
