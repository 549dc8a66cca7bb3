// In-memory generator of big skinned models for the benchmarks (no text round trip): a random joint tree,
// vertices with 1..maxWeights weights (a realistic mix, so every weight-count group is exercised), and an
// anim whose frames rotate every joint a little. Deterministic for a given seed. Returns the library's own
// Md5Mesh / Md5Anim shapes. (fixtures/generate-md5.mjs writes real files; this one feeds the kernels.)
/** A deterministic generator (xorshift32) of floats in [0, 1). */
export function xorshift(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
}

export function syntheticModel({ vertices, joints = 64, frames = 16, maxWeights = 4, seed = 1 }) {
  const rnd = xorshift(seed);
  const unitXyz = (spread) => {
    const q = [(rnd() - 0.5) * spread, (rnd() - 0.5) * spread, (rnd() - 0.5) * spread];
    return q;
  };
  const recoverW = (x, y, z) => { const t = 1 - x * x - y * y - z * z; return t > 0 ? -Math.sqrt(t) : 0; };

  const parents = new Int32Array(joints);
  const positions = new Float32Array(joints * 3);
  const orientations = new Float32Array(joints * 4);
  for (let j = 0; j < joints; j++) {
    parents[j] = j === 0 ? -1 : Math.floor(rnd() * j);
    positions.set([(rnd() - 0.5) * 10, (rnd() - 0.5) * 10, rnd() * 20], j * 3);
    const [x, y, z] = unitXyz(0.8);
    orientations.set([x, y, z, recoverW(x, y, z)], j * 4);
  }
  // Weight counts: 40% one, 30% two, 20% three, 10% up to maxWeights.
  const weightCount = new Uint32Array(vertices);
  let total = 0;
  for (let v = 0; v < vertices; v++) {
    const r = rnd();
    const c = r < 0.4 ? 1 : r < 0.7 ? 2 : r < 0.9 ? 3 : Math.min(maxWeights, 4 + Math.floor(rnd() * Math.max(1, maxWeights - 3)));
    weightCount[v] = Math.min(c, maxWeights);
    total += weightCount[v];
  }
  const weightStart = new Uint32Array(vertices);
  const weightJoints = new Uint32Array(total);
  const weightBiases = new Float32Array(total);
  const weightPositions = new Float32Array(total * 3);
  let k = 0;
  for (let v = 0; v < vertices; v++) {
    weightStart[v] = k;
    let sum = 0;
    const first = k;
    for (let i = 0; i < weightCount[v]; i++, k++) {
      weightJoints[k] = Math.floor(rnd() * joints);
      weightBiases[k] = 0.1 + rnd();
      sum += weightBiases[k];
      weightPositions.set([(rnd() - 0.5) * 4, (rnd() - 0.5) * 4, (rnd() - 0.5) * 4], k * 3);
    }
    for (let i = first; i < k; i++) weightBiases[i] /= sum;
  }
  const triangleCount = Math.max(1, Math.floor(vertices * 2) - 2);
  const triangles = new Uint32Array(triangleCount * 3);
  for (let t = 0; t < triangleCount; t++) {
    const a = t % vertices;
    triangles.set([a, (a + 1) % vertices, (a + 2) % vertices], t * 3);
  }
  const names = Array.from({ length: joints }, (_, j) => `joint${j}`);
  const mesh = {
    format: 'md5mesh', version: 10, commandline: 'bench/synthetic.mjs',
    joints: { count: joints, names, parents, positions, orientations },
    meshes: [{
      name: 'synthetic', shader: '', vertexCount: vertices, uvs: new Float32Array(vertices * 2), weightStart, weightCount,
      triangleCount, triangles, weightTotal: total, weightJoints, weightBiases, weightPositions,
    }],
  };
  const componentCount = joints * 6;
  const baseframe = new Float32Array(joints * 6);
  const frameData = new Float32Array(frames * componentCount);
  for (let j = 0; j < joints; j++) {
    baseframe.set([(rnd() - 0.5) * 4, (rnd() - 0.5) * 4, rnd() * 4, ...unitXyz(0.6)], j * 6);
    for (let f = 0; f < frames; f++) {
      frameData.set([...baseframe.subarray(j * 6, j * 6 + 3), ...unitXyz(0.6)], f * componentCount + j * 6);
    }
  }
  const anim = {
    format: 'md5anim', version: 10, commandline: 'bench/synthetic.mjs', frameCount: frames, jointCount: joints,
    frameRate: 24, componentCount, names, parents, flags: new Uint8Array(joints).fill(63),
    startIndices: Uint32Array.from({ length: joints }, (_, j) => j * 6), bounds: new Float32Array(frames * 6),
    baseframe, frames: frameData,
  };
  return { mesh, anim };
}
