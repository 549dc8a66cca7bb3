/**
 * MD5 in three.js: the SkinnedMesh three builds from our data (the md5mesh registration's skinned view,
 * `formats/md5/view.ts`, built by `skinnedToThree`), played by three's AnimationMixer and skinned by three's
 * own code (`getVertexPosition`), lands where `Md5Poser` puts every vertex — on real models, at frames and between
 * them, within 1e-4 of the model's bounding diagonal. The exact mode (our kernels skinning from three's bones) does
 * the same with every weight of a vertex, where the GPU mode keeps four.
 */
import { AnimationMixer, Group, SkinnedMesh } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { frameAtTime } from '../../src/pose/timing.js';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { SkinnedPoserMesh } from '../../src/three/skinned-poser-mesh.js';
import { skinnedToThree, type SkinnedThree, type SkinningMode } from '../../src/three/skinned-model.js';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { maxDistance, setTime, threePositions } from './three-eval.js';
import { viewOf } from './views.js';

const MODELS = [
  { mesh: 'actors/drone/mesh.md5mesh', anims: ['actors/drone/forward.md5anim', 'actors/drone/death.md5anim', 'actors/drone/idle.md5anim'] },
  { mesh: 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh', anims: ['res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_reload.md5anim'] },
];
/** Times in seconds: frame starts, blends between frames, and past one cycle (looping). */
const TIMES = [0, 0.0417, 0.13, 0.3, 0.71, 1.9, 2.45];

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('auto');
});

/** The md5mesh registration's skinned view of `mesh` with `anims`, built by the skinned builder. */
async function md5ToThree(name: string, mesh: Md5Mesh, anims: { name: string; anim: Md5Anim }[], skinning: SkinningMode): Promise<SkinnedThree> {
  const view = await viewOf('skinned', mesh, backend, anims.map((a) => ({ name: a.name, data: a.anim })));
  return skinnedToThree(view, { name, format: 'md5mesh', skinning, materials: [] });
}

async function built(meshPath: string, animPaths: string[], skinning: SkinningMode) {
  const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/${meshPath}`));
  const anims = animPaths.map((p) => ({ name: p.split('/').pop()!.replace(/\.md5anim$/, ''), anim: parseMd5Anim(read(`${SHARED_MODELS}/${p}`)) }));
  const three = await md5ToThree('model', mesh, anims, skinning);
  const scene = new Group();
  scene.add(three.root);
  return { mesh, anims, three, scene, mixer: new AnimationMixer(scene) };
}

describe.each(['gpu', 'exact'] as const)('MD5 as three.js objects, %s skinning', (skinning) => {
  for (const m of MODELS) {
    it(`${m.mesh.split('/').pop()}: three's skinning matches Md5Poser at several times of every anim`, async () => {
      const { mesh, anims, three, scene, mixer } = await built(m.mesh, m.anims, skinning);
      expect(three.mesh).toBeInstanceOf(skinning === 'gpu' ? SkinnedMesh : SkinnedPoserMesh);
      expect(three.bones.length).toBe(mesh.joints.count);
      expect(three.clips.map((c) => c.name)).toEqual(anims.map((a) => a.name));
      const poser = new Md5Poser(backend, mesh);
      const diag = diagonal(poser.poseBind().positions);
      // at rest (no action) three shows the bind pose
      scene.updateMatrixWorld(true);
      if (three.mesh instanceof SkinnedPoserMesh) three.mesh.sync();
      expect(maxDistance(threePositions(three.mesh, three.root), poser.positions)).toBeLessThanOrEqual(1e-4 * diag);
      let worst = 0;
      anims.forEach(({ anim }, i) => {
        mixer.stopAllAction();
        mixer.clipAction(three.clips[i]).play();
        poser.setAnim(anim);
        for (const t of TIMES) {
          setTime(mixer, scene, t);
          if (three.mesh instanceof SkinnedPoserMesh) three.mesh.sync();
          const b = frameAtTime(anim, Math.max(0, t));
          poser.poseBlend(b.frame1, b.frame2, b.t);
          worst = Math.max(worst, maxDistance(threePositions(three.mesh, three.root), poser.positions) / diag);
        }
      });
      expect(worst).toBeLessThanOrEqual(1e-4);
      poser.dispose();
      three.mesh.dispose();
    });
  }

  it('a clip lasts (frameCount − 1) / frameRate and loops there, as the engine plays it', async () => {
    const { anims, three, scene, mixer } = await built(MODELS[0].mesh, [MODELS[0].anims[0]], skinning);
    const anim = anims[0].anim; // forward.md5anim: 12 frames at 24 fps (MANIFEST)
    expect(three.clips[0].duration).toBeCloseTo((anim.frameCount - 1) / anim.frameRate, 6);
    mixer.clipAction(three.clips[0]).play();
    const at = (t: number) => {
      setTime(mixer, scene, t);
      if (three.mesh instanceof SkinnedPoserMesh) three.mesh.sync();
      return threePositions(three.mesh, three.root);
    };
    const d = diagonal(at(0));
    expect(maxDistance(at(0.1), at(0.1 + three.clips[0].duration))).toBeLessThanOrEqual(1e-5 * d);
    expect(maxDistance(at(0.1), at(0.2))).toBeGreaterThan(1e-3 * d); // and it does move
  });
});

