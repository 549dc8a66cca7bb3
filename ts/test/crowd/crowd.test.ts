/**
 * Crowds (`ts/src/crowd/`): every instance of a crowd posed in one job lands where a single poser puts the model at
 * the same time — the joint palettes of a real MD5 against `Md5Poser`'s joint matrices, and a real IQM against
 * three.js's own path (`AnimationMixer` + `Skeleton.update`, one per instance), on every backend — and the
 * `crowdPalettes` kernel agrees across WASM SIMD, WASM scalar and TS on random skeletons, keys and instances,
 * including indices past the keys and parents not below their joints. A morph crowd's frame pairs and blends, read
 * from its frame table, are the view's own poser at the same frames.
 */
import { AnimationMixer, Group, LoopOnce, Matrix4 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCrowd, createSkinnedCrowd, keyAt, morphFrameTable, type MorphCrowd, type SkinnedCrowd } from '../../src/crowd/index.js';
import { runCrowdPalettes } from '../../src/crowd/skinned-crowd.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { CROWD_KEY_STRIDE, CROWD_PALETTE_STRIDE } from '../../src/kernels/layout.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseIqm } from '../../src/formats/iqm/index.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import type { SkinnedModelView } from '../../src/formats/model-view.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { viewBones } from '../../src/three/skeleton.js';
import { skinnedClip } from '../../src/three/skinned-clips.js';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { wasmBackends } from '../kernels/_resident.js';
import { viewOf } from '../three/views.js';

const HUMAN = 'res-players_src.dpkdir/models/players/human_naked/body.md5mesh';
const HUMAN_ANIMS = ['walk', 'jump', 'swim'].map((n) => `res-players_src.dpkdir/models/players/human_nobsuit_common/${n}.md5anim`);
const IQM = 'actors-iqm/janitor/janitor.iqm';
const IQM_ANIMS = ['arm-idle', 'arm-deploy', 'arm-shoot'].map((n) => `actors-iqm/janitor/${n}.iqm`);
const MD2 = 'assimp/test/models-nonbsd/MD2/dolphin.md2';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), ...(await wasmBackends())];
});

