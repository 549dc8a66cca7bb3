/**
 * The md5anims of a model set as every MD5 door plays them (glTF, playable, view, OBJ): named after their files, and,
 * where the set read a `.md5scale` beside an anim (`tris.md5scale` for `tris.md5anim`: the Quake II re-release's
 * replacements, load/model-set.ts), with its scales — `scale_positions` folded into the anim's frames, the weights'
 * scales carried as `scales` (md5scale.ts). The scale file's warnings join the set's once.
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import type { NamedMd5Anim } from '../../export/gltf.js';
import type { ModelSet } from '../../load/model-set.js';
import { parseMd5Scales, scaledAnim } from './md5scale.js';

const stem = (path: string) => path.replace(/\.[^./]*$/, '').toLowerCase();
const read = new WeakMap<object, NamedMd5Anim[]>();

export function md5SetAnims(set: ModelSet<Md5Mesh>): NamedMd5Anim[] {
  const known = read.get(set);
  if (known) return known;
  const anims = set.companions.map((c): NamedMd5Anim => {
    const anim = c.data as Md5Anim;
    // a set made by hand (a view of parsed data) may carry no side files
    const side = (set.sideFiles ?? []).find((f) => f.path.toLowerCase() === `${stem(c.path)}.md5scale`);
    if (!side) return { name: c.name, anim };
    const s = parseMd5Scales(side.bytes, anim, side.origin);
    if (s.warnings.length) set.warnings?.push({ file: side.origin, warnings: s.warnings, unpositioned: true });
    return { name: c.name, anim: scaledAnim(anim, s), ...(s.any ? { scales: s.scales } : {}) };
  });
  read.set(set, anims);
  return anims;
}
