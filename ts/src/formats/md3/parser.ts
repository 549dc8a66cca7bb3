/**
 * MD3 parsing from one buffer (`parseMd3`) or pushed chunks (`Md3Parser`, driven by `parseMd3Stream`).
 *
 * MD3 is offset-driven and its offsets may point backwards, so the push parser keeps the bytes — but only up to
 * the header's `ofsEnd` (bounded by nothing but its int32 field, as in ioquake3); the buffer grows by doubling as
 * bytes actually arrive, never to the declared size up front, so a short file claiming a huge `ofsEnd` costs what
 * it sent. The header is validated as soon as its 108 bytes are in, so a wrong file fails on its first
 * chunk. Bytes past `ofsEnd` are counted, not kept (TRAILING_BYTES warning).
 */
import { ErrorCode } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import type { ChunkParser } from '../../base/source.js';
import { decodeMd3 } from './decode.js';
import { HEADER_BYTES } from './layout.js';
import { checkMd3HeaderPrefix, fail, readMd3Header, type Md3Header } from './header.js';

/** First buffer capacity once the header is known (grows by doubling, capped at ofsEnd). */
const INITIAL_CAPACITY = 64 * 1024;

function asBytes(input: Uint8Array | ArrayBuffer): Uint8Array {
  return input instanceof Uint8Array ? input : new Uint8Array(input);
}

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseMd3(input: Uint8Array | ArrayBuffer): Md3Model {
  const bytes = asBytes(input);
  const header = readMd3Header(bytes, bytes.length);
  if (bytes.length < header.ofsEnd) fail(ErrorCode.Truncated, `input ended before ofsEnd ${header.ofsEnd}`, bytes.length);
  return decodeMd3(bytes, header, bytes.length);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class Md3Parser implements ChunkParser<Md3Model> {
  private buf = new Uint8Array(HEADER_BYTES);
  /** Bytes kept in `buf` (never past ofsEnd). */
  private kept = 0;
  /** Bytes written in all. */
  private received = 0;
  private header: Md3Header | null = null;
  private finished = false;
  private failure: unknown = undefined;

  write(chunk: Uint8Array): void {
    this.checkUsable();
    try {
      let from = 0;
      if (this.header === null) {
        from = Math.min(chunk.length, HEADER_BYTES - this.kept);
        this.buf.set(chunk.subarray(0, from), this.kept);
        this.kept += from;
        this.received += from;
        // Checks what has arrived so far (magic after 4 bytes, version after 8), the whole header at 108.
        if (this.kept < HEADER_BYTES) {
          checkMd3HeaderPrefix(this.buf, this.kept);
          return;
        }
        this.header = readMd3Header(this.buf, this.kept);
      }
      const rest = chunk.length - from;
      const keep = Math.min(rest, this.header.ofsEnd - this.kept);
      if (keep > 0) {
        this.reserve(this.kept + keep);
        this.buf.set(chunk.subarray(from, from + keep), this.kept);
        this.kept += keep;
      }
      this.received += rest;
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  end(): Md3Model {
    this.checkUsable();
    this.finished = true;
    try {
      const header = this.header ?? readMd3Header(this.buf, this.kept);
      if (this.kept < header.ofsEnd) fail(ErrorCode.Truncated, `input ended before ofsEnd ${header.ofsEnd}`, this.kept);
      const model = decodeMd3(this.buf.subarray(0, this.kept), header, this.received);
      this.buf = new Uint8Array(0);
      return model;
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  private reserve(need: number): void {
    if (need <= this.buf.length) return;
    const cap = Math.min(this.header!.ofsEnd, Math.max(need, INITIAL_CAPACITY, this.buf.length * 2));
    const grown = new Uint8Array(cap);
    grown.set(this.buf.subarray(0, this.kept));
    this.buf = grown;
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error('Md3Parser: already ended');
  }
}
