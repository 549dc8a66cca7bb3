/** The built CLI as the CLI tests run it: a child process per call, a fresh temp folder, corpus paths. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, SHARED_MODELS } from './models.js';

export const BIN = join(REPO, 'bin', 'idtech-models.js');
/** `idtech-models ARGS…`, its status, stdout and stderr. */
export const runCli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
/** A new temp folder named after the test file. */
export const cliTemp = (name: string) => mkdtempSync(join(tmpdir(), `idtech-${name}-`));
/** A corpus path. */
export const shared = (p: string) => join(SHARED_MODELS, p);
