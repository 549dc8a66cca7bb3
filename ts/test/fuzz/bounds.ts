/**
 * The bounds every fuzzed input is held to (docs/errors.md states the memory bound; docs/fuzzing.md explains how
 * it is measured).
 */

/** Typed-array bytes a parse may allocate for an input of n bytes: `perByte · n + constant` (cumulative, see alloc-meter). */
export interface MemoryBound {
  perByte: number;
  constant: number;
}

/**
 * Every parser, per input byte: the densest MD5 element is an md5anim frame value (`0 ` — 2 bytes of text, a 4-byte
 * float32). A list that doubles as elements arrive has allocated, with all its copies, under 2× its final capacity,
 * which is under 2× what arrived — 16 bytes per value — and the anim's frames are sliced to size once at the end
 * (4 more): 20 bytes per 2 bytes of text, 10 per byte, 12 with headroom. MD2/MD3 keep every block as compact as in
 * the file (at most 1 byte per byte each) and have no count limits since docs/limits.md: each count's records must
 * fit in the file. Blocks may overlap (the engines allow it), so the worst MD2 is its five blocks each covering the
 * whole file (5), the unaligned triangle and glcmd blocks copied once more on the way (2) and a streamed file's
 * buffer doubling up to its ofs_end (2): 9 per byte; MD3's surface blocks, frames and tags likewise stay under it.
 *
 * Constant: what a short header can make a parser allocate before the elements that justify it arrive — 4096 joints
 * (~135 KiB in an md5anim, 128 KiB in an md5mesh), the first lists of one mesh block or one bounds block (under
 * 48 KiB), the MD5 tokenizer's token buffer growing to its 64 KiB limit (128 KiB with its copies), a stream's first
 * 64 KiB buffer: under 512 KiB together.
 */
export const PARSER_MEMORY_BOUND: MemoryBound = { perByte: 12, constant: 512 * 1024 };

/**
 * Image decoders (TGA, PCX, BMP to RGBA8; PNG/JPEG headers read only), per input byte: the densest input is TGA
 * RLE at 8 bits per pixel, where a 2-byte run packet gives 128 pixels, 512 bytes of RGBA — 256 per input byte (PCX:
 * a 2-byte run gives 63 pixels, 126 bytes per byte; BMP at 1 bpp, 32). Every decoder checks its dimensions against
 * that best case before allocating, so a short file never gets a large buffer. Constant: a TGA colour map (1 KiB +
 * 256 flags), a PCX scanline (≤ 3 · 64 KiB), a BMP palette (1 KiB): under 256 KiB.
 */
export const IMAGE_MEMORY_BOUND: MemoryBound = { perByte: 256, constant: 256 * 1024 };

export const memoryLimit = (b: MemoryBound, n: number): number => b.perByte * n + b.constant;

/**
 * Time a parse may take: generous, because the machine is shared and a GC pause can land anywhere; a real hang or
 * a quadratic path blows through it by orders of magnitude. The parsers run at ~130 MB/s (≈ 8 ns per byte), so
 * 1 µs per byte is a 100× margin. A slow input is re-timed twice and only the fastest run counts.
 */
export const timeLimitMs = (n: number): number => 100 + n / 1000;
