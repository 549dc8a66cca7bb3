/**
 * Caps an opened archive is held to (docs/archives.md, "Hostile archives"). Every cap is checked before the bytes
 * it guards are produced: the directory's counts before any entry is stored, a member's declared size and ratio
 * before it is read, and while it inflates no member yields more bytes than it declared, nor an archive more than
 * its total budget. The defaults refuse only what deflate itself cannot produce; a tool scanning untrusted
 * archives sets tighter ones.
 */
export interface ArchiveLimits {
  /**
   * Largest declared uncompressed ÷ compressed size of a deflated member. Default 1032: a deflate stream spends at
   * least 2 bits on a match that copies at most 258 bytes (RFC 1951 §3.2.5), so no valid stream inflates past 1032
   * bytes per byte; a directory entry declaring more is lying, and is refused before a byte is inflated.
   */
  maxRatio?: number;
  /** Largest declared uncompressed size of one member. Default: unlimited (members are streamed in constant memory). */
  maxMemberBytes?: number;
  /**
   * Budget of inflated bytes: the sum of every member's declared size is checked against it when the archive is
   * opened, and every byte inflated by any read of this archive counts against it. Default: unlimited.
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
  return {
    maxRatio: l.maxRatio ?? DEFLATE_MAX_RATIO,
    maxMemberBytes: l.maxMemberBytes ?? Infinity,
    maxTotalBytes: l.maxTotalBytes ?? Infinity,
    maxEntries: l.maxEntries ?? Infinity,
    checkCrc: l.checkCrc ?? true,
  };
}
