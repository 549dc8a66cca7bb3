/**
 * A one-line progress bar on stderr for reading big inputs: shown only when stderr is a terminal and the input is
 * large (so pipes, logs and small files see nothing), redrawn at most ten times a second, erased when done.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { printable, writeControl } from './terminal.js';

/** Inputs smaller than this finish before a bar would be worth drawing. */
export const PROGRESS_MIN_BYTES = 32 * 1024 * 1024;
const REDRAW_MS = 100;

export interface Progress {
  /** Bytes read so far (a `ReadOptions.onProgress` callback). */
  readonly update: (bytesRead: number) => void;
  /** Erase the bar (call on success and on failure). */
  done(): void;
}

const silent: Progress = { update: () => {}, done: () => {} };

/** The bar for reading `file`, or a no-op when `stream` (stderr) is not a TTY or the file is small. */
export async function fileProgress(file: string, stream: NodeJS.WriteStream = process.stderr, minBytes = PROGRESS_MIN_BYTES): Promise<Progress> {
  if (!stream.isTTY) return silent;
  const total = (await stat(file)).size;
  if (total < minBytes) return silent;
  return progressBar(basename(file), total, stream);
}

/** Formats the bar line (exported for tests): label, bar, percent, MB read / total, rate. */
export function formatBar(label: string, done: number, total: number, seconds: number, width: number): string {
  const frac = total > 0 ? Math.min(1, done / total) : 1;
  const mb = (n: number) => (n / 1e6).toFixed(n < 1e8 ? 1 : 0);
  const rate = seconds > 0 ? `${(done / 1e6 / seconds).toFixed(0)} MB/s` : '';
  const tail = ` ${(frac * 100).toFixed(0).padStart(3)}% ${mb(done).padStart(mb(total).length)}/${mb(total)} MB ${rate.padStart(9)}`;
  const barWidth = Math.max(10, Math.min(40, width - label.length - tail.length - 4));
  const filled = Math.round(frac * barWidth);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]${tail}`.slice(0, Math.max(1, width - 1));
}

function progressBar(label: string, total: number, stream: NodeJS.WriteStream): Progress {
  const start = performance.now();
  let last = 0;
  let shown = false;
  return {
    update(bytesRead) {
      const now = performance.now();
      if (now - last < REDRAW_MS && bytesRead < total) return;
      last = now;
      shown = true;
      writeControl(stream, `\r${formatBar(printable(label), bytesRead, total, (now - start) / 1000, stream.columns || 80)}\x1b[K`);
    },
    done() {
      if (shown) writeControl(stream, '\r\x1b[K');
      shown = false;
    },
  };
}
