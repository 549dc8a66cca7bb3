/**
 * One typed error for every parser and kernel entry point.
 *
 * Every malformed input maps to exactly one {@link ErrorCode}. Text formats (MD5) report a 1-based
 * `line`:`column` as well as the byte `offset`; binary formats report the byte `offset` only.
 * Nothing else is ever thrown for bad input: a different exception type escaping a parser is a bug.
 */

/** The documented list of error codes (docs/errors.md explains each). */
export const ErrorCode = {
  /** The input ended before the structure was complete (includes a zero-byte file). */
  Truncated: 'TRUNCATED',
  /** `MD5Version` missing or not 10; an MD2 version other than 8 or an MD3 version other than 15. */
  BadVersion: 'BAD_VERSION',
  /**
   * A file no format here reads (no known extension and no known first bytes), one recognised only to be refused
   * (a Doom 3 camera path), or files that do not make one model (an md5anim without its md5mesh, two models at once).
   */
  UnknownFormat: 'UNKNOWN_FORMAT',
  /** A binary file whose first four bytes are not its format's magic (`IDP2`, `IDP3`). */
  BadMagic: 'BAD_MAGIC',
  /** A binary offset or extent outside the file (or outside its declared end), or ranges that overlap where they may not. */
  BadOffset: 'BAD_OFFSET',
  /** A token of the wrong kind where the grammar wanted another (e.g. a word where a number goes). */
  UnexpectedToken: 'UNEXPECTED_TOKEN',
  /** A byte that cannot start any token (e.g. a control byte, a lone `/`). */
  BadCharacter: 'BAD_CHARACTER',
  /** A quoted string that reaches end of line or end of file. */
  UnterminatedString: 'UNTERMINATED_STRING',
  /** A token longer than the tokenizer's bound (protects memory). */
  TokenTooLong: 'TOKEN_TOO_LONG',
  /** A number that does not parse, or is NaN/Infinity, or an integer where a float is not allowed. */
  BadNumber: 'BAD_NUMBER',
  /** A declared count above its limit, negative, or inconsistent with what follows. */
  BadCount: 'BAD_COUNT',
  /** `vert N`, `tri N`, `weight N` or `frame N` where N is not the element's position. */
  BadIndexMarker: 'BAD_INDEX_MARKER',
  /** An index that points outside its target: weight → joint, triangle → vertex, vertex → weight range, parent. */
  IndexOutOfRange: 'INDEX_OUT_OF_RANGE',
  /** A block that is required but missing, or present twice. */
  MissingBlock: 'MISSING_BLOCK',
  DuplicateBlock: 'DUPLICATE_BLOCK',
  /** An md5anim whose joints (names and parents) do not match the md5mesh it is played on. */
  AnimMeshMismatch: 'ANIM_MESH_MISMATCH',
  /** The caller's AbortSignal fired. */
  Aborted: 'ABORTED',
  /** A source value of a type we cannot read bytes from. */
  BadSource: 'BAD_SOURCE',
  /** Bytes that could not be read: an HTTP error status, a file that changed size or vanished while being read. */
  ReadFailed: 'READ_FAILED',
  // --- archives (.pk3 .pk4 .dpk: zip), docs/archives.md ---
  /** No zip end-of-central-directory record in the last 65,557 bytes: not a zip archive. */
  NotAnArchive: 'NOT_AN_ARCHIVE',
  /** A member stored with a method other than stored (0) or deflate (8), or encrypted. */
  UnsupportedMethod: 'UNSUPPORTED_METHOD',
  /** A deflated member whose bytes are not a valid deflate stream (or end inside one). */
  BadDeflate: 'BAD_DEFLATE',
  /** A member whose bytes do not have the CRC-32 its directory entry declares. */
  CrcMismatch: 'CRC_MISMATCH',
  /** A member that inflates to more or fewer bytes than its directory entry declares. */
  SizeMismatch: 'SIZE_MISMATCH',
  /** A member or an archive over a cap of `ArchiveLimits` (ratio, member size, total inflated bytes, entries). */
  InflateLimit: 'INFLATE_LIMIT',
  /**
   * Input the format allows but over a resource bound the caller can raise (`ResourceLimits`, docs/security.md):
   * decoded image pixels, a script file's bytes, glTF nodes and node depth, a glTF's file. The detail names the
   * file or element, the limit and how to raise it.
   */
  ResourceLimit: 'RESOURCE_LIMIT',
  /**
   * `convert --all`: a model not converted within the batch's time budget for one model (`--model-timeout`); its
   * worker was stopped. The detail names the budget and how to raise it.
   */
  Timeout: 'TIMEOUT',
  /** Two members whose bytes overlap, or a member overlapping the central directory (the overlapping zip bomb). */
  OverlappingEntries: 'OVERLAPPING_ENTRIES',
  /** A path that would leave its folder: `..`, absolute, a drive letter, a device name, a NUL or a colon. */
  UnsafePath: 'UNSAFE_PATH',
  /**
   * A well-formed file of a variant the library does not read: an image type, pixel depth, plane count or
   * compression outside what docs/images.md lists (TGA type 32, a 4-bit PCX, an RLE-compressed BMP, a PNG colour
   * type / bit depth pair the PNG standard does not define).
   */
  Unsupported: 'UNSUPPORTED',
  /**
   * A writer (`idtech-models/write`) given data its target format cannot hold: a name too long for its fixed field
   * or holding a character the field cannot encode, a count or a value past the file layout's own range, arrays
   * shorter than their counts. The detail names the element; the offset is where in the output it would go.
   */
  Unwritable: 'UNWRITABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorPosition {
  /** Byte offset from the start of the input (0-based). */
  offset: number;
  /** 1-based line, for text formats. */
  line?: number;
  /** 1-based column in bytes, for text formats. */
  column?: number;
  /**
   * Where, in words, when the fault is not at a place in one input (`joint 61 of walk.md5anim`: an anim against the
   * mesh it is played on); the message says this instead of the byte offset.
   */
  where?: string;
}

