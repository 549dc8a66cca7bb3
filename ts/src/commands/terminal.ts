/**
 * What the CLI prints is made of names from the files it reads (MD3 surface and shader names, MD2 skin names,
 * archive member paths, glTF node names, script tokens), and a terminal obeys control characters wherever they
 * come from: an ESC … OSC sequence in a surface name can retitle the window, move the cursor over earlier lines or,
 * in some terminals, do worse. So every line the CLI writes passes through one gate, installed once on
 * `process.stdout` and `process.stderr` by the CLI's entry (main.ts) before any command runs: a command added later
 * cannot print around it. The gate
 * - escapes C0 controls other than line feed and tab (ESC, CR, BEL, backspace…), DEL, the C1 controls (U+0080–
 *   U+009F: 8-bit CSI and OSC) and the bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, which
 *   reorder what is shown, and the invisible marks U+200E, U+200F, U+061C that also move neutral characters; the same
 *   set vfs/safe-path.ts refuses in an output name) as `\u001b`: the form JSON uses, so `--json` output stays valid JSON;
 * - cuts a stderr line past {@link MAX_LINE} characters, saying how many it left out (a 10 MB image name in an .mtr
 *   otherwise makes a 10 MB line). stdout is not cut: `--json` lines are as long as the data.
 * The progress bars are the one writer that needs real control sequences (`\r`, erase line): they write through
 * {@link writeControl}, and escape the one name they show themselves.
 */

/** Longest stderr line printed whole. */
export const MAX_LINE = 4096;

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character but line feed and tab escaped (see the file comment). */
export function printable(text: string): string {
  return text.replace(CONTROLS, escape);
}

/** Each line of `text` cut to `max` characters, with how many were left out. */
export function capLines(text: string, max = MAX_LINE): string {
  if (text.length <= max) return text;
  return text
    .split('\n')
    .map((line) => (line.length <= max ? line : `${line.slice(0, max)}… (${line.length - max} more characters)`))
    .join('\n');
}

type Write = NodeJS.WriteStream['write'];
const raw = new WeakMap<NodeJS.WriteStream, Write>();

/** Replaces `stream.write` by one that escapes (and, for stderr, cuts) what is written. Idempotent. */
function gate(stream: NodeJS.WriteStream, cap: boolean): void {
  if (raw.has(stream)) return;
  const original = stream.write.bind(stream) as Write;
  raw.set(stream, original);
  const decoder = new TextDecoder();
  stream.write = function (chunk: unknown, ...rest: unknown[]): boolean {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? decoder.decode(chunk) : String(chunk);
    const safe = printable(text);
    return (original as (c: string, ...r: unknown[]) => boolean)(cap ? capLines(safe) : safe, ...rest);
  } as Write;
}

/** Installs the gate on stdout and stderr (the CLI's entry calls this once, before any command runs). */
export function guardTerminalOutput(): void {
  gate(process.stdout, false);
  gate(process.stderr, true);
}

/**
 * Writes `text` as it is, control sequences included, past the gate: for the progress bars only, which draw with
 * `\r` and erase-line and pass every name they show through {@link printable} first.
 */
export function writeControl(stream: NodeJS.WriteStream, text: string): boolean {
  return (raw.get(stream) ?? stream.write.bind(stream))(text);
}
