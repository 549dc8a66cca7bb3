/**
 * What the synchronous door does with a parsed model of each default format: recognise it by its data, export it to
 * glTF, find its materials (`ModelEntry`, the part of each registration in `formats.ts` that reads no files). `toGlb`
 * and `resolveModelTextures` look models up here, so exporting a model carries the exporters only, not the parsers'
 * file capabilities or the writers (docs/package.md, "What an app carries"). The same entries, in the same order, as
 * `DEFAULT_FORMATS` (a test holds it).
 */
import type { ModelEntry } from '../formats/entry.js';
import { iqmModel } from '../formats/iqm/model-entry.js';
import { md2Model } from '../formats/md2/model-entry.js';
import { md3Model, playerModel } from '../formats/md3/model-entry.js';
import { md5AnimModel, md5CameraModel, md5MeshModel } from '../formats/md5/model-entry.js';
import { mdlModel } from '../formats/mdl/model-entry.js';

export const DEFAULT_MODELS: readonly ModelEntry[] = [md5MeshModel, md5AnimModel, md2Model, md3Model, playerModel, mdlModel, iqmModel, md5CameraModel];
