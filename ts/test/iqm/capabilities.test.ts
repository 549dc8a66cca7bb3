/**
 * What the registry calls for IQM, each on real files: glTF export (skin, inverse bind matrices, one animation per
 * anim, textures) clean under the Khronos validator and posed by three.js's own skinning to our kernel's points; OBJ
 * of a stored frame in the file's coordinates; the playable opener; the three.js builder in both skinning modes,
 * played by three's AnimationMixer and its own skinning (`getVertexPosition`) against IqmPoser.
 */
import { AnimationMixer, Group, SkinnedMesh } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iqmToGlb } from '../../src/formats/iqm/gltf.js';
import { readTextureBytes } from '../../src/load/texture-image.js';
import { MaterialResolver } from '../../src/materials/resolver.js';
import { readIqmConfigLater } from '../../src/formats/iqm/model-entry.js';
import type { FileSystem } from '../../src/vfs/file-system.js';
import type { IqmModel } from '../../src/base/model.js';
import { iqmObj } from '../../src/formats/iqm/obj.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { modelToThree } from '../../src/three/model-to-three.js';
import { SkinnedPoserMesh } from '../../src/three/skinned-poser-mesh.js';
import type { SkinnedClipInfo } from '../../src/three/skinned-clips.js';
import type { SkinningMode } from '../../src/three/skinned-model.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { ACCEPTED_WARNINGS, expectClean, validate, type ValidatorSummary } from '../export/validate.js';
import { diagonal } from '../helpers/compare.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { maxDistance, setTime, threePositions } from '../three/three-eval.js';
import { iqmFile, skinnedMeshes } from './_corpus.js';

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createWasmBackend('simd');
});
afterAll(() => backend.dispose());


/** An IQM's textures as the registry's resolveModelTextures gives them: the resolver's `iqm()`, then each image read. */
async function iqmTextures(fs: FileSystem, model: IqmModel, path: string) {
  const set = await new MaterialResolver(fs).iqm(model, path, { readConfig: readIqmConfigLater });
  const images = new Map<string, Uint8Array>();
  const warnings = [...set.warnings];
  for (const m of set.materials) {
    for (const image of [m.diffuse, m.normal]) {
      if (!image?.path || images.has(image.path)) continue;
      const bytes = await readTextureBytes(fs, image.path, warnings);
      if (bytes) images.set(image.path, bytes);
    }
  }
  return { materials: set.materials, warnings, images };
}

/** The sets the tests play: a mesh with a few of the animation files its config (or the file itself) gives it. */
const SETS = [
  { mesh: 'player/male/RE_Player_male.iqm', anims: ['player/runcycle0.iqm', 'player/idle.iqm', 'player/powerslide_forward.iqm'] },
  { mesh: 'player/hud_hands.iqm', anims: ['player/hud_rifle-reload.iqm'] },
  { mesh: 'janitor/janitor.iqm', anims: ['janitor/arm-deploy.iqm'] },
  { mesh: 'sentry/drone.iqm', anims: ['sentry/forward.iqm', 'sentry/death.iqm'] },
  { mesh: 'turret/sphere/turret_sphere.iqm', anims: [] },
  { mesh: 'player/mine_shoot.iqm', anims: [] },
];

/**
 * 0 errors, and only the project's accepted warnings — plus, with textures, IMAGE_FEATURES_UNSUPPORTED: Red Eclipse's
 * PNGs are embedded as shipped, and some carry colour-space chunks (gAMA / cHRM / iCCP) that glTF says a client ignores.
 */
function expectCleanWithImages(results: string[], name: string, s: ValidatorSummary): void {
  results.push(`${name}: ${s.errors} errors, warnings ${s.codes.warnings.join(', ') || 'none'}`);
  expect(s.errors, s.sample.join('\n')).toBe(0);
  for (const code of s.codes.warnings) expect([...ACCEPTED_WARNINGS, 'IMAGE_FEATURES_UNSUPPORTED'], `${name}: warning ${code}`).toContain(code);
}

describe('IQM → glTF', () => {
  const results: string[] = [];
  it('every mesh of the corpus exports with its textures with 0 validator errors', async () => {
    const fs = sharedFileSystem('actors-iqm');
    for (const m of skinnedMeshes()) {
      const textures = await iqmTextures(fs, m.model, m.path);
      const glb = iqmToGlb(m.model, { textures, name: m.path });
      expectCleanWithImages(results, m.path, await validate(glb));
      // the images the resolver found are inside the file
      expect(glb.length, m.path).toBeGreaterThan([...textures.images.values()].reduce((n, b) => n + b.length, 0));
    }
  });

  for (const set of SETS) {
    it(`${set.mesh} with ${set.anims.length} animation files: one glTF animation per anim, validator-clean`, async () => {
      const mesh = iqmFile(set.mesh).model;
      const anims = set.anims.map((p) => ({ name: p.split('/').pop()!.replace('.iqm', ''), anim: iqmFile(p).model }));
      const glb = iqmToGlb(mesh, { anims });
      expectClean(results, `${set.mesh} + anims`, await validate(glb));
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
      const want = (mesh.poses.count === mesh.joints.count ? mesh.anims.length : 0) + anims.reduce((n, a) => n + a.anim.anims.length, 0);
      expect(json.animations?.length ?? 0).toBe(want);
      expect(json.skins[0].joints.length).toBe(mesh.joints.count);
      expect(json.meshes.length).toBe(mesh.meshes.length);
    });
  }

  it('refuses an animation file whose poses do not match the skeleton', () => {
    expect(() => iqmToGlb(iqmFile('player/male/RE_Player_male.iqm').model, { anims: [iqmFile('janitor/idle.iqm').model] })).toThrow(/ANIM_MESH_MISMATCH/);
  });
});

