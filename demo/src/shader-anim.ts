/**
 * Shader animation played: the diffuse stage's `tcMod scroll / rotate / scale / transform / stretch` (ioquake3
 * `RB_CalcScrollTexCoords`, `RB_CalcRotateTexCoords`, `RB_CalcScaleTexCoords`, `RB_CalcTransformTexCoords`,
 * `RB_CalcStretchTexCoords` with `EvalWaveForm`'s tables; `turb` bends each vertex's coordinates and is not played), applied in
 * the order written) as the texture's uv transform, and a stage's `animMap` (Quake 3: a picture sequence at a rate, `animMap 24 a.jpg b.jpg …`)
 * cycles its pictures on the surface as the engine does — picture ⌊time · fps⌋ mod n (ioquake3
 * `R_BindAnimatedImage`) — on the page's animation clock (paused with it, at its speed). The adapter draws a
 * material's first picture; the others come from the texture viewer's images (decoded in the worker) as textures
 * made here with the first one's sampling. The material's `animation` (`ResolvedMaterial`) says which pictures and
 * how fast; nothing here names a format.
 */
import { CanvasTexture, Matrix3, type Material, type Texture } from 'three';
import type { ResolvedMaterial } from 'idtech-models';
import type { ViewedImage } from './protocol.js';
import type { Surface } from './surfaces.js';
import { drawInto } from './texture-panel.js';

type Mapped = Material & { map: Texture | null };

/** tcMods the page plays; `turb` (a wave bending the coordinates per vertex) is listed, not played. */
const PLAYED = new Set(['scroll', 'rotate', 'scale', 'transform', 'stretch']);

/** ioquake3's FUNCTABLE_SIZE: its waves are tables of this many steps over one period. */
const FUNCTABLE_SIZE = 1024;

/** Entry i of ioquake3's table for `wave` (tr_init.c R_InitFunctionTables), or null for none it tabulates (noise). */
function waveTable(wave: string, i: number): number | null {
  const quarter = FUNCTABLE_SIZE / 4;
  if (wave === 'sin') return Math.sin((i * 360) / (FUNCTABLE_SIZE - 1) * (Math.PI / 180));
  if (wave === 'square') return i < FUNCTABLE_SIZE / 2 ? 1 : -1;
  if (wave === 'sawtooth') return i / FUNCTABLE_SIZE;
  if (wave === 'inversesawtooth') return 1 - i / FUNCTABLE_SIZE;
  if (wave === 'triangle') {
    const half = i % (FUNCTABLE_SIZE / 2);
    const up = half < quarter ? half / quarter : 1 - (half - quarter) / quarter;
    return i < FUNCTABLE_SIZE / 2 ? up : -up;
  }
  return null;
}

/** EvalWaveForm: base + table[⌊(phase + time · freq) · 1024⌋ & 1023] · amplitude (WAVEVALUE), or null. */
export function waveValue(wave: string, [base = 0, amplitude = 0, phase = 0, frequency = 0]: number[], time: number): number | null {
  const v = waveTable(wave, Math.trunc((phase + time * frequency) * FUNCTABLE_SIZE) & (FUNCTABLE_SIZE - 1));
  return v === null ? null : base + v * amplitude;
}

