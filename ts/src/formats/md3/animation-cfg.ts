/**
 * `animation.cfg`: the frame ranges of an MD3 model's clips, in the three forms the Quake 3 family ships, read as the
 * games read them (COM_Parse tokens: whitespace, `//` and `/* *\/` comments, quoted strings; line breaks mean
 * nothing; then `first num looping fps` per animation in a fixed order):
 *
 * - `player` (ioquake3 `cg_players.c` CG_ParseAnimationFile; Tremulous the same when the file is segmented): a
 *   player's lower.md3 / upper.md3. Optional keywords first (`sex`, `footsteps`, `headoffset`, `fixedlegs`,
 *   `fixedtorso`), then BOTH_DEATH1 … LEGS_TURN (25, required), then the 6 Team Arena torso gestures (optional:
 *   missing ones copy TORSO_GESTURE). LEGS_* first frames are numbered after the TORSO_* frames (which only
 *   upper.md3 has): the game subtracts (first of LEGS_WALKCR − first of TORSO_GESTURE) so they index lower.md3.
 *   Derived: LEGS_BACKCR / LEGS_BACKWALK are LEGS_WALKCR / LEGS_WALK reversed; FLAG_* are fixed (the CTF flag's).
 *   Unvanquished's MD3 humans (`human_bsuit`) read the same way with Unvanquished's longer list (its cg_players.cpp
 *   CG_ParseAnimationFile over its bg_public.h playerAnimNumber_t): a gesture per weapon before TORSO_GESTURE,
 *   TORSO_RALLY, per-weapon attacks — 37 required, then the same 6 optional gestures. The lists cannot be told
 *   apart by keywords; a player file of 37 to 43 animations is Unvanquished's (Quake 3 reads at most 31, so such a
 *   file would be 6+ animations of trailing junk there), unless `playerNames` says otherwise (`playerNames`).
 * - `nonsegmented` (Tremulous `cg_players.c`, the `nonsegmented` keyword: its aliens): one model, `nonseg.md3`,
 *   skinned by `nonseg_<skin>.skin`; NSPA_STAND … NSPA_DEAD3 (27, required: the game refuses a shorter file), frame
 *   numbers straight into that model; derived NSPA_WALKBACK = NSPA_WALK reversed.
 * - `buildable` (Tremulous `cg_buildable.c` CG_ParseBuildableAnimationFile, `models/buildables/<name>/animation.cfg`):
 *   no keywords; BANIM_CONSTRUCT1 … BANIM_DESTROYED (14, required), played on every model of the buildable.
 *   A file is read as a buildable's when asked (`{ form: 'buildable' }`) or, by default, when it has no keyword
 *   and exactly 14 × 4 numbers: a player file needs at least 25 × 4, so the two cannot be confused.
 *
 * In every form: a negative frame count means the animation plays backwards; fps 0 means 1; frameLerp =
 * trunc(1000 / fps) ms. Tremulous' `cg_animmapobj.c` (animated map objects) reads its four numbers from the map
 * entity, not from a file, so it has no form here.
 *
 * Stricter than the engines (which use atoi/atof and stop quietly): a malformed number is BAD_NUMBER, a file ending
 * before the form's last required animation is TRUNCATED, a first frame that ends up negative is INDEX_OUT_OF_RANGE —
 * each with line:column. What the engines only print about (an unknown keyword, a bad footsteps value, tokens
 * after the last animation, a loop longer than its animation) is a warning.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';

// the names and the parsed shape are data every floor may hold (a player's glTF, the Node door's `loadPlayer`): base/model.ts
import { MD3_BUILDABLE_ANIMATIONS, MD3_DERIVED_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS } from '../../base/md3-animations.js';
import type { AnimationCfgForm, Md3Animation, Md3AnimationCfg, Md3AnimationClip, Md3AnimationName, PlayerAnimationNames } from '../../base/model.js';
export { MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS, MD3_DERIVED_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_BUILDABLE_ANIMATIONS };
export type { Md3AnimationName, AnimationCfgForm, PlayerAnimationNames, Md3Animation, Md3AnimationClip, Md3AnimationCfg };

const PLAYER_LISTS: Record<PlayerAnimationNames, readonly Md3AnimationName[]> = { quake3: MD3_PLAYER_ANIMATIONS, unvanquished: MD3_UNVANQUISHED_PLAYER_ANIMATIONS };

export interface AnimationCfgOptions {
  /** Read the file as this form (default: by its content, see the file comment). */
  form?: AnimationCfgForm;
  /** Read a player file with this game's list (default: by its count of animations, see the file comment). */
  playerNames?: PlayerAnimationNames;
}

