// MD2/MD3 vertex animation: Md2Poser / Md3Poser blending two frames (positions + normals) on every backend,
// in million vertices per second, on the largest real MD2 and MD3 files. The kernels are `morph.rs` (WASM) and
// `ts-morph-kernels.ts`; WASM/TS is the ratio users ask about.
//   node bench/morph.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Md2Poser, Md3Poser, createBackend, parseMd2, parseMd3 } from '../dist/node.js';
import { wasmSimdSupported } from '../dist/advanced.js';
import { bestMedians, formatRows, isMain, SHARED, sharedFiles } from './lib.mjs';

const largest = (format) => sharedFiles(format).map((f) => [f, readFileSync(join(SHARED, f))]).sort((a, b) => b[1].length - a[1].length)[0];

export async function benchMorph({ quick = false } = {}) {
  const backends = [...(wasmSimdSupported() ? ['wasm-simd'] : []), 'wasm-scalar', 'ts'];
  const [md2File, md2Bytes] = largest('md2');
  const [md3File, md3Bytes] = largest('md3');
  const models = [
    { file: md2File, make: (b, m) => new Md2Poser(b, m), model: parseMd2(md2Bytes) },
    { file: md3File, make: (b, m) => new Md3Poser(b, m), model: parseMd3(md3Bytes) },
  ];
  const posers = [];
  for (const m of models) for (const name of backends) posers.push({ m, name, poser: m.make(await createBackend(name), m.model) });
  const best = await bestMedians(quick ? 2 : 4, { time: quick ? 100 : 250, warmupTime: 50 }, (bench) => {
    for (const { m, name, poser } of posers) {
      let f = 0;
      const n = m.model.frameCount;
      bench.add(`${m.file} ${name}`, () => {
        poser.poseBlend(f, (f + 1) % n, 0.5);
        f = (f + 1) % n;
      });
    }
  });
  const rows = models.map((m) => {
    const vertices = posers.find((p) => p.m === m).poser.vertexCount;
    const mverts = Object.fromEntries(backends.map((b) => [b, vertices / best.get(`${m.file} ${b}`) / 1000]));
    return { file: m.file, vertices, frames: m.model.frameCount, blend_mverts_per_s: mverts, simd_over_ts: mverts['wasm-simd'] / mverts.ts, simd_over_scalar: mverts['wasm-simd'] / mverts['wasm-scalar'] };
  });
  for (const p of posers) p.poser.dispose();
  return { rows };
}

export function formatMorphTable({ rows }) {
  const backends = Object.keys(rows[0].blend_mverts_per_s);
  return formatRows(
    ['file (blend of two frames, positions + normals)', 'vertices', ...backends.map((b) => `${b} Mv/s`), 'SIMD/TS', 'SIMD/scalar'],
    rows.map((r) => [r.file, String(r.vertices), ...backends.map((b) => r.blend_mverts_per_s[b].toFixed(1)), `${r.simd_over_ts.toFixed(2)}×`, `${r.simd_over_scalar.toFixed(2)}×`]),
  );
}

if (isMain(import.meta.url)) {
  const result = await benchMorph({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMorphTable(result));
}
