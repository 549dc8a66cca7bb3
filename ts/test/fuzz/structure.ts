/**
 * Where a seed's structure is, so mutations can aim at it: block boundaries (for truncation), count fields and
 * offset fields (for inflation), and, in text formats, every number token (for number swaps and index changes).
 * Computed once per seed; mutations apply them to the seed before other edits shift bytes around.
 */

/**
 * A field in the file: `len` bytes at `at`; text fields are number tokens, binary fields little-endian integers of
 * 1, 2 or 4 bytes (big-endian when `bigEndian`: PNG and JPEG lengths).
 */
export interface Field {
  at: number;
  len: number;
  bigEndian?: boolean;
}

export interface Structure {
  /** Byte offsets where a block starts or ends (truncating there cuts the file between two structures). */
  boundaries: Int32Array;
  /** Declared counts (numJoints …; MD2/MD3 header and surface counts). */
  counts: Field[];
  /** Byte offsets / extents stored in the file (MD2/MD3 `ofs_*`); none in text formats. */
  offsets: Field[];
  /** Every number token, as pairs (start, end) — text formats only. */
  numbers: Int32Array;
  /** Line starts — text formats only (for line deletion / duplication). */
  lines: Int32Array;
}

const isSpace = (c: number) => c <= 0x20;
const isNumberStart = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e;
const isWord = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/** The MD5 keywords whose next token is a declared count. */
const MD5_COUNT_KEYWORDS = new Set(['numJoints', 'numMeshes', 'numverts', 'numtris', 'numweights', 'numFrames', 'numAnimatedComponents']);

/**
 * MD5 text: a light scan (not the real tokenizer — it must survive anything): boundaries at every `{` / `}` (before
 * and after) and line start, counts after the count keywords, every number token.
 */
export function md5Structure(b: Uint8Array): Structure {
  // Several text targets scan the same seed bytes (md5mesh, md5anim and the scripts share every foreign file).
  const known = textScans.get(b);
  if (known) return known;
  const s = scanText(b);
  textScans.set(b, s);
  return s;
}

const textScans = new WeakMap<Uint8Array, Structure>();

function scanText(b: Uint8Array): Structure {
  const boundaries: number[] = [];
  const counts: Field[] = [];
  const numbers: number[] = [];
  const lines: number[] = [0];
  let lastWord = '';
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c === 0x0a || c === 0x0d) {
      i++;
      if (c === 0x0d && b[i] === 0x0a) i++;
      lines.push(i);
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x7b || c === 0x7d) {
      boundaries.push(i, i + 1);
      i++;
      continue;
    }
    if (c === 0x22) {
      let j = i + 1;
      while (j < n && b[j] !== 0x22 && b[j] !== 0x0a && b[j] !== 0x0d) j++;
      i = j + 1;
      continue;
    }
    if (c === 0x2f && b[i + 1] === 0x2f) {
      while (i < n && b[i] !== 0x0a && b[i] !== 0x0d) i++;
      continue;
    }
    if (isNumberStart(c)) {
      let j = i + 1;
      while (j < n && !isSpace(b[j]) && b[j] !== 0x28 && b[j] !== 0x29 && b[j] !== 0x7b && b[j] !== 0x7d) j++;
      numbers.push(i, j);
      if (MD5_COUNT_KEYWORDS.has(lastWord)) counts.push({ at: i, len: j - i });
      lastWord = '';
      i = j;
      continue;
    }
    if (isWord(c)) {
      let j = i + 1;
      while (j < n && isWord(b[j])) j++;
      lastWord = j - i <= 24 ? String.fromCharCode(...b.subarray(i, j)) : '';
      i = j;
      continue;
    }
    i++;
  }
  return {
    boundaries: Int32Array.from(boundaries),
    counts,
    offsets: [],
    numbers: Int32Array.from(numbers),
    lines: Int32Array.from(lines),
  };
}

/** The little-endian int32 at `at`, or 0 when it runs past the end. */
export const i32 = (b: Uint8Array, at: number): number =>
  at + 4 <= b.length ? (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) : 0;