export interface CfgToken {
  text: string;
  offset: number;
  line: number;
  column: number;
}

/** COM_Parse: the tokens of `text`, with positions. */
export function* cfgTokens(text: string): Generator<CfgToken> {
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
  default: 'normal', normal: 'normal', boot: 'boot', flesh: 'flesh', mech: 'mech', energy: 'energy', none: 'none', custom: 'custom',
};
/** Keywords only a player file has. */
const PLAYER_KEYWORDS = new Set(['footsteps', 'headoffset', 'sex', 'fixedlegs', 'fixedtorso']);

function animation(name: Md3AnimationName, first: number, num: number, loop: number, fps: number, reversed: boolean): Md3Animation {
  return { name, firstFrame: first, numFrames: num, loopFrames: loop, fps, frameLerpMs: Math.trunc(1000 / fps), reversed, flipflop: false };
}

/** How many tokens `text` holds after its first `skip`, counted up to `cap` + 1 (counted, not kept: bounded memory). */
function tokenCount(text: string, skip: number, cap: number): number {
  let n = -skip;
  for (const _ of cfgTokens(text)) if (++n > cap) break;
  return n;
}

const toClip = (a: Md3Animation): Md3AnimationClip => ({ name: a.name, firstFrame: a.firstFrame, frameCount: a.numFrames, loopFrames: a.loopFrames, fps: a.fps, reversed: a.reversed });

