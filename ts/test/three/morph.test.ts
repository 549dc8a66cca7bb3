/**
 * MD2 and MD3 in three.js (their registrations' morph views, `formats/md2/view.ts` / `md3-view.ts`, built by
 * `morphToThree`), both ways (`morph-mesh.ts`): morph targets evaluated by three itself (`getVertexPosition`
 * applies the influences the mixer set, as its shader does), and the poser-driven mesh our kernels write — against
 * `Md2Poser` / `Md3Poser` playing the same clip at the same times (`clipBlend`), on real models. MD3 tags follow
 * `lerpTag` at every frame.
 */
import { AnimationMixer, Group, Matrix4, Vector3, type Mesh } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Md2Model, Md3Model } from '../../src/base/model.js';
import { md2Unwelded } from '../../src/formats/md2/geometry.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { groupClips } from '../../src/formats/md2/clips.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { lerpTag } from '../../src/pose/md3-tag.js';
import { MD2_DEFAULT_FPS, MD3_DEFAULT_FPS, type MorphClip } from '../../src/pose/timing.js';
import { MorphPoserMesh, type MorphMode } from '../../src/three/morph-mesh.js';
import { morphToThree, type MorphThree, type MorphThreeOptions } from '../../src/three/morph-model.js';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { maxDistance, relativeMatrix, setTime, threePositions } from './three-eval.js';
import { viewOf } from './views.js';

const MD2S = ['assimp/test/models/MD2/faerie.md2', 'assimp/test/models-nonbsd/MD2/dolphin.md2'];
const MD3S = ['aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3', 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3'];
/** Seconds into a clip: on frames (0.1 at 10 fps), between them, and past the clip's end (it loops). */
const TIMES = [0, 0.05, 0.1, 0.237, 0.61, 1.33, 4.02];

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('auto');
});

/** The MD2 / MD3 registration's morph view of `model`, built by the morph builder. */
async function toThree(model: Md2Model | Md3Model, options: Omit<MorphThreeOptions, 'format' | 'materials'>): Promise<MorphThree> {
  return morphToThree(await viewOf('morph', model, backend), { ...options, format: model.format, materials: [] });
}

/** A function that plays clip `i` (stopping the one before, which gives its influences back) and evaluates time t. */
function player(three: MorphThree) {
  const scene = new Group().add(three.root);
  const mixer = new AnimationMixer(scene);
  return (clipIndex: number) => {
    mixer.stopAllAction();
    mixer.clipAction(three.clips[clipIndex]).play();
    return (t: number) => {
      setTime(mixer, scene, t);
      if (three.mesh instanceof MorphPoserMesh) three.mesh.sync(); // vertices, and tags placed as the engine does
      scene.updateMatrixWorld(true);
      return threePositions(three.mesh, three.root);
    };
  };
}

describe.each(['targets', 'poser'] as const)('MD2 / MD3 as three.js meshes, %s', (mode: MorphMode) => {
  for (const file of MD2S) {
    it(`${file.split('/').pop()}: every clip, played by three's mixer, matches Md2Poser`, async () => {
      const model: Md2Model = parseMd2(read(`${SHARED_MODELS}/${file}`));
      const three = await toThree(model, { name: 'md2', mode, quantize: true });
      expect(three.clips.map((c) => c.name)).toEqual(model.clips.map((c) => c.name));
      const poser = new Md2Poser(backend, model);
      const source = md2Unwelded(model).sourceVertex;
      const gathered = (p: Float32Array) => Float32Array.from({ length: source.length * 3 }, (_, i) => p[source[Math.floor(i / 3)] * 3 + (i % 3)]);
      const diag = diagonal(gathered(poser.poseFrame(0).positions));
      const play = player(three);
      let worst = 0;
      model.clips.forEach((c, i) => {
        const at = play(i);
        const clip: MorphClip = { firstFrame: c.firstFrame, frameCount: c.frameCount };
        for (const t of TIMES) worst = Math.max(worst, maxDistance(at(t), gathered(poser.poseTime(clip, t).positions)) / diag);
      });
      // targets: int16 on a grid of 1/65534 of the largest side; poser: the same kernels, the blend factor from
      // three's float32 key times (0.50000001 for 0.5)
      expect(worst).toBeLessThanOrEqual(mode === 'targets' ? 2e-5 : 1e-6);
      poser.dispose();
      three.mesh.dispose();
    });
  }

  for (const file of MD3S) {
    it(`${file.split('/').pop()}: every clip matches Md3Poser, and the tags follow lerpTag`, async () => {
      const model: Md3Model = parseMd3(read(`${SHARED_MODELS}/${file}`));
      const three = await toThree(model, { name: 'md3', mode, quantize: true });
      const groups = groupClips(model.frameNames);
      expect(three.clips.length).toBe(groups.length);
      const poser = new Md3Poser(backend, model);
      const diag = diagonal(poser.poseFrame(0).positions);
      const play = player(three);
      let worst = 0, worstTag = 0;
      groups.forEach((c, i) => {
        const at = play(i);
        for (const t of TIMES) {
          worst = Math.max(worst, maxDistance(at(t), poser.poseTime({ firstFrame: c.firstFrame, frameCount: c.frameCount }, t).positions) / diag);
          const { frame1, frame2, t: blend } = poser.blend;
          // targets: tag tracks slerp between frames where the engine lerps axes, so compare at frames; poser: always
          if (blend !== 0 && mode === 'targets') continue;
          three.tags.forEach((o, k) => {
            const tag = lerpTag(model, k, frame1, frame2, blend);
            const m = relativeMatrix(o, three.root);
            const origin = new Vector3().setFromMatrixPosition(m);
            worstTag = Math.max(worstTag, origin.distanceTo(new Vector3(tag[0], tag[1], tag[2])) / diag);
            for (let a = 0; a < 3; a++) {
              const axis = new Vector3().setFromMatrixColumn(m, a);
              worstTag = Math.max(worstTag, axis.distanceTo(new Vector3(tag[3 + a * 3], tag[4 + a * 3], tag[5 + a * 3])));
            }
          });
        }
      });
      expect(worst).toBeLessThanOrEqual(1e-6); // MD3's grid is the file's: no rounding at all
      // targets: the stored axes vs their orthonormalised rotation; poser: the engine's lerped tag itself
      expect(worstTag).toBeLessThanOrEqual(mode === 'targets' ? 1e-3 : 1e-6);
      expect(three.tags.length).toBe(model.tagCount);
      poser.dispose();
      three.mesh.dispose();
    });
  }
});

