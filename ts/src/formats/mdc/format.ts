/**
 * MDC's entry in the format list: RTCW's and Enemy Territory's compressed MD3, magic `IDPC` version 2 (docs/mdc.md).
 * Its parser is imported on the first parse (parser.ts, not the room's index.ts, which re-exports this door).
 */
import { isMdcHead } from './header.js';
import type { MdcModel } from './model.js';
import type { ModelFormat } from '../../load/format.js';

export const mdcFormat: ModelFormat<MdcModel> = {
  id: 'mdc',
  title: 'RTCW/ET compressed model (MDC)',
  name: 'MDC',
  description: "Return to Castle Wolfenstein's and Enemy Territory's compressed MD3 (ET: Legacy): base frames plus compressed offsets, tags",
  extensions: ['.mdc'],
  test: isMdcHead,
  role: 'model',
  animation: 'vertex',
  parseStream: async (source, options) => (await import('./parser.js')).parseMdcStream(source, options),
  warnings: (m) => m.warnings,
  // `<model>_<skin>.skin` beside it, as an MD3's
  skinNames: (path) => [path.slice(path.lastIndexOf('/') + 1).replace(/\.mdc$/i, '')],
};
