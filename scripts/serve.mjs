// A tiny static file server for the model viewer and the browser tests. URL prefixes map to folders:
//   /demo/  → dist/demo/   (the built viewer, one self-contained folder; / redirects here)
//   /dist/  → dist/        (the built package)               /fixtures/ → fixtures/
//   /models/ → ../shared/models/ (the test corpus, read in place)
// The viewer needs nothing of this server that any static host does not do: it is served here as it would be
// anywhere (docs/demo.md, "Deploying").
// Files are streamed with their Content-Length (so the page's progress bar has a total), and single byte ranges
// are honoured (archives are read member by member). Cross-origin
// isolation headers are sent so performance.now() has its fine resolution for the page's ms-per-frame timer.
//
//   node scripts/serve.mjs [--port 8080] [--host 127.0.0.1]      (npm run demo:web)
//   import { startServer } from './scripts/serve.mjs'             (tests: port 0 = any free port)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));

export const DEFAULT_MOUNTS = {
  '/demo/': join(REPO, 'dist', 'demo'),
  '/dist/': join(REPO, 'dist'),
  '/fixtures/': join(REPO, 'fixtures'),
  '/models/': resolve(REPO, '..', 'shared', 'models'),
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names under one of the mounts, or null (unknown prefix, or an escape with `..`). */
function fileFor(mounts, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  for (const [prefix, dir] of Object.entries(mounts)) {
    if (!path.startsWith(prefix)) continue;
    const root = resolve(dir);
    const file = normalize(join(root, path.slice(prefix.length)));
    if (file !== root && !file.startsWith(root + sep)) return null;
    return file;
  }
  return null;
}

/** `Range: bytes=a-b | a- | -n` → [start, end] inside a file of `size` bytes; null when absent or not one range. */
function byteRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start, end;
  if (m[1] === '') [start, end] = [Math.max(0, size - Number(m[2])), size - 1];
  else [start, end] = [Number(m[1]), m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)];
  if (start >= size || start > end) return size === 0 && m[1] === '' ? null : 'unsatisfiable';
  return [start, end];
}

/**
 * Starts serving; resolves with `{ url, port, close() }` once listening. `mounts` maps URL prefixes (ending
 * in `/`) to folders; `extra` adds more to the defaults.
 * @param {{ port?: number, host?: string, mounts?: Record<string, string>, extra?: Record<string, string> }} [options]
 */
export function startServer({ port = 8080, host = '127.0.0.1', mounts = DEFAULT_MOUNTS, extra = {} } = {}) {
  const all = { ...mounts, ...extra };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cache-Control': 'no-store' };
    if (url.pathname === '/') {
      res.writeHead(302, { ...headers, Location: '/demo/' });
      res.end();
      return;
    }
    let file = fileFor(all, url.pathname);
    try {
      if (!file) throw Object.assign(new Error('not found'), { code: 'ENOENT' });
      let info = await stat(file);
      if (info.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          res.writeHead(301, { ...headers, Location: `${url.pathname}/` });
          res.end();
          return;
        }
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      // One byte range (RFC 9110 §14): archives are listed and read member by member without a full download.
      const range = byteRange(req.headers.range, info.size);
      if (range === 'unsatisfiable') {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${info.size}` });
        return void res.end();
      }
      const [start, end] = range ?? [0, info.size - 1];
      res.writeHead(range ? 206 : 200, {
        ...headers,
        'Content-Type': type,
        'Content-Length': end - start + 1,
        'Accept-Ranges': 'bytes',
        'Last-Modified': info.mtime.toUTCString(),
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${info.size}` } : {}),
      });
      if (req.method === 'HEAD' || end < start) return void res.end();
      createReadStream(file, { start, end }).on('error', () => res.destroy()).pipe(res);
    } catch {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`not found: ${url.pathname}\n`);
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolvePromise({
        port: actual,
        url: `http://${host}:${actual}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const { url } = await startServer({ port: Number(arg('--port', process.env.PORT ?? 8080)), host: arg('--host', '127.0.0.1') });
  console.log(`idtech-models viewer: ${url}/demo/  (Ctrl-C stops)`);
}
