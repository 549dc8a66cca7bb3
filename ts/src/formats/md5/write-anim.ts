/**
 * Md5Anim → md5anim text (Doom 3's idMD5Anim::LoadAnim grammar: hierarchy, bounds, baseframe, then one `frame`
 * block per frame). Floats read back bit for bit (`md5-text.ts`). Big animations stream: {@link md5AnimChunks}
 * yields the header and then one frame block at a time, so a caller writing to a file never holds the whole text.
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { refuseEngineLimits, type WriteOptions } from '../../write/engine-limits.js';
import { md5AnimEngineLimits } from './write-limits.js';
import { formatF32, md5Header, positional, quoted, triple } from './write-text.js';
import { need, unwritable } from '../../write/out.js';

/** Components per line inside a frame block (Doom 3's exporter writes one joint's components per line; any split reads). */
const PER_LINE = 6;

/** frameRate is read as a double (Doom 3 reads an int: a whole rate prints as one); the shortest exact spelling. */
function frameRate(r: number): string {
  if (!(r > 0) || !Number.isFinite(r)) unwritable(`frameRate ${r} is not a positive number`);
  return positional(String(r));
}

export function* md5AnimChunks(anim: Md5Anim): Generator<string> {
  const J = anim.jointCount;
  const F = anim.frameCount;
  const C = anim.componentCount;
  need('parents', anim.parents, J);
  need('flags', anim.flags, J);
  need('startIndices', anim.startIndices, J);
  need('bounds', anim.bounds, 6 * F);
  need('baseframe', anim.baseframe, 6 * J);
  need('frames', anim.frames, F * C);
  const head = [
    md5Header(anim.version, anim.commandline),
    `numFrames ${F}\nnumJoints ${J}\nframeRate ${frameRate(anim.frameRate)}\nnumAnimatedComponents ${C}\n\nhierarchy {\n`,
  ];
  for (let i = 0; i < J; i++) {
    head.push(`\t${quoted(anim.names[i], `joint ${i} name`)}\t${anim.parents[i]} ${anim.flags[i]} ${anim.startIndices[i]}\n`);
  }
  head.push('}\n\nbounds {\n');
  for (let f = 0; f < F; f++) head.push(`\t${triple(anim.bounds, 6 * f)} ${triple(anim.bounds, 6 * f + 3)}\n`);
  head.push('}\n\nbaseframe {\n');
  for (let i = 0; i < J; i++) head.push(`\t${triple(anim.baseframe, 6 * i)} ${triple(anim.baseframe, 6 * i + 3)}\n`);
  head.push('}\n');
  yield head.join('');

  for (let f = 0; f < F; f++) {
    const out = [`\nframe ${f} {\n`];
    for (let c = 0; c < C; c += PER_LINE) {
      const line: string[] = [];
      for (let k = c; k < Math.min(C, c + PER_LINE); k++) line.push(formatF32(anim.frames[f * C + k]));
      out.push(`\t${line.join(' ')}\n`);
    }
    out.push('}\n');
    yield out.join('');
  }
}

/**
 * The md5anim text of `anim`. UNWRITABLE for a name holding `"` or a line break, NaN, or short arrays, and with
 * `validate` for an anim Doom 3 refuses — alone, or played on `mesh` when given (engine-limits.ts).
 */
export function writeMd5Anim(anim: Md5Anim, options: WriteOptions & { mesh?: Md5Mesh } = {}): string {
  if (options.validate) refuseEngineLimits(md5AnimEngineLimits(anim, options.mesh), 'Doom 3');
  return [...md5AnimChunks(anim)].join('');
}
