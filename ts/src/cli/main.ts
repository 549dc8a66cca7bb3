/**
 * `idtech-models` command line: `idtech-models COMMAND [ARGS]`, one file per command (inspect.ts, convert.ts,
 * bench.ts), each a `Command` whose spec drives both its parser and its `--help` (args.ts, help.ts).
 * Exit codes: 0 success, 1 bad input (one line on stderr: file, error code, position; report.ts), 2 bad usage
 * (the message, then the command's synopsis).
 *
 * A command's module is loaded when that command runs: `inspect` does not load glTF Transform, the writers or the
 * bench suite. dist/cli.js is this file and what every command shares; each command's own code is a chunk beside
 * it (scripts/bundle.mjs). Measured: `inspect` loads 0.27 MB of script instead of 1.35 MB, ~35 ms less start-up.
 */
import { parseArgs, UsageError, wantsHelp, type CliContext, type Command } from '../commands/args.js';
import { COMMANDS } from './commands.js';
import { commandHelp, commandSynopsis, topUsage } from './help.js';
import { applyLimitOptions } from '../commands/limits.js';
import { describeInputError, isFileError, isSystemError, systemErrorText } from '../commands/report.js';
import { packageVersion } from './version.js';

const NAMES = Object.keys(COMMANDS);

const find = (name: string): Promise<Command> | undefined => (Object.hasOwn(COMMANDS, name) ? COMMANDS[name]() : undefined);
const allSpecs = async () => Promise.all(NAMES.map(async (n) => (await COMMANDS[n]()).spec));
/** The formats the command line reads: the context's, else the package's (loaded when a command or the usage needs them). */
const formatsOf = async (context: Partial<CliContext>) => context.formats ?? (await import('../commands/formats.js')).DEFAULT_FORMATS;
/** The top-level usage, listing the formats read. */
const usage = async (context: Partial<CliContext>) => topUsage(await allSpecs(), await formatsOf(context), await import('../commands/format-words.js'));

const out = (text: string) => process.stdout.write(text);
const err = (text: string) => process.stderr.write(text);

async function dispatch(argv: readonly string[], context: Partial<CliContext>): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    err(await usage(context));
    return 2;
  }
  if (name === '-h' || name === '--help') {
    out(await usage(context));
    return 0;
  }
  if (name === '-V' || name === '--version' || name === 'version') {
    out(`idtech-models ${packageVersion()}\n`);
    return 0;
  }
  if (name === 'help') {
    if (rest.length === 0) {
      out(await usage(context));
      return 0;
    }
    const c = await find(rest[0]);
    if (!c) throw new UsageError(`no command ${rest[0]} (commands: ${NAMES.join(', ')})`);
    out(commandHelp(c.spec));
    return 0;
  }
  const command = await find(name);
  if (!command) throw new UsageError(`no command ${name} (commands: ${NAMES.join(', ')})`);
  if (wantsHelp(rest)) {
    out(commandHelp(command.spec));
    return 0;
  }
  const args = parseArgs(rest, command.spec);
  applyLimitOptions(args, name); // --limit NAME=N: process-wide, before the command reads anything (limits.ts)
  return (await command.run(args, { formats: await formatsOf(context) })) ?? 0;
}

/**
 * Runs the command line `argv`; `context.formats` are the formats it reads and its usage lists (default: the
 * package's registrations, loaded when a command runs or the usage is shown — their rooms only when a file is read).
 */
export async function main(argv: readonly string[], context: Partial<CliContext> = {}): Promise<number> {
  try {
    return await dispatch(argv, context);
  } catch (e) {
    if (e instanceof UsageError) {
      const c = e.command === undefined ? undefined : await find(e.command);
      err(`idtech-models: ${e.message}\n${c ? commandSynopsis(c.spec) : await usage(context)}`);
      return 2;
    }
    if (isFileError(e)) {
      err(`idtech-models: ${describeInputError(e)}\n`);
      return 1;
    }
    // A file-system failure outside any command's own reporting: still one line, the path once.
    if (isSystemError(e)) {
      err(`idtech-models: ${e.path ? `${e.path}: ` : ''}${systemErrorText(e)}\n`);
      return 1;
    }
    throw e;
  }
}
