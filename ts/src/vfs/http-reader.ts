/**
 * A file at a URL read with HTTP Range requests (RFC 9110 §14): an archive on a web server is listed and its
 * members streamed without downloading the rest. The first request asks for the file's last bytes (a suffix
 * range, where a zip keeps its directory) and learns the size from `Content-Range`; a server that ignores Range
 * answers 200 with the whole file, which is then kept and read from memory (one full GET, no second request).
 * Later requests carry `If-Range` with the first response's validator, so a file replaced on the server between
 * two reads is noticed (READ_FAILED) instead of mixing bytes of two versions. Cross-origin servers must expose
 * `Content-Range` (Access-Control-Expose-Headers) for the size to be known.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { abortedError, bytesReader, checkRange, type RandomAccessReader } from './reader.js';

export interface UrlReaderOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Extra request headers (authorisation, …). */
  headers?: Record<string, string>;
  /** How many bytes the first (suffix) request asks for: enough for a zip's end records. */
  tailBytes?: number;
  signal?: AbortSignal;
}

/** A zip's end record (22 bytes) with the longest comment (65,535), the zip64 locator (20) and record (56). */
export const DEFAULT_TAIL_BYTES = 22 + 0xffff + 20 + 56;

function failed(url: string, what: string, offset = 0): ModelParseError {
  return new ModelParseError(ErrorCode.ReadFailed, `${url}: ${what}`, { offset });
}

/** `bytes a-b/total` → numbers, or null. */
function contentRange(value: string | null): { start: number; end: number; total: number } | null {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+)\s*$/i.exec(value ?? '');
  return m ? { start: Number(m[1]), end: Number(m[2]), total: Number(m[3]) } : null;
}

async function wholeBody(res: Response, url: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    throw failed(url, `reading the body failed: ${(e as Error).message}`);
  }
}

/**
 * Opens `url` for random access. Resolves once the size is known (after the first request); the bytes of that
 * first answer are kept, so reading the zip end records costs no second request.
 */
export async function urlReader(url: string | URL, options: UrlReaderOptions = {}): Promise<RandomAccessReader> {
  const href = String(url);
  const doFetch = options.fetch ?? fetch;
  const tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
  const request = async (range: string, signal?: AbortSignal, validator?: string | null) => {
    if (signal?.aborted) throw abortedError(0);
    const headers: Record<string, string> = { ...options.headers, Range: range };
    if (validator) headers['If-Range'] = validator;
    try {
      return await doFetch(href, { headers, signal });
    } catch (e) {
      if (signal?.aborted) throw abortedError(0);
      throw failed(href, `request failed: ${(e as Error).message ?? e}`);
    }
  };

  const first = await request(`bytes=-${tailBytes}`, options.signal);
  if (first.status === 416) {
    // Nothing to take a suffix of: an empty file.
    await first.body?.cancel();
    return bytesReader(new Uint8Array(0), href);
  }
  if (first.status === 200) return bytesReader(await wholeBody(first, href), href); // Range ignored: one full GET
  if (first.status !== 206) {
    await first.body?.cancel().catch(() => {});
    throw failed(href, `HTTP ${first.status}`);
  }
  const cr = contentRange(first.headers.get('content-range'));
  if (!cr) {
    await first.body?.cancel().catch(() => {});
    throw failed(href, 'a 206 answer without a readable Content-Range (cross-origin servers must expose it)');
  }
  const size = cr.total;
  const tail = await wholeBody(first, href);
  if (tail.length !== cr.end - cr.start + 1) throw failed(href, `Content-Range says ${cr.end - cr.start + 1} bytes, the body has ${tail.length}`);
  const tailStart = cr.start;
  // A strong validator lets later requests detect a replaced file (If-Range: a changed file comes back whole, 200).
  const etag = first.headers.get('etag');
  const validator = etag && !etag.startsWith('W/') ? etag : first.headers.get('last-modified');

  /** One range request's answer, checked to be exactly [offset, offset + length) of the same file. */
  const rangeResponse = async (offset: number, length: number, signal?: AbortSignal): Promise<Response> => {
    const res = await request(`bytes=${offset}-${offset + length - 1}`, signal, validator);
    const got = contentRange(res.headers.get('content-range'));
    if (res.status !== 206 || !got || got.start !== offset || got.end !== offset + length - 1 || got.total !== size) {
      await res.body?.cancel().catch(() => {});
      const why = res.status === 200 ? 'the file changed on the server (or it stopped honouring Range)' : `HTTP ${res.status} ${res.headers.get('content-range') ?? ''}`;
      throw failed(href, `bytes ${offset}..${offset + length}: ${why}`, offset);
    }
    return res;
  };

  const read = async (offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> => {
    checkRange(href, size, offset, length);
    if (offset >= tailStart && offset + length <= tailStart + tail.length) return tail.subarray(offset - tailStart, offset - tailStart + length);
    if (length === 0) return new Uint8Array(0);
    const body = await wholeBody(await rangeResponse(offset, length, signal), href);
    if (body.length !== length) throw failed(href, `asked for ${length} bytes at ${offset}, got ${body.length}`, offset);
    return body;
  };

  async function* chunks(offset: number, length: number, chunkSize: number, signal?: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
    checkRange(href, size, offset, length);
    if (length === 0) return;
    if (offset >= tailStart) {
      // Inside the bytes the first answer brought: no request.
      for (let at = offset; at < offset + length; at += chunkSize) yield read(at, Math.min(chunkSize, offset + length - at), signal);
      return;
    }
    // One request for the whole range, its body consumed as it arrives (the network's chunks, in order).
    const res = await rangeResponse(offset, length, signal);
    if (!res.body) throw failed(href, 'a range answer without a body', offset);
    const reader = res.body.getReader();
    let got = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal?.aborted) throw abortedError(offset + got);
        if (done) break;
        got += value.length;
        if (got > length) throw failed(href, `more than the ${length} bytes asked for at ${offset}`, offset);
        yield value;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    if (got !== length) throw failed(href, `the answer ended after ${got} of ${length} bytes at ${offset}`, offset + got);
  }

  return { size, name: href, read, chunks, close: async () => {} };
}
