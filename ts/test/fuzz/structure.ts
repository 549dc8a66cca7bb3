/**
 * Where a seed's structure is, so mutations can aim at it: block boundaries (for truncation), count fields and
 * offset fields (for inflation), and, in text formats, every number token (for number swaps and index changes).
 * Computed once per seed; mutations apply them to the seed before other edits shift bytes around.
 */

/** A field in the file: `len` bytes at `at`; text fields are number tokens, binary fields little-endian int32s. */
export interface Field {
  at: number;
  len: number;
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
