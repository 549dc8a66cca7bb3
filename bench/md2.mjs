// MD2 parse speed: our parseMd2 against three.js MD2Loader.parse on every well-formed MD2 of ../shared/models,
// all frames kept by both. tinybench, several short rounds, best median per task (a stall spoils one round, not
// the number). `ours_decoded_ms` adds decoding every frame's positions and normals to floats, closer to the
// work three does (it expands every frame to float morph targets; we keep frames quantised), with an Md2Poser on
// the TS backend.
//   node bench/md2.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bestMedians, formatRows, isMain, SHARED, sharedFiles } from './lib.mjs';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';
import { Md2Poser, parseMd2 } from '../dist/node.js';
import { createTsBackend } from '../dist/advanced.js';


// Every frame decoded to float positions and normals by an Md2Poser on the TS backend (plain JS, like three).
const backend = createTsBackend();
function decodeAll(model) {
  const poser = new Md2Poser(backend, model);
  for (let f = 0; f < model.frameCount; f++) poser.poseFrame(f);
  poser.dispose();
}

export async function benchMd2({ quick = false } = {}) {
  const files = sharedFiles('md2');
  const loader = new MD2Loader();
  const inputs = files.map((file) => {
    const b = readFileSync(join(SHARED, file));
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const buffer = bytes.slice().buffer;
    const model = parseMd2(bytes);
    // Both parse the same file completely: same frame count, or the comparison means nothing.
    const three = loader.parse(buffer);
    if (!three || three.morphAttributes.position.length !== model.frameCount) throw new Error(`${file}: three.js and we disagree on frames`);
    return { file, bytes, buffer };
  });

  const best = await bestMedians(quick ? 2 : 4, { time: quick ? 100 : 300, warmupTime: 50 }, (bench) => {
    for (const x of inputs) {
      bench.add(`${x.file} ours`, () => parseMd2(x.bytes));
      bench.add(`${x.file} ours decoded`, () => decodeAll(parseMd2(x.bytes)));
      bench.add(`${x.file} three`, () => loader.parse(x.buffer));
    }
  });
  const rows = inputs.map((x) => {
    const ours = best.get(`${x.file} ours`);
    const three = best.get(`${x.file} three`);
    return { file: x.file, bytes: x.bytes.length, ours_ms: ours, ours_decoded_ms: best.get(`${x.file} ours decoded`), three_ms: three, ratio: three / ours };
  });
  return { rows };
}

export function formatMd2Table({ rows }) {
  const head = ['file', 'bytes', 'ours ms', 'ours+decode ms', 'three ms', 'three/ours'];
  const body = rows.map((r) => [r.file, String(r.bytes), r.ours_ms.toFixed(4), r.ours_decoded_ms.toFixed(4), r.three_ms.toFixed(4), `${r.ratio.toFixed(1)}×`]);
  return formatRows(head, body);
}

if (isMain(import.meta.url)) {
  const result = await benchMd2({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMd2Table(result));
}
