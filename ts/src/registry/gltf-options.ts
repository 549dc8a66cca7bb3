/**
 * A model set's glTF options: its companions as anims, or as its registration's `gltfOptions` says (IQM: the clips an
 * `iqm.cfg` or a `.framegroups` makes). The set's own registration says it — the registrations read side files; the
 * viewer's IQM export lost its cfg's cuts and rates when this looked among the `ModelEntry`s, which read none.
 */
import type { GltfOptions } from '../export/gltf.js';
import type { FormatEntry, ModelEntry } from '../formats/entry.js';
import type { ModelSet } from '../load/model-set.js';

/**
 * A model set (a model with the files that play on it) as `toGlb` takes it: the data, its companions as anims — or
 * as its registration's `gltfOptions` says (IQM: the clips an `iqm.cfg` or a `.framegroups` makes). `toGlb(set)`
 * applies it itself. `formats` is only searched for a set made by hand without its `registration`.
 */
export function setGltfOptions(set: ModelSet<unknown, ModelEntry>, options: GltfOptions, formats: readonly ModelEntry[] = []): GltfOptions {
  const registration = (set.registration ?? formats.find((f) => f.owns(set.data))) as FormatEntry | undefined;
  const own = registration?.gltfOptions;
  if (own) return own(set as ModelSet<unknown, FormatEntry>, options);
  return set.companions.length ? { ...options, anims: set.companions.map((c) => ({ name: c.name, anim: c.data as never })) } : options;
}
