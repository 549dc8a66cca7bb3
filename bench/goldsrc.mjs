// Half-Life studio models (GoldSrc MDL v10, formats/goldsrc): (1) posing per backend — WASM SIMD, WASM scalar, TS —
// a whole frame through GoldsrcPoser (run-length decode, controllers, blends, two frames interpolated, composed,
// skinned) on the H1 group's man.mdl: its walk with two controllers set, and its four-blend arms_up mixed at
// (90, 170); (2) parsing against native assimp on every studio model of the H1 group: parseGoldsrc in this process
// against assimp's own import time (`assimp info FILE -r`), and the whole process (`idtech-models inspect FILE`
// against `assimp info FILE`, start-up included, interleaved, median of the runs) — issue 38's goal: ≥ 3× faster.
//   node bench/goldsrc.mjs [--quick] [--json]      (assimp missing: its columns say n/a)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSource, formatRows, isMain, median, ROOT, SHARED } from './lib.mjs';

const H1 = 'assimp/test/models/MDL/MDL (HL1)';
const BIN = join(ROOT, 'bin', 'idtech-models.js');

/** The GoldSrc room and the backends, bundled from ts/src (dist/'s entry points may not carry the poser). */
function lib() {
  return bundleSource(join(ROOT, 'target/bench/goldsrc/goldsrc-node.mjs'), `export { parseGoldsrc } from './ts/src/formats/goldsrc/parser.js';
    export { GoldsrcPoser } from './ts/src/formats/goldsrc/poser.js';
    export { goldsrcDraw } from './ts/src/formats/goldsrc/geometry.js';
    export { sequenceSources } from './ts/src/formats/goldsrc/anim.js';
    export { createWasmBackend } from './ts/src/kernels/wasm-backend.js';
    export { createTsBackend } from './ts/src/kernels/ts-backend.js';`);
}

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

const hasAssimp = () => spawnSync('sh', ['-c', 'command -v assimp'], { encoding: 'utf8' }).stdout.trim() !== '';

/** assimp's own import time (best of `runs`, ms), or null. */
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

/** Wall ms of one process run to its exit. */
function processMs(cmd, args) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  if (r.status !== 0) return null;
  return performance.now() - t;
}

/** The H1 group's studio models (IDST with bones; not the texture file or the group files). */
function studioModels() {
  const rows = readFileSync(join(SHARED, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t'));
  return rows.filter((c) => c[0] === 'hl1mdl' && c[1].startsWith(H1)).map((c) => c[1])
    .filter((p) => { const b = readFileSync(join(SHARED, p)); return b.toString('latin1', 0, 4) === 'IDST' && b.readInt32LE(140) > 0; });
}

export async function benchGoldsrc({ quick = false, log = console.error } = {}) {
  const { parseGoldsrc, GoldsrcPoser, goldsrcDraw, sequenceSources, createWasmBackend, createTsBackend } = await lib();
  // --- posing per backend -----------------------------------------------------------------------------------------
  const manFile = join(SHARED, H1, 'man.mdl');
  const man = parseGoldsrc(new Uint8Array(readFileSync(manFile)));
  const draw = goldsrcDraw(man);
  const { sources } = sequenceSources(man, new Map(), 'man.mdl');
  const backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
  const workloads = [
    ['man.mdl walk + 2 controllers', sources[1], { controllers: { 0: 30, 1: -20 } }],
    ['man.mdl arms_up, 4 blends at (90, 170)', sources[2], { blend: [90, 170] }],
  ];
  const pose = [];
  for (const [name, source, controls] of workloads) {
    log(`GoldSrc posing: ${name}…`);
    const row = { name, vertices: draw.vertexCount, bones: man.bones.length };
    for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
      for (const b of backends) {
        const poser = new GoldsrcPoser(b, man, draw).setControls(controls);
        const F = source.sequence.frameCount;
        let f = 0;
        const us = time(() => {
          poser.poseSequence(source, f, 0.5);
          f = (f + 1) % F;
        }, quick ? 60 : 150) * 1000;
        poser.dispose();
        row[b.name] = Math.min(row[b.name] ?? Infinity, us);
      }
    }
    row.ts_over_simd = row.ts / row['wasm-simd'];
    pose.push(row);
  }
  backends.forEach((b) => b.dispose());
  // --- parse vs assimp: in process (import only), and whole processes -------------------------------------------------
  const assimp = hasAssimp();
  const parse = [];
  for (const rel of studioModels()) {
    const file = join(SHARED, rel);
    const bytes = new Uint8Array(readFileSync(file));
    const ours = time(() => parseGoldsrc(bytes), quick ? 40 : 120);
    const theirs = assimp ? assimpImportMs(file, quick ? 2 : 5) : null;
    parse.push({ file: rel.slice(H1.length + 1), bytes: bytes.length, ours_ms: ours, assimp_ms: theirs, ratio: theirs ? theirs / ours : null });
  }
  const processes = [];
  if (existsSync(BIN)) {
    for (const name of ['man.mdl', 'chrome_sphere.mdl', 'multiple_roots.mdl']) {
      const file = join(SHARED, H1, name);
      const ours = [], theirs = [];
      for (let i = 0; i < (quick ? 3 : 9); i++) {
        ours.push(processMs(process.execPath, [BIN, 'inspect', file]));
        if (assimp) theirs.push(processMs('assimp', ['info', file]));
      }
      const o = ours.every((x) => x !== null) ? median(ours) : null, t = assimp && theirs.every((x) => x !== null) ? median(theirs) : null;
      processes.push({ file: name, ours_ms: o, assimp_ms: t, ratio: o && t ? t / o : null });
    }
  }
  return { pose, parse, processes };
}

export function formatGoldsrcTable(r) {
  const f = (x, d = 1) => (x == null ? 'n/a' : x.toFixed(d));
  const pose = formatRows(['workload (one frame, t = 0.5)', 'vertices', 'bones', 'simd µs', 'scalar µs', 'ts µs', 'ts/simd'],
    r.pose.map((x) => [x.name, String(x.vertices), String(x.bones), f(x['wasm-simd']), f(x['wasm-scalar']), f(x.ts), `${x.ts_over_simd.toFixed(1)}×`]));
  const parse = formatRows(['file', 'bytes', 'ours ms', 'assimp ms', 'assimp/ours'],
    r.parse.map((x) => [x.file, String(x.bytes), f(x.ours_ms, 4), f(x.assimp_ms, 4), x.ratio ? `${x.ratio.toFixed(1)}×` : 'n/a']));
  const proc = formatRows(['whole process', 'inspect ms', 'assimp info ms', 'assimp/ours'],
    r.processes.map((x) => [x.file, f(x.ours_ms), f(x.assimp_ms), x.ratio ? `${x.ratio.toFixed(2)}×` : 'n/a']));
  return `${pose}\n\nparse (in process; assimp: its own import time)\n${parse}\n\n${proc}`;
}

if (isMain(import.meta.url)) {
  const r = await benchGoldsrc({ quick: process.argv.includes('--quick') });
  console.log(process.argv.includes('--json') ? JSON.stringify(r, null, 2) : formatGoldsrcTable(r));
}
