/**
 * What `idtech-models inspect FILE --json` says about each file of the open model, from the same place: each
 * file's registration's `inspect` (a byte source in, a plain JSON summary out — it streams, so it runs here as it
 * does in Node). A file whose format has no `inspect` (a folder format is inspected by its files) is left out.
 */
import { ModelParseError, selectFormat, type FormatEntry } from 'idtech-models';
import type { Inspected } from '../protocol.js';
import type { OpenModel } from './open.js';

export async function inspectModel(open: OpenModel, formats: readonly FormatEntry[], signal: AbortSignal): Promise<Inspected[]> {
  const out: Inspected[] = [];
  for (const file of open.set.files) {
    signal.throwIfAborted();
    const format = selectFormat(file.path, null, formats) as FormatEntry | null;
    if (!format?.inspect) continue;
    try {
      const { summary } = await format.inspect(file.stream({ signal }), { signal, sizeHint: file.size });
      out.push({ file: file.path, format: format.id, summary: { file: file.path, ...summary } });
    } catch (e) {
      out.push({ file: file.path, format: format.id, error: e instanceof ModelParseError ? `${e.code}: ${e.message}` : String(e) });
    }
  }
  return out;
}
