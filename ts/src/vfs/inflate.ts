/**
 * Inflaters: raw deflate (RFC 1951) in, inflated bytes out, both as chunk sequences consumed on demand, so a member
 * is never whole in memory. Three exist (docs/archives.md measures them): `fflateInflater` (pure JS, every
 * platform), `streamInflater` (the platform's `DecompressionStream('deflate-raw')`: native in browsers and Node ≥
 * 20) and, in Node only, `zlibInflater` (vfs/node-zlib.ts). Their errors are turned into BAD_DEFLATE by the member
 * reader, which also checks every byte they produce (zip-member.ts), so an inflater needs no checks of its own.
 */
import { Inflate } from 'fflate';

export interface Inflater {
  readonly name: string;
  inflate(deflated: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncIterable<Uint8Array>;
}

/**
 * fflate's streaming `Inflate` is synchronous: one push inflates everything its input allows, up to 1032 bytes per
 * byte (deflate's ceiling), into buffers it grows by doubling. Pushing at most 4 KiB at a time keeps what one push
 * can make under 4.2 MB before the member reader sees it and can stop a bomb. Measured on rifle_view_idle.md5anim
 * (Node): 246 MB/s with 4 KiB pushes, 279 with 16 KiB — but 16 KiB pushes let a 256 MiB bomb's garbage peak at
 * 124 MiB of ArrayBuffers before the GC caught up.
 */
export const FFLATE_PUSH_BYTES = 4 * 1024;

export const fflateInflater: Inflater = {
  name: 'fflate',
  async *inflate(deflated) {
    const out: Uint8Array[] = [];
    const inflater = new Inflate((data) => {
      if (data.length) out.push(data);
    });
    for await (const chunk of deflated) {
      for (let i = 0; i < chunk.length; i += FFLATE_PUSH_BYTES) {
        inflater.push(chunk.subarray(i, i + FFLATE_PUSH_BYTES));
        while (out.length) yield out.shift()!;
      }
    }
    inflater.push(new Uint8Array(0), true);
    while (out.length) yield out.shift()!;
  },
};

/** Whether this platform's DecompressionStream knows 'deflate-raw' (Chromium 103+, Firefox 113+, Safari 16.4+, Node 20). */
export function hasDeflateRawStream(): boolean {
  if (typeof DecompressionStream !== 'function') return false;
  try {
    new DecompressionStream('deflate-raw' as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

/** The platform's native inflater through the Compression Streams API; pulls its input only as output is read. */
export const streamInflater: Inflater = {
  name: 'DecompressionStream',
  async *inflate(deflated) {
    const source = deflated[Symbol.asyncIterator]();
    const input = new ReadableStream<BufferSource>(
      {
        async pull(controller) {
          const r = await source.next();
          if (r.done) controller.close();
          else controller.enqueue(r.value as Uint8Array<ArrayBuffer>);
        },
        async cancel() {
          await source.return?.();
        },
      },
      { highWaterMark: 0 },
    );
    const reader = input.pipeThrough(new DecompressionStream('deflate-raw' as CompressionFormat)).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  },
};

/** The platform-neutral default (see docs/archives.md for the measurements behind it). */
export function defaultInflater(): Inflater {
  return hasDeflateRawStream() ? streamInflater : fflateInflater;
}
