// IQM: parse speed against native assimp on the same files, and the linear-blend-skinning kernel per backend — WASM
// SIMD, WASM scalar, TS and the same Rust kernel built natively (crates/bench `--lbs`) — on Red Eclipse's player
// (3110 vertices, 78 joints, posed by runcycle0.iqm) and a generated 1M-vertex mesh (64 joints, byte weights); and
// a 1M-vertex bake across 2 cores against one thread (bench/iqm-bake.mjs, in a process of its own).
//   node bench/iqm.mjs [--quick]       (also run by bench/run.mjs)
// Goals (the MD5 skinning's): WASM SIMD ≥ 8× TS and ≥ 0.9× native.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IqmPoser, createTsBackend, createWasmBackend, parseIqm } from '../dist/advanced.js';
import { benchIqmBakeIsolated, formatIqmBakeTable } from './iqm-bake.mjs';
import { formatRows, ROOT, SHARED } from './lib.mjs';

const ACTORS = join(SHARED, 'actors-iqm');
const PARSE_FILES = ['player/male/RE_Player_male.iqm', 'drone/drone.iqm', 'player/hud_hands.iqm', 'janitor/janitor.iqm', 'player/runcycle0.iqm'];

/** Mean ms of `fn` over enough calls to fill ~`ms` milliseconds, best of `rounds`. */
function time(fn, ms = 150, rounds = 5) {
  fn();
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) fn();
    if (performance.now() - t > ms / 4 || reps > 1 << 20) break;
    reps *= 2;
  }
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) fn();
    best = Math.min(best, (performance.now() - t) / reps);
  }
  return best;
}

function assimpImportMs(file, runs) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync('assimp', ['info', file, '-r'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const m = /import took approx\. ([\d.e+-]+) seconds/.exec(r.stdout ?? '');
    if (!m) return null;
    best = Math.min(best, Number(m[1]) * 1000);
  }
  return best;
}

/** A deterministic generator (LCG) of floats in [-1, 1). */
function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 31) - 1;
}

/** A skinning workload: matrices, bind vertices, byte indices and weights. */
function synthetic(vertices, joints, seed) {
  const r = lcg(seed);
  const matrices = new Float32Array(joints * 16);
  for (let j = 0; j < joints; j++) {
    // a rotation about a random axis by a small angle, and a translation: well-conditioned like real poses
    const [ax, ay, az] = [r(), r(), r()];
    const n = Math.hypot(ax, ay, az) || 1, a = r() * 0.5, c = Math.cos(a), s = Math.sin(a), x = ax / n, y = ay / n, z = az / n;
    matrices.set([c + x * x * (1 - c), y * x * (1 - c) + z * s, z * x * (1 - c) - y * s, 0, x * y * (1 - c) - z * s, c + y * y * (1 - c), z * y * (1 - c) + x * s, 0, x * z * (1 - c) + y * s, y * z * (1 - c) - x * s, c + z * z * (1 - c), 0, r(), r(), r(), 1], j * 16);
  }
  const positions = Float32Array.from({ length: vertices * 3 }, () => r() * 50);
  const normals = new Float32Array(vertices * 3), tangents = new Float32Array(vertices * 4);
  for (let v = 0; v < vertices; v++) {
    normals.set([0, 0, 1], v * 3);
    tangents.set([1, 0, 0, 1], v * 4);
  }
  const indices = Uint8Array.from({ length: vertices * 4 }, () => Math.floor((r() + 1) / 2 * joints));
  const weights = new Uint8Array(vertices * 4);
  for (let v = 0; v < vertices; v++) weights.set([128, 64, 40, 23], v * 4);
  return { vertices, joints, matrices, positions, normals, tangents, indices, weights };
}

/** The real workload: the player's skinning matrices at a frame of runcycle0, and its vertex arrays. */
async function player() {
  const mesh = parseIqm(readFileSync(join(ACTORS, 'player/male/RE_Player_male.iqm')));
  const anim = parseIqm(readFileSync(join(ACTORS, 'player/runcycle0.iqm')));
  const backend = createTsBackend();
  const poser = new IqmPoser(backend, mesh);
  poser.setAnimation(anim);
  poser.poseFrame(5);
  const matrices = poser.jointMatrices.slice();
  poser.dispose();
  backend.dispose();
  return { vertices: mesh.vertexCount, joints: mesh.joints.count, matrices, positions: mesh.positions, normals: mesh.normals, tangents: mesh.tangents, indices: mesh.blendIndexes, weights: mesh.blendWeights, mesh, anim };
}

