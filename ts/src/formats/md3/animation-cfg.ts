/**
 * Quake 3 `animation.cfg` (the frame ranges of a player's lower.md3 / upper.md3), read as ioquake3
 * `cg_players.c` CG_ParseAnimationFile does: COM_Parse tokens (whitespace, `//` and `/* *\/` comments, quoted
 * strings; line breaks mean nothing), optional keywords first (`sex`, `footsteps`, `headoffset`, `fixedlegs`,
 * `fixedtorso`), then from the first token starting with a digit, `first num looping fps` for each animation in the
 * fixed order BOTH_DEATH1 … LEGS_TURN (25, required), then the 6 Team Arena torso gestures (optional: missing
 * ones copy TORSO_GESTURE). Then the engine's adjustments:
 * - LEGS_* first frames are numbered in the file after the TORSO_* frames (which only upper.md3 has); the game
 *   subtracts (first of LEGS_WALKCR − first of TORSO_GESTURE) so they index lower.md3;
 * - a negative frame count means the animation plays backwards;
 * - fps 0 means 1; frameLerp = trunc(1000 / fps) ms;
 * - derived: LEGS_BACKCR / LEGS_BACKWALK are LEGS_WALKCR / LEGS_WALK reversed; FLAG_* are fixed.
 *
 * Stricter than the engine (which uses atoi/atof and stops quietly): a malformed number is BAD_NUMBER, a file
 * ending before the 25th animation is TRUNCATED, a first frame that ends up negative is INDEX_OUT_OF_RANGE — each
 * with line:column. What the engine only prints about (an unknown keyword, a bad footsteps value, tokens after the
 * last animation, a loop longer than its animation) is a warning.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';

/** The animations of a Quake 3 player, in file order (bg_public.h animNumber_t up to MAX_ANIMATIONS). */
export const MD3_PLAYER_ANIMATIONS = [
  'BOTH_DEATH1', 'BOTH_DEAD1', 'BOTH_DEATH2', 'BOTH_DEAD2', 'BOTH_DEATH3', 'BOTH_DEAD3',
  'TORSO_GESTURE', 'TORSO_ATTACK', 'TORSO_ATTACK2', 'TORSO_DROP', 'TORSO_RAISE', 'TORSO_STAND', 'TORSO_STAND2',
  'LEGS_WALKCR', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_BACK', 'LEGS_SWIM', 'LEGS_JUMP', 'LEGS_LAND', 'LEGS_JUMPB',
  'LEGS_LANDB', 'LEGS_IDLE', 'LEGS_IDLECR', 'LEGS_TURN',
  'TORSO_GETFLAG', 'TORSO_GUARDBASE', 'TORSO_PATROL', 'TORSO_FOLLOWME', 'TORSO_AFFIRMATIVE', 'TORSO_NEGATIVE',
] as const;
/** Built by the game after reading the file (animNumber_t after MAX_ANIMATIONS). */
export const MD3_DERIVED_ANIMATIONS = ['LEGS_BACKCR', 'LEGS_BACKWALK', 'FLAG_RUN', 'FLAG_STAND', 'FLAG_STAND2RUN'] as const;

export type Md3AnimationName = (typeof MD3_PLAYER_ANIMATIONS)[number] | (typeof MD3_DERIVED_ANIMATIONS)[number];

/** Each animation's index in the file's order. */
const A = /* @__PURE__ */ animationIndices();

function animationIndices() {
  return Object.fromEntries(MD3_PLAYER_ANIMATIONS.map((n, i) => [n, i])) as Record<(typeof MD3_PLAYER_ANIMATIONS)[number], number>;
}

export interface Md3Animation {
  name: Md3AnimationName;
  /** Into lower.md3 for BOTH_/LEGS_, into upper.md3 for BOTH_/TORSO_ (after the LEGS_ adjustment). */
  firstFrame: number;
  /** ≥ 0 (a negative count in the file sets `reversed`). */
  numFrames: number;
  /** The last `loopFrames` frames repeat; 0 = play once and hold the last frame. */
  loopFrames: number;
  fps: number;
  /** trunc(1000 / fps): the engine's milliseconds per frame. */
  frameLerpMs: number;
  reversed: boolean;
  flipflop: boolean;
}