describe('IQM → OBJ', () => {
  it('writes frame N skinned by the kernel in the file coordinates, the bind pose without a frame', () => {
    const f = iqmFile('turret/sphere/turret_sphere.iqm');
    const verts = (text: string) => text.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number));
    const bind = verts(iqmObj(f.model));
    expect(bind.length).toBe(f.model.vertexCount);
    expect(bind[5][0]).toBeCloseTo(f.model.positions![15], 5);
    const poser = new IqmPoser(backend, f.model).poseFrame(2);
    const frame2 = verts(iqmObj(f.model, { frame: 2, backend }));
    let worst = 0;
    for (let v = 0; v < frame2.length; v++) for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(frame2[v][c] - poser.positions[v * 3 + c]));
    expect(worst).toBeLessThan(1e-5);
    expect(iqmObj(f.model, { frame: 2 }).split('\n').filter((l) => l.startsWith('f ')).length).toBe(f.model.triangleCount);
    expect(() => iqmObj(f.model, { frame: f.model.frameCount })).toThrow(RangeError);
    poser.dispose();
  });
});

describe('the IQM playable, through the registry', () => {
  it("opens a player mesh with animation files as clips, and poses each clip's frames", async () => {
    const files = ['player/male/RE_Player_male.iqm', 'player/runcycle0.iqm', 'player/idle.iqm'].map((p) => ({ name: p, source: iqmFile(p).bytes }));
    const playable = await openPlayable(files);
    expect(playable.format).toBe('iqm');
    expect(playable.clips.map((c) => c.name)).toEqual(['runcycle0', 'idle']);
    expect(playable.indices.length).toBe(5006 * 3);
    const player = playable.createPlayer(backend);
    const poser = new IqmPoser(backend, playable.model as unknown as IqmModel);
    poser.setAnimation(iqmFile('player/runcycle0.iqm').model);
    player.setClip(0);
    player.poseBlend(3, 4, 0.25);
    expect(maxDistance(player.positions, poser.poseBlend(3, 4, 0.25).positions)).toBe(0);
    player.dispose();
    poser.dispose();
  });
});

describe.each(['gpu', 'exact'] as const)('IQM as three.js objects through its registration, %s skinning', (skinning: SkinningMode) => {
  for (const set of SETS.filter((s) => s.anims.length)) {
    it(`${set.mesh}: three's AnimationMixer and skinning give the kernel's points at frames and between them`, async () => {
      const model = iqmFile(set.mesh).model;
      const animations = set.anims.map((p) => ({ name: p.split('/').pop()!.replace('.iqm', ''), data: iqmFile(p).model }));
      const three = await modelToThree(model, { companions: animations, backend, skinning });
      const meshes: (SkinnedMesh | SkinnedPoserMesh)[] = [];
      three.root.traverse((o) => {
        if (o instanceof SkinnedMesh || o instanceof SkinnedPoserMesh) meshes.push(o);
      });
      expect(meshes).toHaveLength(1);
      const mesh = meshes[0];
      expect(mesh).toBeInstanceOf(skinning === 'gpu' ? SkinnedMesh : SkinnedPoserMesh);
      const scene = new Group();
      scene.add(three.root);
      const mixer = new AnimationMixer(scene);
      const poser = new IqmPoser(backend, model);
      const diag = diagonal(model.positions!);
      // the clips: the model's own anims (it has none here), then each file's anims in order, from their first frames
      const sources = animations.flatMap((a) => (a.data as IqmModel).anims.map((anim) => ({ file: a.data as IqmModel, anim })));
      try {
        sources.forEach(({ file, anim }, i) => {
          poser.setAnimation(file);
          const clip = three.animations[i];
          const info = clip.userData.idtech as SkinnedClipInfo;
          mixer.stopAllAction();
          mixer.clipAction(clip).play();
          const n = info.frameCount;
          for (const k of [0, Math.floor(n / 2), n - 1]) {
            for (const t of [0, 0.5]) {
              if (t > 0 && k + 1 >= n) continue;
              setTime(mixer, scene, (k + t) / info.frameRate);
              if (mesh instanceof SkinnedPoserMesh) mesh.sync();
              const ours = poser.poseBlend(anim.firstFrame + k, anim.firstFrame + k + (t > 0 ? 1 : 0), t).positions;
              // three scales a bone's axes (R·S), ioquake3 its rows (S·R): the quantised scales differ by ≤ 1.3e-3
              expect(maxDistance(threePositions(mesh, three.root), ours) / diag, `${clip.name} frame ${k} + ${t}`).toBeLessThan(3e-4);
            }
          }
        });
      } finally {
        poser.dispose();
        three.dispose?.();
      }
    });
  }
});
