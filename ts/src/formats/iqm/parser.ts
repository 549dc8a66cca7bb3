/**
 * IQM parsing from one buffer (`parseIqm`) or pushed chunks (`IqmParser`, driven by `parseIqmStream`).
 *
 * IQM is offset-driven (every block placed by a header offset, in any order), so the push parser keeps the bytes —
 * but only up to the header's `filesize`; the buffer grows by doubling as bytes actually arrive, never to the
 * declared size up front, so a short file claiming a huge filesize costs what it sent. The header is checked as its
 * bytes come in (magic at 16 bytes, version at 20), so a wrong file fails on its first chunk. Bytes past filesize are
 * counted, not kept (TRAILING_BYTES warning).
 */
import { ErrorCode } from '../../base/errors.js';
import type { IqmModel } from '../../base/model.js';
import type { ChunkParser } from '../../base/source.js';
import { decodeIqm } from './decode.js';
import { checkIqmHeaderPrefix, fail, readIqmHeader, type IqmHeader } from './header.js';
import { HEADER_BYTES } from './layout.js';

const INITIAL_CAPACITY = 64 * 1024;

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseIqm(input: Uint8Array | ArrayBuffer): IqmModel {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const header = readIqmHeader(bytes, bytes.length);
  if (bytes.length < header.filesize) fail(ErrorCode.Truncated, `input ended before filesize ${header.filesize}`, bytes.length);
  return decodeIqm(bytes, header, bytes.length);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class IqmParser implements ChunkParser<IqmModel> {
  private buf = new Uint8Array(HEADER_BYTES);
  /** Bytes kept in `buf` (never past filesize). */
  private kept = 0;
  private received = 0;
  private header: IqmHeader | null = null;
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
        if (this.kept < HEADER_BYTES) {
          checkIqmHeaderPrefix(this.buf, this.kept);
          return;
        }
        this.header = readIqmHeader(this.buf, this.kept);
      }
      const rest = chunk.length - from;
      const keep = Math.min(rest, this.header.filesize - this.kept);
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

  end(): IqmModel {
    this.checkUsable();
    this.finished = true;
    try {
      const header = this.header ?? readIqmHeader(this.buf, this.kept);
      if (this.kept < header.filesize) fail(ErrorCode.Truncated, `input ended before filesize ${header.filesize}`, this.kept);
      const model = decodeIqm(this.buf.subarray(0, this.kept), header, this.received);
      this.buf = new Uint8Array(0);
      return model;
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  private reserve(need: number): void {
    if (need <= this.buf.length) return;
    const cap = Math.min(this.header!.filesize, Math.max(need, INITIAL_CAPACITY, this.buf.length * 2));
    const grown = new Uint8Array(cap);
    grown.set(this.buf.subarray(0, this.kept));
    this.buf = grown;
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error('IqmParser: already ended');
  }
}
