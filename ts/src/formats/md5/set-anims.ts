/**
 * The md5anims of a model set as every MD5 door plays them (glTF, playable, view, OBJ): named after their files, and,
 * where the set read a `.md5scale` beside an anim (`tris.md5scale` for `tris.md5anim`: the Quake II re-release's
 * replacements, load/model-set.ts), with its scales — `scale_positions` folded into the anim's frames, the weights'
 * scales carried as `scales` (md5scale.ts). A companion reference may cut a clip out of its file (`detail.frames`:
 * a replaced MD2's or MDL's clips over the frames its engine shows for them) at its own rate (`fps`).
 * The scale file's warnings join the set's once.
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import type { NamedMd5Anim } from '../../export/gltf.js';
import type { ModelSet } from '../../load/model-set.js';
import { parseMd5Scales, scaledAnim, type Md5Scales } from './md5scale.js';

const stem = (path: string) => path.replace(/\.[^./]*$/, '').toLowerCase();
const read = new WeakMap<object, NamedMd5Anim[]>();

/**
 * A clip cut out of an anim's file: `count` frames from `first`. A frame number past the anim's last is taken mod
 * the anim's frames (`beyond: 'wrap'`, the default: q2pro's lerp_alias_skeleton) or is frame 0 (`'first'`: Quake's
 * R_SetupAliasFrame, "no such frame", in QuakeSpasm-Spiked and vkQuake).
 */
interface ClipFrames {
  first: number;
  count: number;
  beyond?: 'wrap' | 'first';
}
const clipOf = (detail: unknown): ClipFrames | null => {
  const f = (detail as { frames?: ClipFrames } | undefined)?.frames;
  return f && Number.isInteger(f.first) && Number.isInteger(f.count) && f.first >= 0 && f.count > 0 ? f : null;
};

export function md5SetAnims(set: ModelSet<Md5Mesh>): NamedMd5Anim[] {
  const known = read.get(set);
  if (known) return known;
  // one .md5scale read per file, however many clips cut it
  const scalesOf = new Map<string, Md5Scales | null>();
  const anims = set.companions.map((c): NamedMd5Anim => {
    const anim = c.data as Md5Anim;
    const key = stem(c.path);
    if (!scalesOf.has(key)) {
      // a set made by hand (a view of parsed data) may carry no side files
      const side = (set.sideFiles ?? []).find((f) => f.path.toLowerCase() === `${key}.md5scale`);
      const s = side ? parseMd5Scales(side.bytes, anim, side.origin) : null;
      if (s?.warnings.length) set.warnings?.push({ file: side!.origin, warnings: s.warnings, unpositioned: true });
      scalesOf.set(key, s);
    }
    const s = scalesOf.get(key) ?? null;
    // `warned`: openModelSet checked each pairing and gave its warnings on the anim's file; the export does not repeat them
    const whole: NamedMd5Anim = s ? { name: c.name, anim: scaledAnim(anim, s), warned: true, ...(s.any ? { scales: s.scales } : {}) } : { name: c.name, anim, warned: true };
    const clip = clipOf(c.detail);
    return clip ? cut(whole, clip, c.fps) : c.fps ? { ...whole, anim: { ...whole.anim, frameRate: c.fps } } : whole;
  });
  read.set(set, anims);
  return anims;
}

/** The clip `clip` of `a` as an anim of its own: frame i is frame first + i (past the end: see ClipFrames), at `fps` when given. */
function cut(a: NamedMd5Anim, clip: ClipFrames, fps: number | undefined): NamedMd5Anim {
  const { anim } = a;
  const N = anim.frameCount, C = anim.componentCount, J = anim.jointCount;
  const frames = new Float32Array(clip.count * C);
  const bounds = new Float32Array(clip.count * 6);
  const scales = a.scales ? new Float32Array(clip.count * J) : undefined;
  for (let i = 0; i < clip.count; i++) {
    const f = clip.beyond === 'first' ? (clip.first + i < N ? clip.first + i : 0) : (clip.first + i) % N;
    frames.set(anim.frames.subarray(f * C, f * C + C), i * C);
    bounds.set(anim.bounds.subarray(f * 6, f * 6 + 6), i * 6);
    scales?.set(a.scales!.subarray(f * J, f * J + J), i * J);
  }
  return { name: a.name, warned: a.warned, anim: { ...anim, frameCount: clip.count, frameRate: fps ?? anim.frameRate, frames, bounds }, ...(scales ? { scales } : {}) };
}

/** The joints any anim scales to other than 1 (`NamedMd5Anim.scales`), in joint order. */
export function scaledJoints(n: number, anims: readonly NamedMd5Anim[]): number[] {
  const out: number[] = [];
  for (let j = 0; j < n; j++) {
    if (anims.some(({ anim, scales }) => {
      if (!scales) return false;
      for (let f = 0; f < anim.frameCount; f++) if (scales[f * n + j] !== 1) return true;
      return false;
    })) out.push(j);
  }
  return out;
}
