// The words that name the formats, generated from the registrations through the built CLI (dist/, never typed):
// README.md's CLI block is `idtech-models --help` as it prints, and package.json's description names every format
// the help lists (its registrations' names) and the archives read. A format registered, or left out, changes both.
//   node scripts/cli-help.mjs [--write | --check]   after a build (node scripts/bundle.mjs); --check exits 1 on a stale one
// ts/test/docs.test.ts runs the check.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportStale, writeOrCheckBlocks } from './doc-blocks.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `idtech-models --help`, from the built CLI. */
export function cliHelp() {
  return execFileSync(process.execPath, [join(ROOT, 'bin/idtech-models.js'), '--help'], { encoding: 'utf8' });
}

/** The format names the help lists (`MD5 (…):` lines, each name once) and its archives line. */
export function helpFormats(help) {
  const names = [...new Set([...help.matchAll(/^ {2}(\S.*?) \([^)]*\): /gm)].map((m) => m[1]))];
  const archives = /inside (\S+) archives/.exec(help)?.[1] ?? '';
  return { names, archives };
}

/** package.json's description for the formats `help` lists. */
export function packageDescription(help) {
  const { names, archives } = helpFormats(help);
  return `Stream id Software models (${names.join(', ')}), loose or from ${archives} archives, into posed, skinned typed arrays, glTF and OBJ — Rust/WASM hot path with a pure-TS fallback, in the browser and Node; the idtech-models CLI inspects and converts them.`;
}

export const README_BLOCK = (help) => '```text\n' + help.trimEnd() + '\n```';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const help = cliHelp();
  const readme = join(ROOT, 'README.md');
  reportStale(readme, writeOrCheckBlocks(readme, { 'cli-help': README_BLOCK(help) }, check), 'node scripts/cli-help.mjs --write');
  const pkgPath = join(ROOT, 'package.json');
  const text = readFileSync(pkgPath, 'utf8');
  const pkg = JSON.parse(text);
  const description = packageDescription(help);
  if (check) reportStale(pkgPath, pkg.description === description ? [] : ['description'], 'node scripts/cli-help.mjs --write');
  else writeFileSync(pkgPath, text.replace(/("description":\s*)"(?:[^"\\]|\\.)*"/, (_, k) => k + JSON.stringify(description)));
}
