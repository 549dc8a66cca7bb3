// Crowds (issue 42): posing N instances of one real MD5 (the Unvanquished human, 85 joints, walk / jump / swim) each
// frame — every instance's joint palette in one kernel job (`createCrowd` … `update(dt)`) on WASM SIMD, WASM scalar
// and TS — against three.js's own path for the same characters, clips and times: one SkinnedMesh (a
// SkeletonUtils.clone of the model) + one AnimationMixer per character, `mixer.update(dt)`, the character's
// `updateMatrixWorld()` (what `renderer.render` does before skinning) and `skeleton.update()`.
//   µs/frame  — best median over tinybench rounds, one frame of the whole crowd (dt = 1/60 s);
//   ratio     — three's time over ours;
//   (three.js up to 1,000 characters: 10,000 would hold ≈ 3 GB of heap)
//   B/inst    — what one instance holds: ours its palette and state (`bytesPerInstance`); three's the heap a clone,
//               its mixer and its action add (measured: heap after building N of them, gc'd, over N).
//   node bench/crowd.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AnimationMixer } from 'three';
import { clone } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { openModelFile } from '../dist/node.js';
import { createTsBackend, createWasmBackend, openCrowd, disposeCrowdView } from '../dist/advanced.js';
import { modelToThree } from '../dist/three.js';
import { bestMedians, formatRows, isMain, SHARED } from './lib.mjs';

const MESH = 'res-players_src.dpkdir/models/players/human_naked/body.md5mesh';
const ANIMS = ['walk', 'jump', 'swim'].map((n) => `res-players_src.dpkdir/models/players/human_nobsuit_common/${n}.md5anim`);
const DT = 1 / 60;
const THREE_MAX = 1000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };

/** N characters as three.js plays them: a clone of the model each, a mixer each, playing clip `clips[i]` from `times[i]`. */
function threeCharacters(model, clips, times, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const scene = clone(model.scene);
    let skinned = null;
    scene.traverse((o) => (skinned ??= o.isSkinnedMesh ? o : null));
    const mixer = new AnimationMixer(scene);
    const action = mixer.clipAction(model.animations[clips[i]]);
    action.play();
    mixer.setTime(times[i]);
    out.push({ scene, skinned, mixer });
  }
  return out;
}

export async function benchCrowd({ quick = false, log = () => {} } = {}) {
  const counts = quick ? [100, 1000] : [100, 1000, 10000];
  const backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
  const open = () => openModelFile(join(SHARED, MESH), { companions: ANIMS.map((p) => join(SHARED, p)) });
  const crowds = [];
  for (const backend of backends) {
    for (const n of counts) {
      const { crowd, view } = await openCrowd(await open(), n, { backend, seed: 42 });
      disposeCrowdView(view);
      crowds.push({ name: `${backend.name} ${n}`, backend: backend.name, n, crowd });
    }
  }
  const set = await open();
  const model = await modelToThree(set.data, { companions: set.companions.map((c) => ({ name: c.name, data: c.data })), backend: backends[2] });
  const ref = crowds.find((c) => c.backend === 'wasm-simd').crowd;
  const joints = ref.joints;
  const three = [];
  // three.js's characters hold ≈ 300 KB each (measured below): 10,000 of them would take ≈ 3 GB of heap, so its path is
  // measured up to 1,000
  for (const n of counts.filter((x) => x <= THREE_MAX)) {
    const { crowd } = crowds.find((c) => c.backend === 'wasm-simd' && c.n === n);
    log(`three.js: building ${n} characters…`);
    const before = heap();
    const chars = threeCharacters(model, crowd.clip, crowd.time, n);
    const bytes = (heap() - before) / n;
    three.push({ n, chars, bytes });
  }
  const best = await bestMedians(quick ? 2 : 3, { time: quick ? 150 : 400, warmupTime: 50 }, (bench) => {
    for (const c of crowds) bench.add(c.name, () => c.crowd.update(DT));
    for (const t of three) {
      bench.add(`three ${t.n}`, () => {
        for (const ch of t.chars) {
          ch.mixer.update(DT);
          ch.scene.updateMatrixWorld();
          ch.skinned.skeleton.update();
        }
      });
    }
  });
  const rows = counts.map((n) => {
    const us = (name) => best.get(name) * 1000;
    const t = three.find((x) => x.n === n);
    return {
      n,
      joints,
      us: { 'wasm-simd': us(`wasm-simd ${n}`), 'wasm-scalar': us(`wasm-scalar ${n}`), ts: us(`ts ${n}`), three: t ? us(`three ${n}`) : null },
      bytesPerInstance: { ours: ref.bytesPerInstance, three: t ? Math.round(t.bytes) : null },
    };
  });
  for (const c of crowds) c.crowd.dispose();
  for (const b of backends) b.dispose();
  return { model: MESH, clips: ANIMS.map((p) => p.split('/').pop()), rows };
}

export function formatCrowdTable({ rows }) {
  const head = ['instances', 'joints', 'SIMD µs/frame', 'scalar', 'TS', 'three.js', 'three/SIMD', 'three/TS', 'B/inst ours', 'B/inst three'];
  const body = rows.map((r) => [
    String(r.n), String(r.joints), r.us['wasm-simd'].toFixed(0), r.us['wasm-scalar'].toFixed(0), r.us.ts.toFixed(0), r.us.three === null ? '—' : r.us.three.toFixed(0),
    r.us.three === null ? '—' : `${(r.us.three / r.us['wasm-simd']).toFixed(1)}×`, r.us.three === null ? '—' : `${(r.us.three / r.us.ts).toFixed(1)}×`,
    String(r.bytesPerInstance.ours), r.bytesPerInstance.three === null ? '—' : String(r.bytesPerInstance.three),
  ]);
  return formatRows(head, body);
}

if (isMain(import.meta.url)) {
  const result = await benchCrowd({ quick: process.argv.includes('--quick'), log: (...a) => console.error(...a) });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatCrowdTable(result));
}