/** The st → st' transform (affine, as a Matrix3 on (s, t, 1)) of `mods` at `time`, as ioquake3 computes it. */
export function texModMatrix(mods: readonly { kind: string; args: number[]; wave?: string }[], time: number): Matrix3 {
  const total = new Matrix3();
  const m = new Matrix3();
  for (const { kind, args, wave } of mods) {
    const a = (i: number) => args[i] ?? 0;
    if (kind === 'scroll') {
      // adjust = speed · time, its fraction (RB_CalcScrollTexCoords)
      const s = a(0) * time, t = a(1) * time;
      m.set(1, 0, s - Math.floor(s), 0, 1, t - Math.floor(t), 0, 0, 1);
    } else if (kind === 'rotate') {
      // about the middle (0.5, 0.5), −degrees · time (RB_CalcRotateTexCoords)
      const r = (-a(0) * time * Math.PI) / 180, c = Math.cos(r), sn = Math.sin(r);
      m.set(c, -sn, 0.5 - 0.5 * c + 0.5 * sn, sn, c, 0.5 - 0.5 * sn - 0.5 * c, 0, 0, 1);
    } else if (kind === 'scale') m.set(a(0), 0, 0, 0, a(1), 0, 0, 0, 1);
    // matrix[0][0] [0][1] [1][0] [1][1] translate[0] [1]: s' = s·m00 + t·m10 + t0, t' = s·m01 + t·m11 + t1
    else if (kind === 'transform') m.set(a(0), a(2), a(4), a(1), a(3), a(5), 0, 0, 1);
    else if (kind === 'stretch') {
      // about the middle by p = 1 / wave (RB_CalcStretchTexCoords); a wave at 0 (p infinite) or noise is not played
      const w = waveValue(wave ?? 'sin', args, time);
      const p = w === null ? NaN : 1 / w;
      if (!Number.isFinite(p)) continue;
      m.set(p, 0, 0.5 - 0.5 * p, 0, p, 0.5 - 0.5 * p, 0, 0, 1);
    } else continue;
    total.premultiply(m);
  }
  return total;
}

/** (s, t) → (s, 1 − t): the file's texture coordinates to three's uv (and back). */
const FLIP = new Matrix3().set(1, 0, 0, 0, -1, 1, 0, 0, 1);

interface Scrolled {
  surface: number;
  material: Mapped;
  mods: { kind: string; args: number[]; wave?: string }[];
  /** The material's own textures (its map, animMap pictures) given their own transform. */
  textures: Texture[];
}

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
  private scrolled: Scrolled[] = [];
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
    // tcMods: each such material's textures its own (a texture shared with another surface would move it too)
    const scrolled: Scrolled[] = [];
    for (const [k, m] of materials.entries()) {
      const mods = (m.texMods ?? []).filter((x) => PLAYED.has(x.kind));
      const s = surfaces[k];
      const mat = s?.mesh ? ([s.mesh.material].flat()[s.slot] as Mapped | undefined) : undefined;
      if (!mods.length || !mat?.map) continue;
      const anim = items.find((it) => it.material === mat);
      const own = (t: Texture) => {
        const c = t.clone();
        c.matrixAutoUpdate = false;
        return c;
      };
      const textures = anim ? (anim.frames = anim.frames.map((t) => (t.dispose(), own(t)))) : [(mat.map = own(mat.map))];
      scrolled.push({ surface: k, material: mat, mods, textures });
    }
    this.scrolled = scrolled;
    this.time = 0;
    this.apply();
  }

  /** Forgets the model's animMaps (its textures freed; the model itself is disposed by the page). */
  clear(): void {
    for (const it of this.items) for (const t of it.frames) if (it.material.map !== t) t.dispose();
    this.items = [];
    this.scrolled = [];
    this.time = 0;
  }

  /** Whether anything cycles (the page keeps drawing while it does). */
  get active(): boolean {
    return this.items.length > 0 || this.scrolled.length > 0;
  }

  advance(dt: number): void {
    if (!this.active) return;
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
    for (const sc of this.scrolled) {
      const uv = new Matrix3().multiplyMatrices(FLIP, texModMatrix(sc.mods, this.time)).multiply(FLIP);
      for (const t of sc.textures) t.matrix.copy(uv);
    }
  }

  /** Each tcMod surface: its mods and the uv transform of the texture drawn (three's Matrix3 elements, column-major). */
  texModState(): { surface: number; kinds: string[]; uv: number[] }[] {
    return this.scrolled.map((sc) => ({ surface: sc.surface, kinds: sc.mods.map((m) => m.kind), uv: [...(sc.material.map?.matrix.elements ?? [])] }));
  }

  /** Each animated surface's picture on show (tests). */
  state(): { surface: number; frame: number; frames: number; fps: number; path: string }[] {
    return this.items.map((it) => ({ surface: it.surface, frame: it.shown, frames: it.frames.length, fps: it.fps, path: it.paths[it.shown] }));
  }
}
