/**
 * A crowd as three.js objects (`three/crowd.ts`), built in Node: one InstancedMesh per surface holding every
 * instance (draw calls = surfaces), its texture holding exactly what the library posed, and the shader's reading of
 * that texture — emulated here texel for texel as `crowd-shader.ts` fetches it — putting each instance's vertices
 * where a single poser puts the model at that instance's time: a real MD5 (Md5Poser: every weight, where the GPU
 * skin keeps four, ≤ 2e-4 of the diagonal as `three/md5.test.ts` measures the four-influence skin) and a real MD2
 * (the view's poser at the instance's two frames and blend).
 */
import { Color, InstancedMesh, Matrix4, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCrowd, type MorphCrowd, type SkinnedCrowd } from '../../src/crowd/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { CrowdMesh, CROWD_TEXTURE_WIDTH } from '../../src/three/crowd.js';
import { diagonal } from '../helpers/compare.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { viewOf } from './views.js';

const HUMAN = 'res-players_src.dpkdir/models/players/human_naked/body.md5mesh';
const HUMAN_ANIMS = ['walk', 'jump', 'swim'].map((n) => `res-players_src.dpkdir/models/players/human_nobsuit_common/${n}.md5anim`);

let backend: PoseBackend;
beforeAll(async () => {
  backend = await createBackend('auto');
});

const texel = (data: Float32Array, t: number) => data.subarray(t * 4, t * 4 + 4);

describe('CrowdMesh', () => {
  it('a skinned crowd: one InstancedMesh per surface, the palettes in its texture, each instance skinned where Md5Poser puts it', async () => {
    const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/${HUMAN}`));
    const anims = HUMAN_ANIMS.map((p) => ({ name: p.split('/').pop()!.replace(/\.md5anim$/, ''), data: parseMd5Anim(read(`${SHARED_MODELS}/${p}`)) }));
    const view = await viewOf('skinned', mesh, backend, anims);
    const crowd = createCrowd(view, 40, { backend, seed: 11 }) as SkinnedCrowd;
    const three = new CrowdMesh(crowd, view, { name: 'humans' });
    const surfaces = view.groups.filter((g) => g.count > 0).length;
    expect(three.meshes.length).toBe(surfaces);
    const drawn: InstancedMesh[] = [];
    three.traverse((o) => { if ((o as InstancedMesh).isInstancedMesh) drawn.push(o as InstancedMesh); });
    expect(drawn.length).toBe(surfaces);
    for (const m of drawn) expect(m.count).toBe(40);
    three.update(0.45);
    const data = three.texture.image.data as Float32Array;
    expect(three.texture.image.width).toBe(CROWD_TEXTURE_WIDTH);
    expect(Array.from(data.subarray(0, crowd.palettes().length))).toEqual(Array.from(crowd.palettes()));
    // the shader's skin, texel for texel, against the engine's formula
    const inf = view.influences();
    const poser = new Md5Poser(backend, mesh);
    const diag = diagonal(poser.poseBind(false).positions);
    let worst = 0;
    for (const i of [0, 7, 23, 39]) {
      poser.setAnim(anims[crowd.clip[i]].data).poseTime(crowd.time[i], true, false);
      const expected = poser.positions;
      for (let v = 0; v < view.vertexCount; v++) {
        const p = [view.positions[v * 3], view.positions[v * 3 + 1], view.positions[v * 3 + 2], 1];
        const out = [0, 0, 0];
        for (let k = 0; k < 4; k++) {
          const w = inf.weights[v * 4 + k];
          if (w === 0) continue;
          const t = (i * crowd.joints + inf.joints[v * 4 + k]) * 3;
          for (let r = 0; r < 3; r++) {
            const row = texel(data, t + r);
            out[r] += w * (row[0] * p[0] + row[1] * p[1] + row[2] * p[2] + row[3] * p[3]);
          }
        }
        for (let r = 0; r < 3; r++) worst = Math.max(worst, Math.abs(out[r] - expected[v * 3 + r]));
      }
    }
    expect(worst).toBeLessThanOrEqual(2e-4 * diag);
    // per-instance placement (the model's Z-up turned Y-up first) and colour
    three.placeAt(3, new Vector3(5, 0, -2), 0);
    const m = new Matrix4();
    three.meshes[0].getMatrixAt(3, m);
    const up = new Vector3(0, 0, 1).applyMatrix4(m);
    expect(up.toArray().map((x) => Math.round(x * 1e6) / 1e6)).toEqual([5, 1, -2]);
    three.setColorAt(3, new Color(1, 0, 0));
    const c = new Color();
    three.meshes[0].getColorAt(3, c);
    expect([c.r, c.g, c.b]).toEqual([1, 0, 0]);
    poser.dispose();
    three.dispose();
    view.dispose();
  });

  it('a morph crowd: its frame texture blended at each instance\'s frames and weight is the view\'s poser', async () => {
    const view = await viewOf('morph', parseMd2(read(`${SHARED_MODELS}/assimp/test/models-nonbsd/MD2/dolphin.md2`)), backend);
    const crowd = createCrowd(view, 16, { backend, seed: 2 }) as MorphCrowd;
    const three = new CrowdMesh(crowd, view);
    expect(three.meshes.length).toBe(view.groups.filter((g) => g.count > 0).length);
    three.update(0.8);
    const data = three.texture.image.data as Float32Array;
    const frame = three.meshes[0].geometry.getAttribute('crowdFrame');
    const n = view.vertexCount;
    let worst = 0;
    for (let i = 0; i < crowd.count; i++) {
      const a = frame.getX(i), b = frame.getY(i), t = frame.getZ(i);
      expect([a, b, t]).toEqual([crowd.frames[i * 2], crowd.frames[i * 2 + 1], Math.fround(crowd.blend[i])]);
      const posed = view.poser.pose(a, b, t).positions;
      for (let v = 0; v < n; v++) {
        const pa = texel(data, (a * n + v) * 2), pb = texel(data, (b * n + v) * 2);
        for (let r = 0; r < 3; r++) worst = Math.max(worst, Math.abs(pa[r] + (pb[r] - pa[r]) * t - posed[v * 3 + r]));
      }
    }
    const b = view.bounds!;
    expect(worst).toBeLessThanOrEqual(1e-5 * Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]));
    three.dispose();
    view.poser.dispose();
  });
});
