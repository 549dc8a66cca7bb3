/** Pillow (scripts/setup.sh installs it) as the independent decoder the image tests compare against; PNG chunks read with libpng's CRC rule (pillow.py). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execChild } from '../helpers/child.js';

const SCRIPT = join(__dirname, 'pillow.py');

export interface PillowImage {
  format: string;
  mode: string;
  width: number;
  height: number;
  info: Record<string, unknown>;
  rgba: Uint8Array;
  /** PNG: ancillary chunks with a bad CRC, left out as libpng leaves them out (pillow.py). */
  dropped: string[];
}

export type PillowResult = PillowImage | { error: string };

/** Pillow's reading of each file (one python3 process for all of them, awaited: helpers/child.ts). */
export async function pillowDecodeFiles(paths: readonly string[]): Promise<PillowResult[]> {
  const out = await execChild('python3', [SCRIPT, ...paths]);
  return (JSON.parse(out) as (Omit<PillowImage, 'rgba'> & { rgba?: string; error?: string })[]).map((e) =>
    e.error !== undefined ? { error: e.error } : { ...e, rgba: new Uint8Array(Buffer.from(e.rgba!, 'base64')) },
  );
}

/** Pillow's reading of in-memory files (written to a temporary folder first), keyed like the input. */
export async function pillowDecodeBytes(files: Record<string, Uint8Array>): Promise<Record<string, PillowResult>> {
  const dir = mkdtempSync(join(tmpdir(), 'idtech-pillow-'));
  try {
    const names = Object.keys(files);
    const paths = names.map((name) => {
      const p = join(dir, name);
      writeFileSync(p, files[name]);
      return p;
    });
    const results = await pillowDecodeFiles(paths);
    return Object.fromEntries(names.map((n, i) => [n, results[i]]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const isPillowImage = (r: PillowResult): r is PillowImage => !('error' in r);

/** Why Pillow refused the file, or '' (a test's message: never the image itself, whose pixels run to megabytes). */
export const pillowError = (r: PillowResult): string => ('error' in r ? r.error : '');
