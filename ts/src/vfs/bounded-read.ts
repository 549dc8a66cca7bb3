/**
 * Reading a small text file whole (a shader script, an .mtr, a .skin, an animation.cfg) with a bound on its size,
 * checked against the size the file system declares before a byte is read, and again as the bytes arrive (a file on
 * disk may grow after it was listed; a zip member cannot pass its declared size). A script is parsed whole, so
 * without the bound a 300 KB archive whose shader script inflates to 300 MB of spaces costs 1 GB to convert a 6 KB
 * model (docs/security.md).
 */
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import type { VfsFile } from './file-system.js';

/**
 * `file`'s bytes, or RESOURCE_LIMIT naming it and `maxScriptBytes` when it holds more than `maxBytes` (default:
 * the process's `maxScriptBytes`, 8 MiB).
 */
export async function readScriptFile(file: VfsFile, options: { maxBytes?: number; signal?: AbortSignal } = {}): Promise<Uint8Array> {
  const max = options.maxBytes ?? resourceLimits().maxScriptBytes;
  const refuse = (size: number) => overLimit(`${file.origin} is ${size} bytes`, 'maxScriptBytes', max);
  if (file.size > max) throw refuse(file.size);
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of file.stream({ signal: options.signal })) {
    total += chunk.length;
    if (total > max) throw refuse(total);
    parts.push(chunk.slice()); // streams may reuse their buffers
  }
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
