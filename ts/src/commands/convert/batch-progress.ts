/**
 * Progress of `convert --all` on stderr: on a terminal, one redrawn line — models done/total, bar, MB/s of sources
 * read, time left — erased when done; otherwise (a log, a CI job) a plain line every 5 seconds. The summary
 * (batch.ts) follows either way.
 */
import { writeControl } from '../terminal.js';

const REDRAW_MS = 100;
const PLAIN_MS = 5000;

/** `1:05`, `12s`. */
const clock = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}` : `${Math.round(s)}s`);

/** The status text (exported for tests): `45/130 models, 3.2 MB/s, ETA 12s`. */
export function batchStatus(done: number, total: number, bytes: number, totalBytes: number, seconds: number): string {
  const rate = seconds > 0 ? bytes / 1e6 / seconds : 0;
  const left = bytes > 0 && bytes < totalBytes ? ((totalBytes - bytes) / bytes) * seconds : 0;
  return `${done}/${total} models, ${rate.toFixed(1)} MB/s${done < total ? `, ETA ${clock(left)}` : ''}`;
}

export function batchProgress(total: number, totalBytes: number, stream: NodeJS.WriteStream = process.stderr): { tick(bytes: number): void; end(): void } {
  const start = performance.now();
  let done = 0, bytes = 0, last = start, shown = false;
  const tty = !!stream.isTTY;
  const draw = (now: number) => {
    const status = batchStatus(done, total, bytes, totalBytes, (now - start) / 1000);
    if (!tty) return stream.write(`idtech-models: ${status}\n`);
    const width = Math.max(10, Math.min(30, (stream.columns || 80) - status.length - 4));
    const filled = Math.round((done / Math.max(1, total)) * width);
    writeControl(stream, `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${status}\x1b[K`);
    shown = true;
  };
  return {
    tick(b) {
      done++;
      bytes += b;
      const now = performance.now();
      if (now - last >= (tty ? REDRAW_MS : PLAIN_MS) || (tty && done === total)) {
        last = now;
        draw(now);
      }
    },
    end() {
      if (shown) writeControl(stream, '\r\x1b[K');
    },
  };
}
