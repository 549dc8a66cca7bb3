/**
 * The words of Cubescript commands, as Tesseract's `command.cpp` splits them (the language of `iqm.cfg`): a command
 * ends at a newline or `;`; a word is a `"…"` string (`^` escapes one character: `^"`, `^n`, `^t`, `^^`), a `[…]`
 * block (nested brackets, kept as its raw text for later), a `(…)` expression (raw text), or a run of other bytes;
 * `//` runs to the end of the line. Nothing is evaluated here (`iqm-cfg.ts` does what the model configs need).
 *
 * A block or expression is split when it is run, as Tesseract compiles a block's text when it executes it — but
 * from the script it came from (`CubeScript.commands(word)`), never by splitting its text again: every block's and
 * expression's end is found once, in one pass over the whole text, so reading a block skips the blocks inside it in
 * one step. Before issue 36 each nested block was split from its own text, and 1,000 `if 1 [` around 2.5 MB of
 * padding scanned the padding 1,000 times (15–25 s); now any nesting costs one pass plus each command once.
 *
 * Contract: never throws (an unclosed string, block or expression runs to the end of its text); no recursion, so no
 * depth of nesting overflows the stack; time and memory linear in the text (4 bytes a character for the ends).
 */

export type CubeWordKind = 'word' | 'string' | 'block' | 'expr';

export interface CubeWord {
  kind: CubeWordKind;
  /** A string's value without quotes and escapes; a block's or expression's inner text. */
  text: string;
  line: number;
  column: number;
  /** A block's or expression's inner text, as offsets [start, end) in the script's text (a word's or string's own span). */
  start: number;
  end: number;
}

export interface CubeCommand {
  words: CubeWord[];
  line: number;
  column: number;
}

/** A script's text with where each of its blocks and expressions ends: what runs its blocks without splitting them again. */
export interface CubeScript {
  readonly text: string;
  /** The commands of the whole text, or of a block's or expression's inner text; a command's words are never empty. */
  commands(inner?: CubeWord): CubeCommand[];
  /** The same, one at a time (`null` after the last): what a reader holds while it runs them is one command. */
  cursor(inner?: CubeWord): { next(): CubeCommand | null };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', f: '\f' };

/**
 * Where each `[` and `(` closes (the index of its `]` / `)`, -1 when it does not), over the whole text, in code as
 * the splitter reads it (strings and `//` comments skipped the same way). Brackets and parentheses are matched
 * apart, as Tesseract does (a block's end is found counting brackets only), so the match of one found from the
 * start of the text is the one found from anywhere it is read.
 */
function closings(text: string): Int32Array {
  const n = text.length;
  const close = new Int32Array(n).fill(-1);
  const brackets: number[] = [];
  const parens: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < n && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 94) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== 10) i++;
    } else if (c === 91) brackets.push(i);
    else if (c === 40) parens.push(i);
    else if (c === 93) {
      const open = brackets.pop();
      if (open !== undefined) close[open] = i;
    } else if (c === 41) {
      const open = parens.pop();
      if (open !== undefined) close[open] = i;
    }
  }
  return close;
}

/** The script of `text` (Latin-1); line numbers count from `firstLine`. */
export function cubeScript(text: string, firstLine = 1): CubeScript {
  const n = text.length;
  let close: Int32Array | undefined;
  let newlines: Int32Array | undefined;
  const ends = () => (close ??= closings(text));
  /** Positions of every newline, for a line and column anywhere in O(log lines). */
  const lines = () => {
    if (!newlines) {
      let count = 0;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
      newlines = new Int32Array(count);
      for (let i = text.indexOf('\n'), k = 0; i >= 0; i = text.indexOf('\n', i + 1)) newlines[k++] = i;
    }
    return newlines;
  };
  /** How many newlines lie before `pos`. */
  const before = (pos: number) => {
    const nl = lines();
    let lo = 0;
    let hi = nl.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nl[mid] < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const cursor = (inner?: CubeWord): { next(): CubeCommand | null } => {
    const from = inner && (inner.kind === 'block' || inner.kind === 'expr') ? inner.start : 0;
    const to = inner && (inner.kind === 'block' || inner.kind === 'expr') ? inner.end : n;
    let i = from;
    const k = before(from);
    let line = firstLine + k;
    let lineStart = k > 0 ? lines()[k - 1] + 1 : 0;
    let words: CubeWord[] = [];
    const end = (): CubeCommand | null => {
      const done = words.length ? { words, line: words[0].line, column: words[0].column } : null;
      words = [];
      return done;
    };
    /** From `i` (an opening bracket or parenthesis) past its match, or to `to`; the inner text's span. */
    const skip = (): { start: number; end: number } => {
      const start = i + 1;
      const c = ends()[i];
      const stop = c < 0 || c >= to ? to : c;
      // the lines inside it
      const k2 = before(stop);
      if (k2 > line - firstLine) {
        line = firstLine + k2;
        lineStart = lines()[k2 - 1] + 1;
      }
      i = stop < to ? stop + 1 : to;
      return { start, end: stop };
    };
    const next = (): CubeCommand | null => {
      while (i < to) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 59) {
          if (c === 10) {
            line++;
            lineStart = i + 1;
          }
          i++;
          const done = end();
          if (done) return done;
        } else if (c <= 32) {
          i++;
        } else if (c === 47 && i + 1 < to && text.charCodeAt(i + 1) === 47) {
          while (i < to && text.charCodeAt(i) !== 10) i++;
        } else {
          const at = { line, column: i - lineStart + 1 };
          if (c === 34) {
            const start = i;
            let s = '';
            for (i++; i < to && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10; i++) {
              if (text.charCodeAt(i) === 94 && i + 1 < to) {
                i++;
                s += ESCAPES[text[i]] ?? text[i];
                if (text.charCodeAt(i) === 10) {
                  line++;
                  lineStart = i + 1;
                }
              } else s += text[i];
            }
            if (i < to && text.charCodeAt(i) === 34) i++;
            words.push({ kind: 'string', text: s, ...at, start, end: i });
          } else if (c === 91 || c === 40) {
            const span = skip();
            words.push({ kind: c === 91 ? 'block' : 'expr', text: text.slice(span.start, span.end), ...at, ...span });
          } else {
            const start = i;
            while (i < to) {
              const d = text.charCodeAt(i);
              if (d <= 32 || d === 59 || d === 34 || d === 91 || d === 93 || d === 40 || d === 41 || (d === 47 && i + 1 < to && text.charCodeAt(i + 1) === 47)) break;
              i++;
            }
            if (i === start) i++; // a stray ']' or ')': skipped
            else words.push({ kind: 'word', text: text.slice(start, i), ...at, start, end: i });
          }
        }
      }
      return end();
    };
    return { next };
  };
  const commands = (inner?: CubeWord): CubeCommand[] => {
    const out: CubeCommand[] = [];
    const c = cursor(inner);
    for (let cmd = c.next(); cmd; cmd = c.next()) out.push(cmd);
    return out;
  };
  return { text, commands, cursor };
}

/** The commands of `text` (Latin-1), in order; a command's words are never empty. */
export function cubeCommands(text: string, firstLine = 1): CubeCommand[] {
  return cubeScript(text, firstLine).commands();
}
