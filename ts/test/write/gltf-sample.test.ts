/**
 * PrimitivePoser (the importers' per-frame posing, attributes read once) gives what the reference posedPrimitive (test/reference/gltf-pose.ts, attributes read
 * per call) gives, bit for bit, on the corpus glTF samples at frames across each animation: skinned (Fox,
 * CesiumMan) and morph-target (AnimatedMorphCube) primitives, posed in world space and in mesh space.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGltfDocument } from '../../src/import/gltf.js';
import { animationPlayer, duration, PrimitivePoser, restPose } from '../../src/import/gltf-sample.js';
import { posedPrimitive } from '../reference/gltf-pose.js';
import { sceneNodes, trianglePrimitives } from '../../src/import/gltf-scene.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const MORPH = 'gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF';
const SAMPLES: [string, () => Parameters<typeof readGltfDocument>[0]][] = [
  ['Fox', () => ({ bytes: read(join(SHARED_MODELS, 'gltf-samples/bevy/assets/models/animated/Fox.glb')) })],
  ['CesiumMan', () => ({ bytes: read(join(SHARED_MODELS, 'gltf-samples/mjolnir-zig/assets/CesiumMan.glb')) })],
  ['AnimatedMorphCube', () => ({ bytes: read(join(SHARED_MODELS, MORPH, 'AnimatedMorphCube.gltf')), resources: { 'AnimatedMorphCube.bin': read(join(SHARED_MODELS, MORPH, 'AnimatedMorphCube.bin')) } })],
];

describe('PrimitivePoser poses as posedPrimitive does', () => {
  for (const [label, input] of SAMPLES) {
    it(`${label}: every primitive at 7 times of every animation, world and mesh space`, async () => {
      const doc = await readGltfDocument(input());
      const order = sceneNodes(doc);
      const prims = trianglePrimitives(order, []);
      const rest = restPose(order);
      const posers = prims.map((p) => new PrimitivePoser(p.node, p.mesh, p.prim));
      let compared = 0;
      for (const a of doc.getRoot().listAnimations()) {
        const play = animationPlayer(a);
        for (let k = 0; k < 7; k++) {
          rest.restore();
          play((duration(a) * k) / 6);
          prims.forEach((p, i) => {
            for (const local of [false, true]) {
              const want = posedPrimitive(p.node, p.mesh, p.prim, local);
              const got = posers[i].pose(local);
              expect(got.positions).toEqual(want.positions);
              expect(got.normals).toEqual(want.normals);
              compared += got.vertexCount;
            }
          });
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});
