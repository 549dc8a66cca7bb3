/**
 * Archives at URLs: a local HTTP server that honours Range (and one that ignores it, and one whose file changes
 * between requests). The archive is listed and a member streamed with a few small requests; where the server ignores
 * Range, one full GET is made and nothing else; a file replaced on the server is READ_FAILED, never mixed bytes.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd3Stream } from '../../src/formats/md3/stream.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { urlFileSystem } from '../../src/vfs/browser.js';
import { mountGameDir } from '../../src/vfs/game-dir.js';
import { openArchiveFrom } from '../../src/vfs/zip-archive.js';
import { fingerprint } from '../fuzz/invariant.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';
import { join } from 'node:path';

const OVERMIND = read(join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3'));
const FILLER = Uint8Array.from({ length: 400_000 }, (_, i) => (i * 2654435761) >>> 24); // incompressible, before the model
let archive = makeZip([{ name: 'filler.bin', data: FILLER, method: 0 }, { name: 'models/overmind.md3', data: OVERMIND }]);
const requests: { url: string; range?: string; status: number; bytes: number }[] = [];

/** mode per path prefix: /range/ honours Range, /norange/ ignores it. */
function serve(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const body = req.url!.endsWith('.pk3') ? archive : req.url!.endsWith('loose.txt') ? new TextEncoder().encode('loose!') : null;
    const log = (status: number, bytes: number) => requests.push({ url: req.url!, range: req.headers.range, status, bytes });
    if (!body) {
      res.writeHead(404).end();
      return log(404, 0);
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.url!.startsWith('/range/') && m && req.method === 'GET') {
      const start = m[1] === '' ? Math.max(0, body.length - Number(m[2])) : Number(m[1]);
      const end = m[1] === '' || m[2] === '' ? body.length - 1 : Math.min(Number(m[2]), body.length - 1);
      res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${body.length}`, 'Content-Length': end - start + 1, ETag: '"v1"' });
      res.end(body.subarray(start, end + 1));
      return log(206, end - start + 1);
    }
    res.writeHead(200, { 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
    log(200, req.method === 'HEAD' ? 0 : body.length);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

let server: Server;
let base: string;
beforeAll(async () => ({ server, base } = await serve()));
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('HTTP Range', () => {
  it('lists and streams a member with 3 small requests (tail, directory from the tail, local header, member), never the filler', async () => {
    requests.length = 0;
    const a = await openArchiveFrom(new URL(`${base}/range/game.pk3`));
    expect((await a.list('')).map((f) => f.path)).toEqual(['filler.bin', 'models/overmind.md3']);
    const model = await parseMd3Stream((await a.file('models/overmind.md3'))!.stream());
    expect(fingerprint(model)).toBe(fingerprint(parseMd3(OVERMIND)));
    expect(requests.every((r) => r.status === 206)).toBe(true);
    const fetched = requests.reduce((n, r) => n + r.bytes, 0);
    // The tail answer holds the directory; then one local header and the member's compressed bytes.
    expect(requests.length).toBe(3);
    expect(fetched).toBeLessThan(archive.length - FILLER.length + 70_000);
  });

  it('falls back to one full GET where the server ignores Range', async () => {
    requests.length = 0;
    const a = await openArchiveFrom(new URL(`${base}/norange/game.pk3`));
    expect((await (await a.file('models/overmind.md3'))!.bytes()).length).toBe(OVERMIND.length);
    expect(requests.map((r) => r.status)).toEqual([200]);
  });

  it('a file replaced on the server between requests is READ_FAILED (If-Range brings the new file back whole)', async () => {
    const a = await openArchiveFrom(new URL(`${base}/range/game.pk3`));
    const old = archive;
    try {
      archive = makeZip([{ name: 'other.bin', data: FILLER.subarray(0, 1000) }]); // the server now answers another file
      await expect((await a.file('models/overmind.md3'))!.bytes()).rejects.toMatchObject({ code: 'READ_FAILED' });
    } finally {
      archive = old;
    }
  });

  it('a game folder on a web server (with an index) mounts its archives through Range requests', async () => {
    const fs = urlFileSystem(`${base}/range/`, { index: ['game.pk3', 'loose.txt'] });
    const game = await mountGameDir(fs);
    expect(game.layers.map((l) => l.name)).toEqual(['', 'game.pk3']);
    expect((await game.file('MODELS/OVERMIND.MD3'))!.size).toBe(OVERMIND.length);
    expect(new TextDecoder().decode(await (await game.file('loose.txt'))!.bytes())).toBe('loose!');
    expect(await game.file('missing.txt')).toBeNull();
  });

  it('an HTTP error is READ_FAILED', async () => {
    await expect(openArchiveFrom(new URL(`${base}/range/nothing.zip`))).rejects.toMatchObject({ code: 'READ_FAILED' });
  });
});
