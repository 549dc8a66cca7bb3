/**
 * RtCW's skeletal model as one `ModelFormat` (load/format.ts): `.mds`, told by its first bytes (`MDSW` version 4),
 * one file holding its bones, frames, surfaces and tags. Its parser is imported on the first parse.
 */
import type { ModelFormat } from '../../load/format.js';
import { isMdsHead } from './header.js';
import type { MdsModel } from './model.js';

export const mdsFormat: ModelFormat<MdsModel> = {
  id: 'mds',
  title: 'Return to Castle Wolfenstein skeletal model (MDS)',
  name: 'MDS',
  description: "Return to Castle Wolfenstein's skeletal models: bones with a torso/legs split, weighted vertices, LOD collapse maps, tags on bones",
  extensions: ['.mds'],
  test: isMdsHead,
  role: 'model',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./parser.js')).parseMdsStream(source, options),
  warnings: (data) => data.warnings,
};
