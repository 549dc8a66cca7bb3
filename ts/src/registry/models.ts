/**
 * What `toGlb` and `resolveModelTextures` do with a parsed model of each default format: recognise it by its data,
 * export it to glTF (its exporter loaded on first use), find its materials (`ModelEntry`, the part of each
 * registration that reads no files). They look models up here, not among the registrations, because an app bundled
 * without code splitting puts everything an `import()` names into its one file: through the registrations, every app
 * that calls `toGlb` would carry every writer and glTF Transform (docs/package.md, "What an app carries"). The same
 * entries, in the same order, as `DEFAULT_FORMATS` (a test holds it); the per-format entries of issue 37 will let this
 * go.
 */
import type { ModelEntry } from '../formats/entry.js';
import { iqmModel } from '../formats/iqm/model-entry.js';
import { md2Model } from '../formats/md2/model-entry.js';
import { buildableModel, md3Model, nonsegModel, playerModel } from '../formats/md3/model-entry.js';
import { md5AnimModel, md5CameraModel, md5MeshModel } from '../formats/md5/model-entry.js';
import { mdlModel } from '../formats/mdl/model-entry.js';
import { goldsrcModel } from '../formats/goldsrc/model-entry.js';

export const DEFAULT_MODELS: readonly ModelEntry[] = [md5MeshModel, md5AnimModel, md2Model, md3Model, playerModel, nonsegModel, buildableModel, mdlModel, iqmModel, goldsrcModel, md5CameraModel];
