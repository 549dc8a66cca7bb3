// esbuild: one browser bundle (no Node built-ins allowed: platform 'browser' fails the build if one
// sneaks in), one Node bundle (adds file paths and fs streams), the CLI, the worker and the demo page.
import { build } from 'esbuild';

const common = { bundle: true, format: 'esm', target: 'es2022', sourcemap: true, logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['ts/src/index.ts'], outfile: 'dist/browser.js', platform: 'browser' }),
  build({ ...common, entryPoints: ['ts/src/node.ts'], outfile: 'dist/node.js', platform: 'node' }),
  build({ ...common, entryPoints: ['ts/src/advanced.ts'], outfile: 'dist/advanced.js', platform: 'neutral' }),
  build({ ...common, entryPoints: ['ts/src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node' }),
  build({ ...common, entryPoints: ['ts/src/bench/suite.ts'], outfile: 'dist/bench-suite.js', platform: 'node' }),
  // The worker mode's entry, next to browser.js (ModelWorker.create() finds it as ./worker.js).
  build({ ...common, entryPoints: ['ts/src/worker/worker.ts'], outfile: 'dist/worker.js', platform: 'browser' }),
]);
// The demo page imports 'idtech-models' like any user would: esbuild resolves the package's own `browser`
// export (dist/browser.js, built above) with no special configuration. Served by scripts/serve.mjs.
await build({ ...common, entryPoints: ['demo/src/main.ts'], outfile: 'dist/demo.js', platform: 'browser' });