/** Parses an animation.cfg (text, or bytes read as Latin-1 so offsets are byte offsets), in any of its forms. */
export function parseAnimationCfg(input: string | Uint8Array, options: AnimationCfgOptions = {}): Md3AnimationCfg {
  const text = typeof input === 'string' ? input : new TextDecoder('latin1').decode(input);
  const warnings: ParseWarning[] = [];
  const it = cfgTokens(text);
  let consumed = 0;
  let pending: CfgToken | undefined;
  const eof = (): CfgToken => {
    const lastBreak = text.lastIndexOf('\n');
    return { text: '', offset: text.length, line: text.split('\n').length, column: text.length - lastBreak };
  };
  const fail = (code: ErrorCode, detail: string, at: CfgToken): never => {
    throw new ModelParseError(code, detail, { offset: at.offset, line: at.line, column: at.column });
  };
  const warn = (code: string, message: string, at: CfgToken) =>
    warnings.push({ code, message, offset: at.offset, line: at.line, column: at.column });
  const next = (): CfgToken | undefined => {
    if (pending) {
      const t = pending;
      pending = undefined;
      return t;
    }
    const r = it.next();
    if (r.done) return undefined;
    consumed++;
    return r.value;
  };
  const need = (what: string): CfgToken => next() ?? fail(ErrorCode.Truncated, `input ended while expecting ${what}`, eof());
  const int = (t: CfgToken, what: string): number => {
    if (!INT.test(t.text)) fail(ErrorCode.BadNumber, `${what} must be an integer, got ${JSON.stringify(t.text)}`, t);
    return Number(t.text);
  };
  const float = (t: CfgToken, what: string): number => {
    const v = Number(t.text);
    if (!FLOAT.test(t.text) || !Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} must be a number, got ${JSON.stringify(t.text)}`, t);
    return v;
  };

  const cfg: Pick<Md3AnimationCfg, 'sex' | 'footsteps' | 'headOffset' | 'fixedLegs' | 'fixedTorso'> = {
    sex: 'male', footsteps: 'normal', headOffset: [0, 0, 0], fixedLegs: false, fixedTorso: false,
  };
  let nonsegmented = false;
  let playerKeyword = false;
  // Optional keywords, until the first token that starts with a digit (a buildable file has none: its first
  // token is a number, so the loop ends at once).
  if (options.form !== 'buildable') {
    for (let t = next(); t !== undefined; t = next()) {
      const k = t.text.toLowerCase();
      if (PLAYER_KEYWORDS.has(k)) playerKeyword = true;
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
      } else if (k === 'nonsegmented') {
        nonsegmented = true; // Tremulous
      } else if (t.text.charCodeAt(0) >= 48 && t.text.charCodeAt(0) <= 57) {
        pending = t;
        break;
      } else {
        warn('UNKNOWN_KEYWORD', `unknown token ${JSON.stringify(t.text)} before the animations (ignored, as the engine does)`, t);
      }
    }
  }
  const count = tokenCount(text, consumed - (pending ? 1 : 0), MD3_UNVANQUISHED_PLAYER_ANIMATIONS.length * 4);
  const form: AnimationCfgForm = options.form ?? (nonsegmented ? 'nonsegmented' : !playerKeyword && count === MD3_BUILDABLE_ANIMATIONS.length * 4 ? 'buildable' : 'player');
  const unvanquished = count % 4 === 0 && count >= (PLAYER_LISTS.unvanquished.indexOf('LEGS_TURN') + 1) * 4 && count <= PLAYER_LISTS.unvanquished.length * 4;
  const playerNames: PlayerAnimationNames = form !== 'player' ? 'quake3' : (options.playerNames ?? (unvanquished ? 'unvanquished' : 'quake3'));
  if (nonsegmented && form !== 'nonsegmented') warn('FORM_OVERRIDDEN', `the file says nonsegmented but was read as a ${form} file, as asked`, pending ?? eof());

  /** One `first num looping fps` quadruple; `first` already read. */
  const rest = (name: Md3AnimationName, first: number): Md3Animation => {
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
    return animation(name, first, num, loop, fps, reversed);
  };
  /** A form whose animations are all required and numbered straight into one model. */
  const plain = (names: readonly Md3AnimationName[]): Md3Animation[] =>
    names.map((name, i) => {
      const firstTok = next() ?? fail(ErrorCode.Truncated, `input ended before animation ${name} (${i + 1} of ${names.length} required for a ${form} animation.cfg)`, eof());
      const first = int(firstTok, `${name} first frame`);
      if (first < 0) fail(ErrorCode.IndexOutOfRange, `${name} first frame ${first} is negative`, firstTok);
      return rest(name, first);
    });

  const animations: Md3Animation[] = [];
  let teamArena = false;
  if (form === 'nonsegmented') {
    animations.push(...plain(MD3_NONSEGMENTED_ANIMATIONS));
    const walk = animations[MD3_NONSEGMENTED_ANIMATIONS.indexOf('NSPA_WALK')];
    animations.push({ ...walk, name: 'NSPA_WALKBACK', reversed: true });
  } else if (form === 'buildable') {
    animations.push(...plain(MD3_BUILDABLE_ANIMATIONS));
  } else {
    const list = PLAYER_LISTS[playerNames];
    const A = Object.fromEntries(list.map((n, i) => [n, i])) as Record<'TORSO_GESTURE' | 'LEGS_WALKCR' | 'LEGS_WALK' | 'LEGS_TURN' | 'TORSO_GETFLAG', number>;
    /** Animations every player file must give (BOTH_DEATH1 … LEGS_TURN). */
    const REQUIRED = A.LEGS_TURN + 1;
    teamArena = true;
    let skip = 0;
    for (let i = 0; i < list.length; i++) {
      const name = list[i];
      const firstTok = next();
      if (firstTok === undefined) {
        if (i < REQUIRED) fail(ErrorCode.Truncated, `input ended before animation ${name} (${i + 1} of ${REQUIRED} required)`, eof());
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
      animations.push(rest(name, first));
    }
    const walkcr = animations[A.LEGS_WALKCR];
    const walk = animations[A.LEGS_WALK];
    animations.push({ ...walkcr, name: 'LEGS_BACKCR', reversed: true });
    animations.push({ ...walk, name: 'LEGS_BACKWALK', reversed: true });
    animations.push(animation('FLAG_RUN', 0, 16, 16, 15, false));
    animations.push(animation('FLAG_STAND', 16, 5, 0, 20, false));
    animations.push(animation('FLAG_STAND2RUN', 16, 5, 1, 15, true));
  }
  const extra = next();
  if (extra) warn('TRAILING_TOKENS', `${JSON.stringify(extra.text)} and anything after the last animation is ignored`, extra);

  const byName: Md3AnimationCfg['byName'] = Object.fromEntries(animations.map((a) => [a.name, a]));
  const clips = animations.filter((a) => a.numFrames > 0 && !a.name.startsWith('FLAG_')).map(toClip);
  return { form, playerNames, ...cfg, animations, byName, clips, teamArena, warnings };
}
