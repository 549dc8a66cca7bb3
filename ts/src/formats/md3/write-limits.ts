/** ioquake3's limits on a written MD3: our parser's ENGINE_LIMIT warnings on the bytes (write/engine-limits.ts). */
import type { ParseWarning } from '../../base/errors.js';
import { ENGINE_LIMIT } from '../../write/engine-limits.js';
import { parseMd3 } from './parser.js';

/** ioquake3's limits that the MD3 `bytes` go past (empty when it loads the file). */
export function md3EngineLimits(bytes: Uint8Array): ParseWarning[] {
  return parseMd3(bytes).warnings.filter((w) => w.code === ENGINE_LIMIT);
}
