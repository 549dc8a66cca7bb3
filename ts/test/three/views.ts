/**
 * A parsed model's view as its registration gives it (`FormatEntry.view`), for the builders by kind: what
 * `IdTechLoader` builds, without reading files.
 */
import type { PoseBackend } from '../../src/kernels/backend.js';
import type { ModelSet } from '../../src/load/model-set.js';
import type { ModelView } from '../../src/formats/model-view.js';
import { entryOwning } from '../../src/registry/formats.js';

/** The view of `data` (with `companions` playing on it, named) of kind `kind`; a failure when it is another kind. */
export async function viewOf<K extends ModelView['kind']>(kind: K, data: unknown, backend: PoseBackend, companions: { name: string; data: unknown }[] = []): Promise<Extract<ModelView, { kind: K }>> {
  const entry = entryOwning(data);
  const set: ModelSet = { format: entry.id, registration: entry, path: 'model', origin: 'model', data, companions: companions.map((c) => ({ ...c, path: c.name, origin: c.name })), files: [], sideFiles: [], warnings: [] };
  const view = await entry.view!(set, backend);
  if (view.kind !== kind) throw new Error(`${entry.id}: a ${view.kind} view, not ${kind}`);
  return view as Extract<ModelView, { kind: K }>;
}
