// MD2 parse speed: our parseMd2 against three.js MD2Loader.parse on every well-formed MD2 of ../shared/models,
// all frames kept by both. tinybench, several short rounds, best median per task (a stall spoils one round, not
// the number). `ours_decoded_ms` adds decoding every frame's positions and normals to floats, closer to the
// work three does (it expands every frame to float morph targets; we keep frames quantised).
//   node bench/md2.mjs [--quick] [--json]      (needs dist/: node scripts/bundle.mjs)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { MD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js';
import { md2FrameNormals, md2FramePositions, parseMd2 } from '../dist/node.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = join(ROOT, '..', 'shared', 'models');

function md2Files() {
  const rows = readFileSync(join(SHARED, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t'));
  return rows.filter((c) => c[0] === 'md2' && !/malformed/.test(c[1])).map((c) => c[1]);
}

function decodeAll(model, pos, nrm) {
  for (let f = 0; f < model.frameCount; f++) {
    md2FramePositions(model, f, pos);
    md2FrameNormals(model, f, nrm);
  }
}

export async function benchMd2({ quick = false } = {}) {
  const files = md2Files();
  if (files.length === 0) throw new Error(`no MD2 in ${SHARED}/MANIFEST.tsv`);
  const loader = new MD2Loader();
  const inputs = files.map((file) => {
    const b = readFileSync(join(SHARED, file));
    const bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    const buffer = bytes.slice().buffer;
    const model = parseMd2(bytes);
    // Both parse the same file completely: same frame count, or the comparison means nothing.
    const three = loader.parse(buffer);
    if (!three || three.morphAttributes.position.length !== model.frameCount) throw new Error(`${file}: three.js and we disagree on frames`);
    return { file, bytes, buffer, pos: new Float32Array(model.vertexCount * 3), nrm: new Float32Array(model.vertexCount * 3) };
  });

  const best = new Map();
  const rounds = quick ? 2 : 4;
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: quick ? 100 : 300, warmupTime: 50 });
    for (const x of inputs) {
      bench.add(`${x.file} ours`, () => parseMd2(x.bytes));
      bench.add(`${x.file} ours decoded`, () => decodeAll(parseMd2(x.bytes), x.pos, x.nrm));
      bench.add(`${x.file} three`, () => loader.parse(x.buffer));
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result;
      if (!r?.latency) throw new Error(`benchmark task ${t.name} did not complete`);
      best.set(t.name, Math.min(best.get(t.name) ?? Infinity, r.latency.p50 ?? r.latency.mean));
    }
  }
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
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchMd2({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMd2Table(result));
}
