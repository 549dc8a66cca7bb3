/** IQM's entry in the registry: the `ModelFormat` the registry extends with its capabilities. */
import type { IqmModel } from '../../base/model.js';
import type { ModelFormat } from '../format.js';
import { iqmCompanionsBeside } from './companions.js';
import { iqmAcceptsCompanion } from './pairing.js';
import { isIqm } from './header.js';
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
  acceptsCompanion: iqmAcceptsCompanion,
};
