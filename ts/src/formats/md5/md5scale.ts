/**
 * The Quake II re-release's `.md5scale` (beside an MD5 replacement's md5anim: `tris.md5scale` for `tris.md5anim`), read
 * as q2pro reads it (`src/refresh/models.c` MD5_LoadScales, called by MD5_ParseAnim before the frames are built):
 *
 * - JSON: an object of joint names, each an object whose keys are frame numbers (`Q_atoi`: a key that is no number is
 *   frame 0) with a number (`Q_atof`), or `"scale_positions"` (true when its value starts with `t`). Every other frame
 *   keeps scale 1.
 * - A joint is found among the anim's joint names (exact, the first match); an unknown one is warned about and
 *   skipped, as is a frame ≥ numFrames. More than 4096 JSON tokens (jsmn's array) or bad JSON: the file is refused
 *   (`Couldn't load … Invalid JSON data`); a value that is not a primitive stops the reading there, what was read kept.
 * - The scale of joint j at frame f multiplies its weights' offsets (`calc_skel_vert`: pos + scale · R · weight), so 0
 *   hides what only that joint holds, and its children are not scaled; with `scale_positions` it also multiplies the
 *   joint's local translation before it is composed with its parent's (MD5_BuildFrameSkeleton).
 *
 * `scaledAnim` folds `scale_positions` into the anim's frames (the joint's translation animated, scaled per frame), so
 * every poser, backend and exporter sees it as data; the weights' scales go to the poser (`Md5Poser.setScales`) and the
 * glTF export (a scale node per scaled joint). docs/md5-replacements.md.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md5Anim } from '../../base/model.js';

/** jsmn's token array in MD5_LoadScales: a file of more tokens is refused. */
export const MD5SCALE_MAX_TOKENS = 4096;

export interface Md5Scales {
  jointCount: number;
  frameCount: number;
  /** frameCount × jointCount scales, frame-major; 1 where the file says nothing. */
  scales: Float32Array;
  /** Per joint: 1 when its local translation is scaled too (`scale_positions`). */
  scalePositions: Uint8Array;
  /** Whether any scale differs from 1 (else only `scale_positions` flags, which change nothing). */
  any: boolean;
  warnings: ParseWarning[];
}

const warn = (message: string): ParseWarning => ({ code: 'MD5SCALE', message, offset: 0 });

/** C's atoi / atof on a token's text: the leading number, else 0. */
const atoi = (s: string) => {
  const m = /^\s*[+-]?\d+/.exec(s);
  return m ? Number(m[0]) : 0;
};
const atof = (s: string) => {
  const m = /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?)/i.exec(s);
  return m ? Number(m[0]) : 0;
};

/**
 * JSON tokens as jsmn counts them — one per object, array, string (a key is one) and primitive — read off the text
 * before anything is parsed, and only up to `stop`: a file of more is refused before `JSON.parse` builds anything (8
 * MB of brackets would be 4 million arrays), and nothing recurses.
 */
const delimiter = (c: number) => c <= 0x20 || c === 0x2c || c === 0x3a || c === 0x5d || c === 0x7d;

function jsonTokens(text: string, stop: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= stop; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) count++; // { [
    else if (c === 0x22) {
      count++;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c > 0x20 && c !== 0x2c && c !== 0x3a && c !== 0x7d && c !== 0x5d) {
      count++; // a primitive: up to the next delimiter
      while (i + 1 < text.length && !delimiter(text.charCodeAt(i + 1))) i++;
    }
  }
  return count;
}

