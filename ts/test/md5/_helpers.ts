/** Shared helpers of the MD5 tests (not a test file itself). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { SHARED_MODELS } from '../helpers/models.js';
import { ModelParseError, type ErrorCode } from '../../src/base/errors.js';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { Md5AnimParser, Md5MeshParser } from '../../src/formats/md5/index.js';

/** The shared real-model corpus (never copied into the repo). Override with IDTECH_MODELS_DIR. */
export const MODELS_DIR = process.env.IDTECH_MODELS_DIR ?? SHARED_MODELS;
if (!existsSync(join(MODELS_DIR, 'MANIFEST.tsv'))) {
  // Real data is part of the test suite: a missing corpus fails loudly rather than skipping tests.
  throw new Error(`real models not found at ${MODELS_DIR} (expected ../shared/models beside the repository, or IDTECH_MODELS_DIR)`);
}
export const HAVE_MODELS = true;

export const FILES = {
  droneMesh: 'actors/drone/mesh.md5mesh',
  droneDeath: 'actors/drone/death.md5anim',
  droneForward: 'actors/drone/forward.md5anim',
  droneIdle: 'actors/drone/idle.md5anim',
  turret: 'actors/turret/turret.md5mesh',
  boarMan: 'assimp/test/models-nonbsd/MD5/BoarMan.md5mesh',
  simpleCube: 'assimp/test/models/MD5/SimpleCube.md5mesh',
  grenade: 'res-weapons_src.dpkdir/models/weapons/grenade/grenade.md5mesh',
  rifleView: 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh',
  rifleIdle: 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_idle.md5anim',
  rifleReload: 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_reload.md5anim',
  invalidBoneIndex: 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh',
  overflowTri: 'assimp/test/models/MD5/invalid/OverflowingTriangleIndex.md5mesh',
  overflowVert: 'assimp/test/models/MD5/invalid/OverflowingVertexIndex.md5mesh',
  overflowWeight: 'assimp/test/models/MD5/invalid/OverflowingWeightIndex.md5mesh',
  camera: 'assimp/test/models/MD5/invalid/InvalidCameraCut.md5camera',
  empty: 'assimp/test/models/invalid/empty.md5mesh',
} as const;

export function readModel(rel: string): Uint8Array {
  const b = readFileSync(join(MODELS_DIR, rel));
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Split `bytes` at the given (sorted, in-range) cut positions. */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  out.push(bytes.subarray(prev));
  return out;
}

export function meshFromChunks(chunks: readonly Uint8Array[]): Md5Mesh {
  const p = new Md5MeshParser();
  for (const c of chunks) p.write(c);
  return p.end();
}

export function animFromChunks(chunks: readonly Uint8Array[]): Md5Anim {
  const p = new Md5AnimParser();
  for (const c of chunks) p.write(c);
  return p.end();
}

/** Run `fn`, expect a ModelParseError, return it. */
export function catchParse(fn: () => unknown): ModelParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw new Error(`expected ModelParseError, got ${String(e)}`);
  }
  throw new Error('expected ModelParseError, nothing thrown');
}

export function expectError(
  fn: () => unknown,
  code: ErrorCode,
  line?: number,
  column?: number,
): ModelParseError {
  const e = catchParse(fn);
  if (e.code !== code || (line !== undefined && e.line !== line) || (column !== undefined && e.column !== column)) {
    throw new Error(`expected ${code} at ${line}:${column}, got ${e.message}`);
  }
  return e;
}

/** 1-based line:column of the first occurrence of `needle` (after `after`, if given) in `text`. */
export function posOf(text: string, needle: string, after = ''): [number, number] {
  const from = after ? text.indexOf(after) + after.length : 0;
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`needle ${needle} not found`);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - (before.lastIndexOf('\n') + 1) + 1;
  return [line, column];
}

/**
 * `expectBad(from, to, code, at = to, after = '')` for edits of `base`: parses `base` with `from` replaced by `to`
 * and expects error `code` at the position of `at` (the first occurrence after `after`, or an explicit
 * [line, column]); returns the error.
 */
export function badEditChecker(base: string, parse: (text: string) => unknown) {
  return (from: string, to: string, code: string, at: string | [number, number] = to, after = ''): ModelParseError => {
    const text = base.replace(from, to);
    expect(text).not.toBe(base);
    const [line, column] = typeof at === 'string' ? posOf(text, at, after) : at;
    const e = catchParse(() => parse(text));
    expect({ code: e.code, line: e.line, column: e.column }, e.message).toEqual({ code, line, column });
    return e;
  };
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.constructor !== b.constructor || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return Buffer.compare(x, y) === 0;
}

/**
 * Bit-exact structural equality (typed arrays compared byte for byte, so −0 ≠ +0); returns the first differing
 * path, or '' when equal. Much faster than expect().toEqual on big typed arrays.
 */
export function diff(a: unknown, b: unknown, path = '$'): string {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    return ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && sameBytes(a, b) ? '' : path;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return '';
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) return path;
    for (const k of ka) {
      const d = diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return '';
  }
  return Object.is(a, b) ? '' : path;
}

/**
 * Two-chunk splits of `bytes` at every `step`-th position (0 included) parse bit-identically to `whole`; throws at
 * the first that does not. Returns the number of splits tried.
 */
export function everyTwoWaySplit(
  bytes: Uint8Array,
  parse: (chunks: readonly Uint8Array[]) => unknown,
  whole: unknown,
  step = 1,
  label = 'split',
): number {
  let n = 0;
  for (let i = 0; i <= bytes.length; i += step, n++) {
    const d = diff(parse(splitAt(bytes, [i])), whole);
    if (d) throw new Error(`${label} at ${i}: results differ at ${d}`);
  }
  return n;
}

/** Two-chunk splits of turret.md5mesh at every `step`-th byte (every byte is too slow for the suite: 69k parses). */
export function turretEverySplit(step: number): number {
  const bytes = readModel(FILES.turret);
  return everyTwoWaySplit(bytes, meshFromChunks, meshFromChunks([bytes]), step, 'turret split');
}
