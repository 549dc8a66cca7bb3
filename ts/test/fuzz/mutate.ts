/**
 * Mutation operators. A fuzzed input is a seed (a real file) with 1–4 mutations: bit flips, byte sets, byte
 * insertion and deletion, range duplication and deletion, truncation (at a block boundary or anywhere), count and
 * offset inflation, number swaps and line edits (text), and a splice with another seed. Each operator records what
 * it did, so a failure report says how the input was made.
 */
import type { Rng } from './rng.js';
import { i32, type Field, type Structure } from './structure.js';

export interface Seed {
  /** Path under the shared models directory (or a fixture name). */
  name: string;
  bytes: Uint8Array;
  structure: Structure;
}

export interface Mutant {
  bytes: Uint8Array;
  /** The operators applied, e.g. `bitflip@123`, `count@40=-1`. */
  ops: string[];
}

const enc = new TextEncoder();

/** Bytes that change the meaning of MD5 text, and values at the edges of binary fields. */
const INTERESTING_BYTES = Uint8Array.from([
  0x00, 0xff, 0x7f, 0x80, 0x01, 0x20, 0x22, 0x7b, 0x7d, 0x28, 0x29, 0x0a, 0x0d, 0x2f, 0x2a, 0x2d, 0x2b, 0x2e, 0x65,
  0x30, 0x39, 0x09,
]);

/** Number texts for MD5: edges of every limit, non-finite and malformed forms, huge digit runs. */
const TEXT_NUMBERS = [
  '0', '-0', '1', '-1', '2', '3', '6', '7', '63', '64', '255', '256', '1023', '1024', '1025', '4095', '4096', '4097',
  '65535', '65536', '16777215', '16777216', '16777217', '2147483647', '2147483648', '-2147483648', '4294967295',
  '4294967296', '9007199254740993', '99999999999999999999', '1e3', '1.5', '-1.5', '.5', '5.', '+5', '1e38', '3.4028235e38',
  '3.4028236e38', '1e39', '-1e39', '1e-46', '1e400', 'nan', 'inf', '-inf', 'NaN', '1.#IND', '-1.#QNAN', '0x10', '1e',
  '.', '-', '+', '--1', '1..2', '1e+', '0'.repeat(70), '1'.repeat(400), `0.${'0'.repeat(330)}1`,
];

/** int32 values for binary count and offset fields (`size` is the file size). */
function binaryValues(old: number, size: number): number[] {
  return [
    0, 1, -1, 2, 0x7fffffff, -0x80000000, 0x10000, 0xffff, 0x1000000, size, size + 1, size - 1, size - 4, old + 1,
    old - 1, old * 2, old + 4, old - 4, old * 1000, old + 0x10000, -old, 68, 108, 4096,
  ];
}

function replace(b: Uint8Array, at: number, len: number, piece: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - len + piece.length);
  out.set(b.subarray(0, at));
  out.set(piece, at);
  out.set(b.subarray(at + len), at + piece.length);
  return out;
}

/** The integer field `f` (1, 2 or 4 bytes, little-endian unless `bigEndian`); 4-byte fields read signed. */
function getField(b: Uint8Array, f: Field): number {
  if (f.len === 4 && !f.bigEndian) return i32(b, f.at);
  let v = 0;
  for (let k = 0; k < f.len; k++) v = v * 256 + b[f.at + (f.bigEndian ? k : f.len - 1 - k)];
  return f.len === 4 ? v | 0 : v;
}

/** A copy of `b` with field `f` set to `v` (wrapped to the field's width). */
function setField(b: Uint8Array, f: Field, v: number): Uint8Array {
  const out = b.slice();
  let x = v | 0;
  for (let k = 0; k < f.len; k++, x >>= 8) out[f.at + (f.bigEndian ? f.len - 1 - k : k)] = x & 0xff;
  return out;
}

type Op = (m: Mutant, rng: Rng, seed: Seed, text: boolean, others: readonly Seed[]) => void;