function binary(boundaries: number[], counts: Field[], offsets: Field[], size: number): Structure {
  const inFile = (f: Field) => f.at + f.len <= size;
  return {
    boundaries: Int32Array.from([...new Set(boundaries.filter((x) => x >= 0 && x <= size))].sort((a, b) => a - b)),
    counts: counts.filter(inFile),
    offsets: offsets.filter(inFile),
    numbers: new Int32Array(0),
    lines: new Int32Array(0),
  };
}

const field = (at: number): Field => ({ at, len: 4 });

/**
 * MD2 (Quake 2 `dmdl_t`, 17 int32s): ident, version, skinwidth, skinheight, framesize, num_skins, num_xyz, num_st,
 * num_tris, num_glcmds, num_frames, ofs_skins, ofs_st, ofs_tris, ofs_frames, ofs_glcmds, ofs_end.
 */
export function md2Structure(b: Uint8Array): Structure {
  const counts = [2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => field(k * 4));
  const offsets = [11, 12, 13, 14, 15, 16].map((k) => field(k * 4));
  const boundaries = [0, 4, 8, 68, ...offsets.map((f) => i32(b, f.at))];
  // Frame starts: ofs_frames + k · framesize.
  const ofsFrames = i32(b, 56);
  const frameSize = i32(b, 16);
  const frames = i32(b, 40);
  if (frameSize > 0) for (let k = 0; k < Math.min(frames, 4096); k++) boundaries.push(ofsFrames + k * frameSize);
  return binary(boundaries, counts, offsets, b.length);
}

/**
 * MD3 (Quake 3 `md3Header_t`): ident, version, name[64], flags, numFrames, numTags, numSurfaces, numSkins, ofsFrames,
 * ofsTags, ofsSurfaces, ofsEnd; each surface (`md3Surface_t`): ident, name[64], flags, numFrames, numShaders,
 * numVerts, numTriangles, ofsTriangles, ofsShaders, ofsSt, ofsXyzNormals, ofsEnd (offsets relative to the surface).
 */
export function md3Structure(b: Uint8Array): Structure {
  const counts = [76, 80, 84, 88].map(field);
  const offsets = [92, 96, 100, 104].map(field);
  const boundaries = [0, 4, 8, 72, 108, i32(b, 92), i32(b, 96), i32(b, 100), i32(b, 104)];
  let s = i32(b, 100);
  const surfaces = Math.min(i32(b, 84), 256);
  for (let k = 0; k < surfaces && s > 0 && s + 108 <= b.length; k++) {
    counts.push(...[72, 76, 80, 84].map((x) => field(s + x)));
    offsets.push(...[88, 92, 96, 100, 104].map((x) => field(s + x)));
    boundaries.push(s, s + 108, ...[88, 92, 96, 100, 104].map((x) => s + i32(b, s + x)));
    const end = i32(b, s + 104);
    if (end <= 0) break;
    s += end;
  }
  return binary(boundaries, counts, offsets, b.length);
}

/**
 * idTech scripts (.skin, .shader, .mtr): the MD5 text scan (braces, numbers, lines) plus a boundary at every line
 * start and punctuation byte (`,` `/` `.` `"` …, where a `.skin` entry or a path can be cut), and at every byte of
 * a small file (a `.skin` is a few dozen bytes and has no braces at all). Marked in one byte map, so a large
 * foreign seed (a 700 KB md3) costs one pass.
 */
export function scriptStructure(b: Uint8Array): Structure {
  const s = md5Structure(b);
  const n = b.length;
  const known = scriptScans.get(b);
  if (known) return known;
  const mark = new Uint8Array(n + 1);
  for (const x of s.boundaries) mark[x] = 1;
  for (const x of s.lines) mark[x] = 1;
  if (n <= 512) mark.fill(1);
  else {
    for (let i = 0; i < n; i++) {
      if (b[i] < 0x30 && b[i] > 0x20) mark[i] = mark[i + 1] = 1;
    }
  }
  let count = 0;
  for (let i = 0; i <= n; i++) count += mark[i];
  const boundaries = new Int32Array(count);
  for (let i = 0, k = 0; i <= n; i++) if (mark[i]) boundaries[k++] = i;
  const out = { ...s, boundaries };
  scriptScans.set(b, out);
  return out;
}

