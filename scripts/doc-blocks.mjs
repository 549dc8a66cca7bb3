// Generated figures in the docs: each block sits between `<!-- NAME:begin … -->` and `<!-- NAME:end -->` (the text
// after NAME:begin may say which command writes it) and is written by the script that measures it, never typed.
// `--check` compares instead of writing, so a figure left behind by a new build is caught (the tests run the checks).
import { readFileSync, writeFileSync } from 'node:fs';

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const blockPattern = (name) => new RegExp(`(<!-- ${escape(name)}:begin(?: [^\\n]*?)? -->\\n)([\\s\\S]*?)(<!-- ${escape(name)}:end -->)`);

/** `text` with each block of `blocks` (name → content) replaced; throws naming a block the text lacks. */
export function replaceBlocks(text, blocks, where = 'the text') {
  for (const [name, content] of Object.entries(blocks)) {
    const re = blockPattern(name);
    if (!re.test(text)) throw new Error(`${where} has no <!-- ${name}:begin --> … <!-- ${name}:end --> block`);
    text = text.replace(re, (_, begin, _old, end) => `${begin}${content}\n${end}`);
  }
  return text;
}

/** Names of the blocks of `blocks` whose content in `text` differs from what would be written (or that are missing). */
export function staleBlocks(text, blocks) {
  return Object.entries(blocks).filter(([name, content]) => text.match(blockPattern(name))?.[2] !== `${content}\n`).map(([name]) => name);
}

/**
 * Writes `blocks` into the file at `path`, or with `check` compares: returns the stale block names (empty when the
 * file is current; after writing, always empty).
 */
export function writeOrCheckBlocks(path, blocks, check) {
  const text = readFileSync(path, 'utf8');
  if (check) {
    replaceBlocks(text, blocks, path); // a missing block is an error, not a stale one
    return staleBlocks(text, blocks);
  }
  writeFileSync(path, replaceBlocks(text, blocks, path));
  return [];
}

/** For the scripts' `--check`: prints what is stale and sets the exit code to 1. */
export function reportStale(path, stale, command) {
  if (stale.length === 0) return;
  console.error(`${path}: stale generated block${stale.length > 1 ? 's' : ''} ${stale.join(', ')} (run ${command})`);
  process.exitCode = 1;
}
