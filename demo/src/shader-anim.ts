/**
 * Shader animation played: a stage's `animMap` (Quake 3: a picture sequence at a rate, `animMap 24 a.jpg b.jpg …`)
 * cycles its pictures on the surface as the engine does — picture ⌊time · fps⌋ mod n (ioquake3
 * `R_BindAnimatedImage`) — on the page's animation clock (paused with it, at its speed). The adapter draws a
 * material's first picture; the others come from the texture viewer's images (decoded in the worker) as textures
 * made here with the first one's sampling. The material's `animation` (`ResolvedMaterial`) says which pictures and
 * how fast; nothing here names a format.
 */
import { CanvasTexture, type Material, type Texture } from 'three';
import type { ResolvedMaterial } from 'idtech-models';
import type { ViewedImage } from './protocol.js';
import type { Surface } from './surfaces.js';
import { drawInto } from './texture-panel.js';

type Mapped = Material & { map: Texture | null };

interface Animated {
  surface: number;
  material: Mapped;
  fps: number;
  frames: Texture[];
  paths: string[];
  shown: number;
}

export class ShaderAnimation {
  private items: Animated[] = [];
  /** Seconds of shader time. */
  time = 0;

  /** The animMaps of a model's materials, with textures made for every picture found among `images`. */
  async load(surfaces: readonly Surface[], materials: readonly ResolvedMaterial[], images: readonly ViewedImage[], current: () => boolean): Promise<void> {
    this.clear();
    const byPath = new Map(images.map((i) => [i.path, i]));
    const items: Animated[] = [];
    for (const [k, m] of materials.entries()) {
      // material k is surface k's (the view's groups in order, parts one after another)
      const a = m.animation;
      const s = surfaces[k];
      const mat = s?.mesh ? ([s.mesh.material].flat()[s.slot] as Mapped | undefined) : undefined;
      if (!a || a.frames.length < 2 || !(a.fps > 0) || !mat?.map) continue;
      const first = mat.map;
      const frames: Texture[] = [];
      const paths: string[] = [];
      for (const f of a.frames) {
        const img = f.path ? byPath.get(f.path) : undefined;
        if (!img || img.error) continue;
        const canvas = document.createElement('canvas');
        await drawInto(canvas, img);
        const t = new CanvasTexture(canvas);
        Object.assign(t, { colorSpace: first.colorSpace, wrapS: first.wrapS, wrapT: first.wrapT, magFilter: first.magFilter, minFilter: first.minFilter, anisotropy: first.anisotropy });
        t.userData.path = img.path;
        frames.push(t);
        paths.push(img.path);
      }
      if (frames.length < 2) {
        for (const t of frames) t.dispose();
        continue;
      }
      frames[0].userData.original = first;
      items.push({ surface: s!.index, material: mat, fps: a.fps, frames, paths, shown: -1 });
    }
    if (!current()) {
      for (const it of items) for (const t of it.frames) t.dispose();
      return;
    }
    this.items = items;
    this.time = 0;
    this.apply();
  }

  /** Forgets the model's animMaps (its textures freed; the model itself is disposed by the page). */
  clear(): void {
    for (const it of this.items) for (const t of it.frames) if (it.material.map !== t) t.dispose();
    this.items = [];
    this.time = 0;
  }

  /** Whether anything cycles (the page keeps drawing while it does). */
  get active(): boolean {
    return this.items.length > 0;
  }

  advance(dt: number): void {
    if (!this.items.length) return;
    this.time += dt;
    this.apply();
  }

  private apply(): void {
    for (const it of this.items) {
      const k = Math.floor(this.time * it.fps + 1e-9) % it.frames.length;
      if (k === it.shown) continue;
      it.shown = k;
      it.material.map = it.frames[k];
    }
  }

  /** Each animated surface's picture on show (tests). */
  state(): { surface: number; frame: number; frames: number; fps: number; path: string }[] {
    return this.items.map((it) => ({ surface: it.surface, frame: it.shown, frames: it.frames.length, fps: it.fps, path: it.paths[it.shown] }));
  }
}
