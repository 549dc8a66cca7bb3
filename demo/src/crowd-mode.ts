/**
 * The viewer's crowd mode (issue 42): the open model as a crowd of up to 10,000 instances on a grid, each on a clip
 * picked at random at a random time, drawn by `idtech-models/three`'s `CrowdMesh` — one InstancedMesh per surface,
 * posed on the GPU from one texture a frame — with the model's own materials. The panel shows where a frame's time
 * goes on this thread: posing (the crowd's one job: every joint palette, or every frame pair) and rendering (three's
 * draw calls submitted). A tagged model (a Quake 3 player) has no crowd yet.
 */
import { createBackend, type PoseBackend } from 'idtech-models';
import { CrowdMesh, createCrowd, type IdTechModel } from 'idtech-models/three';
import { Box3, Color, Matrix4, Vector3, type Material, type Mesh, type Object3D } from 'three';
import type { Opened } from './protocol.js';
import { viewFromData } from './view-data.js';

export class CrowdMode {
  mesh: CrowdMesh | null = null;
  private backend: Promise<PoseBackend> | null = null;
  private readonly pose: number[] = [];
  private readonly draw: number[] = [];

  /** The crowd of `count` of `o`'s model under `parent` (none for 0 or a tagged model); the box it stands in. */
  async show(o: Opened, model: IdTechModel, count: number, parent: Object3D): Promise<Box3 | null> {
    this.clear();
    if (count <= 0 || o.view.kind === 'tagged') return null;
    this.backend ??= createBackend('auto');
    const backend = await this.backend;
    const view = viewFromData(o.view);
    if (view.kind === 'tagged') return null;
    let materials: Material[] = [];
    model.scene.traverse((x) => {
      const m = x as Mesh;
      if (m.isMesh && materials.length === 0) materials = [m.material].flat();
    });
    const crowd = createCrowd(view, count, { backend, seed: count });
    const mesh = new CrowdMesh(crowd, view, { materials, name: 'crowd' });
    if (view.kind === 'skinned') view.dispose();
    const b = view.bounds;
    const size = b ? Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], 1e-3) * 1.25 : 1;
    const side = Math.ceil(Math.sqrt(count));
    const half = ((side - 1) * size) / 2;
    const m = new Matrix4();
    for (let i = 0; i < count; i++) {
      m.makeRotationY(((i * 2654435761) % 360) * (Math.PI / 180)).setPosition((i % side) * size - half, 0, Math.floor(i / side) * size - half);
      mesh.setMatrixAt(i, m);
      mesh.setColorAt(i, new Color().setHSL((i * 0.618) % 1, 0.35, 0.75));
    }
    parent.add(mesh);
    this.mesh = mesh;
    const h = b ? b.max[2] - b.min[2] : 1;
    return new Box3(new Vector3(-half - size, 0, -half - size), new Vector3(half + size, h, half + size));
  }

  /** Moves every instance on by `dt` s and poses them (timed). */
  update(dt: number): void {
    if (!this.mesh) return;
    const t0 = performance.now();
    this.mesh.update(dt);
    keep(this.pose, performance.now() - t0);
  }

  /** A frame's drawing took `ms` on this thread. */
  drawn(ms: number): void {
    if (this.mesh) keep(this.draw, ms);
  }

  /** `pose 0.4 ms · render 1.2 ms` (medians of the last frames), or '' without a crowd. */
  text(): string {
    if (!this.mesh) return '';
    return `${this.mesh.crowd.count} instances, ${this.mesh.meshes.length} draw calls — pose ${median(this.pose).toFixed(2)} ms · render ${median(this.draw).toFixed(2)} ms a frame`;
  }

  clear(): void {
    this.mesh?.removeFromParent();
    this.mesh?.dispose();
    this.mesh = null;
    this.pose.length = 0;
    this.draw.length = 0;
  }
}

function keep(list: number[], v: number): void {
  list.push(v);
  if (list.length > 120) list.shift();
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
