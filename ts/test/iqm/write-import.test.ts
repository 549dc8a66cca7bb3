/**
 * IQM written from other formats, read back: MD5 → IQM (md5mesh + md5anims, Unvanquished's move) posed by IqmPoser
 * against Md5Poser; glTF → IQM (the Khronos and bevy samples, and our own IQM → glb → IQM round trip) within
 * quantisation; iqm.cpp's blend bytes; and native assimp (`/usr/bin/assimp info`) reading every file written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { iqmToGlb } from '../../src/formats/iqm/gltf.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseIqm } from '../../src/formats/iqm/parser.js';
import { gltfToIqm } from '../../src/formats/iqm/from-gltf.js';
import { gltfToMd5 } from '../../src/import/gltf-md5.js';
import { iqmBlendCombo } from '../../src/formats/iqm/blend.js';
import { md5ToIqm } from '../../src/formats/iqm/md5-iqm.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { assimpField, assimpInfo } from '../helpers/assimp.js';
import { diagonal } from '../helpers/compare.js';
import { read, realAnimPairs, SHARED_MODELS } from '../helpers/models.js';
import { maxDistance } from '../three/three-eval.js';
import { iqmFile } from './_corpus.js';

const backend = createTsBackend();
const dir = mkdtempSync(join(tmpdir(), 'iqm-write-'));
afterAll(() => {
  backend.dispose();
  rmSync(dir, { recursive: true, force: true });
});


/** `assimp info --raw` on the bytes (no post-processing): the counts it reports; it exits non-zero on a file it cannot read. */
async function assimpCountsOf(bytes: Uint8Array, name: string): Promise<{ vertices: number; faces: number }> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const info = await assimpInfo(path, '--raw');
  return { vertices: Number(assimpField(info, 'Vertices')), faces: Number(assimpField(info, 'Faces')) };
}

describe("iqm.cpp's blend weights", () => {
  it('keeps the four largest above 1e-3, renormalised, in bytes summing to 255', () => {
    const j = new Uint8Array(4), w = new Uint8Array(4);
    iqmBlendCombo([3, 1, 4, 1, 5, 9], [0.1, 0.0005, 0.3, 0.2, 0.25, 0.15], j, w, 0);
    expect([...j]).toEqual([4, 5, 1, 9]);
    expect(w.reduce((a, b) => a + b, 0)).toBe(255);
    // 0.3, 0.25, 0.2, 0.15 of 0.9 → 85, 71, 57, 43 rounded (256): the unit over is taken off the first byte
    expect([...w]).toEqual([84, 71, 57, 43]);
    iqmBlendCombo([2], [0.0009], j, w, 0);
    expect([...w]).toEqual([0, 0, 0, 0]);
  });
});

describe('MD5 → IQM', () => {
  const pairs = realAnimPairs();
  const meshes = [...new Set(pairs.map((p) => p.mesh.absPath))];
  for (const meshPath of meshes) {
    it(`${meshPath.slice(SHARED_MODELS.length + 1)}: the IQM poses as Md5Poser poses the md5anims, and assimp reads it`, async () => {
      const mesh = parseMd5Mesh(read(meshPath));
      const anims = pairs.filter((p) => p.mesh.absPath === meshPath).slice(0, 4).map((p) => ({ name: p.anim.path.split('/').pop()!.replace('.md5anim', ''), anim: parseMd5Anim(read(p.anim.absPath)) }));
      const bytes = writeIqm(md5ToIqm(mesh, anims));
      const iqm = parseIqm(bytes);
      expect(iqm.anims.map((a) => a.name)).toEqual(anims.map((a) => a.name));
      expect(iqm.warnings.filter((w) => w.code !== 'ENGINE_LIMIT')).toEqual([]);
      const md5 = new Md5Poser(backend, mesh), ours = new IqmPoser(backend, iqm);
      const diag = diagonal(md5.poseBind().positions);
      // the bind pose is the md5 poser's own vertices; a frame differs by MD5's per-weight positions against one
      // blended bind vertex (≤ 1.5e-4 of the diagonal on real files, see three/md5-model.ts) and 16-bit channels
      expect(maxDistance(ours.positions, md5.positions) / diag).toBeLessThan(1e-6);
      anims.forEach((a, i) => {
        md5.setAnim(a.anim);
        for (const f of [0, a.anim.frameCount >> 1, a.anim.frameCount - 1]) {
          expect(maxDistance(ours.poseFrame(iqm.anims[i].firstFrame + f).positions, md5.poseFrame(f).positions) / diag, `${a.name} frame ${f}`).toBeLessThan(3e-4);
        }
      });
      md5.dispose();
      ours.dispose();
      expect((await assimpCountsOf(bytes, 'md5.iqm')).vertices).toBe(iqm.vertexCount);
    });
  }
});

