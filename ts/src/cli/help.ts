/**
 * Help text, made from the command specs (args.ts): the short top-level usage (one line per command) and
 * `COMMAND --help` (synopsis, what the command does, every option under its heading, examples). Wrapped to 80
 * columns whatever the terminal, so the text is the same in a pipe, a log and a test.
 */
import type { CommandSpec, OptionSpec } from '../commands/args.js';
import type { FormatEntry } from '../node.js';
import type * as FormatWords from '../commands/format-words.js';

/** What the usage says about formats (commands/format-words.ts), handed in: loaded with the formats, not with the shell. */
export type UsageWords = Pick<typeof FormatWords, 'ARCHIVES' | 'formatEntries' | 'writerExtensions'>;

const WIDTH = 80;
const OPTION_COLUMN = 26;
/** Every command takes it (main.ts answers it before parsing). */
const HELP: OptionSpec = { name: '--help', aliases: ['-h'], help: 'Show this help.', group: 'options' };

/** `text` as lines of at most `width` characters, each after `indent` (the first after `first` instead). */
function wrap(text: string, width: number, indent: string, first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

function optionLines(o: OptionSpec): string[] {
  const names = [...(o.aliases ?? []), o.name].join(', ') + (o.value ? ` ${o.value}` : '');
  const help = o.help + (o.repeatable ? ' Repeatable.' : '');
  const head = `  ${names}`;
  const pad = ' '.repeat(OPTION_COLUMN);
  if (head.length + 2 > OPTION_COLUMN) return [head, ...wrap(help, WIDTH, pad)];
  return wrap(help, WIDTH, pad, head.padEnd(OPTION_COLUMN));
}

/** `idtech-models COMMAND --help`. */
export function commandHelp(spec: CommandSpec): string {
  const out: string[] = [];
  spec.usage.forEach((u, i) => out.push(`${i === 0 ? 'usage: ' : '       '}idtech-models ${u}`));
  for (const p of spec.about) out.push('', ...wrap(p, WIDTH, ''));
  const groups = new Map<string, OptionSpec[]>();
  for (const o of [...spec.options, HELP]) {
    const g = o.group ?? 'options';
    groups.set(g, [...(groups.get(g) ?? []), o]);
  }
  for (const [g, list] of groups) out.push('', `${g}:`, ...list.flatMap(optionLines));
  if (spec.examples?.length) out.push('', 'examples:', ...spec.examples.map((e) => `  idtech-models ${e}`));
  return out.join('\n') + '\n';
}

/** The synopsis alone, shown under a usage error. */
export function commandSynopsis(spec: CommandSpec): string {
  const lines = spec.usage.map((u, i) => `${i === 0 ? 'usage: ' : '       '}idtech-models ${u}`);
  return [...lines, `See 'idtech-models ${spec.name} --help' for every option.`].join('\n') + '\n';
}

/**
 * The top-level usage: one line per command, then the formats it reads — each registration's name, files and one
 * line (`formats`: the command line's own list, so a CLI built with a format of its own lists it) — and writes.
 */
export function topUsage(commands: readonly CommandSpec[], formats: readonly FormatEntry[], words: UsageWords): string {
  const { ARCHIVES, formatEntries, writerExtensions } = words;
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'usage: idtech-models COMMAND [ARGS]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    `reads (by extension, else by first bytes; loose, or inside ${ARCHIVES} archives):`,
    ...formatEntries(formats).flatMap((f) => wrap(`${f.head}: ${f.text}`, WIDTH, '      ', '  ')),
    `writes: .glb .gltf .obj, and ${writerExtensions(formats).join(' ')} (from glTF, or any model through glTF)`,
    '',
    'idtech-models COMMAND --help   every option of COMMAND (also: idtech-models help COMMAND)',
    'idtech-models --version        the version',
  ].join('\n') + '\n';
}