/** Mvert/s of lbsSkin on `backend`: positions only, and positions + normals + tangents. */
function skinRate(backend, w, ms) {
  const m = backend.memory;
  const fill = (b, a) => (b.view.set(a), b);
  const V = w.vertices;
  const buf = {
    matrices: fill(m.f32(w.matrices.length), w.matrices), positions: fill(m.f32(V * 3), w.positions), normals: fill(m.f32(V * 3), w.normals),
    tangents: fill(m.f32(V * 4), w.tangents), indices: fill(m.u8(V * 4), w.indices),
    // as IqmPoser hands them: byte weights made floats once (the kernel's own ÷ 255 gives the same floats)
    weights: fill(m.f32(V * 4), Float32Array.from(w.weights, (b) => (w.weights instanceof Float32Array ? b : b / 255))),
    outPositions: m.f32(V * 3), outNormals: m.f32(V * 3), outTangents: m.f32(V * 4),
  };
  const job = { matrices: buf.matrices, positions: buf.positions, normals: null, tangents: null, indices: buf.indices, weightsU8: null, weightsF32: buf.weights, outPositions: buf.outPositions, outNormals: null, outTangents: null };
  const pnt = { ...job, normals: buf.normals, tangents: buf.tangents, outNormals: buf.outNormals, outTangents: buf.outTangents };
  const p = time(() => backend.kernels.lbsSkin(job), ms);
  const n = time(() => backend.kernels.lbsSkin(pnt), ms);
  for (const b of Object.values(buf)) m.release(b);
  return { lbs_mverts_per_s: V / p / 1e3, lbs_pnt_mverts_per_s: V / n / 1e3 };
}

function nativeRate(w) {
  const bin = join(ROOT, 'target/release/idtech-bench-native');
  if (!existsSync(bin)) return null;
  mkdirSync(join(ROOT, 'target/bench'), { recursive: true });
  const file = join(ROOT, 'target/bench', `lbs-${w.vertices}.bin`);
  const weights = w.weights instanceof Float32Array ? w.weights : Float32Array.from(w.weights, (b) => b / 255);
  const parts = [new Uint32Array([w.vertices, w.joints, 0]), w.matrices, w.positions, w.normals, w.tangents, w.indices, weights];
  writeFileSync(file, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
  return JSON.parse(execFileSync(bin, ['--lbs', file], { encoding: 'utf8' }));
}

export async function benchIqm({ quick = false, log = console.error } = {}) {
  // --- parse vs assimp -------------------------------------------------------------------------------------------
  const parse = [];
  for (const rel of PARSE_FILES) {
    const file = join(ACTORS, rel);
    if (!existsSync(file)) continue;
    const bytes = new Uint8Array(readFileSync(file));
    const ours = time(() => parseIqm(bytes), quick ? 60 : 200);
    const assimp = assimpImportMs(file, quick ? 3 : 7);
    parse.push({ file: rel, bytes: bytes.length, ours_ms: ours, assimp_ms: assimp, ratio: assimp ? assimp / ours : null });
  }
  // --- skinning per backend --------------------------------------------------------------------------------------
  const backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
  const workloads = [['RE_Player_male + runcycle0 (real)', await player()]];
  if (!quick) workloads.push(['synthetic 1M vertices, 64 joints', synthetic(1_000_000, 64, 7)]);
  else workloads.push(['synthetic 100k vertices, 64 joints', synthetic(100_000, 64, 7)]);
  const skin = [];
  for (const [name, w] of workloads) {
    log(`IQM skinning: ${name}…`);
    const row = { name, vertices: w.vertices, joints: w.joints };
    // passes interleaved over the backends and the native process, the best rate of each kept: on a shared machine a
    // busy moment then spoils one pass of one backend, not the ratio
    const best = (a, b) => (!a ? b : !b ? a : { lbs_mverts_per_s: Math.max(a.lbs_mverts_per_s, b.lbs_mverts_per_s), lbs_pnt_mverts_per_s: Math.max(a.lbs_pnt_mverts_per_s, b.lbs_pnt_mverts_per_s) });
    for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
      for (const b of backends) row[b.name] = best(row[b.name], skinRate(b, w, quick ? 60 : 150));
      row.native = best(row.native, nativeRate(w));
    }
    const s = row['wasm-simd'], t = row.ts, n = row.native;
    row.simd_over_ts = { positions: s.lbs_mverts_per_s / t.lbs_mverts_per_s, pnt: s.lbs_pnt_mverts_per_s / t.lbs_pnt_mverts_per_s };
    if (n) row.simd_over_native = { positions: s.lbs_mverts_per_s / n.lbs_mverts_per_s, pnt: s.lbs_pnt_mverts_per_s / n.lbs_pnt_mverts_per_s };
    skin.push(row);
  }
  // --- a whole frame: ComputePoseMats over two frames + skin, through IqmPoser ------------------------------------
  const { mesh, anim } = workloads[0][1];
  const frame = {};
  for (const b of backends) {
    const poser = new IqmPoser(b, mesh, { tangents: true });
    poser.setAnimation(anim);
    let f = 0;
    frame[b.name] = time(() => {
      poser.poseBlend(f, (f + 1) % anim.frameCount, 0.5);
      f = (f + 1) % anim.frameCount;
    }, quick ? 60 : 200) * 1000;
    poser.dispose();
  }
  backends.forEach((b) => b.dispose());
  return {
    parse,
    skin,
    frame_us: frame,
    // its own process, as the MD5 bake (bench/bake.mjs's note)
    bake_1m_across_cores: benchIqmBakeIsolated({ quick }),
  };
}