async function humanView(backend: PoseBackend) {
  const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/${HUMAN}`));
  const anims = HUMAN_ANIMS.map((p) => ({ name: p.split('/').pop()!.replace(/\.md5anim$/, ''), data: parseMd5Anim(read(`${SHARED_MODELS}/${p}`)) }));
  const view = await viewOf('skinned', mesh, backend, anims);
  return { mesh, anims, view };
}

/** Row-major 3×4 `a` times column-major 4×4 `b` (at `bi`), as row-major 3×4, in float64. */
function times34(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number[] {
  const o: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) {
      let v = a[ai + r * 4] * b[bi + c * 4] + a[ai + r * 4 + 1] * b[bi + c * 4 + 1] + a[ai + r * 4 + 2] * b[bi + c * 4 + 2];
      if (c === 3) v += a[ai + r * 4 + 3];
      o.push(v);
    }
  }
  return o;
}

/** The largest difference between instance `i`'s palette and `expected` (row-major 3×4 per joint): rotation parts and translations (÷ `scale`). */
function paletteError(crowd: SkinnedCrowd, i: number, expected: (j: number) => ArrayLike<number>, scale: number): number {
  const p = crowd.palettes();
  let worst = 0;
  for (let j = 0; j < crowd.joints; j++) {
    const e = expected(j);
    const at = (i * crowd.joints + j) * CROWD_PALETTE_STRIDE;
    for (let k = 0; k < 12; k++) {
      const d = Math.abs(p[at + k] - e[k]) / (k % 4 === 3 ? scale : 1);
      if (!(d <= worst)) worst = d;
    }
  }
  return worst;
}

describe('a skinned crowd', () => {
  it('every instance of a crowd of the Unvanquished human is Md5Poser at its time, on every backend (≤ 1e-5)', async () => {
    for (const backend of backends) {
      const { mesh, anims, view } = await humanView(backend);
      const crowd = createCrowd(view, 48, { backend, seed: 7 }) as SkinnedCrowd;
      expect(crowd.kind).toBe('skinned');
      expect(crowd.joints).toBe(mesh.joints.count);
      expect(crowd.clips.map((c) => c.name)).toEqual(['walk', 'jump', 'swim']);
      // the spread uses every clip, at times inside them
      expect(new Set(crowd.clip).size).toBe(3);
      crowd.speed.set(Array.from({ length: 48 }, (_, i) => 0.5 + (i % 5) * 0.25));
      const poser = new Md5Poser(backend, mesh);
      const diag = diagonal(poser.poseBind(false).positions);
      let worst = 0;
      for (const dt of [0, 0.0417, 0.31, 1.7]) {
        crowd.update(dt);
        for (let i = 0; i < crowd.count; i++) {
          poser.setAnim(anims[crowd.clip[i]].data);
          poser.poseTime(crowd.time[i], crowd.clips[crowd.clip[i]].loop === 'repeat', false);
          const m = poser.jointMatrices;
          // palette = object · inverse bind; the poser's matrices are row-major 3×4 padded to 16
          worst = Math.max(worst, paletteError(crowd, i, (j) => times34(m, j * 16, view.joints.inverseBind, j * 16), diag));
        }
      }
      expect(worst, backend.name).toBeLessThanOrEqual(1e-5);
      poser.dispose();
      crowd.dispose();
      view.dispose();
      expect(() => crowd.update(0)).toThrow(/disposed/);
    }
  });

  it('every instance of a crowd of a real IQM is three.js\'s own skeleton at its time (AnimationMixer + Skeleton.update)', async () => {
    for (const backend of backends) {
      const anims = IQM_ANIMS.map((p) => ({ name: p.split('/').pop()!.replace(/\.iqm$/, ''), data: parseIqm(read(`${SHARED_MODELS}/${p}`)) }));
      const view = await viewOf('skinned', parseIqm(read(`${SHARED_MODELS}/${IQM}`)), backend, anims);
      expect(view.clips.length).toBe(3);
      const crowd = createSkinnedCrowd(view, 12, { backend, seed: 3 });
      crowd.update(0.37);
      const scale = diagonal(view.positions);
      let worst = 0;
      for (let i = 0; i < crowd.count; i++) {
        const { bones, roots, skeleton } = viewBones(view.joints);
        const names = bones.map((b) => b.name);
        const root = new Group();
        root.add(...roots);
        const mixer = new AnimationMixer(root);
        const clip = view.clips[crowd.clip[i]];
        const action = mixer.clipAction(skinnedClip(clip, clip.name, names, 'x'));
        if (clip.loop === 'once') {
          action.setLoop(LoopOnce, 1);
          action.clampWhenFinished = true;
        }
        action.play();
        mixer.setTime(crowd.time[i]);
        root.updateMatrixWorld(true);
        skeleton.update();
        const bm = skeleton.boneMatrices!;
        const id = new Matrix4().elements;
        worst = Math.max(worst, paletteError(crowd, i, (j) => times34([bm[j * 16], bm[j * 16 + 4], bm[j * 16 + 8], bm[j * 16 + 12], bm[j * 16 + 1], bm[j * 16 + 5], bm[j * 16 + 9], bm[j * 16 + 13], bm[j * 16 + 2], bm[j * 16 + 6], bm[j * 16 + 10], bm[j * 16 + 14]], 0, id, 0), scale));
      }
      expect(worst, backend.name).toBeLessThanOrEqual(1e-5);
      crowd.dispose();
      view.dispose();
    }
  });

  it('refuses a count it cannot hold and a clip the model lacks, naming them', async () => {
    const backend = backends[0];
    const { view } = await humanView(backend);
    expect(() => createCrowd(view, 0, { backend })).toThrow(/1 to 100000 instances, not 0/);
    expect(() => createCrowd(view, 4, { backend, clips: 3 })).toThrow(/clip 3: the model has clips 0 to 2/);
    const crowd = createCrowd(view, 4, { backend, clips: 1 });
    expect(Array.from(crowd.clip)).toEqual([1, 1, 1, 1]);
    crowd.clip[2] = 9;
    expect(() => crowd.update(0.1)).toThrow(/instance 2 plays clip 9/);
    expect(() => crowd.update(Number.NaN)).toThrow(RangeError);
    view.dispose();
  });
});

describe('the clock', () => {
  const clip = { times: Float32Array.from([0, 0.5, 1, 2]), loop: 'repeat' as const };
  it('finds the key interval and the weight, wrapping a loop and holding a clip played once', () => {
    const at = { a: 0, b: 0, t: 0 };
    expect(keyAt(clip, 0.25, at)).toEqual({ a: 0, b: 1, t: 0.5 });
    expect(keyAt(clip, 1.5, at)).toEqual({ a: 2, b: 3, t: 0.5 });
    expect(keyAt(clip, 2.25, at)).toEqual({ a: 0, b: 1, t: 0.5 });
    expect(keyAt(clip, -0.5, at)).toEqual({ a: 2, b: 3, t: 0.5 });
    expect(keyAt({ ...clip, loop: 'once' }, 5, at)).toEqual({ a: 3, b: 3, t: 0 });
    expect(keyAt({ ...clip, loop: 'once' }, -1, at)).toEqual({ a: 0, b: 0, t: 0 });
    expect(() => keyAt(clip, Infinity, at)).toThrow(RangeError);
  });
});

/** A seeded generator for the property tests. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

describe('crowdPalettes: WASM SIMD, WASM scalar and TS agree on random inputs', () => {
  it('random skeletons (some parents not below their joints), keys, key pairs (some past the keys) and blends', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const r = rng(seed);
      const joints = 1 + Math.floor(r() * 40), keyCount = 1 + Math.floor(r() * 6), count = 1 + Math.floor(r() * 30);
      const parents = Int32Array.from({ length: joints }, (_, j) => (r() < 0.1 ? Math.floor(r() * joints * 2) - 1 : j === 0 ? -1 : Math.floor(r() * j)));
      const keys = new Float32Array(keyCount * joints * CROWD_KEY_STRIDE);
      for (let k = 0; k < keys.length; k += CROWD_KEY_STRIDE) {
        for (let c = 0; c < 3; c++) keys[k + c] = (r() - 0.5) * 20;
        const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
        const len = Math.hypot(...q) || 1;
        for (let c = 0; c < 4; c++) keys[k + 3 + c] = q[c] / len;
        for (let c = 0; c < 3; c++) keys[k + 7 + c] = r() < 0.5 ? 1 : 0.5 + r();
      }
      const invBind = Float32Array.from({ length: joints * CROWD_PALETTE_STRIDE }, () => r() * 2 - 1);
      const instanceKeys = Uint32Array.from({ length: count * 2 }, () => (r() < 0.05 ? 1000 : Math.floor(r() * keyCount)));
      const instanceBlend = Float32Array.from({ length: count * 2 }, () => [0, 1, r()][Math.floor(r() * 3)]);
      const outs = backends.map((b) => {
        const m = b.memory;
        const job = {
          parents: m.i32(joints), invBind: m.f32(invBind.length), keys: m.f32(keys.length), instanceKeys: m.u32(instanceKeys.length),
          instanceBlend: m.f32(instanceBlend.length), scratch: m.f32(joints * 12), out: m.f32(count * joints * 12), instanceCount: count,
        };
        job.parents.view.set(parents); job.invBind.view.set(invBind); job.keys.view.set(keys);
        job.instanceKeys.view.set(instanceKeys); job.instanceBlend.view.set(instanceBlend);
        // the WASM backends pose with their own kernel; TS, with the mirror the crowd brings
        expect(typeof b.kernels.crowdPalettes, b.name).toBe(b.name === 'ts' ? 'undefined' : 'function');
        runCrowdPalettes(b, job);
        const out = job.out.view.slice();
        // a count past the buffers is refused, nothing written
        job.out.view.fill(7);
        expect(() => runCrowdPalettes(b, { ...job, instanceCount: count + 1 }), b.name).toThrow(/too short for/);
        expect(job.out.view.every((v) => v === 7)).toBe(true);
        for (const buf of [job.parents, job.invBind, job.keys, job.instanceKeys, job.instanceBlend, job.scratch, job.out]) m.release(buf);
        return { name: b.name, out };
      });
      for (const o of outs.slice(1)) {
        for (let i = 0; i < o.out.length; i++) {
          const a = outs[0].out[i], b = o.out[i];
          expect(Math.abs(a - b), `${o.name} seed ${seed} float ${i}: ${a} vs ${b}`).toBeLessThanOrEqual(2e-5 * Math.max(1, Math.abs(a)) * 20);
        }
      }
    }
  });
});

describe('a morph crowd', () => {
  it('gives each instance two frames and a blend of its clip; its frame table blended there is the view\'s poser', async () => {
    const backend = backends[0];
    const view = await viewOf('morph', parseMd2(read(`${SHARED_MODELS}/${MD2}`)), backend);
    const crowd = createCrowd(view, 32, { backend, seed: 5 }) as MorphCrowd;
    expect(crowd.kind).toBe('morph');
    expect(crowd.clips.map((c) => c.name)).toEqual(view.clips.map((c) => c.name));
    const table = morphFrameTable(view);
    const n = view.vertexCount * 3;
    expect(table.positions.length).toBe(view.frameCount * n);
    crowd.update(0.73);
    let worst = 0;
    const distinct = new Set<number>();
    for (let i = 0; i < crowd.count; i++) {
      const a = crowd.frames[i * 2], b = crowd.frames[i * 2 + 1], t = crowd.blend[i];
      distinct.add(a);
      const clip = crowd.clips[crowd.clip[i]];
      expect(clip.frames).toContain(a);
      expect(clip.frames).toContain(b);
      const posed = view.poser.pose(a, b, t).positions;
      for (let v = 0; v < n; v++) worst = Math.max(worst, Math.abs(table.positions[a * n + v] * (1 - t) + table.positions[b * n + v] * t - posed[v]));
    }
    expect(distinct.size).toBeGreaterThan(3);
    expect(worst).toBeLessThanOrEqual(1e-5 * diagonal(table.positions));
    view.poser.dispose();
  });
});
