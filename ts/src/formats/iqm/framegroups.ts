/**
 * DarkPlaces `.framegroups` files (`model.iqm.framegroups` beside the model: Xonotic's named clips over one long
 * anim), read as DarkPlaces `model_shared.c` Mod_FrameGroupify_ParseGroups reads them: COM_ParseToken_Simple tokens
 * (newlines returned as tokens, `//` and `/* *\/` comments skipped, `"…"` strings), one group per line:
 * `start length [fps [loop [name]]]`, extra tokens eaten. Defaults: fps 20, loop on, name `groupified_<i>_anim`.
 * Numbers are read with atoi / atof (a word that is no number reads as 0), and a line with a start but no length is
 * skipped (DarkPlaces prints "missing number of frames"). Mod_FrameGroupify_ParseGroups_Store then bounds each group to
 * the model's frames: first in [0, frames − 1], count in [1, frames − first], fps at least 1 — {@link boundFrameGroups}.
 *
 * Contract: never throws, for any string or bytes (bytes are Latin-1, read whole); work and memory are linear in the
 * input, and at most `maxGroups` + 1 groups are kept (`complete` says whether the text held more: the caller refuses
 * it, `iqmClips` with RESOURCE_LIMIT `maxAnimationClips`).
 */
import type { ParseWarning } from '../../base/errors.js';
import { latin1 } from '../../text/script-lexer.js';

export interface IqmFrameGroup {
  /** DarkPlaces' name: the fifth token, else `groupified_<i>_anim`. */
  name: string;
  firstFrame: number;
  frameCount: number;
  fps: number;
  loop: boolean;
  /** The line's `//` comment (Xonotic writes the clip's name there), '' when none. */
  comment: string;
  line: number;
}

interface Tok {
  text: string;
  line: number;
  offset: number;
}

/**
 * DarkPlaces' longest token (COM_ParseToken_Simple copies at most `sizeof(com_token) - 1` characters, com_token
 * being MAX_INPUTLINE = 16384 bytes): the rest of a longer one is skipped, as the engine skips it.
 */
const MAX_TOKEN = 16383;

/** The tokens of `src`, a string or Latin-1 bytes: bytes are never made one string (600 MB would pass V8's longest). */
function* tokens(src: string | Uint8Array): Generator<Tok> {
  const code = typeof src === 'string' ? (k: number) => src.charCodeAt(k) : (k: number) => (k < src.length ? src[k] : NaN);
  const slice = (a: number, b: number) => {
    const end = Math.min(b, a + MAX_TOKEN);
    return typeof src === 'string' ? src.slice(a, end) : latin1(src.subarray(a, end));
  };
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = code(i);
    if (c === 10) {
      yield { text: '\n', line, offset: i };
      line++;
      i++;
    } else if (c <= 32) {
      i++;
    } else if (c === 47 && code(i + 1) === 47) {
      const start = i;
      while (i < n && code(i) !== 10) i++;
      yield { text: slice(start, i), line, offset: start }; // a comment, marked by its '//'
    } else if (c === 47 && code(i + 1) === 42) {
      i += 2;
      while (i < n && !(code(i) === 42 && code(i + 1) === 47)) {
        if (code(i) === 10) line++;
        i++;
      }
      i += 2;
    } else if (c === 34) {
      const start = ++i;
      while (i < n && code(i) !== 34) i++;
      yield { text: slice(start, i), line, offset: start - 1 };
      i++;
    } else {
      const start = i;
      while (i < n && code(i) > 32) i++;
      yield { text: slice(start, i), line, offset: start };
    }
  }
}

/** C atoi: optional sign and leading digits; anything else reads as 0. */
const atoi = (s: string) => {
  const m = /^\s*[+-]?\d+/.exec(s);
  return m ? parseInt(m[0], 10) : 0;
};
/** C atof: the longest leading decimal number; anything else reads as 0. */
const atof = (s: string) => {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(s);
  return m ? parseFloat(m[0]) : 0;
};

/** Lines skipped that are each warned about; the rest are counted in one warning (a warning per line of a huge file is memory). */
const MAX_SKIP_WARNINGS = 64;

export interface FrameGroupsParse {
  groups: IqmFrameGroup[];
  warnings: ParseWarning[];
  /** False when the text holds more than `maxGroups` groups: `groups` then stops one past the bound. */
  complete: boolean;
}

/**
 * The groups as written (before bounding to a model's frames), at most `maxGroups` + 1 of them (default: every one).
 * Bytes are read whole as Latin-1 (a byte per character, as the engine's C strings), a token at a time (a token
 * longer than DarkPlaces' 16,383 characters is cut as the engine cuts it): before issue 36 a Uint8Array was spread
 * into `String.fromCharCode` (a RangeError past ~120 KB) and cut at 256 KB.
 */
export function parseFrameGroups(input: string | Uint8Array, options: { maxGroups?: number } = {}): FrameGroupsParse {
  const maxGroups = options.maxGroups ?? Infinity;
  const warnings: ParseWarning[] = [];
  const groups: IqmFrameGroup[] = [];
  // One line's tokens at a time (comments apart), as the engine's loop walks them up to each "\n".
  let words: Tok[] = [];
  let comment = '';
  let skipped = 0;
  const flush = () => {
    if (words.length === 1) {
      skipped++;
      if (skipped <= MAX_SKIP_WARNINGS) warnings.push({ code: 'FRAMEGROUP_SKIPPED', message: `line ${words[0].line}: a start without a number of frames (DarkPlaces: "missing number of frames"); skipped`, offset: words[0].offset, line: words[0].line });
    } else if (words.length >= 2) {
      const i = groups.length;
      groups.push({
        name: words[4]?.text || `groupified_${i}_anim`,
        firstFrame: atoi(words[0].text),
        frameCount: atoi(words[1].text),
        fps: words[2] ? atof(words[2].text) : 20,
        loop: words[3] ? atoi(words[3].text) !== 0 : true,
        comment,
        line: words[0].line,
      });
    }
    words = [];
    comment = '';
  };
  for (const t of tokens(input)) {
    if (t.text === '\n') {
      flush();
      if (groups.length > maxGroups) break;
    } else if (t.text.startsWith('//')) comment = t.text.slice(2).trim();
    else if (words.length < 5) words.push(t); // the engine reads five tokens of a line and eats the rest
  }
  flush();
  if (skipped > MAX_SKIP_WARNINGS) warnings.push({ code: 'FRAMEGROUP_SKIPPED', message: `${skipped - MAX_SKIP_WARNINGS} more line(s) with a start and no number of frames; skipped`, offset: 0 });
  return { groups, warnings, complete: groups.length <= maxGroups };
}

/** Mod_FrameGroupify_ParseGroups_Store's bounds over a model of `frameCount` frames (DarkPlaces counts at least 1). */
export function boundFrameGroups(groups: readonly IqmFrameGroup[], frameCount: number): IqmFrameGroup[] {
  const poses = Math.max(frameCount, 1);
  return groups.map((g) => {
    const first = Math.min(Math.max(g.firstFrame, 0), poses - 1);
    return { ...g, firstFrame: first, frameCount: Math.min(Math.max(g.frameCount, 1), poses - first), fps: Math.max(1, g.fps) };
  });
}
