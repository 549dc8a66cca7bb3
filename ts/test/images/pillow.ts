/** Pillow (scripts/setup.sh installs it) as the independent decoder the image tests compare against; PNG chunks read with libpng's CRC rule (pillow.py). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** Pillow's reading of each file (one python3 process for all of them). */
export function pillowDecodeFiles(paths: readonly string[]): PillowResult[] {
  const out = execFileSync('python3', [SCRIPT, ...paths], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return (JSON.parse(out) as (Omit<PillowImage, 'rgba'> & { rgba?: string; error?: string })[]).map((e) =>
    e.error !== undefined ? { error: e.error } : { ...e, rgba: new Uint8Array(Buffer.from(e.rgba!, 'base64')) },
  );
}

/** Pillow's reading of in-memory files (written to a temporary folder first), keyed like the input. */
export function pillowDecodeBytes(files: Record<string, Uint8Array>): Record<string, PillowResult> {
  const dir = mkdtempSync(join(tmpdir(), 'idtech-pillow-'));
  try {
    const names = Object.keys(files);
    const paths = names.map((name) => {
      const p = join(dir, name);
      writeFileSync(p, files[name]);
      return p;
    });
    const results = pillowDecodeFiles(paths);
    return Object.fromEntries(names.map((n, i) => [n, results[i]]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const isPillowImage = (r: PillowResult): r is PillowImage => !('error' in r);
