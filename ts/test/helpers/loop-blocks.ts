/**
 * Diagnostic, off by default (vitest.config.ts loads it when IDTECH_LOOP_BLOCKS is set): the longest time each test
 * held its worker's event loop, appended as JSON lines to target/loop-blocks.jsonl. It asserts nothing.
 *
 * Why it matters: a worker talks to vitest's main process over birpc with a fixed 60 s timeout per call; a test that
 * blocks the loop past that, while a call such as onTaskUpdate waits for its reply, fails the run with
 * `Timeout calling "onTaskUpdate"` (docs/testing.md). `node scripts/loop-blocks.mjs` lists the longest blocks.
 *
 * How: a heartbeat every 5 ms; the loop is held for as long as no beat comes. Per test: `holdMs`, the longest hold
 * that overlapped it — a hold may span several tests (without helpers/turn-between-tests.ts vitest's runner goes from
 * one test to the next in microtasks, not turning the loop), and a hold is what the 60 s timeout sees; `ownMs`, the
 * longest part of a hold inside the test itself (who to blame). The clock and timer are taken at load, before any
 * test can install fake timers.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { REPO } from './models.js';

const OUT = join(REPO, 'target', 'loop-blocks.jsonl');
const BEAT_MS = 5;
const clock = process.hrtime.bigint;
const every = globalThis.setInterval;
const ms = (ns: bigint) => Number(ns / 1_000_000n);

let lastBeat = clock();
/** Where the current record's window began (the previous record). */
let windowStart = lastBeat;
/** The longest hold that overlapped the window, and the longest stretch of one inside it. */
let longest = 0n;
let longestOwn = 0n;
every(() => {
  const now = clock();
  if (now - lastBeat > longest) longest = now - lastBeat;
  const own = now - (lastBeat > windowStart ? lastBeat : windowStart);
  if (own > longestOwn) longestOwn = own;
  lastBeat = now;
}, BEAT_MS).unref();

/** The window's figures, counting the hold still open; then a new window. */
function take(): { holdMs: number; ownMs: number } {
  const now = clock();
  const open = now - lastBeat;
  const own = now - (lastBeat > windowStart ? lastBeat : windowStart);
  const r = { holdMs: ms(open > longest ? open : longest), ownMs: ms(own > longestOwn ? own : longestOwn) };
  longest = longestOwn = 0n;
  windowStart = now;
  return r;
}

mkdirSync(join(REPO, 'target'), { recursive: true });
const file = () => relative(REPO, expect.getState().testPath ?? '?');
const record = (test: string, t: { holdMs: number; ownMs: number }) => appendFileSync(OUT, `${JSON.stringify({ file: file(), test, ...t, pid: process.pid })}\n`);

// What ran before a test (collection, beforeAll, the previous test's hooks) is reported apart from the test itself.
beforeEach(() => record('(outside tests)', take()));
afterEach(() => record(expect.getState().currentTestName ?? '?', take()));
afterAll(() => record('(outside tests)', take()));
