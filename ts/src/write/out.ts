/**
 * What the binary writers (MD2, MD3) share: a little-endian byte buffer of known size, fixed-size Latin-1 name
 * fields, and the one error they throw (UNWRITABLE, naming the element and where in the output it would go).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';

export function unwritable(detail: string, offset = 0): never {
  throw new ModelParseError(ErrorCode.Unwritable, detail, { offset });
}

/** A typed array must hold at least `want` elements (a model whose arrays are shorter than its counts). */
export function need(what: string, array: ArrayLike<number>, want: number): void {
  if (array.length < want) unwritable(`${what} holds ${array.length} values, the counts need ${want}`);
}

export class ByteOut {
  readonly bytes: Uint8Array;
  readonly view: DataView;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  i32(at: number, v: number): void {
    this.view.setInt32(at, v, true);
  }

  f32(at: number, v: number): void {
    this.view.setFloat32(at, v, true);
  }

  i16(at: number, v: number): void {
    this.view.setInt16(at, v, true);
  }

  /**
   * `text` as Latin-1 into the `size`-byte field at `at`, NUL-padded. A name of exactly `size` bytes has no NUL
   * (the readers take the whole field then); longer, or a character above U+00FF, is UNWRITABLE.
   */
  name(at: number, size: number, text: string, what: string): void {
    if (text.length > size) unwritable(`${what} ${JSON.stringify(text)} is ${text.length} bytes, the field holds ${size}`, at);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0xff || c === 0) unwritable(`${what} ${JSON.stringify(text)} has a character Latin-1 cannot hold (U+${c.toString(16).padStart(4, '0')})`, at);
      this.bytes[at + i] = c;
    }
  }
}
