/** Quake 2's limits on a written MD2: our parser's ENGINE_LIMIT warnings on the bytes (write/engine-limits.ts). */
import type { ParseWarning } from '../../base/errors.js';
import { ENGINE_LIMIT } from '../../write/engine-limits.js';
import { parseMd2 } from './parser.js';

/** Quake 2's limits that the MD2 `bytes` go past (empty when it loads the file). */
export function md2EngineLimits(bytes: Uint8Array): ParseWarning[] {
  return parseMd2(bytes).warnings.filter((w) => w.code === ENGINE_LIMIT);
}
