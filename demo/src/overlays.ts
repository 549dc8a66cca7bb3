/**
 * What the page draws over a model, each switched on its own: wireframe (the model's materials drawn as lines), the
 * skeleton (three's SkeletonHelper, and each joint's name under the pointer), the bounding box of the frame on show
 * (every vertex as drawn: a vertex-animated model's box moves frame by frame), the normals as drawn (one line per
 * vertex) and tags (axes with their names: what a Quake 3 model hangs its parts and weapon on). Found generically: a
 * model's `skeleton`, the objects the adapter marks as tags (`userData.idtech.tag`), its meshes.
 */
import { Box3, Box3Helper, BufferAttribute, BufferGeometry, Color, LineBasicMaterial, LineSegments, SkeletonHelper, Vector3, AxesHelper, type Material, type Object3D, type Camera } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { modelMeshes, posedBox, posedVertex } from './posed.js';

export type OverlayName = 'wireframe' | 'skeleton' | 'bounds' | 'normals' | 'tags';

/** Normals drawn for at most this many vertices (a line each, recomputed every frame). */
const MAX_NORMALS = 60_000;

const marked = <T extends Object3D>(o: T, name: string): T => {
  o.name = name;
  o.userData.overlay = true;
  o.traverse((c) => (c.userData.overlay = true));
  return o;
};

export class Overlays {
  readonly on = new Set<OverlayName>();
  private model: IdTechModel | null = null;
  private skeleton: SkeletonHelper | null = null;
  private box: Box3Helper | null = null;
  private readonly boxValue = new Box3();
  private normals: LineSegments | null = null;
  private tagAxes: AxesHelper[] = [];
  private labels: { object: Object3D; el: HTMLElement }[] = [];
  /** The model's size (its framed box's diagonal), for the lengths of normals and tag axes. */
  private size = 1;
  /** The joints' names as the file has them (bones carry them sanitised for three's bindings), bone for bone. */
  private jointNames: readonly string[] = [];

  constructor(
    private readonly scene: Object3D,
    private readonly labelLayer: HTMLElement,
    private readonly tooltip: HTMLElement,
  ) {}

  /** A new model (or none): every overlay that is on is made again for it. */
  attach(model: IdTechModel | null, size: number, jointNames: readonly string[] = []): void {
    const on = [...this.on];
    for (const name of on) this.set(name, false);
    this.model = model;
    this.size = size || 1;
    this.jointNames = jointNames;
    for (const name of on) this.set(name, true);
  }

  set(name: OverlayName, enable: boolean): void {
    if (enable) this.on.add(name);
    else this.on.delete(name);
    const model = this.model;
    switch (name) {
      case 'wireframe':
        for (const m of this.materials()) (m as Material & { wireframe?: boolean }).wireframe = enable && !!model;
        break;
      case 'skeleton':
        this.skeleton = this.replace(this.skeleton, enable && model?.skeleton ? marked(new SkeletonHelper(model.root), 'skeleton') : null);
        if (this.skeleton) (this.skeleton.material as LineBasicMaterial).depthTest = false;
        if (!enable) this.tooltip.hidden = true;
        break;
      case 'bounds':
        this.box = this.replace(this.box, enable && model ? marked(new Box3Helper(this.boxValue, new Color(0xf0a35e)), 'bounding box') : null);
        break;
      case 'normals':
        this.normals = this.replace(this.normals, enable && model ? this.normalLines(model) : null);
        break;
      case 'tags':
        for (const a of this.tagAxes) (a.removeFromParent(), a.dispose());
        this.tagAxes = [];
        for (const l of this.labels) l.el.remove();
        this.labels = [];
        if (enable && model) {
          model.root.traverse((o) => {
            const tag = (o.userData.idtech as { tag?: string } | undefined)?.tag;
            if (tag === undefined || o.userData.overlay) return;
            const axes = marked(new AxesHelper(this.size * 0.08), `tag axes ${tag}`);
            (axes.material as LineBasicMaterial).depthTest = false;
            axes.renderOrder = 10;
            o.add(axes);
            this.tagAxes.push(axes);
            const el = document.createElement('span');
            el.className = 'tag-label';
            el.textContent = tag || '(unnamed tag)';
            this.labelLayer.append(el);
            this.labels.push({ object: o, el });
          });
        }
        break;
    }
  }

