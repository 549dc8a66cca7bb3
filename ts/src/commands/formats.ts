/**
 * The formats the command line reads when it is given none (`main`'s context): the package's own, through the
 * public entry. Its own module, imported when a command runs, so `--help` and `--version` load no format.
 */
export { DEFAULT_FORMATS } from '../advanced.js';
