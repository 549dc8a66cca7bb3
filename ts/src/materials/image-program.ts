/**
 * Doom 3 image programs (renderer/Image_program.cpp `R_ParseImageProgram_r`): a stage's `map` is an image name or a
 * function of images — `heightmap(img, scale)`, `addnormals(a, b)`, `smoothnormals(a)`, `add(a, b)`,
 * `scale(a, r, g, b, a)`, `invertAlpha(a)`, `invertColor(a)`, `makeIntensity(a)`, `makeAlpha(a)`. We keep the
 * program's text and the image names in it, in order; the resolver draws with the first one (for
 * `addnormals(x_local, heightmap(x_h, 4))` that is the normal map `x_local`).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { ScriptLexer, ScriptToken } from '../text/script-lexer.js';

/** Deeper nesting is no real program; the cap keeps recursion off the call stack's limit (a typed error instead). */
export const MAX_PROGRAM_DEPTH = 64;

const FUNCTIONS = new Set(['heightmap', 'addnormals', 'smoothnormals', 'add', 'scale', 'invertalpha', 'invertcolor', 'makeintensity', 'makealpha']);

export interface ImageProgram {
  /** The program as text (`addnormals(a, heightmap(b, 4))`), or the plain image name. */
  text: string;
  /** Image names in the order written. */
  images: { name: string; line: number; column: number }[];
  /** The outermost function (`heightmap` …, lower-cased), or null for a plain image. */
  outer: string | null;
  /** Where the program starts. */
  line: number;
  column: number;
}

/**
 * Read one image program from `lex` (doom3 dialect). A name is a function only when `(` follows it, so an image
 * named `add` still loads. Returns null when the text ends first. Never reads past a `}` that is not its own.
 */
export function parseImageProgram(lex: ScriptLexer): ImageProgram | null {
  const first = lex.peek();
  if (!first || first.text === '}' || first.text === '{') return null;
  const images: ImageProgram['images'] = [];
  let outer: string | null = null;
  let depth = 0;

  const term = (): string => {
    const t = lex.next() as ScriptToken;
    const lower = t.text.toLowerCase();
    if (!t.quoted && FUNCTIONS.has(lower) && lex.peek()?.text === '(') {
      outer ??= lower;
      lex.next();
      if (++depth > MAX_PROGRAM_DEPTH) {
        throw new ModelParseError(ErrorCode.BadCount, `image program nested deeper than ${MAX_PROGRAM_DEPTH} functions`, { offset: t.offset, line: t.line, column: t.column });
      }
      const parts: string[] = [];
      // Arguments: sub-programs and numbers, separated by ',', until the matching ')'.
      for (let p = lex.peek(); p && p.text !== ')' && p.text !== '}' && p.text !== '{'; p = lex.peek()) {
        if (p.text === ',') {
          lex.next();
          continue;
        }
        if (!p.quoted && /^[-+.\d]/.test(p.text)) {
          // A number (idLexer reads a sign as its own punctuation token).
          let num = (lex.next() as ScriptToken).text;
          if ((num === '-' || num === '+') && /^[.\d]/.test(lex.peek()?.text ?? '')) num += (lex.next() as ScriptToken).text;
          parts.push(num);
        } else parts.push(term());
      }
      if (lex.peek()?.text === ')') lex.next();
      depth--;
      return `${t.text}(${parts.join(', ')})`;
    }
    if (t.text !== '(' && t.text !== ')' && t.text !== ',') images.push({ name: t.text, line: t.line, column: t.column });
    return t.text;
  };

  const text = term();
  return { text, images, outer, line: first.line, column: first.column };
}
