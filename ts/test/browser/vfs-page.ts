/**
 * Bundled by archives.test.ts (and bench/archives.mjs) for the page: the vfs floor as a browser sees it, straight
 * from ts/src (the entry points are not ours to change). Published as `window.vfsPage`.
 */
import { parseMd3Stream } from '../../src/formats/md3/stream.js';
import { fflateInflater, hasDeflateRawStream, streamInflater, type Inflater } from '../../src/vfs/inflate.js';
import { openArchiveFrom, type ZipArchive } from '../../src/vfs/zip-archive.js';
import { blobFileSystem } from '../../src/vfs/browser.js';
import { mountGameDir } from '../../src/vfs/game-dir.js';

const inflaters: Record<string, Inflater> = { fflate: fflateInflater, DecompressionStream: streamInflater };

/** Streams every member once; returns inflated bytes and per-member sizes. */
async function streamAll(a: ZipArchive): Promise<{ bytes: number; sizes: Record<string, number> }> {
  let bytes = 0;
  const sizes: Record<string, number> = {};
  for (const f of await a.list('')) {
    let n = 0;
    for await (const c of f.stream()) n += c.length;
    sizes[f.path] = n;
    bytes += n;
  }
  return { bytes, sizes };
}

export async function readByRange(url: string, md3: string) {
  const requests: string[] = [];
  const counting: typeof fetch = (input, init) => {
    requests.push(new Headers(init?.headers).get('range') ?? 'none');
    return fetch(input, init);
  };
  const a = await openArchiveFrom(new URL(url, location.href), { http: { fetch: counting }, inflater: streamInflater });
  const model = await parseMd3Stream((await a.file(md3))!.stream());
  const listed = (await a.list('')).length;
  const requestsForOneModel = requests.length;
  const all = await streamAll(a);
  return { listed, requestsForOneModel, surfaces: model.surfaces.length, frames: model.frameCount, ...all, deflateRaw: hasDeflateRawStream() };
}

export async function readFromBlob(url: string, inflater: string) {
  const blob = await (await fetch(url)).blob();
  const a = await openArchiveFrom(blob, { inflater: inflaters[inflater], name: 'dropped.pk3' });
  return streamAll(a);
}

/** A game folder as dropped Files: two paks, the later one wins. */
export async function mountDropped(urls: string[]) {
  const items = await Promise.all(urls.map(async (u) => ({ path: `baseq3/${u.split('/').pop()}`, blob: await (await fetch(u)).blob() })));
  const game = await mountGameDir(blobFileSystem(items.map((x) => ({ path: x.path.slice('baseq3/'.length), blob: x.blob }))));
  return { layers: game.layers.map((l) => l.name), files: (await game.list('', ['.md3'])).length };
}

/** Inflated MB/s of every member of the archive at `url`, per inflater: best of `rounds` passes from a Blob. */
export async function inflateSpeed(url: string, rounds: number) {
  const blob = await (await fetch(url)).blob();
  const out: Record<string, number> = {};
  for (const name of Object.keys(inflaters)) {
    let best = Infinity;
    let bytes = 0;
    for (let r = 0; r < rounds; r++) {
      const a = await openArchiveFrom(blob, { inflater: inflaters[name] });
      const t0 = performance.now();
      bytes = (await streamAll(a)).bytes;
      best = Math.min(best, performance.now() - t0);
    }
    out[name] = bytes / 1e6 / (best / 1000);
  }
  return out;
}

(window as unknown as { vfsPage: object }).vfsPage = { readByRange, readFromBlob, mountDropped, inflateSpeed };
document.body.dataset.vfs = 'ready';
