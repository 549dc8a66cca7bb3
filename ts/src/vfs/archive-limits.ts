/**
 * Caps an opened archive is held to (docs/archives.md, "Hostile archives"; docs/security.md). Every cap is checked
 * before the bytes it guards are produced: the directory's counts before any entry is stored, the members' declared
 * sizes when the archive opens, a member's declared size and ratio before it is read, and while it inflates no
 * member yields more bytes than it declared. So by default an archive can make at most `maxTotalRatio` (64) times
 * its own size + 1 MiB of inflated bytes, and no member more than 256 MiB: memory follows what the caller handed
 * us, not what a directory claims. The defaults come from `base/resource-limits.ts` (process-wide, set by the CLI's
 * `--limit`); the options here win over them.
 */
import { ARCHIVE_ALLOWANCE_BYTES, resourceLimits } from '../base/resource-limits.js';

export interface ArchiveLimits {
  /**
   * Largest declared uncompressed ÷ compressed size of a deflated member. Default 1032: a deflate stream spends at
   * least 2 bits on a match that copies at most 258 bytes (RFC 1951 §3.2.5), so no valid stream inflates past 1032
   * bytes per byte; a directory entry declaring more is lying, and is refused before a byte is inflated.
   */
  maxRatio?: number;
  /** Largest declared uncompressed size of one member. Default 256 MiB (`ResourceLimits.maxMemberBytes`). */
  maxMemberBytes?: number;
  /**
   * Largest sum of the members' declared sizes, as a multiple of the archive's own size (plus a fixed 1 MiB),
   * checked when the archive is opened. Default 64 (`ResourceLimits.maxTotalRatio`); real archives of the test
   * corpus declare at most 8.1 times their size.
   */
  maxTotalRatio?: number;
  /**
   * An absolute budget of inflated bytes: the sum of every member's declared size is checked against it when the
   * archive is opened, and every byte inflated by any read of this archive (a member read twice counts twice)
   * counts against it — a scanner's budget of work. Default: unlimited (`maxTotalRatio` bounds the memory).
   */
  maxTotalBytes?: number;
  /**
   * Most entries in the central directory. Default: unlimited — a declared count is already bounded by the
   * directory's size (each entry takes at least 46 bytes of it), and entries are stored in flat arrays.
   */
  maxEntries?: number;
  /** Check each member's CRC-32 at its end (CRC_MISMATCH). Default true; see docs/archives.md for the engines' view. */
  checkCrc?: boolean;
}

export type ResolvedLimits = Required<ArchiveLimits>;

/** The deflate ceiling (see `maxRatio`). */
export const DEFLATE_MAX_RATIO = 1032;

export function resolveLimits(l: ArchiveLimits = {}): ResolvedLimits {
  const process = resourceLimits();
  return {
    maxRatio: l.maxRatio ?? DEFLATE_MAX_RATIO,
    maxMemberBytes: l.maxMemberBytes ?? process.maxMemberBytes,
    maxTotalRatio: l.maxTotalRatio ?? process.maxTotalRatio,
    maxTotalBytes: l.maxTotalBytes ?? Infinity,
    maxEntries: l.maxEntries ?? Infinity,
    checkCrc: l.checkCrc ?? true,
  };
}

/** What the members of an archive of `archiveBytes` may declare in all under `limits`. */
export function declaredTotalCap(limits: ResolvedLimits, archiveBytes: number): number {
  return Math.min(limits.maxTotalBytes, limits.maxTotalRatio * archiveBytes + ARCHIVE_ALLOWANCE_BYTES);
}
