/**
 * MD3's entry in the format list: a vertex-animated model with tags, magic `IDP3`. Its room (index.ts: the parser,
 * the header reader) is imported on the first parse: a list of formats (detection, a catalog) carries how each is
 * recognised, not every parser; one import per room, so the room stays one chunk of dist/.
 */
import type { Md3Model } from '../../base/model.js';
import { hasMagic, type ModelFormat } from '../../load/format.js';

export const md3Format: ModelFormat<Md3Model> = {
  id: 'md3',
  title: 'Quake 3 model (MD3)',
  name: 'MD3',
  description: "Quake 3's models (ioquake3, Daemon, Xonotic): surfaces, tags and vertex frames",
  extensions: ['.md3'],
  test: (head) => hasMagic(head, 'IDP3'),
  role: 'model',
  animation: 'vertex',
  parseStream: async (source, options) => (await import('./index.js')).parseMd3Stream(source, options),
  warnings: (m) => m.warnings,
  // `<model>_<skin>.skin` beside it (portals_blue.skin for portals.md3)
  skinNames: (path) => [path.slice(path.lastIndexOf('/') + 1).replace(/\.md3$/i, '')],
};
