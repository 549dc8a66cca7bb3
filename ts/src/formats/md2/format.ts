/** MD2's entry in the format list: a vertex-animated model, magic `IDP2`; its parser imported on the first parse (as MD3's). */
import type { Md2Model } from '../../base/model.js';
import { hasMagic, type ModelFormat } from '../../load/format.js';
import { md2Md5Replacement } from './md5-replacement.js';

export const md2Format: ModelFormat<Md2Model> = {
  id: 'md2',
  title: 'Quake 2 model (MD2)',
  name: 'MD2',
  description: "Quake 2's vertex-animated models, their clips named by their frames",
  extensions: ['.md2'],
  test: (head) => hasMagic(head, 'IDP2'),
  role: 'model',
  animation: 'vertex',
  parseStream: async (source, options) => (await import('./index.js')).parseMd2Stream(source, options),
  warnings: (m) => m.warnings,
  // the Quake II re-release's MD5 model beside it (q2pro's MOD_LoadMD5): md5-replacement.ts
  replacedBy: (path, m) => md2Md5Replacement(path, m),
};
