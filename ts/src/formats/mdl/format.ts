/**
 * Quake's MDL as one `ModelFormat` (load/format.ts): what its files look like (`.mdl`; `IDPO` version 6,
 * QuakeForge's `MD16`, Hexen II's `RAPO` version 50) and how their bytes become an `MdlModel`. The registry adds
 * the capabilities (posing, export, materials) to the same object. Its stream parser (stream.ts) is imported on the
 * first parse — that module, not the room's index.ts, which re-exports this object (an import circle) —; the first
 * bytes' test stays.
 */
import type { MdlModel } from '../../base/model.js';
import type { ModelFormat } from '../../load/format.js';
import { isMdlHead } from './header.js';
import { mdlMd5Replacement } from './md5-replacement.js';

export const mdlFormat: ModelFormat<MdlModel> = {
  id: 'mdl',
  title: 'Quake model (MDL)',
  name: 'Quake MDL',
  description: "Quake's models (and Hexen II's, QuakeForge's), with their palette skins",
  extensions: ['.mdl'],
  test: isMdlHead,
  role: 'model',
  animation: 'vertex',
  parseStream: async (source, options) => (await import('./stream.js')).parseMdlStream(source, options),
  warnings: (model) => model.warnings,
  // the Quake re-release's MD5 model beside it (vkQuake): md5-replacement.ts
  replacedBy: (path, model) => mdlMd5Replacement(path, model),
};
