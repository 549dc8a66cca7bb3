/**
 * The words of Cubescript commands, as Tesseract's `command.cpp` splits them (the language of `iqm.cfg`): a command
 * ends at a newline or `;`; a word is a `"…"` string (`^` escapes one character: `^"`, `^n`, `^t`, `^^`), a `[…]`
 * block (nested brackets, kept as its raw text for later), a `(…)` expression (raw text), or a run of other bytes;
 * `//` runs to the end of the line. Nothing is evaluated here (`iqm-cfg.ts` does what the model configs need).
 * Never throws: an unclosed string, block or expression runs to the end of the text.
 */

export type CubeWordKind = 'word' | 'string' | 'block' | 'expr';

export interface CubeWord {
  kind: CubeWordKind;
  /** A string's value without quotes and escapes; a block's or expression's inner text. */
  text: string;
  line: number;
  column: number;
}

export interface CubeCommand {
  words: CubeWord[];
  line: number;
  column: number;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', f: '\f' };

/** The commands of `text` (Latin-1), in order; a command's words are never empty. */
export function cubeCommands(text: string, firstLine = 1): CubeCommand[] {
  const out: CubeCommand[] = [];
  let i = 0;
  let line = firstLine;
  let lineStart = 0;
  const n = text.length;
  let words: CubeWord[] = [];
  const end = () => {
    if (words.length) out.push({ words, line: words[0].line, column: words[0].column });
    words = [];
  };
  /** From `i` (an opening bracket or parenthesis) to its match, nested; returns the inner text. */
  const balanced = (open: number, close: number): string => {
    let depth = 0;
    const start = i + 1;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        line++;
        lineStart = i + 1;
      } else if (c === 34) {
        // strings inside a block may hold brackets
        for (i++; i < n && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10; i++) if (text.charCodeAt(i) === 94) i++;
      } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
        while (i + 1 < n && text.charCodeAt(i + 1) !== 10) i++;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        i++;
        return text.slice(start, i - 1);
      }
    }
    return text.slice(start);
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 59) {
      if (c === 10) {
        line++;
        lineStart = i + 1;
      }
      end();
      i++;
    } else if (c <= 32) {
      i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else {
      const at = { line, column: i - lineStart + 1 };
      if (c === 34) {
        let s = '';
        for (i++; i < n && text.charCodeAt(i) !== 34 && text.charCodeAt(i) !== 10; i++) {
          if (text.charCodeAt(i) === 94 && i + 1 < n) {
            i++;
            s += ESCAPES[text[i]] ?? text[i];
          } else s += text[i];
        }
        if (text.charCodeAt(i) === 34) i++;
        words.push({ kind: 'string', text: s, ...at });
      } else if (c === 91) {
        words.push({ kind: 'block', text: balanced(91, 93), ...at });
      } else if (c === 40) {
        words.push({ kind: 'expr', text: balanced(40, 41), ...at });
      } else {
        const start = i;
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d <= 32 || d === 59 || d === 34 || d === 91 || d === 93 || d === 40 || d === 41 || (d === 47 && text.charCodeAt(i + 1) === 47)) break;
          i++;
        }
        if (i === start) i++; // a stray ']' or ')': skipped
        else words.push({ kind: 'word', text: text.slice(start, i), ...at });
      }
    }
  }
  end();
  return out;
}
