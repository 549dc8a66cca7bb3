/**
 * MDL entry points over bytes: `parseMdl` for one buffer, `MdlParser` for chunks as they arrive (what
 * `parseMdlStream` drives). The header is validated first; then the bytes are buffered as they arrive (the buffer
 * doubling, so a short input that declares much costs what it sent) while the layout walk (layout.ts) places each
 * record once its bytes are there. Once the last frame is in, later bytes are counted, not kept — the engines never
 * read past the frames — and only their first four (a `QMEX` tag) are looked at.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { MdlModel } from '../../base/model.js';
import type { ChunkParser } from '../../base/source.js';
import { readMdlBody } from './body.js';
import { checkMdlIdentity, readMdlHeader, type MdlHeader } from './header.js';
import { MdlLayout } from './layout.js';
import { RAPO_HEADER_BYTES } from './limits.js';

function truncated(what: string, at: number): ModelParseError {
  return new ModelParseError(ErrorCode.Truncated, `input ended at byte ${at}, inside ${what}`, { offset: at });
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One whole file in memory. The input is only read (the model owns copies). */
export function parseMdl(input: Uint8Array | ArrayBuffer): MdlModel {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const headerBytes = checkMdlIdentity(viewOf(bytes), bytes.length);
  if (headerBytes === 0 || bytes.length < headerBytes) throw truncated(`the ${headerBytes || 84}-byte header`, bytes.length);
  const header = readMdlHeader(viewOf(bytes));
  const layout = new MdlLayout(header);
  if (!layout.advance(bytes, bytes.length)) throw truncated(layout.whereIs(bytes.length), bytes.length);
  return readMdlBody(bytes, header, layout, bytes.length - layout.end, bytes.subarray(layout.end, layout.end + 4));
}

/** First capacity of a streamed file's buffer. */
const INITIAL_BUFFER_BYTES = 64 * 1024;

/** Push parser: `write` chunks of any size (split anywhere), then `end`. */
export class MdlParser implements ChunkParser<MdlModel> {
  private readonly head = new Uint8Array(RAPO_HEADER_BYTES);
  private headerBytes = 0;
  private header: MdlHeader | null = null;
  private layout: MdlLayout | null = null;
  /** The file's bytes up to the end of the last frame, grown as they arrive. */
  private body: Uint8Array | null = null;
  private filled = 0;
  /** Every byte written, including those past the frames. */
  private received = 0;
  /** The first bytes past the frames (their tag). */
  private readonly tail = new Uint8Array(4);
  private tailFilled = 0;
  private finished = false;

  write(chunk: Uint8Array): void {
    if (this.finished) throw new Error('MdlParser: already ended');
    let at = 0;
    // The header: its first 8 bytes say which variant (and so its size), then the rest of it.
    while (!this.header && at < chunk.length) {
      const n = Math.min((this.headerBytes || 8) - this.filled, chunk.length - at);
      this.head.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      this.headerBytes = checkMdlIdentity(viewOf(this.head), this.filled);
      if (this.filled === this.headerBytes) {
        this.header = readMdlHeader(viewOf(this.head));
        this.layout = new MdlLayout(this.header);
        this.body = new Uint8Array(INITIAL_BUFFER_BYTES);
        this.body.set(this.head.subarray(0, this.headerBytes));
      }
    }
    if (this.header && at < chunk.length) this.take(chunk.subarray(at));
    this.received += chunk.length;
  }

  /** Bytes after the header: kept until the layout is complete, then only the tag's four are. */
  private take(bytes: Uint8Array): void {
    const layout = this.layout!;
    let rest = bytes;
    if (!layout.done) {
      this.reserve(this.filled + rest.length);
      this.body!.set(rest, this.filled);
      this.filled += rest.length;
      rest = rest.subarray(rest.length);
      if (layout.advance(this.body!, this.filled) && this.filled > layout.end) {
        // Bytes of this chunk past the frames: the trailing block's start.
        rest = this.body!.subarray(layout.end, this.filled);
        this.filled = layout.end;
      }
    }
    if (layout.done && rest.length > 0 && this.tailFilled < 4) {
      const n = Math.min(4 - this.tailFilled, rest.length);
      this.tail.set(rest.subarray(0, n), this.tailFilled);
      this.tailFilled += n;
    }
  }

  /** Grows `body` (doubling) to hold `bytes`. */
  private reserve(bytes: number): void {
    const body = this.body!;
    if (bytes <= body.length) return;
    let cap = body.length;
    while (cap < bytes) cap *= 2;
    const grown = new Uint8Array(cap);
    grown.set(body.subarray(0, this.filled));
    this.body = grown;
  }

  end(): MdlModel {
    if (this.finished) throw new Error('MdlParser: already ended');
    this.finished = true;
    if (!this.header || !this.layout || !this.body) throw truncated(`the ${this.headerBytes || 84}-byte header`, this.filled);
    const layout = this.layout;
    if (!layout.done) throw truncated(layout.whereIs(this.filled), this.filled);
    const model = readMdlBody(this.body, this.header, layout, this.received - layout.end, this.tail.subarray(0, this.tailFilled));
    this.body = null;
    return model;
  }
}
