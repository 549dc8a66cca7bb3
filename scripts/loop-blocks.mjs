#!/usr/bin/env node
// node scripts/loop-blocks.mjs [--top N] [--files] [--own]
// Lists the longest event-loop blocks recorded by ts/test/helpers/loop-blocks.ts (a vitest run with
// IDTECH_LOOP_BLOCKS=1 appends them to target/loop-blocks.jsonl; delete that file to start afresh), longest hold
// first (with --own, the longest part inside the test first): per test, or with --files per test file. Reports,
// asserts nothing (docs/testing.md).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const top = Number(args[args.indexOf('--top') + 1]) || 30;
const perFile = args.includes('--files');
const by = args.includes('--own') ? 'ownMs' : 'holdMs';

const rows = readFileSync(join(REPO, 'target', 'loop-blocks.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const worst = new Map();
for (const r of rows) {
  const key = perFile ? r.file : `${r.file} :: ${r.test}`;
  if (!worst.has(key) || worst.get(key)[by] < r[by]) worst.set(key, r);
}
const sorted = [...worst.entries()].sort((a, b) => b[1][by] - a[1][by]).slice(0, top);
console.log('   hold      own  (ms: the longest hold of the loop that overlapped the test; the longest part of it inside the test)');
for (const [key, r] of sorted) console.log(`${String(r.holdMs).padStart(7)}  ${String(r.ownMs ?? '').padStart(7)}  ${perFile ? `${key}  (${r.test})` : key}`);
