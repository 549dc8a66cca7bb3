/** IQM's entry in the registry: the `ModelFormat` the registry extends with its capabilities. */
import type { IqmModel } from '../../base/model.js';
import type { ModelFormat } from '../format.js';
import { iqmCompanionsBeside, iqmMeshesPlaying } from './companions.js';
import { iqmAcceptsCompanion } from './pairing.js';
import { isIqm, readIqmHeader } from './header.js';
import { HEADER_BYTES } from './layout.js';
import { parseIqmStream } from './stream.js';

export const iqmFormat: ModelFormat<IqmModel> = {
  id: 'iqm',
  title: 'Inter-Quake Model (IQM)',
  extensions: ['.iqm'],
  test: isIqm,
  role: 'model',
  animation: 'skeletal',
  parseStream: parseIqmStream,
  warnings: (data) => data.warnings,
  companionsBeside: iqmCompanionsBeside,
  // Tesseract (rendermodel.cpp loadmodel) runs the model's iqm.cfg: its iqmanim lines are the model's animations
  companionsByDefault: true,
  acceptsCompanion: iqmAcceptsCompanion,
  playedBy: iqmMeshesPlaying,
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
