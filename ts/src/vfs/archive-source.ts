/**
 * The sources an archive opens from in the browser and Node alike — bytes, a `Blob` / `File` (read by slices), a
 * `URL` (HTTP Range requests) or any `RandomAccessReader` — as one reader, for the zip and the pak reader both.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { urlReader, type UrlReaderOptions } from './http-reader.js';
import { blobReader, bytesReader, type RandomAccessReader } from './reader.js';

export type ArchiveSource = Uint8Array | ArrayBuffer | Blob | URL | RandomAccessReader;

export async function archiveReader(source: ArchiveSource, options: { name?: string; signal?: AbortSignal; http?: UrlReaderOptions } = {}): Promise<RandomAccessReader> {
  if (source instanceof Uint8Array) return bytesReader(source, options.name);
  if (source instanceof ArrayBuffer) return bytesReader(new Uint8Array(source), options.name);
  if (typeof Blob === 'function' && source instanceof Blob) return blobReader(source, options.name);
  if (source instanceof URL) return urlReader(source, { signal: options.signal, ...options.http });
  if (typeof source === 'object' && source !== null && typeof (source as RandomAccessReader).read === 'function') return source as RandomAccessReader;
  throw new ModelParseError(ErrorCode.BadSource, `cannot open an archive from ${Object.prototype.toString.call(source)}`, { offset: 0 });
}

/** The last segment of a path or URL: how an archive is named in origins (`pak0.pk3:models/x.md3`, `pak0.pak:progs/x.mdl`). */
export function archiveLabel(name: string): string {
  const clean = name.replace(/[?#].*$/, '').replace(/[\\/]+$/, '');
  return clean.slice(Math.max(clean.lastIndexOf('/'), clean.lastIndexOf('\\')) + 1) || name;
}
