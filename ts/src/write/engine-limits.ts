/**
 * The target engine's limits, checked on what a writer produced (`--validate`, the writers' `validate` option).
 * Each finding says which limit, the engine source that enforces it and where: a byte offset in the written
 * MD2/MD3 file, or the MD5 element by name.
 *
 * Each format's own checks sit in its folder (`formats/<format>/write-limits.ts`). MD3 and MD2 are checked by reading the written bytes back with our own parsers, whose ENGINE_LIMIT warnings are
 * the audit of ioquake3's R_LoadMD3 and Quake 2's Mod_LoadAliasModel (docs/limits.md): one list of conditions for
 * reading and writing. What a fixed-size field cannot hold at all (a 65-byte name, a 2049th MD2 vertex) is refused
 * by the writer or the parser already; what is here are files the format holds and the engine will not load (or
 * loads wrongly).
 *
 * MD5 has no byte layout to point into; Doom 3's checks are on the data: idMD5Anim::LoadAnim (frames, joints,
 * frame rate, roots) and idMD5Anim::CheckModelHierarchy, which stops the game when an anim played on a mesh has
 * other joints (count, names or parents).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';

export type EngineTarget = 'md3' | 'md2' | 'md5';

export const ENGINE_LIMIT = 'ENGINE_LIMIT';

/** A finding on data with no byte layout to point into (MD5). */
export const finding = (message: string): ParseWarning => ({ code: ENGINE_LIMIT, message, offset: 0 });

/** The writers' options. */
export interface WriteOptions {
  /**
   * Refuse what the target engine will not load: UNWRITABLE naming each limit (ioquake3 for MD3, Quake 2 for MD2,
   * Doom 3 for MD5) and where, instead of a file the game rejects. Off by default: a writer writes what the format
   * holds, so parse → write → parse is exact on every file, also those past an engine's limits.
   */
  validate?: boolean;
}

/** Throws UNWRITABLE listing `found` (at the first one's offset); nothing when it is empty. */
export function refuseEngineLimits(found: readonly ParseWarning[], engine: string): void {
  if (found.length === 0) return;
  const detail = `${engine} will not load what was written (validate): ${found.map((w) => w.message).join('; ')}`;
  throw new ModelParseError(ErrorCode.Unwritable, detail, { offset: found[0].offset });
}