const bitflip: Op = (m, rng) => {
  if (m.bytes.length === 0) return;
  const b = m.bytes.slice();
  const flips = rng.pick([1, 1, 1, 2, 4, 8]);
  for (let k = 0; k < flips; k++) {
    const at = rng.offsetIn(b.length);
    b[at] ^= 1 << rng.below(8);
    m.ops.push(`bitflip@${at}`);
  }
  m.bytes = b;
};

const byteSet: Op = (m, rng) => {
  if (m.bytes.length === 0) return;
  const b = m.bytes.slice();
  const at = rng.offsetIn(b.length);
  b[at] = rng.chance(0.7) ? rng.pick(INTERESTING_BYTES) : rng.below(256);
  m.ops.push(`set@${at}=${b[at]}`);
  m.bytes = b;
};

const insert: Op = (m, rng, seed, text) => {
  const at = rng.offsetIn(m.bytes.length + 1);
  let piece: Uint8Array;
  const kind = rng.below(4);
  if (kind === 0) piece = Uint8Array.of(rng.pick(INTERESTING_BYTES));
  else if (kind === 1) piece = Uint8Array.from({ length: rng.range(1, 16) }, () => rng.below(256));
  else if (kind === 2 && text) piece = enc.encode(rng.pick([' ', '{', '}', '(', ')', '"', '//', '/*', '*/', '\n', '\r', 'mesh', 'joints', 'frame', 'numverts 1', rng.pick(TEXT_NUMBERS)]));
  else {
    // A copy of a slice of the input itself (repeats a block, or part of one).
    const from = rng.offsetIn(Math.max(1, m.bytes.length));
    piece = m.bytes.slice(from, from + rng.range(1, 256));
  }
  m.bytes = replace(m.bytes, at, 0, piece);
  m.ops.push(`insert@${at}+${piece.length}`);
};

const remove: Op = (m, rng) => {
  if (m.bytes.length === 0) return;
  const at = rng.offsetIn(m.bytes.length);
  const len = Math.min(m.bytes.length - at, rng.chance(0.6) ? rng.range(1, 4) : rng.range(1, 512));
  m.bytes = replace(m.bytes, at, len, new Uint8Array(0));
  m.ops.push(`delete@${at}-${len}`);
};

const truncateAtBoundary: Op = (m, rng, seed) => {
  const bs = seed.structure.boundaries;
  const at = bs.length > 0 && rng.chance(0.8) ? bs[rng.offsetIn(bs.length)] : rng.offsetIn(m.bytes.length + 1);
  if (at > m.bytes.length) return;
  m.bytes = m.bytes.slice(0, at);
  m.ops.push(`truncate@${at}`);
};

/** Replace a text field (a number token) or set a binary integer field. */
function rewriteField(m: Mutant, rng: Rng, f: Field, text: boolean, label: string): void {
  if (f.at + f.len > m.bytes.length) return;
  if (text) {
    const piece = rng.pick(TEXT_NUMBERS);
    m.bytes = replace(m.bytes, f.at, f.len, enc.encode(piece));
    m.ops.push(`${label}@${f.at}=${piece.length > 24 ? `${piece.slice(0, 8)}…(${piece.length})` : piece}`);
  } else {
    const v = rng.pick(binaryValues(getField(m.bytes, f), m.bytes.length));
    m.bytes = setField(m.bytes, f, v);
    m.ops.push(`${label}@${f.at}=${v | 0}`);
  }
}

const countInflate: Op = (m, rng, seed, text) => {
  const fs = seed.structure.counts;
  if (fs.length === 0) return bitflip(m, rng, seed, text, []);
  rewriteField(m, rng, rng.pick(fs), text, 'count');
};

const offsetInflate: Op = (m, rng, seed, text) => {
  const fs = seed.structure.offsets;
  if (fs.length > 0) return rewriteField(m, rng, rng.pick(fs), text, 'offset');
  // Text formats have no offsets; their indices (weight start, joint, vertex, parent, frame) play that role.
  const ns = seed.structure.numbers;
  if (ns.length === 0) return byteSet(m, rng, seed, text, []);
  const k = rng.offsetIn(ns.length >> 1) * 2;
  rewriteField(m, rng, { at: ns[k], len: ns[k + 1] - ns[k] }, true, 'number');
};

