/**
 * The contract between a document that names other files (a `.gltf`'s buffers and images) and whoever can read
 * them: the document's reader (import/gltf-resources.ts) checks each name and asks; a caller answers. The library
 * never reads such a file itself, so the caller decides where a name may lead — in Node, load/gltf-files.ts keeps
 * every read inside the document's own folder (docs/security.md).
 */

/** One file a document names, as a reader is asked for it. */
export interface ResourceRequest {
  /** The uri as the document writes it. */
  uri: string;
  /**
   * The uri percent-decoded and checked: a relative '/'-separated path without `.`, `..` or empty segments, no
   * scheme, no control characters. Resolve it against the document's own folder, and nowhere else.
   */
  path: string;
  /** What the file is for. */
  kind: 'buffer' | 'image';
  /** Its index among the document's buffers or images. */
  index: number;
  /** For a buffer: the byteLength the document declares. A reader should refuse a file shorter, and need read no more. */
  byteLength?: number;
}

/**
 * Reads one file a document names. Throw a ModelParseError when the file cannot or must not be read (any other
 * error becomes READ_FAILED naming the uri).
 */
export type ResourceReader = (request: ResourceRequest) => Promise<Uint8Array>;