export interface Md3AnimationCfg {
  sex: 'male' | 'female' | 'neuter';
  footsteps: 'normal' | 'boot' | 'flesh' | 'mech' | 'energy';
  headOffset: [number, number, number];
  fixedLegs: boolean;
  fixedTorso: boolean;
  /** The 31 file animations then the 5 derived ones, in animNumber_t order. */
  animations: Md3Animation[];
  byName: Record<Md3AnimationName, Md3Animation>;
  /** Whether the file gave the Team Arena gestures itself (else they copy TORSO_GESTURE). */
  teamArena: boolean;
  warnings: ParseWarning[];
}

interface Token {
  text: string;
  offset: number;
  line: number;
  column: number;
}

/** COM_Parse: the tokens of `text`, with positions. */
function* tokens(text: string): Generator<Token> {
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = text.length;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c <= 32) {
      if (c === 10) newline(i);
      i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      i += 2;
      while (i < n && !(text.charCodeAt(i) === 42 && text.charCodeAt(i + 1) === 47)) {
        if (text.charCodeAt(i) === 10) newline(i);
        i++;
      }
      i += 2;
    } else {
      const start = i;
      const pos = { offset: start, line, column: start - lineStart + 1 };
      if (c === 34) {
        i++;
        while (i < n && text.charCodeAt(i) !== 34) {
          if (text.charCodeAt(i) === 10) newline(i);
          i++;
        }
        yield { text: text.slice(start + 1, i), ...pos };
        i++;
      } else {
        while (i < n && text.charCodeAt(i) > 32) i++;
        yield { text: text.slice(start, i), ...pos };
      }
    }
  }
}

const INT = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const FOOTSTEPS: Record<string, Md3AnimationCfg['footsteps']> = {
  default: 'normal', normal: 'normal', boot: 'boot', flesh: 'flesh', mech: 'mech', energy: 'energy',
};

function animation(name: Md3AnimationName, first: number, num: number, loop: number, fps: number, reversed: boolean): Md3Animation {
  return { name, firstFrame: first, numFrames: num, loopFrames: loop, fps, frameLerpMs: Math.trunc(1000 / fps), reversed, flipflop: false };
}

