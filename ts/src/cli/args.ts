/** Tiny argv parser: positionals, `--flag`, `--opt value`, `-o value`. Unknown options are usage errors. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(argv: string[], withValue: string[], flags: string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (withValue.includes(name)) {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`${name} needs a value`);
        const list = out.options.get(name) ?? [];
        list.push(value);
        out.options.set(name, list);
      } else if (flags.includes(name) && inline === undefined) {
        out.flags.add(name);
      } else {
        throw new UsageError(`unknown option ${name}`);
      }
    } else {
      out.positionals.push(a);
    }
  }
  return out;
}
