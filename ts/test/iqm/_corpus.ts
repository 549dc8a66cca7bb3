/**
 * The IQM corpus (../shared/models/actors-iqm, Red Eclipse's actors): every file, parsed once, and the pairs a test
 * poses — each mesh with its own frames or the animation files its iqm.cfg names (as Tesseract pairs them), and
 * every animation-only file with one mesh whose skeleton takes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IqmModel } from '../../src/base/model.js';
import { iqmAcceptsCompanion } from '../../src/pose/iqm-anim-match.js';
import { parseIqm } from '../../src/formats/iqm/parser.js';
import { manifest, SHARED_MODELS } from '../helpers/models.js';

export const IQM_ROOT = join(SHARED_MODELS, 'actors-iqm');

export interface IqmFile {
  /** Relative to actors-iqm. */
  path: string;
  bytes: Uint8Array;
  model: IqmModel;
  /** MANIFEST notes. */
  notes: string;
}

let cache: IqmFile[] | null = null;

export function iqmFiles(): IqmFile[] {
  if (!cache) {
    cache = manifest()
      .filter((r) => r.format === 'iqm')
      .map((r) => {
        const bytes = new Uint8Array(readFileSync(r.absPath));
        return { path: r.path.slice('actors-iqm/'.length), bytes, model: parseIqm(bytes), notes: r.notes };
      });
  }
  return cache;
}

export const iqmFile = (path: string): IqmFile => {
  const f = iqmFiles().find((x) => x.path === path);
  if (!f) throw new Error(`no ${path} in the IQM corpus`);
  return f;
};

/** Meshes with joints and vertices. */
export const skinnedMeshes = () => iqmFiles().filter((f) => f.model.joints.count > 0 && f.model.vertexCount > 0 && f.model.meshes.length > 0);

/**
 * For every file holding frames, one mesh it plays on: itself when it has joints for its poses, else the first mesh
 * (in corpus order, preferring its own folder) that accepts it.
 */
export function animationPairs(): { mesh: IqmFile; anim: IqmFile }[] {
  const meshes = skinnedMeshes();
  const out: { mesh: IqmFile; anim: IqmFile }[] = [];
  for (const anim of iqmFiles().filter((f) => f.model.frameCount > 0 && f.model.anims.length > 0)) {
    if (anim.model.joints.count > 0 && anim.model.joints.count === anim.model.poses.count && anim.model.vertexCount > 0) {
      out.push({ mesh: anim, anim });
      continue;
    }
    const folder = anim.path.slice(0, anim.path.lastIndexOf('/'));
    const candidates = [...meshes.filter((m) => m.path.startsWith(folder + '/')), ...meshes];
    const mesh = candidates.find((m) => iqmAcceptsCompanion(m.model, anim.model, 'iqm', []) === null);
    if (!mesh) throw new Error(`no mesh of the corpus takes ${anim.path}`);
    out.push({ mesh, anim });
  }
  return out;
}

/** First, middle and last stored frame of each anim of `model` (deduplicated). */
export function sampleFrames(model: IqmModel): number[] {
  const set = new Set<number>();
  for (const a of model.anims) {
    const last = Math.min(a.firstFrame + a.frameCount, model.frameCount) - 1;
    if (last < a.firstFrame) continue;
    set.add(a.firstFrame);
    set.add(a.firstFrame + Math.floor((last - a.firstFrame) / 2));
    set.add(last);
  }
  return [...set].sort((x, y) => x - y);
}
