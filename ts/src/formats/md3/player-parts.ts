/**
 * A Quake 3 player as data: lower.md3 (legs), upper.md3 (torso), head.md3 and an optional weapon, which the game
 * chains by tags (ioquake3 cg_players.c CG_Player): the torso hangs on the legs' `tag_torso`, the head on the
 * torso's `tag_head`, the weapon on the torso's `tag_weapon`. The animation.cfg that plays it is parsed by
 * `animation-cfg.ts`; posing is `formats/md3/player.ts`.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md3PlayerModels } from '../../base/model.js';
// the shapes of a player read whole are data other floors hold (the Node door's `loadPlayer`): base/model.ts
export type { Md3PlayerData, Md3PlayerModels } from '../../base/model.js';

export type Md3PlayerPart = 'lower' | 'upper' | 'head' | 'weapon';
/** Parts in the order their vertices are laid out. */
export const MD3_PLAYER_PARTS: readonly Md3PlayerPart[] = ['lower', 'upper', 'head', 'weapon'];

/** A warning that concerns one part of a player (the part whose file lacks what the chain needs); its message does not name the part. */
export interface PartWarning {
  part: Md3PlayerPart;
  warning: ParseWarning;
}

/**
 * A warning for each tag the chain needs and a part lacks, filed under that part. ioquake3 does not refuse such a
 * player: R_LerpTag (tr_model.c) answers a missing tag with the identity (AxisClear, VectorClear) and CG_Player
 * hangs the child at its parent's origin, unrotated — so the player loads, with its head (say) at the feet.
 */
export function playerTagWarnings(models: Md3PlayerModels): PartWarning[] {
  const out: PartWarning[] = [];
  const need = (part: Md3PlayerPart, tag: string, child: string) => {
    const model = models[part]!;
    if (!model.tagNames.includes(tag)) {
      out.push({ part, warning: { code: 'MISSING_TAG', message: `no ${tag} (its tags: ${JSON.stringify(model.tagNames)}): ${child} is placed at ${part}'s origin, as the game does`, offset: 0 } });
    }
  };
  need('lower', 'tag_torso', 'upper');
  need('upper', 'tag_head', 'head');
  if (models.weapon) need('upper', 'tag_weapon', 'weapon');
  return out;
}

