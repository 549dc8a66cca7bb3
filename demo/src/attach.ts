/**
 * Hanging a model on a tag by hand: what Quake 3 does with a weapon (`tag_weapon`), a player's head, a barrel's
 * flash — any model of the open game on any tag of the open model, as the engine's `CG_PositionEntityOnTag` places
 * it: the hung model's own axes (id's Z up) are the tag's, so it follows the tag frame by frame as the host plays.
 * Tags are found generically (the objects the adapter marks `userData.idtech.tag`); the hung model is built by the
 * same adapter from the worker's view, and plays its first clip.
 */
import type { Object3D } from 'three';
import type { IdTechModel } from 'idtech-models/three';

export interface Hung {
  tag: string;
  /** The model's path in the game. */
  path: string;
  model: IdTechModel;
}

/** The tags of `model` by their names (a tagged model's parts' tags too), first of each name. */
export function tagsOf(model: IdTechModel): Map<string, Object3D> {
  const out = new Map<string, Object3D>();
  model.root.traverse((o) => {
    const tag = (o.userData.idtech as { tag?: string } | undefined)?.tag;
    if (tag !== undefined && !o.userData.overlay && !out.has(tag)) out.set(tag, o);
  });
  return out;
}

/**
 * Hangs `hung` on `tag` of `host`: its Y-up scene under the tag with the turn its Z-up root makes undone, so the
 * model's own axes are the tag's. Plays its first clip that loops (else its first).
 */
export function hang(host: IdTechModel, tag: string, hung: IdTechModel): boolean {
  const on = tagsOf(host).get(tag);
  if (!on) return false;
  hung.scene.quaternion.copy(hung.root.quaternion).invert();
  hung.scene.position.set(0, 0, 0);
  hung.scene.userData.hung = tag;
  on.add(hung.scene);
  const first = hung.animations[0];
  if (first) hung.play(first.name);
  hung.update(0);
  return true;
}

export function takeOff(h: Hung): void {
  h.model.scene.removeFromParent();
  h.model.dispose();
}
