// What a glTF import costs: glTF → md5mesh + md5anims and glTF → MD3 (`idtech-models/write`), per sampled frame and
// per vertex-frame, on the corpus' skinned samples and on a generated one shaped like Khronos' BrainStem (one mesh
// per node, each with a skin of its own naming the same joints: CesiumMan's mesh 20 times, 65,460 vertices). Each
// import samples every animation frame, poses every vertex (skinning) and reads every joint's world matrix.
//   ms         the whole import (read + sample + build), best median of a few rounds
//   ms/frame   ms / sampled frames
//   ns/vertex  ms / (frames × vertices): the per-vertex cost of one frame
//   node bench/gltf-import.mjs [--quick] [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { gltfToMd3, gltfToMd5 } from '../dist/write.js';
import { bestMedians, formatRows, isMain, SHARED } from './lib.mjs';

const CESIUM = join(SHARED, 'gltf-samples/mjolnir-zig/assets/CesiumMan.glb');
const FOX = join(SHARED, 'gltf-samples/bevy/assets/models/animated/Fox.glb');

/** CesiumMan's skinned mesh node `copies` times, each copy with a skin of its own over the same joints. */
async function brainStemShaped(copies) {
  const io = new NodeIO();
  const doc = await io.readBinary(new Uint8Array(readFileSync(CESIUM)));
  const src = doc.getRoot().listNodes().find((n) => n.getMesh() && n.getSkin());
  const parent = src.getParentNode();
  for (let i = 1; i < copies; i++) {
    const n = doc.createNode(`copy${i}`).setMesh(src.getMesh().clone()).setSkin(src.getSkin().clone());
    n.setTranslation(src.getTranslation()).setRotation(src.getRotation()).setScale(src.getScale());
    parent.addChild(n);
  }
  return io.writeBinary(doc);
}

export async function benchGltfImport({ quick = false } = {}) {
  const inputs = [
    ['CesiumMan.glb', new Uint8Array(readFileSync(CESIUM))],
    ['Fox.glb', new Uint8Array(readFileSync(FOX))],
    ['CesiumMan × 20 skins (BrainStem-shaped)', await brainStemShaped(20)],
  ];
  const rows = [];
  for (const [name, bytes] of inputs) {
    const md5 = await gltfToMd5({ bytes });
    const frames = md5.anims.reduce((n, a) => n + a.anim.frameCount, 0);
    const vertices = md5.mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
    const md3 = await gltfToMd3({ bytes });
    const md3Vertices = md3.surfaces.reduce((n, s) => n + s.vertexCount, 0);
    const best = await bestMedians(quick ? 1 : 3, { time: quick ? 200 : 500, iterations: 2, warmupIterations: 1 }, (b) => {
      b.add('md5', () => gltfToMd5({ bytes }));
      b.add('md3', () => gltfToMd3({ bytes }));
    });
    for (const [target, ms, f, v] of [['md5mesh', best.get('md5'), frames, vertices], ['md3', best.get('md3'), md3.frameCount, md3Vertices]]) {
      rows.push({ input: name, target, frames: f, vertices: v, ms, ms_per_frame: ms / f, ns_per_vertex_frame: (ms * 1e6) / (f * v) });
    }
  }
  return { date: new Date().toISOString(), node: process.version, rows };
}

export function formatGltfImportTable(r) {
  return formatRows(
    ['input', 'target', 'frames', 'vertices', 'ms', 'ms/frame', 'ns/vertex·frame'],
    r.rows.map((o) => [o.input, o.target, String(o.frames), String(o.vertices), o.ms.toFixed(0), o.ms_per_frame.toFixed(2), o.ns_per_vertex_frame.toFixed(0)]),
  );
}

if (isMain(import.meta.url)) {
  const r = await benchGltfImport({ quick: process.argv.includes('--quick') });
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : formatGltfImportTable(r));
}
