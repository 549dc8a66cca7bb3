/**
 * Quake 3 `.skin` files (`lower_default.skin`): which shader each MD3 surface draws with.
 *
 * Read exactly as ioquake3's RE_RegisterSkin (renderergl1/tr_image.c) reads them, token by token with CommaParse:
 * - a token skips whitespace (bytes ≤ 0x20), `//` and `/* *\/` comments; a `"…"` token runs to the next quote or the
 *   end; any other token takes its first byte unconditionally and then runs until whitespace or ',';
 * - each entry is a surface name, an optional ',', then the shader name — except that a name containing `tag_`
 *   (case-sensitive, anywhere) is a tag line and no shader name is read after it;
 * - surface names are lower-cased (R_LoadMD3 lower-cases the MD3's too); the first entry for a surface wins
 *   (R_AddMD3Surfaces stops at the first match).
 * No trailing newline is needed and nothing is ever an error. One engine quirk is reproduced and reported: a
 * surface line with an empty value (`u_torso,` then a line break) takes the next line's first token as its shader,
 * because CommaParse skips the line break; a SKIN_VALUE_ON_NEXT_LINE warning says so.
 */
import type { ParseWarning } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { latin1 } from '../text/script-lexer.js';

export interface SkinEntry {
  /** Lower-cased surface name. */
  surface: string;
  /** The shader (or image) name as written; '' when the file ends right after the surface name. */
  shader: string;
  /** Position of the surface name. */
  offset: number;
  line: number;
  column: number;
}

export interface SkinFile {
  /** Surface entries in file order (a surface may repeat; the first wins). */
  entries: SkinEntry[];
  /** Tag lines' names as written (`tag_head`). */
  tags: string[];
  warnings: ParseWarning[];
}

interface CommaToken {
  text: string;
  offset: number;
  line: number;
  column: number;
}

/** Parse a `.skin` file (bytes are read as Latin-1). Never throws. */
export function parseSkin(input: Uint8Array | string): SkinFile {
  const s = typeof input === 'string' ? input : latin1(input);
  const n = s.length;
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  const advanceLines = (from: number, to: number) => {
    // A byte loop: indexOf could run past `to` on every call (quadratic on a long line of short comments).
    for (let i = from; i < to; i++) {
      if (s.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
  };

  // CommaParse: the next token, or null at the end of the text.
  const commaParse = (): CommaToken | null => {
    for (;;) {
      const ws = pos;
      while (pos < n && s.charCodeAt(pos) <= 0x20) pos++;
      advanceLines(ws, pos);
      if (pos >= n) return null;
      if (s.charCodeAt(pos) === 0x2f && s.charCodeAt(pos + 1) === 0x2f) {
        const end = s.indexOf('\n', pos);
        pos = end < 0 ? n : end;
      } else if (s.charCodeAt(pos) === 0x2f && s.charCodeAt(pos + 1) === 0x2a) {
        const end = s.indexOf('*/', pos + 2);
        const stop = end < 0 ? n : end + 2;
        advanceLines(pos, stop);
        pos = stop;
      } else break;
    }
    const start = pos;
    const at = { offset: start, line, column: start - lineStart + 1 };
    if (s.charCodeAt(pos) === 0x22) {
      const end = s.indexOf('"', pos + 1);
      const stop = end < 0 ? n : end;
      advanceLines(pos, stop);
      pos = end < 0 ? n : end + 1;
      return { text: s.slice(start + 1, stop), ...at };
    }
    pos++;
    while (pos < n && s.charCodeAt(pos) > 0x20 && s.charCodeAt(pos) !== 0x2c) pos++;
    return { text: s.slice(start, pos), ...at };
  };

  const entries: SkinEntry[] = [];
  const tags: string[] = [];
  const warnings: ParseWarning[] = [];
  while (pos < n) {
    const name = commaParse();
    if (!name || name.text === '') break;
    if (s.charCodeAt(pos) === 0x2c) pos++;
    if (name.text.includes('tag_')) {
      tags.push(name.text);
      continue;
    }
    const shader = commaParse();
    if (shader && shader.line !== name.line) {
      warnings.push({
        code: 'SKIN_VALUE_ON_NEXT_LINE',
        message: `surface '${shortName(name.text)}' has no shader on its line; as in the engine it takes '${shortName(shader.text)}' from line ${shader.line}`,
        offset: name.offset,
        line: name.line,
        column: name.column,
      });
    }
    entries.push({ surface: name.text.toLowerCase(), shader: shader?.text ?? '', offset: name.offset, line: name.line, column: name.column });
  }
  return { entries, tags, warnings };
}

/** The shader a skin gives `surface` (already lower-cased and stripped as {@link md3SurfaceKey} does), or null. */
export function skinShaderFor(skin: SkinFile, surface: string): SkinEntry | null {
  for (const e of skin.entries) if (e.surface === surface) return e;
  return null;
}

/**
 * The name an MD3 surface is matched by in skins (ioquake3 R_LoadMD3, tr_model.c): lower-cased, and a trailing
 * `_1`/`_2` (any `_x`) cut off — "a crutch for q3data being a mess".
 */
export function md3SurfaceKey(name: string): string {
  const lower = name.toLowerCase();
  const j = lower.length;
  return j > 2 && lower.charCodeAt(j - 2) === 0x5f ? lower.slice(0, j - 2) : lower;
}
