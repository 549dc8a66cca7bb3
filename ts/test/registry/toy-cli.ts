/**
 * A command line built with a format of its own: the package's `main` and batch worker, given the package's formats
 * and the toy (`toy-format.ts`). What an app adding a format ships as its CLI; `new-format.test.ts` bundles it and
 * runs `convert --all`, whose worker processes are this same script (as dist/cli.js is the package's).
 */
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import { SERVE_BATCH_JOBS, setCliEntry } from '../../src/commands/entry.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toy } from './toy-format.js';

const formats = [...DEFAULT_FORMATS, toy];
setCliEntry(fileURLToPath(import.meta.url));
if (process.argv[2] === SERVE_BATCH_JOBS && process.send) void import('../../src/commands/convert/batch-worker.js').then((m) => m.serveBatchJobs(formats));
else void main(process.argv.slice(2), { formats }).then((code) => (process.exitCode = code));
