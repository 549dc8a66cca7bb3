/**
 * A model set's glTF options: its companions as anims, or as its registration's `gltfOptions` says (IQM: the clips an
 * `iqm.cfg` or a `.framegroups` makes). Among the registrations by default, which read side files — the viewer's IQM
 * export lost its cfg's cuts and rates when this looked among the `ModelEntry`s, which read none.
 */
import type { GltfOptions } from '../export/gltf.js';
import type { FormatEntry, ModelEntry } from '../formats/entry.js';
import type { ModelSet } from '../load/model-set.js';
import { DEFAULT_FORMATS } from './formats.js';

/**
 * A model set (a model with the files that play on it) as `toGlb` takes it: the data, its companions as anims — or
 * as its registration's `gltfOptions` says (IQM: the clips an `iqm.cfg` or a `.framegroups` makes).
 */
export function setGltfOptions(set: ModelSet, options: GltfOptions, formats: readonly ModelEntry[] = DEFAULT_FORMATS): GltfOptions {
  const own = (formats.find((f) => f.owns(set.data)) as FormatEntry | undefined)?.gltfOptions;
  if (own) return own(set, options);
  // `warned`: openModelSet checked each pairing and gave its warnings on the companion's file; the export does not repeat them
  return set.companions.length ? { ...options, anims: set.companions.map((c) => ({ name: c.name, anim: c.data as never, warned: true })) } : options;
}
