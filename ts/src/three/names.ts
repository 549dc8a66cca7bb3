/**
 * Names that three's animation system can address. A track names its node (`Bone.position`,
 * `mesh.morphTargetInfluences[3]`) and `PropertyBinding` finds the first node of that name under the mixer's root:
 * names must be unique in a model and free of the characters PropertyBinding reserves (`[ ] . : /`, spaces become
 * `_`), as `PropertyBinding.sanitizeNodeName` makes them. Real joint names have spaces and dots (the drone's
 * `Foot.Left`); empty names happen (MD3 surfaces).
 */
import { PropertyBinding } from 'three';

/**
 * The names a model's outer objects take (the scene group is called after the model, its Z-up group `<name>_zup`):
 * no node a track addresses may have one, or PropertyBinding, which searches from the mixer's root (the scene)
 * and matches the root itself first, would bind the scene group.
 */
export function reservedNames(modelName: string): Set<string> {
  return new Set([modelName, `${modelName}_zup`]);
}

/** Distinct clip names, as the view gives them (clip names are never parsed by PropertyBinding): `run`, `run_2`. */
export { distinctClipNames as distinct } from '../formats/model-view.js';

/** Sanitised, non-empty, unique names (`fallback0`, `name_2`, …), in input order; `taken` holds names already used. */
export function uniqueNames(names: readonly string[], fallback: string, taken: Set<string> = new Set()): string[] {
  return names.map((raw, i) => {
    const base = PropertyBinding.sanitizeNodeName(raw) || `${fallback}${i}`;
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base}_${k}`;
    taken.add(name);
    return name;
  });
}
