/**
 * The push parser of an offset-driven binary format whose header declares where the file ends (MD3's `ofsEnd`, IQM's
 * `filesize`): its blocks may point anywhere, backwards too, so the bytes are kept — but only up to that end. The
 * buffer grows by doubling as bytes actually arrive, never to the declared size up front, so a short file claiming a
 * huge end costs what it sent. The header is checked as it comes in (`checkPrefix` on every partial header), so a
 * wrong file fails on its first chunk; bytes past the end are counted, not kept (the decoder warns about them).
 */
import type { ChunkParser } from './source.js';

export interface BufferedFormat<H, T> {
  /** For messages: `Md3Parser`. */
  readonly parserName: string;
  readonly headerBytes: number;
  /** Checks a header of which `available` bytes have arrived (throws on a wrong magic or version). */
  checkPrefix(bytes: Uint8Array, available: number): void;
  /** The whole header, validated (throws TRUNCATED when fewer than `headerBytes` are available). */
  readHeader(bytes: Uint8Array, available: number): H;
  /** Where the header says the file ends. */
  end(header: H): number;
  /** The error for input that stopped at `kept`, before the end. */
  truncated(header: H, kept: number): never;
  /** Bytes [0, end) → the model; `received` counts every byte written (past the end too). */
  decode(bytes: Uint8Array, header: H, received: number): T;
}

const INITIAL_CAPACITY = 64 * 1024;

/** One whole file in memory → model, with the same checks as the push parser. */
export function parseBuffered<H, T>(format: BufferedFormat<H, T>, input: Uint8Array | ArrayBuffer): T {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const header = format.readHeader(bytes, bytes.length);
  if (bytes.length < format.end(header)) format.truncated(header, bytes.length);
  return format.decode(bytes, header, bytes.length);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class BufferedParser<H, T> implements ChunkParser<T> {
  private buf: Uint8Array;
  /** Bytes kept in `buf` (never past the end). */
  private kept = 0;
  /** Bytes written in all. */
  private received = 0;
  private header: H | null = null;
  private finished = false;
  private failure: unknown = undefined;

  constructor(private readonly format: BufferedFormat<H, T>) {
    this.buf = new Uint8Array(format.headerBytes);
  }

  write(chunk: Uint8Array): void {
    this.checkUsable();
    try {
      const f = this.format;
      let from = 0;
      if (this.header === null) {
        from = Math.min(chunk.length, f.headerBytes - this.kept);
        this.buf.set(chunk.subarray(0, from), this.kept);
        this.kept += from;
        this.received += from;
        if (this.kept < f.headerBytes) {
          f.checkPrefix(this.buf, this.kept);
          return;
        }
        this.header = f.readHeader(this.buf, this.kept);
      }
      const rest = chunk.length - from;
      const keep = Math.min(rest, f.end(this.header) - this.kept);
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

  end(): T {
    this.checkUsable();
    this.finished = true;
    try {
      const f = this.format;
      const header = this.header ?? f.readHeader(this.buf, this.kept);
      if (this.kept < f.end(header)) f.truncated(header, this.kept);
      const model = f.decode(this.buf.subarray(0, this.kept), header, this.received);
      this.buf = new Uint8Array(0);
      return model;
    } catch (e) {
      this.failure = e;
      throw e;
    }
  }

  private reserve(need: number): void {
    if (need <= this.buf.length) return;
    const cap = Math.min(this.format.end(this.header!), Math.max(need, INITIAL_CAPACITY, this.buf.length * 2));
    const grown = new Uint8Array(cap);
    grown.set(this.buf.subarray(0, this.kept));
    this.buf = grown;
  }

  private checkUsable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.finished) throw new Error(`${this.format.parserName}: already ended`);
  }
}
