/**
 * The CLI's commands by name, each loaded on first use (main.ts): a command's module and what only it needs (glTF
 * Transform and the writers for `convert`, the bench suite for `bench`) stay unread by the others. A test checks
 * each name against its command's spec.
 */
import type { Command } from '../commands/args.js';

export const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  inspect: async () => (await import('../commands/inspect/inspect.js')).inspect,
  convert: async () => (await import('../commands/convert/convert.js')).convert,
  bench: async () => (await import('../commands/bench/bench.js')).bench,
};