describe('compact morph targets', () => {
  it('MD3 frames are the file\'s int16 positions and snorm8 normals; the mesh transform carries the 1/64', async () => {
    const model = parseMd3(read(`${SHARED_MODELS}/${MD3S[0]}`)); // 60 frames, 970 + 264 vertices (MANIFEST)
    const three = await toThree(model, { name: 'launcher', mode: 'targets', quantize: true });
    const g = (three.mesh as Mesh).geometry;
    expect(g.morphAttributes.position!.length).toBe(60);
    expect(g.morphAttributes.position![7].array).toBeInstanceOf(Int16Array);
    expect(g.morphAttributes.normal![7].array).toBeInstanceOf(Int8Array);
    expect(g.morphAttributes.normal![7].normalized).toBe(true);
    expect(three.mesh.scale.x).toBe(1 / 64);
    // frame 7, vertex 3 of the first surface, straight from the file's records
    const r = model.surfaces[0].xyzNormals;
    const o = (7 * model.surfaces[0].vertexCount + 3) * 4;
    expect([0, 1, 2].map((k) => g.morphAttributes.position![7].getComponent(3, k))).toEqual([r[o], r[o + 1], r[o + 2]]);
    // normals: within one snorm8 step of the decoded ones
    const poser = new Md3Poser(backend, model).poseFrame(7);
    let worst = 0;
    for (let i = 0; i < poser.vertexCount; i++) {
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(g.morphAttributes.normal![7].getComponent(i, k) - poser.normals[i * 3 + k]));
    }
    expect(worst).toBeLessThanOrEqual(0.5 / 127 + 1e-6);
    poser.dispose();
  });

  it('float32 targets on request, no mesh transform', async () => {
    const model = parseMd2(read(`${SHARED_MODELS}/${MD2S[0]}`));
    const three = await toThree(model, { name: 'faerie', mode: 'targets', quantize: false });
    const g = (three.mesh as Mesh).geometry;
    expect(g.morphAttributes.position![0].array).toBeInstanceOf(Float32Array);
    expect(three.mesh.matrix.equals(new Matrix4())).toBe(true);
  });

  it('clips keep the engines\' clocks: MD2 at 10 fps, MD3 at 15, the last frame blending back into the first', async () => {
    const md2 = parseMd2(read(`${SHARED_MODELS}/${MD2S[0]}`)); // faerie: stand is 40 frames (MANIFEST)
    const a = await toThree(md2, { name: 'faerie', mode: 'poser', quantize: true });
    expect(a.clips[0].name).toBe('stand');
    expect(a.clips[0].duration).toBeCloseTo(40 / MD2_DEFAULT_FPS, 6);
    const md3 = parseMd3(read(`${SHARED_MODELS}/${MD3S[0]}`));
    const b = await toThree(md3, { name: 'launcher', mode: 'poser', quantize: true });
    const frames = groupClips(md3.frameNames)[0].frameCount;
    expect(b.clips[0].duration).toBeCloseTo(frames / MD3_DEFAULT_FPS, 6);
  });
});
