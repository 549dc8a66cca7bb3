/**
 * The formats the command line reads when it is given none (`main`'s context): the package's own (`DEFAULT_FORMATS`,
 * from the Node door, as every library name the CLI takes comes through a package entry: ts/test/commands/public-api.test.ts).
 * Its own module, imported when a command runs, so `--help` and `--version` load no format.
 */
export { DEFAULT_FORMATS } from '../node.js';