const lineEdit: Op = (m, rng, seed) => {
  const ls = seed.structure.lines;
  if (ls.length < 2) return;
  const k = rng.offsetIn(ls.length - 1);
  const [s, e] = [ls[k], ls[k + 1]];
  if (e > m.bytes.length) return;
  const line = m.bytes.slice(s, e);
  const kind = rng.below(3);
  if (kind === 0) {
    m.bytes = replace(m.bytes, s, e - s, new Uint8Array(0));
    m.ops.push(`dropline@${s}`);
  } else if (kind === 1) {
    m.bytes = replace(m.bytes, e, 0, line);
    m.ops.push(`dupline@${s}`);
  } else {
    const j = rng.offsetIn(ls.length);
    const at = Math.min(ls[j], m.bytes.length);
    m.bytes = replace(m.bytes, at, 0, line);
    m.ops.push(`moveline@${s}->${at}`);
  }
};

const splice: Op = (m, rng, seed, text, others) => {
  if (others.length === 0) return;
  const o = rng.pick(others);
  const from = rng.offsetIn(o.bytes.length + 1);
  const piece = o.bytes.subarray(from, from + rng.range(1, 4096));
  const at = rng.offsetIn(m.bytes.length + 1);
  m.bytes = replace(m.bytes, at, rng.chance(0.5) ? 0 : Math.min(piece.length, m.bytes.length - at), piece);
  m.ops.push(`splice@${at}<${o.name}@${from}+${piece.length}`);
};

/** Operators and their weights. */
const OPS: readonly [Op, number][] = [
  [bitflip, 6],
  [byteSet, 5],
  [insert, 4],
  [remove, 4],
  [truncateAtBoundary, 3],
  [countInflate, 4],
  [offsetInflate, 5],
  [lineEdit, 2],
  [splice, 1],
];
const TOTAL_WEIGHT = OPS.reduce((s, [, w]) => s + w, 0);

function pickOp(rng: Rng): Op {
  let r = rng.below(TOTAL_WEIGHT);
  for (const [op, w] of OPS) {
    if (r < w) return op;
    r -= w;
  }
  return OPS[0][0];
}

/**
 * Inputs are kept short on average, so a long run tries many of them: a seed above {@link FOCUS_BYTES} is usually
 * cut first at a block boundary shortly after a focus point near its start (what follows a mutation rarely matters
 * once the parser is past it, and it costs parse time), and only sometimes fuzzed whole or deep inside. The chances
 * scale with 1/size, so each big seed costs about as much per input as a {@link FOCUS_BYTES} one.
 */
const FOCUS_BYTES = 24 * 1024;

/** The first boundary at or after `at`, or `at` when there is none. */
function boundaryAfter(bs: Int32Array, at: number): number {
  let lo = 0;
  let hi = bs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bs[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < bs.length ? bs[lo] : at;
}

/**
 * One fuzzed input from `seed`: cropped as described at {@link FOCUS_BYTES}, then 1–4 operators. The
 * structure-aware operators use the seed's structure, exact for the first operator and approximate after.
 */
export function mutate(seed: Seed, rng: Rng, text: boolean, others: readonly Seed[]): Mutant {
  const n = seed.bytes.length;
  let base = seed.bytes;
  const ops: string[] = [];
  if (n > FOCUS_BYTES && !rng.chance(FOCUS_BYTES / 2 / n)) {
    const focus = rng.chance(FOCUS_BYTES / n) ? rng.below(n) : rng.below(FOCUS_BYTES);
    // Text is cut at a line start (an element boundary: blocks can be as long as the file), binary at a block.
    const stops = text && seed.structure.lines.length > 0 ? seed.structure.lines : seed.structure.boundaries;
    const cut = boundaryAfter(stops, focus + rng.below(8192));
    if (cut < n) {
      base = seed.bytes.subarray(0, cut);
      ops.push(`crop@${cut}`);
    }
  }
  const m: Mutant = { bytes: base, ops };
  const k = rng.pick([1, 1, 1, 2, 2, 3, 4]);
  for (let i = 0; i < k; i++) pickOp(rng)(m, rng, seed, text, others);
  if (m.bytes === seed.bytes) m.bytes = seed.bytes.slice();
  return m;
}
