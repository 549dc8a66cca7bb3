#!/usr/bin/env node
// node scripts/loop-blocks.mjs [--top N] [--files]
// Lists the longest event-loop blocks recorded by ts/test/helpers/loop-blocks.ts (a vitest run with
// IDTECH_LOOP_BLOCKS=1 appends them to target/loop-blocks.jsonl; delete that file to start afresh), longest first:
// per test, or with --files the longest per test file. Reports, asserts nothing (docs/testing.md).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const top = Number(args[args.indexOf('--top') + 1]) || 30;
const perFile = args.includes('--files');

const rows = readFileSync(join(REPO, 'target', 'loop-blocks.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const worst = new Map();
for (const r of rows) {
  const key = perFile ? r.file : `${r.file} :: ${r.test}`;
  if (!worst.has(key) || worst.get(key).holdMs < r.holdMs) worst.set(key, r);
}
const sorted = [...worst.entries()].sort((a, b) => b[1].holdMs - a[1].holdMs).slice(0, top);
for (const [key, r] of sorted) console.log(`${String(r.holdMs).padStart(7)} ms  ${perFile ? `${key}  (${r.test})` : key}`);