  private replace<T extends Object3D & { dispose?: () => void }>(old: T | null, next: T | null): T | null {
    if (old) {
      old.removeFromParent();
      old.dispose?.();
    }
    if (next) this.scene.add(next);
    return next;
  }

  private materials(): Material[] {
    const out = new Set<Material>();
    for (const mesh of this.model ? modelMeshes(this.model.root) : []) for (const m of [mesh.material].flat()) out.add(m);
    return [...out];
  }

  private normalLines(model: IdTechModel): LineSegments {
    const count = Math.min(MAX_NORMALS, modelMeshes(model.root).reduce((n, m) => n + (m.geometry.getAttribute('position')?.count ?? 0), 0));
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array(count * 6), 3));
    return marked(new LineSegments(g, new LineBasicMaterial({ color: 0x5ee0f0 })), 'normals');
  }

  /** Brings the overlays that follow the animation to the frame on show; places the tag labels. */
  update(camera: Camera, width: number, height: number): void {
    const model = this.model;
    if (!model) return;
    if (this.box) posedBox(model.root, this.boxValue);
    if (this.normals) {
      const out = (this.normals.geometry.getAttribute('position') as BufferAttribute).array as Float32Array;
      const p = new Vector3(), n = new Vector3();
      const len = this.size * 0.02;
      let at = 0;
      model.root.updateWorldMatrix(true, true);
      for (const mesh of modelMeshes(model.root)) {
        const count = mesh.geometry.getAttribute('position')?.count ?? 0;
        for (let i = 0; i < count && at < out.length; i++) {
          posedVertex(mesh, i, p, n);
          out[at++] = p.x; out[at++] = p.y; out[at++] = p.z;
          out[at++] = p.x + n.x * len; out[at++] = p.y + n.y * len; out[at++] = p.z + n.z * len;
        }
      }
      this.normals.geometry.getAttribute('position').needsUpdate = true;
      this.normals.geometry.computeBoundingSphere();
    }
    for (const { object, el } of this.labels) {
      const s = object.getWorldPosition(new Vector3()).project(camera);
      el.hidden = s.z > 1;
      el.style.transform = `translate(${((s.x + 1) / 2) * width}px, ${((1 - s.y) / 2) * height}px)`;
    }
  }

  /** The joint nearest the pointer (within 10 px) shown by name while the skeleton is on; null when none. */
  hover(x: number, y: number, camera: Camera, width: number, height: number): string | null {
    const bones = this.on.has('skeleton') ? (this.model?.skeleton?.bones ?? []) : [];
    let best = null as { name: string; d: number; sx: number; sy: number } | null;
    const v = new Vector3();
    bones.forEach((b, j) => {
      const s = b.getWorldPosition(v).project(camera);
      if (s.z > 1) return;
      const sx = ((s.x + 1) / 2) * width, sy = ((1 - s.y) / 2) * height;
      const d = Math.hypot(sx - x, sy - y);
      if (d <= 10 && (!best || d < best.d)) best = { name: this.jointNames[j] ?? b.name, d, sx, sy };
    });
    this.tooltip.hidden = !best;
    if (best) {
      this.tooltip.textContent = best.name;
      this.tooltip.style.transform = `translate(${best.sx + 12}px, ${best.sy - 8}px)`;
    }
    return best?.name ?? null;
  }

  /** The joint of the skeleton overlay nearest (x, y) within 10 px, by index; null when none (or the skeleton is off). */
  jointAt(x: number, y: number, camera: Camera, width: number, height: number): number | null {
    if (!this.on.has('skeleton')) return null;
    let best = -1, bestD = 10;
    this.joints(camera, width, height).forEach((j, k) => {
      const d = Math.hypot(j.x - x, j.y - y);
      if (d <= bestD) (best = k), (bestD = d);
    });
    return best >= 0 ? best : null;
  }

  /** Screen positions of the skeleton's joints (tests point at one). */
  joints(camera: Camera, width: number, height: number): { name: string; x: number; y: number }[] {
    const v = new Vector3();
    return (this.model?.skeleton?.bones ?? []).map((b, j) => {
      const s = b.getWorldPosition(v).project(camera);
      return { name: this.jointNames[j] ?? b.name, x: ((s.x + 1) / 2) * width, y: ((1 - s.y) / 2) * height };
    });
  }
}

