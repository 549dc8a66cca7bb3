/**
 * The model's surfaces as the page lists them, from its view (`view-data.ts`) and never by format: each view group
 * (a surface, a mesh block), a tagged model's parts one after another — the order of the resolved materials and of
 * the three.js meshes' material slots (the adapter's `build.ts`) — with what draws it: its mesh, its slot, its
 * triangles and texture coordinates (for the UV layout).
 */
import type { Mesh, Object3D } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { modelMeshes } from './posed.js';
import { el } from './text.js';
import type { ViewData } from './view-data.js';

export interface Surface {
  /** Index in the model's list (= its material's index). */
  index: number;
  /** The part it belongs to (a tagged model's), or null. */
  part: string | null;
  name: string;
  /** The mesh that draws it and its material slot (its geometry group's `materialIndex`). */
  mesh: Mesh | null;
  slot: number;
  /** Its triangles (3 vertex indices each) into `st` (2 floats per vertex: s, t with t down, as the file has them). */
  triangles: Uint16Array | Uint32Array;
  st: Float32Array;
}

type GroupsView = { groups: readonly { name: string; start: number; count: number }[]; triangles: Uint16Array | Uint32Array; st: Float32Array };

function meshOf(object: Object3D | undefined): Mesh | null {
  return object ? (modelMeshes(object)[0] ?? null) : null;
}

export function surfacesOf(view: ViewData, model: IdTechModel): Surface[] {
  const out: Surface[] = [];
  const add = (v: GroupsView, part: string | null, mesh: Mesh | null) =>
    v.groups.forEach((g, slot) => out.push({ index: out.length, part, name: g.name, mesh, slot, triangles: v.triangles.subarray(g.start, g.start + g.count), st: v.st }));
  if (view.kind === 'tagged') for (const p of view.parts) add(p.view, p.name, meshOf(model.parts?.[p.name]));
  else add(view, null, meshOf(model.root));
  return out;
}

/** How the page names a surface: `part: name`, its index when it has no name. */
export const surfaceLabel = (s: Surface) => `${s.part ? `${s.part}: ` : ''}${s.name || `surface ${s.index}`}`;

/**
 * Draws only the surfaces not in `hidden`: each mesh's geometry keeps the groups of the shown ones (the full list is
 * kept on the geometry to come back to); a mesh with one material and nothing shown is hidden whole.
 */
export function showSurfaces(surfaces: readonly Surface[], hidden: ReadonlySet<number>): void {
  const meshes = new Set(surfaces.map((s) => s.mesh).filter((m): m is Mesh => !!m));
  for (const mesh of meshes) {
    const g = mesh.geometry;
    const all = (g.userData.allGroups ??= g.groups.map((x) => ({ ...x }))) as typeof g.groups;
    const hiddenSlots = new Set(surfaces.filter((s) => s.mesh === mesh && hidden.has(s.index)).map((s) => s.slot));
    if (Array.isArray(mesh.material)) {
      g.groups = all.filter((x) => !hiddenSlots.has(x.materialIndex ?? 0)).map((x) => ({ ...x }));
      mesh.visible = g.groups.length > 0;
    } else mesh.visible = surfaces.some((s) => s.mesh === mesh && !hidden.has(s.index));
  }
}

/**
 * The "Surfaces" section: a checkbox per surface (shown or hidden, named `Show LABEL`), *Isolate* (that one alone)
 * and *Show all*. `body[data-hidden]` lists the hidden surfaces' indices.
 */
export class SurfacePanel {
  surfaces: Surface[] = [];
  readonly hidden = new Set<number>();

  constructor(
    private readonly root: HTMLElement,
    private readonly changed: () => void,
  ) {}

  /** A new model (or none): every surface shown. */
  attach(surfaces: Surface[]): void {
    this.surfaces = surfaces;
    this.hidden.clear();
    this.render();
    this.apply();
  }

  set(index: number, shown: boolean): void {
    if (shown) this.hidden.delete(index);
    else this.hidden.add(index);
    this.apply();
  }

  isolate(index: number): void {
    this.hidden.clear();
    for (const s of this.surfaces) if (s.index !== index) this.hidden.add(s.index);
    this.apply();
  }

  private apply(): void {
    showSurfaces(this.surfaces, this.hidden);
    for (const box of this.root.querySelectorAll<HTMLInputElement>('input[data-surface]')) box.checked = !this.hidden.has(Number(box.dataset.surface));
    document.body.dataset.hidden = [...this.hidden].sort((a, b) => a - b).join(',');
    this.changed();
  }

  private render(): void {
    if (!this.surfaces.length) {
      this.root.replaceChildren();
      return;
    }
    const list = el('ul', '', { class: 'surfaces' });
    for (const s of this.surfaces) {
      const label = surfaceLabel(s);
      const box = el('input', '', { type: 'checkbox', 'aria-label': `Show ${label}`, 'data-surface': String(s.index) });
      box.checked = true;
      box.addEventListener('change', () => this.set(s.index, box.checked));
      const only = el('button', 'Isolate', { type: 'button', 'aria-label': `Isolate ${label}` });
      only.addEventListener('click', () => this.isolate(s.index));
      const li = el('li');
      li.append(el('label', ''), only);
      li.firstElementChild!.append(box, ` ${label} `, el('span', `${s.triangles.length / 3} triangles`, { class: 'small' }));
      list.append(li);
    }
    const all = el('button', 'Show all', { type: 'button' });
    all.addEventListener('click', () => {
      this.hidden.clear();
      this.apply();
    });
    this.root.replaceChildren(list, all);
  }
}