const scriptScans = new WeakMap<Uint8Array, Structure>();
// --- images ------------------------------------------------------------------------------------------------------

const u16le = (b: Uint8Array, at: number): number => (at + 2 <= b.length ? b[at] | (b[at + 1] << 8) : 0);
const u16Field = (at: number): Field => ({ at, len: 2 });
const byteField = (at: number): Field => ({ at, len: 1 });
/** At most this many boundaries from a scan of packets or segments (enough to cut anywhere near the start). */
const MAX_SCANNED = 4096;

/**
 * TGA: the 18-byte header (ID length, colour map first/length/entry size, width, height, pixel depth), the ID field,
 * the colour map, then each RLE packet start (or each row start of raw data).
 */
export function tgaStructure(b: Uint8Array): Structure {
  const counts = [byteField(0), u16Field(5), byteField(7), u16Field(12), u16Field(14), byteField(16), byteField(17)];
  const offsets = [u16Field(3)];
  const mapBytes = b[1] === 1 ? u16le(b, 5) * Math.ceil((b[7] ?? 0) / 8) : 0;
  const data = 18 + (b[0] ?? 0) + mapBytes;
  const boundaries = [0, 1, 3, 8, 12, 16, 18, 18 + (b[0] ?? 0), data];
  const size = Math.ceil((b[16] ?? 0) / 8) || 1;
  if ((b[2] ?? 0) >= 9) {
    for (let at = data, k = 0; at < b.length && k < MAX_SCANNED; k++) {
      boundaries.push(at);
      at += 1 + (b[at] & 0x80 ? size : ((b[at] & 0x7f) + 1) * size);
    }
  } else {
    const row = u16le(b, 12) * size;
    for (let k = 0; row > 0 && k < Math.min(u16le(b, 14), MAX_SCANNED); k++) boundaries.push(data + k * row);
  }
  return binary(boundaries, counts, offsets, b.length);
}

/** PCX: the 128-byte header (window, planes, bytes per line), each scanline's first packet, the palette marker. */
export function pcxStructure(b: Uint8Array): Structure {
  const counts = [byteField(1), byteField(3), u16Field(4), u16Field(6), u16Field(8), u16Field(10), byteField(65), u16Field(66)];
  const boundaries = [0, 4, 12, 65, 68, 128, b.length - 769, b.length - 768];
  // Packet starts: every 64th, up to the palette.
  for (let at = 128, k = 0; at < b.length - 769 && k < MAX_SCANNED * 64; k++) {
    if (k % 64 === 0) boundaries.push(at);
    at += b[at] >= 0xc0 ? 2 : 1;
  }
  return binary(boundaries, counts, [], b.length);
}

/**
 * DDS: the header's sizes, dimensions, mip count and pixel format (flags, FourCC, bit count, masks), the DX10 header's
 * format, dimension and array size, and the start of each 8-row band of the first image's blocks.
 */
export function ddsStructure(b: Uint8Array): Structure {
  const counts = [field(4), field(12), field(16), field(28), field(76), field(80), field(84), field(88), field(92), field(104), field(112), field(128), field(132), field(140)];
  const dx10 = b[84] === 0x44 && b[85] === 0x58 && b[86] === 0x31 && b[87] === 0x30;
  const data = dx10 ? 148 : 128;
  const boundaries = [0, 4, 76, 108, 128, data, b.length];
  const width = i32(b, 16);
  const band = Math.ceil(Math.max(0, width) / 4) * 16 * 2;
  for (let k = 1, at = data + band; band > 0 && at < b.length && k < MAX_SCANNED; k++, at += band) boundaries.push(at);
  return binary(boundaries, counts, [], b.length);
}

