import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['ts/test/**/*.test.ts'],
    // Generous: a test may take minutes on a machine whose cores are busy with other work (npm test must pass there);
    // a hang still ends. Speed is measured by `npm run bench`, never by a test's timeout.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // One temporary folder per run, removed at its end (helpers/temp-root.ts).
    globalSetup: ['ts/test/helpers/temp-root.ts'],
    // The loop turns before each test, so that a file's synchronous tests do not hold it together past vitest's 60 s
    // RPC timeout; with IDTECH_LOOP_BLOCKS=1, each test's longest hold is recorded (docs/testing.md).
    setupFiles: ['ts/test/helpers/turn-between-tests.ts', ...(process.env.IDTECH_LOOP_BLOCKS ? ['ts/test/helpers/loop-blocks.ts'] : [])],
  },
});
