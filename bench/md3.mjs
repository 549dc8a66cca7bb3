// MD3 parse speed: our parseMd3 against assimpjs (assimp's MD3 importer built with Emscripten) on every MD3 of
// ../shared/models. tinybench, several short rounds, best median per task (a stall spoils one round, not the number).
// What each side does:
//   ours_ms          parseMd3: every frame, kept quantised (int16), every offset and value validated;
//   ours_frame0_ms   parseMd3 + frame 0 of every surface decoded to float positions and normals (Md3Poser, TS) — the part of
//                    the file assimp turns into a scene (its MD3 importer reads one keyframe);
//   assimpjs_ms      FileList + ConvertFileList(…, 'assjson'): import (frame 0, triangulate, join identical
//                    vertices, sort by primitive type) and the JSON export, which assimpjs cannot skip.
// ratio = assimpjs_ms / ours_ms.
//   node bench/md3.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bestMedians, formatRows, isMain, SHARED, sharedFiles } from './lib.mjs';
import { Md3Poser, parseMd3 } from '../dist/node.js';
import { createTsBackend } from '../dist/advanced.js';


// Frame 0 of every surface decoded to float positions and normals by an Md3Poser on the TS backend.
const backend = createTsBackend();
function frame0(model) {
  new Md3Poser(backend, model).dispose(); // the constructor poses frame 0
}

function assimpConvert(ajs, name, bytes) {
  const list = new ajs.FileList();
  list.AddFile(name, bytes);
  const result = ajs.ConvertFileList(list, 'assjson');
  const ok = result.IsSuccess() && result.FileCount() > 0;
  result.delete?.();
  list.delete?.();
  return ok;
}

export async function benchMd3({ quick = false } = {}) {
  const files = sharedFiles('md3');
  const ajs = await (await import('assimpjs')).default();
  const inputs = files.map((file) => {
    const b = readFileSync(join(SHARED, file));
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const model = parseMd3(bytes);
    const name = file.split('/').pop();
    // Both must read the file, or the comparison means nothing.
    if (!assimpConvert(ajs, name, bytes)) throw new Error(`${file}: assimpjs could not import it`);
    return { file, name, bytes };
  });

  // Few iterations as a floor: assimpjs takes up to ~0.2 s a call, and tinybench's default floor is 64.
  const options = { time: quick ? 60 : 200, warmupTime: 30, iterations: quick ? 3 : 8, warmupIterations: 2 };
  const best = await bestMedians(quick ? 2 : 4, options, (bench) => {
    for (const x of inputs) {
      bench.add(`${x.file} ours`, () => parseMd3(x.bytes));
      bench.add(`${x.file} ours frame0`, () => frame0(parseMd3(x.bytes)));
      bench.add(`${x.file} assimpjs`, () => assimpConvert(ajs, x.name, x.bytes));
    }
  });
  const rows = inputs.map((x) => {
    const ours = best.get(`${x.file} ours`);
    const assimp = best.get(`${x.file} assimpjs`);
    return { file: x.file, bytes: x.bytes.length, ours_ms: ours, ours_frame0_ms: best.get(`${x.file} ours frame0`), assimpjs_ms: assimp, ratio: assimp / ours };
  });
  return { rows };
}

export function formatMd3Table({ rows }) {
  const head = ['file', 'bytes', 'ours ms', 'ours+frame0 ms', 'assimpjs ms', 'assimpjs/ours'];
  const body = rows.map((r) => [r.file, String(r.bytes), r.ours_ms.toFixed(4), r.ours_frame0_ms.toFixed(4), r.assimpjs_ms.toFixed(4), `${r.ratio.toFixed(1)}×`]);
  return formatRows(head, body);
}

if (isMain(import.meta.url)) {
  const result = await benchMd3({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMd3Table(result));
}
