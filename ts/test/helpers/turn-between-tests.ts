/**
 * Setup file (vitest.config.ts): the loop turns before every test. Vitest's runner goes from one test to the next in
 * microtasks, so a file of synchronous tests would otherwise hold its worker's loop for all of them together, and a
 * file whose tests take a minute in all would time out vitest's own calls (helpers/loop-turn.ts, docs/testing.md).
 */
import { beforeEach } from 'vitest';
import { loopTurn } from './loop-turn.js';

beforeEach(loopTurn);
