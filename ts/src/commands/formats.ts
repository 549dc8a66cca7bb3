/**
 * The formats the command line reads when it is given none (`main`'s context): the package's own (`DEFAULT_FORMATS`,
 * public in `idtech-models/advanced`), from the module that defines it, as every command imports (through the
 * entry, esbuild's code splitting gives this chunk every module the entry re-exports: ts/test/commands/public-api.test.ts).
 * Its own module, imported when a command runs, so `--help` and `--version` load no format.
 */
export { DEFAULT_FORMATS } from '../registry/formats.js';
