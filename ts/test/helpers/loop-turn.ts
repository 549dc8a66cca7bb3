/**
 * Turning a test worker's event loop. A worker talks to vitest's main process over birpc, and every call (the runner's
 * onTaskUpdate as a test starts, say) has a fixed 60 s timeout; the reply is read only when the loop reaches its poll
 * phase, after its timers. A test that holds the loop synchronously for a minute — a machine under load makes a 10 s
 * loop take 50 — lets the timer fire first, and the run fails with `Timeout calling "onTaskUpdate"` whatever the tests
 * said. So no test holds the loop for long: child processes are awaited (helpers/cli.ts, helpers/child.ts) and long
 * loops call `turnIfHeld()` (docs/testing.md).
 *
 * The timers are taken at load, before a test can install fake ones.
 */
const immediate = globalThis.setImmediate;
const clock = process.hrtime.bigint;

/** One full turn of the loop: timers and I/O (vitest's replies read) before the caller goes on. */
export const loopTurn = (): Promise<void> =>
  // An immediate queued from the check phase runs in the next iteration's check phase, after its timers and poll.
  new Promise((resolve) => immediate(() => immediate(resolve)));

/** How long a loop may run between turns; a fraction of the 60 s timeout even on a machine 20× slower. */
const HELD_NS = 100_000_000n;
let lastTurn = clock();

/** `loopTurn()` when the loop has run for 100 ms since this last turned it; otherwise nothing (cheap in a hot loop). */
export async function turnIfHeld(): Promise<void> {
  if (clock() - lastTurn < HELD_NS) return;
  await loopTurn();
  lastTurn = clock();
}
