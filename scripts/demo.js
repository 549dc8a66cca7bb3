// `npm run demo`: stream the bundled default model (fixtures/default/worm.*) in small chunks, pose and skin
// every frame with WASM (SIMD and scalar) and with TS, and report parity and time per frame.
// Uses the built package (dist/node.js, dist/md5.js: `idtech-models/node`, `idtech-models/md5`), as a user would import it.
import { fileURLToPath } from 'node:url';
import { stat } from 'node:fs/promises';
import { boundingDiagonal } from '../dist/advanced.js';
import { createBackend, fileChunks } from '../dist/node.js';
import { Md5Poser, parseMd5AnimStream, parseMd5MeshStream } from '../dist/md5.js';
import { wasmSimdSupported } from '../dist/advanced.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const meshPath = process.argv[2] ?? here('../fixtures/default/worm.md5mesh');
const animPath = process.argv[3] ?? (process.argv[2] ? undefined : here('../fixtures/default/worm.md5anim'));
const CHUNK = 4096;

async function streamed(path, parse) {
  let chunks = 0;
  const t0 = performance.now();
  const model = await parse(fileChunks(path, CHUNK), { onProgress: () => chunks++ });
  return { model, chunks, ms: performance.now() - t0, bytes: (await stat(path)).size };
}

const mesh = await streamed(meshPath, parseMd5MeshStream);
const anim = animPath ? await streamed(animPath, parseMd5AnimStream) : null;
const m = mesh.model;
const vertices = m.meshes.reduce((n, x) => n + x.vertexCount, 0);
const triangles = m.meshes.reduce((n, x) => n + x.triangleCount, 0);
const weights = m.meshes.reduce((n, x) => n + x.weightTotal, 0);

console.log('idtech-models demo');
console.log(`  mesh   ${meshPath}`);
console.log(`         ${mesh.bytes} bytes streamed in ${mesh.chunks} chunks of ${CHUNK} B, parsed in ${mesh.ms.toFixed(1)} ms`);
console.log(`         ${m.joints.count} joints, ${m.meshes.length} meshes (${m.meshes.map((x) => x.name || x.shader).join(', ')}), ${vertices} vertices, ${triangles} triangles, ${weights} weights`);
if (anim) {
  const a = anim.model;
  console.log(`  anim   ${animPath}`);
  console.log(`         ${anim.bytes} bytes streamed in ${anim.chunks} chunks, parsed in ${anim.ms.toFixed(1)} ms`);
  console.log(`         ${a.frameCount} frames at ${a.frameRate} fps, ${a.componentCount} animated components per frame`);
}

const names = [...(wasmSimdSupported() ? ['wasm-simd'] : []), 'wasm-scalar', 'ts'];
const posers = [];
for (const name of names) {
  const p = new Md5Poser(await createBackend(name), m);
  if (anim) p.setAnim(anim.model);
  posers.push(p);
}
const frames = anim ? anim.model.frameCount : 1;
const pose = (p, f) => (anim ? p.poseFrame(f) : p.poseBind());

// Parity: every frame, every backend against TS.
const ts = posers.at(-1);
let worst = 0, diag = 0;
for (let f = 0; f < frames; f++) {
  pose(ts, f);
  const ref = ts.positions;
  diag = Math.max(diag, boundingDiagonal(ref));
  for (const p of posers.slice(0, -1)) {
    pose(p, f);
    const out = p.positions;
    for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(out[i] - ref[i]));
  }
}

// Timing: pose + skin (positions and normals) of every frame, repeated; backends interleaved, best of 5 rounds.
const rounds = 5, reps = Math.max(1, Math.ceil(20000 / (frames * Math.max(1, vertices / 100))));
const best = new Map(names.map((n) => [n, Infinity]));
for (let r = 0; r < rounds; r++) {
  for (const p of posers) {
    const t0 = performance.now();
    for (let k = 0; k < reps; k++) for (let f = 0; f < frames; f++) pose(p, f);
    const perFrame = (performance.now() - t0) / (reps * frames);
    best.set(p.backend.name, Math.min(best.get(p.backend.name), perFrame));
  }
}

console.log('');
console.log(`  parity  max |WASM − TS| over ${frames} frames = ${worst.toExponential(2)} (${(worst / diag).toExponential(2)} of the ${diag.toFixed(2)} diagonal; limit 1e-4)`);
console.log('  time per frame (compose + local→object + matrices + skin positions and normals), best of 5 rounds:');
const tsMs = best.get('ts');
for (const n of names) {
  const ms = best.get(n);
  console.log(`    ${n.padEnd(12)} ${(ms * 1000).toFixed(1).padStart(8)} µs/frame   ${(vertices / ms / 1000).toFixed(1).padStart(7)} Mvert/s   ${n === 'ts' ? '' : `${(tsMs / ms).toFixed(2)}× faster than TS`}`);
}
posers.forEach((p) => p.dispose());
if (!(worst <= 1e-4 * diag)) {
  console.error('parity FAILED');
  process.exit(1);
}
