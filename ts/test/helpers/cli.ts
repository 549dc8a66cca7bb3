/** The built CLI as the CLI tests run it: a child process per call, a fresh temp folder, corpus paths. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild, type ChildResult } from './child.js';
import { REPO, SHARED_MODELS } from './models.js';

export const BIN = join(REPO, 'bin', 'idtech-models.js');
/** `idtech-models ARGS…`, awaited (helpers/child.ts): its status, stdout and stderr. */
export const runCli = (...args: string[]): Promise<ChildResult> => runChild(process.execPath, [BIN, ...args]);
/** A new temp folder named after the test file. */
export const cliTemp = (name: string) => mkdtempSync(join(tmpdir(), `idtech-${name}-`));
/** A corpus path. */
export const shared = (p: string) => join(SHARED_MODELS, p);