export function formatIqmTable(r) {
  const parse = formatRows(['file', 'bytes', 'ours ms', 'assimp ms', 'assimp/ours'], r.parse.map((x) => [x.file, String(x.bytes), x.ours_ms.toFixed(4), x.assimp_ms?.toFixed(4) ?? 'n/a', x.ratio ? `${x.ratio.toFixed(1)}×` : 'n/a']));
  const f = (x) => (x ? x.toFixed(1) : 'n/a');
  const skin = formatRows(
    ['workload', 'simd Mv/s', 'scalar Mv/s', 'ts Mv/s', 'native Mv/s', 'simd/ts', 'simd/native', 'simd pnt', 'ts pnt', 'native pnt', 'pnt simd/ts', 'pnt simd/native'],
    r.skin.map((x) => [x.name, f(x['wasm-simd'].lbs_mverts_per_s), f(x['wasm-scalar'].lbs_mverts_per_s), f(x.ts.lbs_mverts_per_s), f(x.native?.lbs_mverts_per_s), `${x.simd_over_ts.positions.toFixed(1)}×`, x.simd_over_native ? `${x.simd_over_native.positions.toFixed(2)}×` : 'n/a', f(x['wasm-simd'].lbs_pnt_mverts_per_s), f(x.ts.lbs_pnt_mverts_per_s), f(x.native?.lbs_pnt_mverts_per_s), `${x.simd_over_ts.pnt.toFixed(1)}×`, x.simd_over_native ? `${x.simd_over_native.pnt.toFixed(2)}×` : 'n/a']),
  );
  const frame = Object.entries(r.frame_us).map(([k, v]) => `${k} ${v.toFixed(1)} µs`).join(', ');
  return `${parse}\n\nlinear blend skinning (Mvert/s; pnt = positions + normals + tangents)\n${skin}\n\nplayer frame (pose 2 frames + skin p/n/t): ${frame}\n\n${formatIqmBakeTable(r.bake_1m_across_cores)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await benchIqm({ quick: process.argv.includes('--quick') });
  console.log(formatIqmTable(r));
  mkdirSync(join(ROOT, 'target/bench'), { recursive: true });
  writeFileSync(join(ROOT, 'target/bench/iqm.json'), JSON.stringify(r, null, 2));
}
