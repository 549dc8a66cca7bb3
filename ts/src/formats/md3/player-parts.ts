/**
 * A Quake 3 player as data: lower.md3 (legs), upper.md3 (torso), head.md3 and an optional weapon, which the game
 * chains by tags (ioquake3 cg_players.c CG_Player): the torso hangs on the legs' `tag_torso`, the head on the
 * torso's `tag_head`, the weapon on the torso's `tag_weapon`. The animation.cfg that plays it is parsed by
 * `animation-cfg.ts`; posing is `pose/md3-player.ts`.
 */
import type { Md3Model } from '../../base/model.js';

export interface Md3PlayerModels {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  weapon?: Md3Model;
}

export type Md3PlayerPart = 'lower' | 'upper' | 'head' | 'weapon';
/** Parts in the order their vertices are laid out. */
export const MD3_PLAYER_PARTS: readonly Md3PlayerPart[] = ['lower', 'upper', 'head', 'weapon'];

/** RangeError unless each part has the tag the chain hangs the next part on. */
export function checkPlayerTags(models: Md3PlayerModels): void {
  const need = (model: Md3Model, part: string, tag: string) => {
    if (!model.tagNames.includes(tag)) throw new RangeError(`the ${part} model has no ${tag} (its tags: ${JSON.stringify(model.tagNames)})`);
  };
  need(models.lower, 'lower', 'tag_torso');
  need(models.upper, 'upper', 'tag_head');
  if (models.weapon) need(models.upper, 'upper', 'tag_weapon');
}
