/** Writing a command's output files, and the one-line summary `convert` ends with. */
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { badInput } from './inputs.js';
import { isSystemError, systemErrorText } from './report.js';

export interface OutputFile {
  path: string;
  bytes: Uint8Array | string;
}

/** Writes every file; returns the bytes written. A file that cannot be written fails on one line, exit 1. */
export async function writeOutputs(files: readonly OutputFile[]): Promise<number> {
  let total = 0;
  for (const f of files) {
    const bytes = typeof f.bytes === 'string' ? new TextEncoder().encode(f.bytes) : f.bytes;
    try {
      await writeFile(f.path, bytes);
    } catch (e) {
      if (!isSystemError(e)) throw e;
      const why = e.code === 'ENOENT' ? `the folder ${dirname(f.path)} does not exist (ENOENT)` : systemErrorText(e);
      throw badInput(f.path, `cannot write it: ${why}`);
    }
    total += bytes.length;
  }
  return total;
}

/** `412 KB`, `1.6 MB`, `830 bytes` (KB and MB of 1024, as `ls -h` counts). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** `3 clips`, `1 clip`. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `wrote out.gltf, out.bin: 2 meshes, 1439 vertices, 3 clips, 412 KB`. */
export function summaryLine(files: readonly OutputFile[], facts: readonly string[], bytes: number): string {
  return `wrote ${files.map((f) => f.path).join(', ')}: ${[...facts, formatBytes(bytes)].join(', ')}`;
}
