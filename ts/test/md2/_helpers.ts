/** Shared helpers of the MD2 tests (not a test file itself). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ModelParseError } from '../../src/base/errors.js';
import type { Md2Model } from '../../src/base/model.js';
import { Md2Parser } from '../../src/formats/md2/index.js';
import { SHARED_MODELS, manifest, read, type ManifestRow } from '../helpers/models.js';

export { catchParse, diff, splitAt } from '../md5/_helpers.js';

if (!existsSync(join(SHARED_MODELS, 'MANIFEST.tsv'))) {
  // Real data is part of the suite: a missing corpus fails loudly rather than skipping.
  throw new Error(`real models not found at ${SHARED_MODELS}`);
}

export const FILES = {
  barrel: 'AC/packages/models/mapmodels/sitters/ton/down/tris.md2',
  dolphin: 'assimp/test/models-nonbsd/MD2/dolphin.md2',
  flag: 'assimp/test/models-nonbsd/MD2/flag.md2',
  faerie: 'assimp/test/models/MD2/faerie.md2',
  zeroVertices: 'assimp/test/models/MD2/malformed_zero_numvertices.md2',
} as const;

/** Every MD2 of the MANIFEST; throws when one listed is missing. */
export function md2Rows(): ManifestRow[] {
  const rows = manifest().filter((r) => r.format === 'md2');
  for (const r of rows) if (!existsSync(r.absPath)) throw new Error(`MANIFEST lists ${r.path}, not found`);
  if (rows.length === 0) throw new Error('MANIFEST lists no md2');
  return rows;
}

/** The well-formed ones (the MANIFEST names the malformed ones so). */
export const goodMd2Rows = () => md2Rows().filter((r) => !/malformed/.test(r.path));

export function readMd2File(rel: string): Uint8Array {
  return read(join(SHARED_MODELS, rel));
}

/** The 17 header int32s, read here independently of the parser. */
export function headerOf(bytes: Uint8Array) {
  const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const i = (k: number) => d.getInt32(4 * k, true);
  return {
    ident: i(0), version: i(1), skinWidth: i(2), skinHeight: i(3), frameSize: i(4),
    numSkins: i(5), numXyz: i(6), numSt: i(7), numTris: i(8), numGlcmds: i(9), numFrames: i(10),
    ofsSkins: i(11), ofsSt: i(12), ofsTris: i(13), ofsFrames: i(14), ofsGlcmds: i(15), ofsEnd: i(16),
  };
}

/** A copy of `bytes` with int32 `value` written at `offset`. */
export function withInt32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setInt32(offset, value, true);
  return out;
}

export function withFloat32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setFloat32(offset, value, true);
  return out;
}

export function withInt16(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setInt16(offset, value, true);
  return out;
}

export function fromChunks(chunks: readonly Uint8Array[]): Md2Model {
  const p = new Md2Parser();
  for (const c of chunks) p.write(c);
  return p.end();
}

export async function catchParseAsync(p: Promise<unknown>): Promise<ModelParseError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw new Error(`expected ModelParseError, got ${String(e)}`);
  }
  throw new Error('expected ModelParseError, nothing thrown');
}

/** Sum of the byteLengths of every typed array reachable from `x` (the model's memory, strings aside). */
export function typedBytes(x: unknown): number {
  if (ArrayBuffer.isView(x)) return x.byteLength;
  if (Array.isArray(x)) return x.reduce((s: number, v) => s + typedBytes(v), 0);
  if (x !== null && typeof x === 'object') return Object.values(x).reduce((s: number, v) => s + typedBytes(v), 0);
  return 0;
}
