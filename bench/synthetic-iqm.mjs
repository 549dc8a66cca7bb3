// In-memory generator of big skinned IQM models for the bake bench and tests (no file round trip), the IQM
// counterpart of synthetic.mjs: a random joint tree, vertices with 1–4 blend weights (bytes summing to 255, or floats
// summing to 1), and frames whose every pose animates translation and rotation (masks 0x7f, scale constant), each
// frame rotating the joints a little off their bind. Deterministic for a given seed. Returns the library's own
// IqmModel shape, mesh and animation in one (its poses are its joints, as an IQM with its own frames).
import { xorshift } from './synthetic.mjs';

export function syntheticIqmModel({ vertices, joints = 64, frames = 16, seed = 1, floatWeights = false }) {
  const rnd = xorshift(seed);
  const parents = new Int32Array(joints), translate = new Float32Array(joints * 3), rotate = new Float32Array(joints * 4), scale = new Float32Array(joints * 3).fill(1);
  for (let j = 0; j < joints; j++) {
    parents[j] = j === 0 ? -1 : Math.floor(rnd() * j);
    translate.set([(rnd() - 0.5) * 10, (rnd() - 0.5) * 10, rnd() * 10], j * 3);
    const [x, y, z] = [(rnd() - 0.5) * 0.8, (rnd() - 0.5) * 0.8, (rnd() - 0.5) * 0.8];
    rotate.set([x, y, z, Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))], j * 4);
  }
  // Poses: channels 0–6 stored (translate, rotate), offsets the bind minus a swing, scales spreading uint16 over it.
  const masks = new Uint32Array(joints).fill(0x7f), offsets = new Float32Array(joints * 10), scales = new Float32Array(joints * 10);
  for (let j = 0; j < joints; j++) {
    for (let c = 0; c < 3; c++) {
      offsets[j * 10 + c] = translate[j * 3 + c] - 0.5;
      scales[j * 10 + c] = 1 / 65535;
    }
    for (let c = 0; c < 4; c++) {
      offsets[j * 10 + 3 + c] = rotate[j * 4 + c] - 0.2;
      scales[j * 10 + 3 + c] = 0.4 / 65535;
    }
    offsets.set([1, 1, 1], j * 10 + 7);
  }
  const frameChannels = joints * 7;
  const frameData = new Uint16Array(frames * frameChannels);
  for (let i = 0; i < frameData.length; i++) frameData[i] = Math.floor(rnd() * 65536);
  const positions = new Float32Array(vertices * 3), normals = new Float32Array(vertices * 3);
  const blendIndexes = new Uint8Array(vertices * 4);
  const blendWeights = floatWeights ? new Float32Array(vertices * 4) : new Uint8Array(vertices * 4);
  for (let v = 0; v < vertices; v++) {
    positions.set([(rnd() - 0.5) * 40, (rnd() - 0.5) * 40, rnd() * 60], v * 3);
    normals.set([0, 0, 1], v * 3);
    // Weight counts: 40% one, 30% two, 20% three, 10% four.
    const r = rnd(), n = r < 0.4 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : 4;
    const raw = Array.from({ length: n }, () => 0.1 + rnd());
    const sum = raw.reduce((a, b) => a + b, 0);
    raw.sort((a, b) => b - a);
    let left = 255;
    for (let k = 0; k < n; k++) {
      blendIndexes[v * 4 + k] = Math.floor(rnd() * joints);
      if (floatWeights) blendWeights[v * 4 + k] = raw[k] / sum;
      else {
        const b = k === n - 1 ? left : Math.max(1, Math.min(left - (n - 1 - k), Math.round((raw[k] / sum) * 255)));
        blendWeights[v * 4 + k] = b;
        left -= b;
      }
    }
  }
  const names = Array.from({ length: joints }, (_, j) => `joint${j}`);
  return {
    format: 'iqm', version: 2, flags: 0, text: new Uint8Array(1),
    meshes: [{ name: 'synthetic', material: '', firstVertex: 0, vertexCount: vertices, firstTriangle: 0, triangleCount: 0 }],
    vertexCount: vertices, vertexArrays: [],
    positions, texcoords: null, normals, tangents: null, blendIndexes, blendWeights, colors: null,
    triangleCount: 0, triangles: new Uint32Array(0), adjacency: null,
    joints: { count: joints, names, parents, translate, rotate, scale },
    poses: { count: joints, parents: parents.slice(), masks, offsets, scales },
    anims: [{ name: 'synthetic', firstFrame: 0, frameCount: frames, framerate: 30, flags: 1, loop: true }],
    frameCount: frames, frameChannels, frames: frameData, bounds: null, comment: '', extensions: [], warnings: [],
  };
}
