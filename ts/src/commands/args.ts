/**
 * The command line's grammar, written once per command as data: a `CommandSpec` lists the command's options with
 * the sentence that explains each, and both the parser below and `COMMAND --help` (help.ts) read that list, so an
 * option cannot be accepted without being explained. Positionals, `--flag`, `--opt value`, `--opt=value`,
 * `-o value`, `--` ends options. Unknown options are usage errors. A new option is one entry in a spec.
 */
import type { FormatEntry } from '../node.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command whose synopsis to show under the message (none: the top-level usage). */
  command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

export interface OptionSpec {
  /** Canonical spelling, e.g. `--anim`; results are keyed by it. */
  name: string;
  /** Other spellings, e.g. `-o` for `--output`. */
  aliases?: string[];
  /** Placeholder of its value in help (`FILE`, `N`); absent for a flag. */
  value?: string;
  /** May be given more than once (each value kept, in order). */
  repeatable?: boolean;
  /** What it does and its default, in a sentence or two. */
  help: string;
  /** Heading it is listed under in `--help` (and, for convert, which output it belongs to). */
  group?: string;
}

export interface CommandSpec {
  name: string;
  /** One line for the top-level usage. */
  summary: string;
  /** Synopsis lines, each after `idtech-models `. */
  usage: string[];
  /** Paragraphs printed after the synopsis. */
  about: string[];
  options: OptionSpec[];
  /** Example command lines, each after `idtech-models `. */
  examples?: string[];
}

export interface ParsedArgs {
  positionals: string[];
  /** Values by canonical option name, in the order given. */
  options: Map<string, string[]>;
  /** Flags given, by canonical name. */
  flags: Set<string>;
}

/** True when `argv` asks for this command's help (`-h` / `--help` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '-h' || a === '--help') return true;
  }
  return false;
}

export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const byName = new Map<string, OptionSpec>();
  for (const o of spec.options) for (const n of [o.name, ...(o.aliases ?? [])]) byName.set(n, o);
  const out: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const given = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    const o = byName.get(given);
    if (!o) throw new UsageError(`${spec.name} has no option ${given}`, spec.name);
    if (o.value === undefined) {
      if (inline !== undefined) throw new UsageError(`${o.name} takes no value`, spec.name);
      out.flags.add(o.name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${o.name} needs a value (${o.value})`, spec.name);
    const list = out.options.get(o.name) ?? [];
    if (list.length && !o.repeatable) throw new UsageError(`${o.name} is given twice`, spec.name);
    list.push(value);
    out.options.set(o.name, list);
  }
  return out;
}

/** The single value of an option, or undefined. */
export const optionValue = (a: ParsedArgs, name: string): string | undefined => a.options.get(name)?.[0];

/** Whether the option or flag `name` was given. */
export const given = (a: ParsedArgs, name: string): boolean => a.options.has(name) || a.flags.has(name);

/** One command: its grammar and what it does with the parsed arguments. */
/** What every command runs with: the formats it recognises (the package's own by default; tests add their own). */
export interface CliContext {
  formats: readonly FormatEntry[];
}

export interface Command {
  spec: CommandSpec;
  /** Resolves to the exit status, or nothing for 0. */
  run(args: ParsedArgs, context: CliContext): Promise<void | number>;
}
