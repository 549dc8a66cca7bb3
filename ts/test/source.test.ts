/** Every documented byte source gives the same model as one Uint8Array; abort and bad sources are typed errors. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../src/base/errors.js';
import { parseMd5Anim, parseMd5Mesh } from '../src/formats/md5/index.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../src/formats/md5/stream.js';
import { fileChunks } from '../src/node.js';
import { loadMd5Anim, loadMd5Mesh } from '../src/formats/md5/node.js';
import { type ByteSource } from '../src/base/source.js';
import { read, SHARED_MODELS } from './helpers/models.js';
import { chunked, instrumentedStream, readableOf as stream } from './helpers/chunks.js';

const meshPath = `${SHARED_MODELS}/res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh`;
const animPath = `${SHARED_MODELS}/actors/drone/forward.md5anim`;
const meshBytes = read(meshPath);
const animBytes = read(animPath);
const wholeMesh = parseMd5Mesh(meshBytes);
const wholeAnim = parseMd5Anim(animBytes);

describe('byte sources', () => {
  const sources: [string, () => ByteSource][] = [
    ['Uint8Array', () => meshBytes],
    ['ArrayBuffer', () => meshBytes.slice().buffer],
    ['string', () => new TextDecoder('latin1').decode(meshBytes)],
    ['ReadableStream of 1000-byte chunks', () => stream(meshBytes, 1000)],
    ['async iterable of 7-byte chunks', () => (async function* () { yield* chunked(meshBytes, 7); })()],
    ['Node Readable', () => Readable.from(chunked(meshBytes, 4096))],
    ['fetch Response', () => new Response(stream(meshBytes, 65536))],
    ['file chunks (Node path)', () => fileChunks(meshPath, 3000)],
  ];
  for (const [name, make] of sources) {
    it(`${name} gives the same md5mesh as one buffer`, async () => {
      expect(await parseMd5MeshStream(make())).toEqual(wholeMesh);
    });
  }

  it('loadMd5Mesh / loadMd5Anim read paths', async () => {
    expect(await loadMd5Mesh(meshPath)).toEqual(wholeMesh);
    expect(await loadMd5Anim(animPath)).toEqual(wholeAnim);
  });

  it('progress is reported per chunk with the running byte count', async () => {
    const seen: number[] = [];
    await parseMd5AnimStream(chunked(animBytes, 5000), { onProgress: (n) => seen.push(n) });
    expect(seen.at(-1)).toBe(animBytes.length);
    expect(seen.length).toBe(Math.ceil(animBytes.length / 5000));
  });

  it('an aborted read rejects with ABORTED at the bytes read so far and cancels the stream', async () => {
    const ac = new AbortController();
    const { stream: rs, log } = instrumentedStream(animBytes, 1000);
    // The consumer aborts after it has taken 3000 bytes.
    const onProgress = (n: number) => n === 3000 && ac.abort();
    const err = await parseMd5AnimStream(rs, { signal: ac.signal, onProgress }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelParseError);
    expect(err.code).toBe(ErrorCode.Aborted);
    expect(err.offset).toBe(3000);
    expect(log.cancelled).toBe(true);
  });

  it('a stream that ends early is TRUNCATED with the line:column where it ended', async () => {
    const cut = animBytes.subarray(0, 5000);
    const err = await parseMd5AnimStream(stream(cut, 999)).catch((e) => e);
    expect(err).toBeInstanceOf(ModelParseError);
    expect(['TRUNCATED', 'BAD_COUNT']).toContain(err.code);
    expect(err.offset).toBe(5000);
    const text = new TextDecoder().decode(cut);
    expect(err.line).toBe(text.split('\n').length);
  });

  it('a source that is not bytes is BAD_SOURCE', async () => {
    const err = await parseMd5MeshStream(42 as unknown as ByteSource).catch((e) => e);
    expect(err).toBeInstanceOf(ModelParseError);
    expect(err.code).toBe(ErrorCode.BadSource);
    const err2 = await parseMd5MeshStream([{}] as unknown as ByteSource).catch((e) => e);
    expect(err2.code).toBe(ErrorCode.BadSource);
  });
});
