/**
 * Global setup (vitest.config.ts): every temporary file of a test run goes under one folder made for the run, removed
 * when it ends. The tests make their scratch folders with `mkdtemp(tmpdir())` — archives built from the corpus, CLI
 * outputs, Chromium profiles — and many are kept to the end of their file or process: a run left about 1.5 GB in
 * /tmp, and a day of runs filled this machine's disk to 96% (30 GB of corpus archives alone); the browser test of
 * dropped archives failed there to fetch one into a Blob, and passed again once the disk was freed. TMPDIR is set before the test processes start (vitest hands them
 * this process's environment), so they, and the CLI and Chromium they start, all write here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'idtech-test-run-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
