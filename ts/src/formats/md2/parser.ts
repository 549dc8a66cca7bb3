/**
 * MD2 entry points over bytes: `parseMd2` for one buffer, `Md2Parser` for chunks as they arrive (what
 * `parseMd2Stream` drives). Offsets may point backwards, so a streamed file is buffered — but only after its
 * header has been validated, and only up to the `ofs_end` it declares. ofs_end is bounded by nothing but its int32
 * field (Quake 2's 2 MiB model hunk is a warning, docs/limits.md), so the buffer grows by doubling as bytes actually
 * arrive: a short input that declares a large ofs_end costs what it sent, not what it claimed. Bytes after
 * `ofs_end` are counted, not kept (TRAILING_BYTES).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { Md2Model } from '../../base/model.js';
import type { ChunkParser } from '../../base/source.js';
import { readMd2Body } from './body.js';
import { checkIdentity, readMd2Header, type Md2Header } from './header.js';
import { MD2_HEADER_BYTES } from './limits.js';

function truncated(what: string, at: number): ModelParseError {
  return new ModelParseError(ErrorCode.Truncated, `input ended at byte ${at}, inside ${what}`, { offset: at });
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One whole file in memory. The input is only read (never kept: the model owns copies). */
export function parseMd2(input: Uint8Array | ArrayBuffer): Md2Model {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const view = viewOf(bytes);
  checkIdentity(view, bytes.length);
  if (bytes.length < MD2_HEADER_BYTES) throw truncated(`the ${MD2_HEADER_BYTES}-byte header`, bytes.length);
  const header = readMd2Header(view);
  if (bytes.length < header.endOffset) throw truncated(`the file (ofs_end is ${header.endOffset})`, bytes.length);
  return readMd2Body(bytes, header, bytes.length - header.endOffset);
}

/** First capacity of a streamed file's buffer (it doubles up to ofs_end as bytes arrive). */
const INITIAL_BUFFER_BYTES = 64 * 1024;

/** Push parser: `write` chunks of any size (split anywhere), then `end`. */
export class Md2Parser implements ChunkParser<Md2Model> {
  private readonly head = new Uint8Array(MD2_HEADER_BYTES);
  private header: Md2Header | null = null;
  /** The file's first bytes, up to ofs_end; allocated once the header is valid, grown as bytes arrive. */
  private body: Uint8Array | null = null;
  /** Bytes of `head` (before the header is read) or `body` (after) filled so far. */
  private filled = 0;
  /** Every byte written, including those past ofs_end. */
  private received = 0;
  private finished = false;

  write(chunk: Uint8Array): void {
    if (this.finished) throw new Error('Md2Parser: already ended');
    let at = 0;
    if (!this.header) {
      at = Math.min(MD2_HEADER_BYTES - this.filled, chunk.length);
      this.head.set(chunk.subarray(0, at), this.filled);
      this.filled += at;
      checkIdentity(viewOf(this.head), this.filled);
      if (this.filled === MD2_HEADER_BYTES) {
        this.header = readMd2Header(viewOf(this.head));
        this.body = new Uint8Array(Math.min(this.header.endOffset, INITIAL_BUFFER_BYTES));
        this.body.set(this.head);
      }
    }
    if (this.header && at < chunk.length) {
      const take = Math.min(chunk.length - at, this.header.endOffset - this.filled);
      if (take > 0) {
        this.reserve(this.filled + take);
        this.body!.set(chunk.subarray(at, at + take), this.filled);
        this.filled += take;
      }
    }
    this.received += chunk.length;
  }

  /** Grows `body` (doubling, capped at ofs_end) to hold `bytes`. */
  private reserve(bytes: number): void {
    const body = this.body!;
    if (bytes <= body.length) return;
    let cap = body.length;
    while (cap < bytes) cap *= 2;
    const grown = new Uint8Array(Math.min(cap, this.header!.endOffset));
    grown.set(body.subarray(0, this.filled));
    this.body = grown;
  }

  end(): Md2Model {
    if (this.finished) throw new Error('Md2Parser: already ended');
    this.finished = true;
    if (!this.header || !this.body) throw truncated(`the ${MD2_HEADER_BYTES}-byte header`, this.filled);
    if (this.filled < this.header.endOffset) throw truncated(`the file (ofs_end is ${this.header.endOffset})`, this.filled);
    const model = readMd2Body(this.body, this.header, this.received - this.header.endOffset);
    this.body = null;
    return model;
  }
}