/** Parses an animation.cfg (text, or bytes read as Latin-1 so offsets are byte offsets). */
export function parseAnimationCfg(input: string | Uint8Array): Md3AnimationCfg {
  const text = typeof input === 'string' ? input : new TextDecoder('latin1').decode(input);
  const warnings: ParseWarning[] = [];
  const it = tokens(text);
  const eof = (): Token => {
    const lastBreak = text.lastIndexOf('\n');
    return { text: '', offset: text.length, line: text.split('\n').length, column: text.length - lastBreak };
  };
  const fail = (code: ErrorCode, detail: string, at: Token): never => {
    throw new ModelParseError(code, detail, { offset: at.offset, line: at.line, column: at.column });
  };
  const warn = (code: string, message: string, at: Token) =>
    warnings.push({ code, message, offset: at.offset, line: at.line, column: at.column });
  let pending: Token | undefined;
  const next = (): Token | undefined => {
    if (pending) {
      const t = pending;
      pending = undefined;
      return t;
    }
    const r = it.next();
    return r.done ? undefined : r.value;
  };
  const need = (what: string): Token => next() ?? fail(ErrorCode.Truncated, `input ended while expecting ${what}`, eof());
  const int = (t: Token, what: string): number => {
    if (!INT.test(t.text)) fail(ErrorCode.BadNumber, `${what} must be an integer, got ${JSON.stringify(t.text)}`, t);
    return Number(t.text);
  };
  const float = (t: Token, what: string): number => {
    const v = Number(t.text);
    if (!FLOAT.test(t.text) || !Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} must be a number, got ${JSON.stringify(t.text)}`, t);
    return v;
  };

  const cfg: Omit<Md3AnimationCfg, 'animations' | 'byName' | 'teamArena' | 'warnings'> = {
    sex: 'male', footsteps: 'normal', headOffset: [0, 0, 0], fixedLegs: false, fixedTorso: false,
  };
  // Optional keywords, until the first token that starts with a digit.
  for (let t = next(); t !== undefined; t = next()) {
    const k = t.text.toLowerCase();
    if (k === 'footsteps') {
      const v = need('a footsteps value');
      const f = FOOTSTEPS[v.text.toLowerCase()];
      if (f) cfg.footsteps = f;
      else warn('BAD_FOOTSTEPS', `unknown footsteps ${JSON.stringify(v.text)} (kept 'normal', as the engine does)`, v);
    } else if (k === 'headoffset') {
      for (let c = 0; c < 3; c++) cfg.headOffset[c] = float(need('a headoffset number'), 'headoffset');
    } else if (k === 'sex') {
      const v = need('a sex value').text[0];
      cfg.sex = v === 'f' || v === 'F' ? 'female' : v === 'n' || v === 'N' ? 'neuter' : 'male';
    } else if (k === 'fixedlegs') {
      cfg.fixedLegs = true;
    } else if (k === 'fixedtorso') {
      cfg.fixedTorso = true;
    } else if (t.text.charCodeAt(0) >= 48 && t.text.charCodeAt(0) <= 57) {
      pending = t;
      break;
    } else {
      warn('UNKNOWN_KEYWORD', `unknown token ${JSON.stringify(t.text)} before the animations (ignored, as the engine does)`, t);
    }
  }

  const animations: Md3Animation[] = [];
  let skip = 0;
  let teamArena = true;
  for (let i = 0; i < MD3_PLAYER_ANIMATIONS.length; i++) {
    const name = MD3_PLAYER_ANIMATIONS[i];
    const firstTok = next();
    if (firstTok === undefined) {
      // every file must give BOTH_DEATH1 … LEGS_TURN
      const required = A.LEGS_TURN + 1;
      if (i < required) fail(ErrorCode.Truncated, `input ended before animation ${name} (${i + 1} of ${required} required)`, eof());
      const g = animations[A.TORSO_GESTURE];
      animations.push({ ...g, name, reversed: false, flipflop: false });
      teamArena = false;
      continue;
    }
    let first = int(firstTok, `${name} first frame`);
    if (i === A.LEGS_WALKCR) skip = first - animations[A.TORSO_GESTURE].firstFrame;
    if (i >= A.LEGS_WALKCR && i < A.TORSO_GETFLAG) first -= skip;
    if (first < 0) {
      fail(ErrorCode.IndexOutOfRange, `${name} first frame ${first}${i >= A.LEGS_WALKCR && i < A.TORSO_GETFLAG ? ` (after subtracting the ${skip} torso-only frames)` : ''} is negative`, firstTok);
    }
    let num = int(need(`${name} frame count`), `${name} frame count`);
    const reversed = num < 0;
    if (reversed) num = -num;
    const loopTok = need(`${name} looping frames`);
    let loop = int(loopTok, `${name} looping frames`);
    if (loop < 0) fail(ErrorCode.BadNumber, `${name} looping frames ${loop} is negative`, loopTok);
    if (loop > num) {
      warn('LOOP_TOO_LONG', `${name} loops ${loop} frames of ${num} (clamped to ${num})`, loopTok);
      loop = num;
    }
    const fpsTok = need(`${name} fps`);
    let fps = float(fpsTok, `${name} fps`);
    if (fps < 0) fail(ErrorCode.BadNumber, `${name} fps ${fps} is negative`, fpsTok);
    if (fps === 0) fps = 1;
    animations.push(animation(name, first, num, loop, fps, reversed));
  }
  const extra = next();
  if (extra) warn('TRAILING_TOKENS', `${JSON.stringify(extra.text)} and anything after the last animation is ignored`, extra);

  const walkcr = animations[A.LEGS_WALKCR];
  const walk = animations[A.LEGS_WALK];
  animations.push({ ...walkcr, name: 'LEGS_BACKCR', reversed: true });
  animations.push({ ...walk, name: 'LEGS_BACKWALK', reversed: true });
  animations.push(animation('FLAG_RUN', 0, 16, 16, 15, false));
  animations.push(animation('FLAG_STAND', 16, 5, 0, 20, false));
  animations.push(animation('FLAG_STAND2RUN', 16, 5, 1, 15, true));
  const byName = Object.fromEntries(animations.map((a) => [a.name, a])) as Record<Md3AnimationName, Md3Animation>;
  return { ...cfg, animations, byName, teamArena, warnings };
}