export class ModelParseError extends Error {
  override readonly name = 'ModelParseError';
  readonly code: ErrorCode;
  readonly offset: number;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** The message without the position suffix. */
  readonly detail: string;
  /**
   * The file it came from (`pak0.pk3:models/x.md3`, a path, a URL), set where the file was opened (the model-set
   * loader, the Node loaders); undefined for bytes handed straight to a parser. `message` then starts with it.
   */
  file: string | undefined;
  /** A second file the failure concerns (the md5mesh an md5anim was checked against), for messages. */
  pairedWith: string | undefined;

  constructor(code: ErrorCode, detail: string, position: ErrorPosition) {
    const where =
      position.where !== undefined
        ? position.where
        : position.line !== undefined
          ? `line ${position.line}:${position.column ?? 0} (byte ${position.offset})`
          : `byte ${position.offset}`;
    super(`${code}: ${detail} at ${where}`);
    this.code = code;
    this.detail = detail;
    this.offset = position.offset;
    this.line = position.line;
    this.column = position.column;
    this.file = undefined;
    this.pairedWith = undefined;
    // the class's own name where a minifier renamed it (Node prints an uncaught error as `constructor.name [name]`:
    // `t [ModelParseError]` in the shipped build); set on first use, not at load (no top-level work: tree-shaking.test.ts)
    if (ModelParseError.name !== 'ModelParseError') Object.defineProperty(ModelParseError, 'name', { value: 'ModelParseError' });
  }

  /** Names the file the error came from, once (the innermost opener knows best); returns the error. */
  inFile(file: string, pairedWith?: string): this {
    if (this.file === undefined) {
      this.file = file;
      this.message = `${file}: ${this.message}`;
    }
    if (pairedWith !== undefined) this.pairedWith ??= pairedWith;
    return this;
  }
}

/** Runs `read`, naming `file` on any ModelParseError it throws (see `ModelParseError.file`). */
export async function readingFile<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof ModelParseError) e.inFile(file);
    throw e;
  }
}

/** A recoverable oddity: reported, never thrown. */
export interface ParseWarning {
  code: string;
  message: string;
  offset: number;
  line?: number;
  column?: number;
}
