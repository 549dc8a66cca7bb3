/**
 * What `inspect` prints for the MD3 model sets read from several files (`FormatEntry.inspectSet`): which form the
 * files were read as (`form`: a Quake 3 segmented player, a Tremulous non-segmented player or buildable), each
 * model, the clips its animation.cfg gives (name, first frame, frame count, loop frames, fps, as the file says them)
 * and, for a buildable, its config.
 */
import type { Md3Model } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import { plainWarnings, type Summary } from '../entry.js';
import type { Md3AnimationCfg } from './animation-cfg.js';
import type { Md3PlayerData } from './player-parts.js';
import type { TremulousModel } from './tremulous-parts.js';

function modelLine(name: string, file: string, m: Md3Model, on?: { part: string; tag: string }): string {
  const vertices = m.surfaces.reduce((n, s) => n + s.vertexCount, 0), triangles = m.surfaces.reduce((n, s) => n + s.triangleCount, 0);
  return `${name} ${file}: ${m.frameCount} frames, ${m.surfaces.length} surfaces, ${vertices} vertices, ${triangles} triangles, tags ${JSON.stringify(m.tagNames)}${on ? `, on ${on.part}'s ${on.tag}` : ''}`;
}

/** `NSPA_WALK 10 20 20 15`: the cfg's line for each animation with frames, as the game reads it (a reversed one with its count negative). */
const clipLines = (cfg: Md3AnimationCfg | undefined) =>
  (cfg?.animations ?? []).filter((a) => a.numFrames > 0 && !a.name.startsWith('FLAG_')).map((a) => `${a.name} ${a.firstFrame} ${a.reversed ? -a.numFrames : a.numFrames} ${a.loopFrames} ${a.fps}`);

export function tremulousSummary(set: ModelSet<TremulousModel>): Summary {
  const d = set.data;
  const fileOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  return {
    format: d.format,
    form: d.format === 'nonseg' ? 'Tremulous non-segmented player (animation.cfg says nonsegmented: nonseg.md3 alone)' : `Tremulous buildable (${d.config ? `models from ${d.configPath}` : 'no configs/buildables config: every model of the folder'})`,
    models: d.parts.map((p) => modelLine(p.name, d.config ? p.gamePath ?? p.path : fileOf(p.path), p.model, p.on)),
    ...(d.config ? { modelScale: d.scale, zOffset: d.zOffset } : {}),
    clips: clipLines(d.animations),
    warnings: plainWarnings(set.warnings.flatMap((w) => w.warnings)),
  };
}

export function playerSummary(set: ModelSet<Md3PlayerData>): Summary {
  const p = set.data;
  const { lower, upper, head, weapon } = p.models;
  return {
    format: 'player',
    form: `Quake 3 segmented player (lower.md3, upper.md3, head.md3${weapon ? ', weapon.md3' : ''}${p.animations ? `; animation.cfg, ${p.animations.playerNames === 'unvanquished' ? "Unvanquished's" : "Quake 3's"} list` : '; no animation.cfg'})`,
    models: [
      modelLine('lower', 'lower.md3', lower),
      modelLine('upper', 'upper.md3', upper, { part: 'lower', tag: 'tag_torso' }),
      modelLine('head', 'head.md3', head, { part: 'upper', tag: 'tag_head' }),
      ...(weapon ? [modelLine('weapon', 'weapon.md3', weapon, { part: 'upper', tag: 'tag_weapon' })] : []),
    ],
    clips: clipLines(p.animations),
    warnings: plainWarnings(set.warnings.flatMap((w) => w.warnings)),
  };
}
