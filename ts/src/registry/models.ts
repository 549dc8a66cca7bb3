/**
 * What the synchronous door does with a parsed model of each default format: recognise it by its data, export it to
 * glTF, find its materials (`ModelEntry`, the part of each registration in `formats.ts` that reads no files). `toGlb`
 * and `resolveModelTextures` look models up here, so exporting a model carries the exporters only, not the parsers'
 * file capabilities or the writers (docs/package.md, "What an app carries"). The same entries, in the same order, as
 * `DEFAULT_FORMATS` (a test holds it).
 */
import type { ModelEntry } from './entry.js';
import { iqmModel } from './iqm-model.js';
import { md2Model } from './md2-model.js';
import { md3Model, playerModel } from './md3-model.js';
import { md5AnimModel, md5CameraModel, md5MeshModel } from './md5-model.js';
import { mdlModel } from './mdl-model.js';

export const DEFAULT_MODELS: readonly ModelEntry[] = [md5MeshModel, md5AnimModel, md2Model, md3Model, playerModel, mdlModel, iqmModel, md5CameraModel];