describe('more than four weights per vertex (hand-written md5mesh + md5anim)', () => {
  // A chain of 6 joints along +X (as in the glTF exporter's test); vertex 0 has 7 weights on 6 joints, all at
  // P = (2, 1, 0.5) in the bind pose. The anim bends joints 2..5 about Z, so every joint moves differently.
  const joints = [0, 1, 2, 3, 4, 5].map((j) => `\t"j${j}" ${j - 1} ( ${j} 0 0 ) ( 0 0 0 )`).join('\n');
  const w = (i: number, j: number, b: number) => `\tweight ${i} ${j} ${b} ( ${2 - j} 1 0.5 )`;
  const meshText = `MD5Version 10\ncommandline ""\nnumJoints 6\nnumMeshes 1\njoints {\n${joints}\n}\nmesh {\n\tshader "s"\n\tnumverts 3\n` +
    `\tvert 0 ( 0 0 ) 0 7\n\tvert 1 ( 1 0 ) 7 1\n\tvert 2 ( 0 1 ) 8 1\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 9\n` +
    [w(0, 0, 0.05), w(1, 1, 0.3), w(2, 2, 0.1), w(3, 3, 0.25), w(4, 4, 0.2), w(5, 1, 0.05), w(6, 5, 0.05)].join('\n') +
    `\n\tweight 7 0 1 ( 0 0 0 )\n\tweight 8 5 1 ( 0 0 1 )\n}\n`;
  // Frame 1 turns joints 2..5 by 0.4 rad about Z each (qz = sin 0.2); their local translations stay (1, 0, 0).
  const hierarchy = [0, 1, 2, 3, 4, 5].map((j) => `\t"j${j}" ${j - 1} ${j >= 2 ? 32 : 0} ${j >= 2 ? j - 2 : 0}`).join('\n');
  const base = [0, 1, 2, 3, 4, 5].map((j) => `\t( ${j === 0 ? 0 : 1} 0 0 ) ( 0 0 0 )`).join('\n');
  const qz = Math.sin(0.2).toFixed(6);
  const animText = `MD5Version 10\ncommandline ""\nnumFrames 2\nnumJoints 6\nframeRate 24\nnumAnimatedComponents 4\n` +
    `hierarchy {\n${hierarchy}\n}\nbounds {\n\t( -9 -9 -9 ) ( 9 9 9 )\n\t( -9 -9 -9 ) ( 9 9 9 )\n}\nbaseframe {\n${base}\n}\n` +
    `frame 0 {\n\t0 0 0 0\n}\nframe 1 {\n\t${qz} ${qz} ${qz} ${qz}\n}\n`;

  it('the GPU mode keeps four, renormalised, and says so; the exact mode skins all seven weights', async () => {
    const mesh = parseMd5Mesh(new TextEncoder().encode(meshText));
    const anim = parseMd5Anim(new TextEncoder().encode(animText));
    const poser = new Md5Poser(backend, mesh).setAnim(anim).poseFrame(1);
    const out: Record<string, number> = {};
    for (const skinning of ['gpu', 'exact'] as const) {
      const three = await md5ToThree('chain', mesh, [{ name: 'bend', anim }], skinning);
      expect(three.warnings.map((x) => x.code)).toEqual(skinning === 'gpu' ? ['WEIGHTS_DROPPED'] : []);
      const scene = new Group().add(three.root);
      const mixer = new AnimationMixer(scene);
      mixer.clipAction(three.clips[0]).play();
      setTime(mixer, scene, 1 / 24); // frame 1
      if (three.mesh instanceof SkinnedPoserMesh) three.mesh.sync();
      out[skinning] = maxDistance(threePositions(three.mesh, three.root).subarray(0, 3), poser.positions.subarray(0, 3));
    }
    expect(out.exact).toBeLessThan(1e-5);
    // dropping 10% of vertex 0's weight (joints 0 and 5) moves it visibly once the chain bends
    expect(out.gpu).toBeGreaterThan(1e-2);
  });
});
