/**
 * The files a glTF names by `uri` (its buffers' `.bin`s and its images), read through the caller: this floor never
 * touches a file system, so the caller decides where a name may lead. What the library checks itself, for every
 * caller, before any reader is asked:
 * - a `data:` URI is part of the glTF and is left to glTF Transform;
 * - a URI with a scheme (`file:`, `http:`, `C:`…), an absolute path (`/x`, `//host/x`), a `..` segment, a NUL or
 *   another control character, after percent-decoding and with `\` taken as `/`, is UNSAFE_PATH naming the uri:
 *   a glTF names files beside itself, and a model downloaded from the web must not name `/etc/passwd`;
 * - malformed percent-encoding (`%zz`) is UNSUPPORTED naming the uri.
 * The reader then gets the decoded relative path, what the uri is for and, for a buffer, the byteLength the glTF
 * declares; a buffer shorter than that is TRUNCATED. In Node, `load/gltf-files.ts` is the reader that keeps
 * reads inside the glTF's own folder (docs/security.md states the rule for a reader of your own).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import type { ResourceReader, ResourceRequest } from '../vfs/resource-reader.js';

/** One file a glTF names, as a reader is asked for it (vfs/resource-reader.ts). */
export type GltfResourceRequest = ResourceRequest;
/** Reads one file a glTF names (vfs/resource-reader.ts). */
export type GltfResourceReader = ResourceReader;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const what = (kind: GltfResourceRequest['kind'], index: number, uri: string) => `${kind} ${index}'s uri '${shortName(uri)}'`;

/**
 * The checked relative path of a uri (see the file comment), or null for a `data:` URI. Throws UNSAFE_PATH or
 * UNSUPPORTED naming the uri.
 */
export function gltfResourcePath(uri: string, kind: GltfResourceRequest['kind'], index: number): string | null {
  if (/^data:/i.test(uri)) return null;
  const unsafe = (why: string): never => {
    throw new ModelParseError(ErrorCode.UnsafePath, `${what(kind, index, uri)} ${why}: only files beside the glTF, by relative path, are read`, { offset: 0 });
  };
  if (SCHEME.test(uri)) unsafe(`is a URL or a drive path (${shortName(SCHEME.exec(uri)![0])})`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    throw new ModelParseError(ErrorCode.Unsupported, `${what(kind, index, uri)} is not a valid URI (malformed percent-encoding)`, { offset: 0 });
  }
  if (CONTROL.test(decoded)) unsafe('holds a control character');
  const slashed = decoded.replace(/\\/g, '/');
  if (slashed.startsWith('/')) unsafe('is an absolute path');
  if (SCHEME.test(slashed)) unsafe('decodes to a URL or a drive path');
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) unsafe("leaves the glTF's folder (..)");
  if (segments.length === 0) unsafe('names no file');
  return segments.join('/');
}

/** Every external file a glTF's JSON names, checked (data: URIs and non-string uris are not external). */
export function gltfExternalResources(json: unknown): GltfResourceRequest[] {
  if (!json || typeof json !== 'object') return [];
  const j = json as Record<string, unknown>;
  const out: GltfResourceRequest[] = [];
  for (const kind of ['buffer', 'image'] as const) {
    const list = j[kind === 'buffer' ? 'buffers' : 'images'];
    if (!Array.isArray(list)) continue;
    list.forEach((def: unknown, index) => {
      const uri = def && typeof def === 'object' ? (def as Record<string, unknown>).uri : undefined;
      if (typeof uri !== 'string') return;
      const path = gltfResourcePath(uri, kind, index);
      if (path === null) return;
      if (kind === 'image') return void out.push({ uri, path, kind, index });
      // glTF 2.0 §5.10: an integer ≥ 1; what a reader is told to read must be a size
      const byteLength = (def as Record<string, unknown>).byteLength;
      if (typeof byteLength !== 'number' || !Number.isSafeInteger(byteLength) || byteLength < 1) {
        throw new ModelParseError(ErrorCode.Unsupported, `${what(kind, index, uri)}: its byteLength ${JSON.stringify(byteLength)?.slice(0, 40)} is not a whole number of bytes ≥ 1`, { offset: 0 });
      }
      out.push({ uri, path, kind, index, byteLength });
    });
  }
  return out;
}

/**
 * The bytes of every external file, keyed by uri as glTF Transform looks them up: from `given` (the caller's
 * `resources`, by uri) or else from `read`. A buffer must hold its declared byteLength (TRUNCATED otherwise); a file
 * with no source is READ_FAILED naming it; a reader's own error that is not a ModelParseError becomes READ_FAILED.
 */
export async function readGltfResources(requests: readonly GltfResourceRequest[], given: Record<string, Uint8Array>, read?: GltfResourceReader): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const r of requests) {
    if (Object.hasOwn(out, r.uri)) continue;
    let bytes = Object.hasOwn(given, r.uri) ? given[r.uri] : undefined;
    if (!bytes) {
      if (!read) throw new ModelParseError(ErrorCode.ReadFailed, `${what(r.kind, r.index, r.uri)} names a file, and no reader was given for the glTF's files (readResource)`, { offset: 0 });
      try {
        bytes = await read(r);
      } catch (e) {
        if (e instanceof ModelParseError) throw e;
        throw new ModelParseError(ErrorCode.ReadFailed, `${what(r.kind, r.index, r.uri)}: ${(e as Error)?.message ?? String(e)}`, { offset: 0 });
      }
    }
    if (r.byteLength !== undefined && bytes.length < r.byteLength) {
      throw new ModelParseError(ErrorCode.Truncated, `${what(r.kind, r.index, r.uri)}: the file holds ${bytes.length} bytes, the glTF declares ${r.byteLength}`, { offset: 0 });
    }
    out[r.uri] = bytes;
  }
  return out;
}
