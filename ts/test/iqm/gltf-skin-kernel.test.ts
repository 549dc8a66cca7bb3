/**
 * The LBS kernel serves glTF's own skins as they are: glTF joint matrices (jointWorld · inverseBind, column-major)
 * are its matrix layout, JOINTS_0 its byte indices and WEIGHTS_0 its float weights. CesiumMan and the Fox, posed at
 * several times of each animation by the import's own glTF evaluator (`PrimitivePoser`, float64) and by the kernel on
 * every backend, agree to float32 rounding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { mat4Multiply as mul4 } from '../../src/base/mat4.js';
import { animationPlayer, attribute, duration, PrimitivePoser, restPose } from '../../src/import/gltf-sample.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

describe('glTF skins through the LBS kernel', () => {
  for (const path of ['gltf-samples/mjolnir-zig/assets/CesiumMan.glb', 'gltf-samples/bevy/assets/models/animated/Fox.glb']) {
    it(`${path.split('/').pop()}: the kernel skins each skinned primitive as the glTF evaluator does`, async () => {
      const doc = await readGltfDocument({ bytes: read(join(SHARED_MODELS, path)) });
      const root = doc.getRoot();
      const rest = restPose(root.listNodes());
      let checked = 0;
      for (const node of root.listNodes()) {
        const skin = node.getSkin(), mesh = node.getMesh();
        if (!skin || !mesh) continue;
        for (const prim of mesh.listPrimitives()) {
          const poser = new PrimitivePoser(node, mesh, prim);
          const V = poser.vertexCount;
          const joints = attribute(prim, 'JOINTS_0')!, weights = attribute(prim, 'WEIGHTS_0')!;
          const positions = attribute(prim, 'POSITION')!;
          const jointNodes = skin.listJoints();
          const ibm = skin.getInverseBindMatrices()!;
          for (const anim of root.listAnimations()) {
            const play = animationPlayer(anim);
            for (const time of [0, duration(anim) / 3, duration(anim)]) {
              rest.restore();
              play(time);
              const ref = poser.pose().positions;
              for (const backend of backends) {
                const m = backend.memory;
                const mats = m.f32(jointNodes.length * 16);
                mats.view.set(jointNodes.flatMap((j, i) => mul4(j.getWorldMatrix(), ibm.getElement(i, []))));
                const pos = m.f32(V * 3), idx = m.u8(V * 4), w = m.f32(V * 4), out = m.f32(V * 3);
                pos.view.set(positions);
                idx.view.set(joints);
                w.view.set(weights);
                backend.kernels.lbsSkin({ matrices: mats, positions: pos, normals: null, tangents: null, indices: idx, weightsU8: null, weightsF32: w, outPositions: out, outNormals: null, outTangents: null });
                let worst = 0, size = 0;
                for (let i = 0; i < V * 3; i++) {
                  worst = Math.max(worst, Math.abs(out.view[i] - ref[i]));
                  size = Math.max(size, Math.abs(ref[i]));
                }
                expect(worst / size, `${backend.name} ${anim.getName()} @${time}`).toBeLessThan(1e-5);
                for (const b of [mats, pos, idx, w, out]) m.release(b);
              }
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(2);
    });
  }
});
