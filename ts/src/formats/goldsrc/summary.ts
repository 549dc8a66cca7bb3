/**
 * What `inspect` prints of a studio model: every table, one fact per row (names cut to 64 characters, as every
 * format's are), and of a sequence group or texture file what it holds.
 */
import { shortName } from '../../base/message-name.js';
import { plainWarnings, type Summary } from '../entry.js';
import { flagNames, MODEL_FLAG_NAMES, MOTION_NAMES, STUDIO_LOOPING, TEXTURE_FLAG_NAMES } from './limits.js';
import type { GoldsrcModel } from './model.js';

const v3 = (v: ArrayLike<number>) => `${+v[0].toFixed(4)} ${+v[1].toFixed(4)} ${+v[2].toFixed(4)}`;
const q = (s: string) => JSON.stringify(shortName(s));
const CHANNELS = ['x', 'y', 'z', 'xr', 'yr', 'zr'];

export function goldsrcSummary(m: GoldsrcModel): Summary {
  if (m.kind === 'seqgroup') {
    return { format: 'hl1mdl', kind: 'sequence group (IDSQ)', version: m.version, name: shortName(m.name), length: m.length, warnings: plainWarnings(m.warnings) };
  }
  const triangles = m.bodyParts.reduce((n, b) => n + b.models.reduce((k, x) => k + x.meshes.reduce((t, me) => t + me.corners.length / 12, 0), 0), 0);
  return {
    format: 'hl1mdl',
    kind: m.bones.length === 0 && m.bodyParts.length === 0 && m.textures.length > 0 ? 'texture file' : 'studio model (IDST)',
    version: m.version,
    name: shortName(m.name),
    length: m.length,
    flags: flagNames(m.flags, MODEL_FLAG_NAMES),
    eyePosition: v3(m.eyePosition),
    bounds: `${v3(m.min)} .. ${v3(m.max)}`,
    clipBounds: `${v3(m.bbMin)} .. ${v3(m.bbMax)}`,
    bones: m.bones.map((b, i) => {
      const ctl = [...b.controllers].map((c, k) => (c >= 0 ? `${CHANNELS[k]}←controller ${c}` : '')).filter(Boolean);
      return `${i} ${q(b.name)} parent ${b.parent}${b.flags ? ` flags ${b.flags}` : ''} pos ${v3(b.value)} rot ${v3(b.value.subarray(3))}${ctl.length ? ` ${ctl.join(' ')}` : ''}`;
    }),
    controllers: m.controllers.map((c, i) => `${i} bone ${c.bone} ${flagNames(c.type, MOTION_NAMES).join('|')} ${c.start}..${c.end} rest ${c.rest} ${c.index === 4 ? 'mouth' : `index ${c.index}`}`),
    hitboxes: m.hitboxes.map((h, i) => `${i} bone ${h.bone} group ${h.group} ${v3(h.min)} .. ${v3(h.max)}`),
    sequences: m.sequences.map((s, i) =>
      `${i} ${q(s.label)} ${s.frameCount} frames ${+s.fps.toFixed(3)} fps${s.flags & STUDIO_LOOPING ? ' loop' : ''}` +
      ` activity ${s.activity} weight ${s.actWeight} group ${s.seqGroup} blends ${s.blendCount}` +
      (s.blendCount > 1 ? ` (${flagNames(s.blendType[0], MOTION_NAMES).join('|') || 0} ${s.blendStart[0]}..${s.blendEnd[0]})` : '') +
      (s.motionType ? ` motion ${flagNames(s.motionType, MOTION_NAMES).join('|')} bone ${s.motionBone} moves ${v3(s.linearMovement)}` : '') +
      ` events ${s.events.length} pivots ${s.pivots.length} nodes ${s.entryNode}→${s.exitNode}`),
    events: m.sequences.flatMap((s, i) => s.events.map((e) => `sequence ${i} frame ${e.frame} event ${e.event} type ${e.type}${e.options ? ` ${q(e.options)}` : ''}`)),
    seqGroups: m.seqGroups.map((g, i) => `${i} ${q(g.label)} ${q(g.name)}`),
    studioTextures: m.textures.map((t, i) => `${i} ${q(t.name)} ${t.width}×${t.height}${t.flags ? ` ${flagNames(t.flags, TEXTURE_FLAG_NAMES).join(' ')}` : ''}`),
    skinFamilies: m.skinFamilies.map((f, i) => `${i}: ${[...f].join(' ')}`),
    bodyParts: m.bodyParts.map((b, i) => `${i} ${q(b.name)} base ${b.base}: ${b.models.length} submodel(s)`),
    submodels: m.bodyParts.flatMap((b, i) => b.models.map((x, k) => `${i}.${k} ${q(x.name)} ${x.vertices.length / 3} vertices ${x.normals.length / 3} normals ${x.meshes.length} meshes ${x.meshes.reduce((t, me) => t + me.corners.length / 12, 0)} triangles`)),
    meshes: m.bodyParts.flatMap((b, i) => b.models.flatMap((x, k) => x.meshes.map((me, j) => `${i}.${k}.${j} skinref ${me.skinRef} ${me.corners.length / 12} triangles`))),
    triangles,
    attachments: m.attachments.map((a, i) => `${i} ${q(a.name)} bone ${a.bone} at ${v3(a.origin)}`),
    transitions: m.transitionCount,
    warnings: plainWarnings(m.warnings),
  };
}