describe('glTF → IQM', () => {
  for (const path of ['gltf-samples/mjolnir-zig/assets/CesiumMan.glb', 'gltf-samples/bevy/assets/models/animated/Fox.glb']) {
    // iqm.cpp drops weights ≤ 1e-3 and renormalises the rest, and bytes hold a weight to 1/255: up to ~4e-4 of the size
    it(`${path.split('/').pop()}: every animation, posed as the MD5 import of the same glTF poses it; assimp reads it`, async () => {
      const bytes = read(join(SHARED_MODELS, path));
      const { model } = await gltfToIqm({ bytes }, { fps: 24 });
      const out = writeIqm(model);
      const iqm = parseIqm(out);
      const { mesh, anims } = await gltfToMd5({ bytes }, { fps: 24 });
      expect(iqm.anims.length).toBe(anims.length);
      const md5 = new Md5Poser(backend, mesh), ours = new IqmPoser(backend, iqm);
      const diag = diagonal(md5.poseBind().positions);
      anims.forEach((a, i) => {
        md5.setAnim(a.anim);
        for (const f of [0, a.anim.frameCount >> 1, a.anim.frameCount - 1]) {
          expect(maxDistance(ours.poseFrame(iqm.anims[i].firstFrame + f).positions, md5.poseFrame(f).positions) / diag, `${a.name} frame ${f}`).toBeLessThan(6e-4);
        }
      });
      md5.dispose();
      ours.dispose();
      const counts = await assimpCountsOf(out, 'gltf.iqm');
      expect(counts.vertices).toBe(iqm.vertexCount);
      expect(counts.faces).toBe(iqm.triangleCount);
    });
  }

  for (const [meshPath, animPath] of [['player/male/RE_Player_male.iqm', 'player/runcycle0.iqm'], ['sentry/drone.iqm', 'sentry/forward.iqm'], ['turret/sphere/turret_sphere.iqm', null]] as const) {
    it(`${meshPath}${animPath ? ` + ${animPath}` : ''}: IQM → glb → IQM gives the same bind pose and frames within quantisation`, async () => {
      const mesh = iqmFile(meshPath).model;
      const anim = animPath ? iqmFile(animPath).model : mesh;
      const glb = iqmToGlb(mesh, animPath ? { anims: [{ name: 'clip', anim }] } : {});
      const fps = anim.anims[0].framerate || 10;
      const back = parseIqm(writeIqm((await gltfToIqm({ bytes: glb }, { fps })).model));
      expect(back.vertexCount).toBe(mesh.vertexCount);
      expect(back.frameCount).toBe(anim.frameCount);
      const a = new IqmPoser(backend, mesh), b = new IqmPoser(backend, back);
      if (animPath) a.setAnimation(anim);
      const diag = diagonal(mesh.positions!);
      expect(maxDistance(a.positions, b.positions) / diag).toBeLessThan(1e-5);
      for (let f = 0; f < anim.frameCount; f++) expect(maxDistance(a.poseFrame(f).positions, b.poseFrame(f).positions) / diag, `frame ${f}`).toBeLessThan(5e-5);
      a.dispose();
      b.dispose();
      expect((await assimpCountsOf(writeIqm(back), 'rt.iqm')).faces).toBe(mesh.triangleCount);
    });
  }

  it('assimp reads every corpus file as written back by writeIqm', async () => {
    for (const path of ['player/male/RE_Player_male.iqm', 'janitor/janitor.iqm', 'drone/drone.iqm', 'roller/roller.iqm', 'player/mine_shoot.iqm']) {
      const m = iqmFile(path).model;
      const counts = await assimpCountsOf(writeIqm(m), 'corpus.iqm');
      expect(counts, path).toEqual({ vertices: m.vertexCount, faces: m.triangleCount });
    }
  });
});