/** The scales `bytes` (a `.md5scale`, at most the script-file limit: model-set reads it) give `anim`'s joints and frames. */
export function parseMd5Scales(bytes: Uint8Array, anim: Pick<Md5Anim, 'jointCount' | 'frameCount' | 'names'>, file = 'the .md5scale'): Md5Scales {
  const { jointCount, frameCount } = anim;
  const out: Md5Scales = { jointCount, frameCount, scales: new Float32Array(jointCount * frameCount).fill(1), scalePositions: new Uint8Array(jointCount), any: false, warnings: [] };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') return out;
  if (jsonTokens(text, MD5SCALE_MAX_TOKENS) > MD5SCALE_MAX_TOKENS) {
    out.warnings.push(warn(`${file}: more JSON tokens than q2pro's ${MD5SCALE_MAX_TOKENS}: not read`));
    return out;
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    out.warnings.push(warn(`${file}: invalid JSON data: not read (q2pro: "Couldn't load")`));
    return out;
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    out.warnings.push(warn(`${file}: invalid JSON data (not an object): not read`));
    return out;
  }
  for (const [name, entry] of Object.entries(root)) {
    const joint = anim.names.indexOf(name);
    if (joint < 0) out.warnings.push(warn(`${file}: no joint "${name}" in the anim: skipped`));
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      out.warnings.push(warn(`${file}: joint "${name}" is not an object: invalid JSON data, the rest not read`));
      return finish(out);
    }
    for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
      if (value !== null && typeof value === 'object' || typeof value === 'string') {
        out.warnings.push(warn(`${file}: "${name}"."${key}" is not a number or true/false: invalid JSON data, the rest not read`));
        return finish(out);
      }
      if (joint < 0) continue;
      const raw = String(value);
      if (key === 'scale_positions') {
        out.scalePositions[joint] = raw.startsWith('t') ? 1 : 0;
        continue;
      }
      const frame = atoi(key);
      if (frame < 0 || frame >= frameCount) {
        out.warnings.push(warn(`${file}: no frame ${frame} in the anim (${frameCount} frames): "${name}"."${key}" skipped`));
        continue;
      }
      out.scales[frame * jointCount + joint] = Math.fround(atof(raw));
    }
  }
  return finish(out);
}

function finish(out: Md5Scales): Md5Scales {
  out.any = out.scales.some((s) => s !== 1);
  return out;
}

/**
 * `anim` with `scale_positions` folded in: each such joint's translation becomes animated (flags tx ty tz) and is
 * its per-frame translation times that frame's scale — what MD5_BuildFrameSkeleton composes. The anim itself when no
 * joint with a scale other than 1 asks for it.
 */
export function scaledAnim(anim: Md5Anim, s: Md5Scales): Md5Anim {
  const J = anim.jointCount, F = anim.frameCount;
  const moved: boolean[] = Array.from({ length: J }, (_, j) => {
    if (!s.scalePositions[j]) return false;
    for (let f = 0; f < F; f++) if (s.scales[f * J + j] !== 1) return true;
    return false;
  });
  if (!moved.some(Boolean)) return anim;
  const flags = new Uint8Array(anim.flags);
  const startIndices = new Uint32Array(J);
  let count = 0;
  for (let j = 0; j < J; j++) {
    if (moved[j]) flags[j] |= 7;
    startIndices[j] = count;
    for (let b = 0; b < 6; b++) if (flags[j] & (1 << b)) count++;
  }
  const frames = new Float32Array(F * count);
  for (let f = 0; f < F; f++) {
    const src = f * anim.componentCount, dst = f * count;
    for (let j = 0; j < J; j++) {
      let k = anim.startIndices[j];
      let o = startIndices[j];
      for (let b = 0; b < 6; b++) {
        const had = (anim.flags[j] & (1 << b)) !== 0;
        if (!(flags[j] & (1 << b))) continue;
        // the component as the engine builds it: the frame's value where animated, else the baseframe's
        let v = had ? anim.frames[src + k++] : anim.baseframe[j * 6 + b];
        if (moved[j] && b < 3) v = Math.fround(v * s.scales[f * J + j]);
        frames[dst + o++] = v;
      }
    }
  }
  return { ...anim, flags, startIndices, componentCount: count, frames };
}
