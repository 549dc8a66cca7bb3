// .glb size against the source file, on every real MD2 and MD3 in ../shared/models (sizes are deterministic: one
// export each, no timing).
//   source     the .md2 / .md3 file's bytes
//   float      toGlb(model, { quantize: false }): float32 positions, normals and weights (what main wrote)
//   quantized  toGlb(model): KHR_mesh_quantization (the default; docs/gltf.md "Compact output")
//   meshopt    toGlbMeshopt(model): quantised + EXT_meshopt_compression (idtech-models/advanced)
//   reorder    toGlbMeshopt(model, { reorder: true }): the same with each mesh's vertices renumbered for the codec
//   ratios     each glb / source; the goal is quantized (or meshopt) ≤ 1.5×
//   node bench/glb-size.mjs [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMd2, parseMd3, toGlb } from '../dist/node.js';
import { toGlbMeshopt } from '../dist/advanced.js';
import { formatRows, isMain, sharedFiles, SHARED } from './lib.mjs';

export async function benchGlbSize() {
  const rows = [];
  for (const [format, parse] of [['md2', parseMd2], ['md3', parseMd3]]) {
    for (const path of sharedFiles(format)) {
      const bytes = new Uint8Array(readFileSync(join(SHARED, path)));
      const model = parse(bytes);
      const float = (await toGlb(model, { quantize: false })).byteLength;
      const quantized = (await toGlb(model)).byteLength;
      const meshopt = (await toGlbMeshopt(model)).byteLength;
      const reorder = (await toGlbMeshopt(model, { reorder: true })).byteLength;
      rows.push({ model: path, frames: model.frameCount, source_bytes: bytes.byteLength, float_bytes: float, quantized_bytes: quantized, meshopt_bytes: meshopt, reorder_bytes: reorder, float_ratio: float / bytes.byteLength, quantized_ratio: quantized / bytes.byteLength, meshopt_ratio: meshopt / bytes.byteLength, reorder_ratio: reorder / bytes.byteLength });
    }
  }
  return { date: new Date().toISOString(), node: process.version, rows };
}

export function formatGlbSizeTable(r) {
  const kb = (n) => (n / 1024).toFixed(1);
  const x = (n) => `${n.toFixed(2)}×`;
  return formatRows(
    ['model', 'frames', 'source KB', 'float KB', 'quantized KB', 'meshopt KB', 'reorder KB', 'float/src', 'quantized/src', 'meshopt/src', 'reorder/src'],
    r.rows.map((o) => [o.model, String(o.frames), kb(o.source_bytes), kb(o.float_bytes), kb(o.quantized_bytes), kb(o.meshopt_bytes), kb(o.reorder_bytes), x(o.float_ratio), x(o.quantized_ratio), x(o.meshopt_ratio), x(o.reorder_ratio)]),
  );
}

if (isMain(import.meta.url)) {
  const r = await benchGlbSize();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : formatGlbSizeTable(r));
}
