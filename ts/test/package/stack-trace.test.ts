/**
 * An uncaught library error in Node reads as an error, not as a page of code: Node prints the source line of the
 * throw before the message, and the shipped files were one line each (a 13–30 KB line before `ModelParseError`).
 * The library's files are now broken into lines of at most 200 characters (terser's max_line_len, scripts/bundle.mjs),
 * and the error's class keeps its name where the minifier renamed it (`ModelParseError: …`, not `t [ModelParseError]`).
 * Needs dist/ (node scripts/bundle.mjs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../helpers/child.js';
import { cliTemp } from '../helpers/cli.js';
import { REPO } from '../helpers/models.js';

describe('an uncaught library error in Node', () => {
  it('prints a short source line, then `ModelParseError: CODE: …` and the stack', async () => {
    const script = join(cliTemp('stack-trace'), 'uncaught.mjs');
    writeFileSync(script, `import { parseMd2 } from ${JSON.stringify(pathToFileURL(join(REPO, 'dist', 'md2.js')).href)};\nparseMd2(new Uint8Array(10));\n`);
    const r = await runChild(process.execPath, [script]);
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n');
    const message = lines.findIndex((l) => l.startsWith('ModelParseError: BAD_MAGIC'));
    expect(message, r.stderr.slice(0, 2000)).toBeGreaterThan(0);
    // before the message: the file:line, the source line, the caret, a blank line
    for (const l of lines.slice(0, message)) expect(l.length).toBeLessThanOrEqual(200);
    expect(lines[message + 1]).toMatch(/^\s+at /);
  });
});