/** BMP: file header (size, data offset), DIB header (size, width, height, depth, compression, colours), rows. */
function bmpStructure(b: Uint8Array): Structure {
  const counts = [{ at: 18, len: 4 }, { at: 22, len: 4 }, u16Field(28), { at: 30, len: 4 }, { at: 46, len: 4 }];
  const offsets = [{ at: 2, len: 4 }, { at: 10, len: 4 }, { at: 14, len: 4 }];
  const data = i32(b, 10);
  const boundaries = [0, 2, 14, 18, 54, data, b.length];
  return binary(boundaries, counts, offsets, b.length);
}

/** PNG: every chunk start, length (big-endian) and the IHDR fields. */
function pngStructure(b: Uint8Array): Structure {
  const counts: Field[] = [{ at: 16, len: 4, bigEndian: true }, { at: 20, len: 4, bigEndian: true }, byteField(24), byteField(25), byteField(28)];
  const offsets: Field[] = [];
  const boundaries = [0, 8];
  for (let at = 8, k = 0; at + 8 <= b.length && k < MAX_SCANNED; k++) {
    boundaries.push(at, at + 8);
    offsets.push({ at, len: 4, bigEndian: true });
    at += 12 + (((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0);
  }
  return binary(boundaries, counts, offsets, b.length);
}

/** JPEG: every marker segment start and its length (big-endian), up to the first scan; SOF's size fields. */
function jpegStructure(b: Uint8Array): Structure {
  const counts: Field[] = [];
  const offsets: Field[] = [];
  const boundaries = [0, 2];
  for (let at = 2, k = 0; at + 4 <= b.length && b[at] === 0xff && k < MAX_SCANNED; k++) {
    const m = b[at + 1];
    boundaries.push(at, at + 4);
    offsets.push({ at: at + 2, len: 2, bigEndian: true });
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      counts.push({ at: at + 5, len: 2, bigEndian: true }, { at: at + 7, len: 2, bigEndian: true }, byteField(at + 9));
    }
    if (m === 0xda) break;
    at += 2 + ((b[at + 2] << 8) | b[at + 3]);
  }
  return binary(boundaries, counts, offsets, b.length);
}

/** Any image: the structure of the format its first bytes announce (TGA when none). */
export function imageStructure(b: Uint8Array): Structure {
  if (b[0] === 0x89 && b[1] === 0x50) return pngStructure(b);
  if (b[0] === 0xff && b[1] === 0xd8) return jpegStructure(b);
  if (b[0] === 0x42 && b[1] === 0x4d) return bmpStructure(b);
  if (b[0] === 0x44 && b[1] === 0x44 && b[2] === 0x53) return ddsStructure(b);
  if (b[0] === 0x0a) return pcxStructure(b);
  return tgaStructure(b);
}

/**
 * IQM v2 (iqm.h `iqmheader`): magic[16], version, filesize, flags, then the counts and `ofs_*` of text, meshes,
 * vertex arrays, triangles (and adjacency), joints, poses, anims, frames (and bounds), comment and extensions; each
 * vertex array record's offset too. Every block start is a boundary.
 */
export function iqmStructure(b: Uint8Array): Structure {
  const u = (k: number) => 16 + 4 * k; // header word k after the magic
  const counts = [3, 5, 7, 8, 10, 13, 15, 17, 19, 20, 23, 25].map((k) => field(u(k)));
  const offsets = [1, 4, 6, 9, 11, 12, 14, 16, 18, 21, 22, 24, 26].map((k) => field(u(k)));
  const boundaries = [0, 16, 20, 24, 124, ...offsets.map((f) => i32(b, f.at))];
  const ofsVA = i32(b, u(9));
  const arrays = Math.min(i32(b, u(7)), 64);
  for (let k = 0; k < arrays && ofsVA > 0 && ofsVA + 20 * (k + 1) <= b.length; k++) {
    offsets.push(field(ofsVA + 20 * k + 16));
    counts.push(field(ofsVA + 20 * k + 12));
    boundaries.push(ofsVA + 20 * k, i32(b, ofsVA + 20 * k + 16));
  }
  return binary(boundaries, counts, offsets, b.length);
}
