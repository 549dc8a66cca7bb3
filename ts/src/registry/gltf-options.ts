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
 * applies it itself. `formats` is only searched for a set whose `registration` is no registration (read through bare
 * `ModelFormat`s, or made by hand without one).
 */
export function setGltfOptions(set: ModelSet<unknown, unknown>, options: GltfOptions, formats: readonly ModelEntry[] = []): GltfOptions {
  // a set read through registrations carries one; one read through bare `ModelFormat`s, or made by hand, is looked up
  const carried = set.registration as Partial<ModelEntry> | undefined;
  const registration = (typeof carried?.owns === 'function' ? carried : formats.find((f) => f.owns(set.data))) as FormatEntry | undefined;
  const own = registration?.gltfOptions;
  if (own) return own(set as ModelSet<unknown, FormatEntry>, options);
  // `warned`: openModelSet checked each pairing and gave its warnings on the companion's file; the export does not repeat them
  return set.companions.length ? { ...options, anims: set.companions.map((c) => ({ name: c.name, anim: c.data as never, warned: true })) } : options;
}
