// esbuild: one browser bundle (no Node built-ins allowed: platform 'browser' fails the build if one
// sneaks in), one Node bundle (adds file paths and fs streams), and the CLI.
import { build } from 'esbuild';

const common = { bundle: true, format: 'esm', target: 'es2022', sourcemap: true, logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['ts/src/index.ts'], outfile: 'dist/browser.js', platform: 'browser' }),
  build({ ...common, entryPoints: ['ts/src/node.ts'], outfile: 'dist/node.js', platform: 'node' }),
  build({ ...common, entryPoints: ['ts/src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node' }),
  build({ ...common, entryPoints: ['ts/src/cli/bench-suite.ts'], outfile: 'dist/bench-suite.js', platform: 'node' }),
]);
