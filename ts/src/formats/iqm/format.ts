/**
 * IQM's entry in the registry: the `ModelFormat` the registry extends with its capabilities. Its parser (stream.ts)
 * and the iqm.cfg reader that finds companions (companions.ts) are imported on the first parse or companion lookup
 * — those modules, not the room's index.ts, which re-exports this object (an import circle) —; the header reader
 * stays, for `animationOnly`'s synchronous answer.
 */
import type { IqmModel } from '../../base/model.js';
import type { ModelFormat } from '../../load/format.js';
import { iqmAcceptsCompanion } from '../../pose/iqm-anim-match.js';
import { isIqm, readIqmHeader } from './header.js';
import { HEADER_BYTES } from './layout.js';

export const iqmFormat: ModelFormat<IqmModel> = {
  id: 'iqm',
  title: 'Inter-Quake Model (IQM)',
  name: 'IQM',
  description: 'Inter-Quake Models (ioquake3, DarkPlaces, Daemon, Tesseract), with the animation files its iqm.cfg names',
  extensions: ['.iqm'],
  test: isIqm,
  role: 'model',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./stream.js')).parseIqmStream(source, options),
  warnings: (data) => data.warnings,
  // DarkPlaces reads `<model>.framegroups` beside a model as its named clips (model_shared.c Mod_FrameGroupify)
  sideFiles: (path) => [`${path}.framegroups`],
  companionsBeside: async (fs, path, options) => (await import('./companions.js')).iqmCompanionsBeside(fs, path, options),
  // Tesseract (rendermodel.cpp loadmodel) runs the model's iqm.cfg: its iqmanim lines are the model's animations
  companionsByDefault: true,
  playedBy: async (fs, path, options) => (await import('./companions.js')).iqmMeshesPlaying(fs, path, options),
  acceptsCompanion: iqmAcceptsCompanion,
  // poses without meshes: what Tesseract plays on a mesh of the same skeleton (iqm.h loadiqmanims)
  animationOnly(head) {
    if (head.length < HEADER_BYTES || !isIqm(head)) return false;
    try {
      const h = readIqmHeader(head, head.length);
      return h.numMeshes === 0 && h.numPoses > 0;
    } catch {
      return false; // a bad header is listed, to fail where it is read
    }
  },
};
