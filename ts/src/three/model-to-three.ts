/**
 * A model parsed with the front door (`parseMd5Mesh`, `parseMd2`, `parseMd3`, a player's parts …) as an
 * `IdTechModel`, without the loader: the registration owning the data (`entryOwning`) gives its view, built by kind
 * (`build.ts`), with untextured materials named after what each surface's engine looks its image up by.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { PoseBackend } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import type { ModelSet } from '../load/model-set.js';
import type { FormatEntry } from '../formats/entry.js';
import { DEFAULT_FORMATS, entryOwning } from '../registry/formats.js';
import { buildThree } from './build.js';
import type { IdTechModel } from './model.js';
import type { MorphMode } from './morph-mesh.js';
import type { SkinningMode } from './skinned-model.js';

export interface ModelToThreeOptions {
  /** The model's name (its scene group's, its nodes' prefix); default `model`. */
  name?: string;
  /** What plays on it, each a clip by its name (an md5mesh's md5anims). */
  companions?: readonly { name: string; data: unknown }[];
  backend?: PoseBackend;
  skinning?: SkinningMode;
  morph?: MorphMode;
  quantize?: boolean;
  /** The formats to find the model's among (default: every format this package reads). */
  formats?: readonly FormatEntry[];
}

export async function modelToThree(model: unknown, options: ModelToThreeOptions = {}): Promise<IdTechModel> {
  const formats = options.formats ?? DEFAULT_FORMATS;
  const entry = entryOwning(model, formats);
  const name = options.name ?? 'model';
  const warnings: ParseWarning[] = [...(entry.warnings?.(model) ?? [])];
  const companions = (options.companions ?? []).map((c) => {
    const of = entryOwning(c.data, formats);
    const why = entry.acceptsCompanion ? entry.acceptsCompanion(model, c.data, of.id, warnings) : of.role === 'animation' && of.playsOn === entry.id ? null : `${of.title} does not play on ${entry.title}`;
    if (why !== null) throw new ModelParseError(ErrorCode.AnimMeshMismatch, why, { offset: 0 }).inFile(c.name, name);
    return { name: c.name, path: c.name, origin: c.name, data: c.data };
  });
  const set: ModelSet = { format: entry.id, registration: entry, path: name, origin: name, data: model, companions, files: [], sideFiles: [], warnings: [{ file: name, warnings }] };
  const backend = options.backend ?? (await createBackend('auto'));
  return buildThree(set, entry, {
    name,
    backend,
    skinning: options.skinning ?? 'gpu',
    morph: options.morph ?? 'targets',
    quantize: options.quantize ?? true,
    materials: null,
    materialOptions: { textures: null, normalMaps: false, warnings: [] },
  });
}
