/**
 * A model set (`load/model-set.ts`: a model with what plays on it) as an `IdTechModel`, through its registration:
 * the entry's `view` (`formats/model-view.ts`) says what kind of model it is, and one builder per kind makes the
 * three.js objects — `morphToThree` (vertex frames), `skinnedToThree` (joints), `taggedToThree` (parts hung on tags).
 * The resolved materials (the entry's `materials`, one per group in the view's order, parts one after another)
 * become three's; a group without one gets an untextured material named after what its engine looks it up by.
 * Nothing here names a format.
 */
import { Group, type Material } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { PoseBackend } from '../kernels/backend.js';
import type { ModelSet } from '../load/model-set.js';
import type { MaterialSet } from '../materials/resolver.js';
import type { FormatEntry } from '../formats/entry.js';
import type { ModelView, ViewGroup, ViewSettings } from '../formats/model-view.js';
import { plainMaterial, threeMaterial, type MaterialOptions } from './materials.js';
import { IdTechModel } from './model.js';
import type { MorphMode } from './morph-mesh.js';
import { morphToThree } from './morph-model.js';
import { skinnedToThree, type SkinningMode } from './skinned-model.js';
import { taggedToThree } from './tagged-model.js';

export interface BuildOptions {
  /** The model's name: its scene group's, and the prefix of its nodes'. */
  name: string;
  backend: PoseBackend;
  skinning: SkinningMode;
  morph: MorphMode;
  quantize: boolean;
  /** The model's resolved materials, or null (untextured). */
  materials: MaterialSet | null;
  /** How resolved materials become three's (textures, normal maps); its `warnings` are the load's, added last. */
  materialOptions: MaterialOptions;
  /** Baked into the view where its format takes them (`IdTechLoadOptions.settings`). */
  settings?: ViewSettings;
}

/** Releases the posers a view holds (when building it fails). */
function disposeView(view: ModelView): void {
  if (view.kind === 'skinned') view.dispose();
  else if (view.kind === 'morph') view.poser.dispose();
  else for (const p of view.parts) p.view.poser.dispose();
}

/** The view's groups, parts one after another: the order of the model's resolved materials. */
function groupsOf(view: ModelView): { part: string; group: ViewGroup }[] {
  if (view.kind !== 'tagged') return view.groups.map((group) => ({ part: '', group }));
  return view.parts.flatMap((p) => p.view.groups.map((group) => ({ part: p.name, group })));
}

/** The model's parse warnings, every file's. */
export const setWarnings = (set: ModelSet): ParseWarning[] => set.warnings.flatMap((w) => w.warnings);

/** `set` as three.js objects, by what kind of model its registration says it is. */
export async function buildThree(set: ModelSet, entry: FormatEntry, o: BuildOptions): Promise<IdTechModel> {
  if (!entry.view) throw new TypeError(`${entry.title}: no view of it here to draw (its registration has no \`view\`)`);
  const view = await entry.view(set, o.backend, o.settings);
  let three: Material[];
  const loadWarnings = o.materialOptions.warnings;
  try {
    if (o.materials) {
      loadWarnings.push(...o.materials.warnings.map((w) => ({ code: w.code, message: w.path ? `${w.path}${w.line ? `:${w.line}:${w.column}` : ''}: ${w.message}` : w.message, offset: 0 })));
    }
    const resolved = o.materials?.materials ?? [];
    three = await Promise.all(groupsOf(view).map(({ group }, i) => (resolved[i] ? threeMaterial(resolved[i], o.materialOptions) : plainMaterial(group.material || group.name || o.name))));
  } catch (e) {
    disposeView(view);
    throw e;
  }
  const scene = new Group();
  scene.name = o.name;
  const common = { format: set.format, name: o.name, scene, materials: o.materials?.materials ?? [] };
  const warnings = (built: ParseWarning[]) => [...setWarnings(set), ...built, ...loadWarnings];
  if (view.kind === 'morph') {
    const m = morphToThree(view, { name: o.name, format: set.format, mode: o.morph, quantize: o.quantize, materials: three });
    scene.add(m.root);
    return new IdTechModel({ ...common, root: m.root, animations: m.clips, warnings: warnings(m.warnings) });
  }
  if (view.kind === 'skinned') {
    const m = skinnedToThree(view, { name: o.name, format: set.format, skinning: o.skinning, materials: three });
    scene.add(m.root);
    return new IdTechModel({ ...common, root: m.root, animations: m.clips, warnings: warnings(m.warnings), skeleton: m.skeleton });
  }
  const perPart: Record<string, Material[]> = {};
  groupsOf(view).forEach(({ part }, i) => (perPart[part] ??= []).push(three[i]));
  const m = taggedToThree(view, { name: o.name, format: set.format, mode: o.morph, quantize: o.quantize, materials: perPart });
  scene.add(m.root);
  return new IdTechModel({ ...common, root: m.root, animations: m.clips, warnings: warnings(m.warnings), parts: Object.fromEntries(Object.entries(m.parts).map(([k, p]) => [k, p.object])) });
}
