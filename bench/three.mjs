// The three.js adapter against three's own MD2Loader on every real MD2 of ../shared/models: what each keeps in
// memory, what it uploads for animation, how long a load takes and what a frame costs.
//   memory   — bytes of the typed arrays the result holds (geometry attributes, index, morph attributes, clip
//              tracks' times and values; the poser mode adds the kernel buffers its poser allocated, counted on the
//              backend), each array counted once; `× file` is that over the file's size;
//   GPU      — bytes of the morph-target texture three builds from the morph attributes (WebGLMorphtargets: one
//              RGBA32F texel per vertex for positions and one for normals, per target), 0 for the poser mode;
//   load ms  — MD2Loader.parse vs modelToThree (parse included; backend: TS), best median of tinybench rounds;
//   frame µs — the poser mode's per-frame work (two frames decoded and written to the attributes).
//   node bench/three.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';
import { parseMd2 } from '../dist/node.js';
import { createTsBackend } from '../dist/advanced.js';
import { modelToThree } from '../dist/three.js';
import { bestMedians, formatRows, isMain, SHARED, sharedFiles } from './lib.mjs';

/** A TS backend that counts the bytes of the kernel buffers it hands out (what a poser keeps). */
function countingBackend() {
  const backend = createTsBackend();
  let bytes = 0;
  const memory = backend.memory;
  const counted = {};
  for (const kind of ['f32', 'u32', 'i32', 'u8', 'i16']) {
    counted[kind] = (n) => {
      const b = memory[kind](n);
      bytes += b.view.byteLength;
      return b;
    };
  }
  counted.release = (b) => {
    bytes -= b.view.byteLength;
    memory.release(b);
  };
  return { backend: { ...backend, memory: counted, kernels: backend.kernels, name: backend.name, get disposed() { return backend.disposed; }, dispose: () => backend.dispose() }, bytes: () => bytes };
}

/** Bytes of the typed arrays under a geometry and a list of clips, each buffer once. */
function heldBytes(geometry, clips) {
  const seen = new Set();
  let n = 0;
  const add = (a) => {
    if (!a || seen.has(a.buffer)) return;
    seen.add(a.buffer);
    n += a.buffer.byteLength;
  };
  add(geometry.index?.array);
  for (const a of Object.values(geometry.attributes)) add(a.array);
  for (const list of Object.values(geometry.morphAttributes)) for (const a of list) add(a.array);
  for (const c of clips) for (const t of c.tracks) { add(t.times); add(t.values); }
  return n;
}

/** The morph texture three would upload: width × height texels of RGBA32F per target (WebGLMorphtargets, max 4096 wide). */
function morphTextureBytes(geometry) {
  const targets = geometry.morphAttributes.position?.length ?? 0;
  if (!targets) return 0;
  const perVertex = 1 + (geometry.morphAttributes.normal ? 1 : 0);
  let width = geometry.attributes.position.count * perVertex, height = 1;
  if (width > 4096) { height = Math.ceil(width / 4096); width = 4096; }
  return width * height * 4 * 4 * targets;
}

/** The one mesh of a model `modelToThree` built. */
function meshOf(model) {
  let mesh = null;
  model.scene.traverse((o) => (mesh ??= o.isMesh ? o : null));
  return mesh;
}

/** An MD2 as three.js objects, as IdTechLoader builds it (untextured). */
const md2ToThree = (model, backend, morph, quantize) => modelToThree(model, { name: 'm', backend, morph, quantize });

export async function benchThree({ quick = false } = {}) {
  const files = sharedFiles('md2');
  const loader = new MD2Loader();
  const rows = [];
  const tasks = [];
  for (const file of files) {
    const b = readFileSync(join(SHARED, file));
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const model = parseMd2(bytes);
    const threeGeometry = loader.parse(bytes.slice().buffer);
    const targets = await md2ToThree(model, createTsBackend(), 'targets', true);
    const floats = await md2ToThree(model, createTsBackend(), 'targets', false);
    const counting = countingBackend();
    const poser = await md2ToThree(model, counting.backend, 'poser', true);
    rows.push({
      file,
      bytes: bytes.length,
      frames: model.frameCount,
      vertices: { three: threeGeometry.attributes.position.count, ours: meshOf(targets).geometry.attributes.position.count },
      memory: {
        three: heldBytes(threeGeometry, threeGeometry.animations),
        targets: heldBytes(meshOf(targets).geometry, targets.animations),
        targets_f32: heldBytes(meshOf(floats).geometry, floats.animations),
        poser: heldBytes(meshOf(poser).geometry, poser.animations) + counting.bytes(),
      },
      gpu: { three: morphTextureBytes(threeGeometry), targets: morphTextureBytes(meshOf(targets).geometry), poser: 0 },
    });
    tasks.push({ file, bytes, model, poser });
  }
  const best = await bestMedians(quick ? 2 : 4, { time: quick ? 100 : 300, warmupTime: 50 }, (bench) => {
    for (const t of tasks) {
      const backend = createTsBackend();
      bench.add(`${t.file} three`, () => loader.parse(t.bytes.slice().buffer));
      bench.add(`${t.file} targets`, () => md2ToThree(parseMd2(t.bytes), backend, 'targets', true));
      bench.add(`${t.file} poser`, async () => meshOf(await md2ToThree(parseMd2(t.bytes), backend, 'poser', true)).dispose());
      const mesh = meshOf(t.poser);
      let k = 0;
      bench.add(`${t.file} poser frame`, () => {
        // a clip between two frames, a new blend each call (what a mixer sets)
        const inf = mesh.morphTargetInfluences;
        const f = k++ % Math.max(1, t.model.frameCount - 1);
        inf.fill(0);
        inf[f] = 0.6;
        if (t.model.frameCount > 1) inf[f + 1] = 0.4;
        mesh.sync();
      });
    }
  });
  for (const r of rows) {
    r.load_ms = { three: best.get(`${r.file} three`), targets: best.get(`${r.file} targets`), poser: best.get(`${r.file} poser`) };
    r.frame_us = best.get(`${r.file} poser frame`) * 1000;
  }
  return { rows };
}

const times = (n, file) => `${(n / file).toFixed(2)}×`;
const kib = (n) => (n / 1024).toFixed(1);

export function formatThreeTable({ rows }) {
  const head = ['file', 'bytes', 'frames', 'verts three/ours', 'three KiB (×file)', 'targets KiB', 'f32 KiB', 'poser KiB', 'GPU KiB three', 'GPU KiB targets', 'load ms three', 'targets', 'poser', 'poser µs/frame'];
  const body = rows.map((r) => [
    r.file.split('/').slice(-2).join('/'), String(r.bytes), String(r.frames), `${r.vertices.three}/${r.vertices.ours}`,
    `${kib(r.memory.three)} (${times(r.memory.three, r.bytes)})`, `${kib(r.memory.targets)} (${times(r.memory.targets, r.bytes)})`,
    `${kib(r.memory.targets_f32)} (${times(r.memory.targets_f32, r.bytes)})`, `${kib(r.memory.poser)} (${times(r.memory.poser, r.bytes)})`,
    kib(r.gpu.three), kib(r.gpu.targets), r.load_ms.three.toFixed(3), r.load_ms.targets.toFixed(3), r.load_ms.poser.toFixed(3), r.frame_us.toFixed(1),
  ]);
  return formatRows(head, body);
}

if (isMain(import.meta.url)) {
  const result = await benchThree({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatThreeTable(result));
}
