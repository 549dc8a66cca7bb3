/**
 * q2pro's `.md5scale` in three.js (docs/md5-replacements.md): the weights' scales of a Quake II replacement drawn by
 * the skinned view (`formats/md5/view.ts`: a `<joint>_md5scale` bone per scaled joint holding its weights, its scale
 * keyed per frame, held to the next) — three's own skinning (`getVertexPosition`) lands where `Md5Poser` with
 * `setScales` puts every vertex, at every frame of the MD2's clip; the part scaled to 0 collapses onto its joint.
 */
import { AnimationMixer, Group, InterpolateDiscrete } from 'three';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Md5Mesh } from '../../src/base/model.js';
import { md5SetAnims } from '../../src/formats/md5/set-anims.js';
import { md5View } from '../../src/formats/md5/view.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { openModelSet, type ModelSet } from '../../src/load/model-set.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { skinnedToThree } from '../../src/three/skinned-model.js';
import { SkinnedPoserMesh } from '../../src/three/skinned-poser-mesh.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { q2Replacement } from '../../../fixtures/generate-md5-replacement.mjs';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { maxDistance, setTime, threePositions } from './three-eval.js';

const DRONE = join(SHARED_MODELS, 'actors/drone');
const files = () => q2Replacement({ mesh: read(join(DRONE, 'mesh.md5mesh')), anim: read(join(DRONE, 'forward.md5anim')), scale: { 'Upperarm.Right': { '3': 0, '4': 0.5 }, Head: { '6': 2 } } });

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('auto');
});

describe('three.js draws the .md5scale weights\' scales of a Quake II replacement', () => {
  it('three\'s skinning matches Md5Poser with the scales at every frame of the MD2\'s clip', async () => {
    const set = await openModelSet(memoryFileSystem(files()), 'models/drone/tris.md2', { formats: DEFAULT_FORMATS });
    const sub = set.replacement!.set as ModelSet<Md5Mesh>;
    const mesh = sub.data;
    const [a] = md5SetAnims(sub);
    expect(a.scales).toBeDefined();
    const view = md5View(sub, backend);
    const names = mesh.joints.names;
    // one joint per scaled joint, in joint order, after the mesh's own
    const scaled = ['Upperarm.Right', 'Head'].sort((x, y) => names.indexOf(x) - names.indexOf(y));
    expect(view.joints.names.slice(names.length)).toEqual(scaled.map((n) => `${n}_md5scale`));
    const three = skinnedToThree(view, { name: 'drone', format: 'md5mesh', skinning: 'gpu', materials: [] });
    const scaleTrack = three.clips[0].tracks.find((t) => t.name === `${three.bones[names.indexOf('Upperarm.Right')].name}_md5scale.scale`)!;
    expect(scaleTrack.getInterpolation()).toBe(InterpolateDiscrete);
    const scene = new Group();
    scene.add(three.root);
    const mixer = new AnimationMixer(scene);
    mixer.clipAction(three.clips[0]).play();
    const poser = new Md5Poser(backend, mesh).setAnim(a.anim).setScales(a.scales!);
    const plain = new Md5Poser(backend, mesh).setAnim(a.anim);
    const diag = diagonal(plain.poseBind().positions);
    let worst = 0;
    // the last frame's key is where the clip ends and LoopRepeat wraps (to frame 0, as the engine's cycle does): every other frame
    for (let f = 0; f < a.anim.frameCount - 1; f++) {
      setTime(mixer, scene, Math.fround(f / a.anim.frameRate));
      const drawn = threePositions(three.mesh, three.root);
      worst = Math.max(worst, maxDistance(drawn, poser.poseFrame(f, false).positions) / diag);
      // the scales move what they scale: at 3, 4 and 6 the drawing is not the unscaled pose
      if ([3, 4, 6].includes(f)) expect(maxDistance(drawn, plain.poseFrame(f, false).positions) / diag, `frame ${f}`).toBeGreaterThan(1e-2);
    }
    expect(worst).toBeLessThanOrEqual(1e-4);
    poser.dispose();
    plain.dispose();
    three.mesh.dispose();
    view.dispose();
  });

  // a regression: the exact mode wrote only the md5mesh's own joints into its poser and skinned without the scales
  for (const choice of ['ts', 'wasm'] as const) {
    it(`the exact mode (${choice} backend) draws the scales too: each scale bone's scale applied as Md5Poser.setScales applies the frame's`, async () => {
      const own = await createBackend(choice);
      const set = await openModelSet(memoryFileSystem(files()), 'models/drone/tris.md2', { formats: DEFAULT_FORMATS });
      const sub = set.replacement!.set as ModelSet<Md5Mesh>;
      const [a] = md5SetAnims(sub);
      const view = md5View(sub, own);
      const three = skinnedToThree(view, { name: 'drone', format: 'md5mesh', skinning: 'exact', materials: [] });
      expect(three.mesh).toBeInstanceOf(SkinnedPoserMesh);
      const scene = new Group();
      scene.add(three.root);
      const mixer = new AnimationMixer(scene);
      mixer.clipAction(three.clips[0]).play();
      const poser = new Md5Poser(own, sub.data).setAnim(a.anim).setScales(a.scales!);
      const plain = new Md5Poser(own, sub.data).setAnim(a.anim);
      const diag = diagonal(plain.poseBind().positions);
      let worst = 0;
      for (let f = 0; f < a.anim.frameCount - 1; f++) {
        setTime(mixer, scene, Math.fround(f / a.anim.frameRate));
        (three.mesh as SkinnedPoserMesh).sync();
        const drawn = threePositions(three.mesh, three.root);
        worst = Math.max(worst, maxDistance(drawn, poser.poseFrame(f, false).positions) / diag);
        // frame 3 scales Upperarm.Right to 0, 4 to 0.5, 6 scales Head by 2: not the unscaled pose there
        if ([3, 4, 6].includes(f)) expect(maxDistance(drawn, plain.poseFrame(f, false).positions) / diag, `frame ${f}`).toBeGreaterThan(1e-2);
      }
      expect(worst).toBeLessThanOrEqual(1e-4);
      poser.dispose();
      plain.dispose();
      three.mesh.dispose();
    });
  }

  it('IdTechLoader\'s replacement has the scale bones and plays them', async () => {
    const model = await new IdTechLoader().setFileSystem(memoryFileSystem(files())).setTextures(false).loadAsync('models/drone/tris.md2');
    const r = model.replacement!.model;
    expect(r.skeleton!.bones.map((b) => b.name).filter((n) => n.endsWith('_md5scale')).sort()).toEqual(['Head_md5scale', 'UpperarmRight_md5scale']); // three's names drop the dot
    expect(r.animations[0].tracks.map((t) => t.name)).toContain('Head_md5scale.scale');
  });
});
