// Quake MDL and .pak: (1) parse speed of parseMdl against native assimp's own import time (`assimp info FILE -r`,
// no post-processing; assimp reads one frame of an MDL, we keep every pose quantised) on every LibreQuake model;
// (2) MDL frame blends (positions + normals, two poses) per backend — the MD2 kernels, so the goal is MD2's ≥ 4×
// WASM SIMD over TS; (3) listing a ~100 MB .pak (ours: open + list every path, in this process) against `unzip -l`
// on a zip of the same members (stored), process start included, as bench/archives.mjs lists zips.
// The .pak and its zip are built into target/bench/mdl/ (reused across runs, never committed).
//   node bench/mdl.mjs [--quick] [--json]      (needs assimp and zip/unzip for the comparisons; skipped with a note)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bestMedians, bundleSource, formatRows, isMain, ROOT, SHARED, sharedFiles } from './lib.mjs';

const DIR = join(ROOT, 'target/bench/mdl');

/** The MDL room, its poser, the backends and the archive opener, bundled from ts/src. */
function lib() {
  return bundleSource(join(DIR, 'mdl-node.mjs'), `export { parseMdl } from './ts/src/formats/mdl/index.js';
    export { MdlPoser } from './ts/src/formats/mdl/poser.js';
    export { createBackend } from './ts/src/kernels/select.js';
    export { wasmSimdSupported } from './ts/src/kernels/wasm-backend.js';
    export { openArchive } from './ts/src/vfs/node.js';`);
}

function assimpPath() {
  const env = join(ROOT, 'target/toolchain.env');
  const fromEnv = existsSync(env) ? /^ASSIMP='?([^'\n]+)'?$/m.exec(readFileSync(env, 'utf8'))?.[1] : undefined;
  const which = spawnSync('sh', ['-c', 'command -v assimp'], { encoding: 'utf8' }).stdout.trim();
  return [fromEnv, which, '/usr/bin/assimp'].find((p) => p && existsSync(p)) ?? null;
}

/** assimp's own import time (best of `runs`, ms), or null. */
function assimpImportMs(bin, file, runs) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(bin, ['info', file, '-r'], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
    const m = /import took approx\. ([\d.e+-]+) seconds/.exec(r.stdout ?? '');
    if (!m) return null;
    best = Math.min(best, Number(m[1]) * 1000);
  }
  return best;
}

/** A ~100 MB pak of the corpus' MDLs (renamed copies) and a stored zip of the same members. */
function makeBigPak(targetBytes) {
  const pak = join(DIR, `big-${targetBytes}.pak`), zip = join(DIR, `big-${targetBytes}.zip`);
  const stamp = `${pak}.done`;
  if (existsSync(stamp) && existsSync(pak) && existsSync(zip)) return { pak, zip, entries: Number(readFileSync(stamp, 'utf8')) };
  const files = sharedFiles('mdl').map((f) => readFileSync(join(SHARED, f)));
  const members = [];
  let total = 0;
  for (let i = 0; total < targetBytes; i++) {
    const data = files[i % files.length];
    members.push({ name: `progs/d${Math.floor(i / 256)}/m${i}.mdl`, data });
    total += data.length;
  }
  // The pak: header, members, 64-byte directory entries (Quake common.c dpackheader_t / dpackfile_t).
  const out = Buffer.alloc(12 + total + 64 * members.length);
  out.write('PACK', 0, 'latin1');
  let at = 12;
  const offsets = members.map((m) => {
    m.data.copy(out, at);
    at += m.data.length;
    return at - m.data.length;
  });
  out.writeInt32LE(at, 4);
  out.writeInt32LE(64 * members.length, 8);
  members.forEach((m, i) => {
    out.write(m.name, at + 64 * i, 56, 'latin1');
    out.writeInt32LE(offsets[i], at + 64 * i + 56);
    out.writeInt32LE(m.data.length, at + 64 * i + 60);
  });
  writeFileSync(pak, out);
  // The same members as files, stored into a zip by Info-ZIP.
  const tree = join(DIR, 'tree');
  rmSync(tree, { recursive: true, force: true });
  for (const m of members) {
    mkdirSync(join(tree, m.name, '..'), { recursive: true });
    writeFileSync(join(tree, m.name), m.data);
  }
  rmSync(zip, { force: true });
  execFileSync('zip', ['-q', '-X', '-0', '-r', zip, 'progs'], { cwd: tree });
  rmSync(tree, { recursive: true, force: true });
  writeFileSync(stamp, String(members.length));
  return { pak, zip, entries: members.length };
}

const best = (xs) => Math.min(...xs);

export async function benchMdl({ quick = false } = {}) {
  const m = await lib();
  const files = sharedFiles('mdl');
  const inputs = files.map((f) => ({ file: f, path: join(SHARED, f), bytes: new Uint8Array(readFileSync(join(SHARED, f))) }));

  // (1) parse: every file, ours (best tinybench median) and assimp's import time.
  const parsed = await bestMedians(quick ? 2 : 3, { time: quick ? 20 : 60, warmupTime: 10 }, (bench) => {
    for (const x of inputs) bench.add(x.file, () => m.parseMdl(x.bytes));
  });
  const bin = assimpPath();
  const runs = quick ? 1 : 3;
  const parse = inputs.map((x) => ({ file: basename(x.file), bytes: x.bytes.length, ours_ms: parsed.get(x.file), assimp_ms: bin ? assimpImportMs(bin, x.path, runs) : null }));
  const withAssimp = parse.filter((r) => r.assimp_ms !== null);
  const totals = {
    files: parse.length,
    bytes: parse.reduce((n, r) => n + r.bytes, 0),
    ours_ms: parse.reduce((n, r) => n + r.ours_ms, 0),
    assimp_ms: withAssimp.length === parse.length ? withAssimp.reduce((n, r) => n + r.assimp_ms, 0) : null,
  };
  totals.ratio = totals.assimp_ms ? totals.assimp_ms / totals.ours_ms : null;

  // (2) blends on every backend, on the model with the most vertices.
  const big = inputs.map((x) => ({ ...x, model: m.parseMdl(x.bytes) })).sort((a, b) => b.model.vertexCount - a.model.vertexCount)[0];
  const backends = [...(m.wasmSimdSupported() ? ['wasm-simd'] : []), 'wasm-scalar', 'ts'];
  const posers = [];
  for (const name of backends) posers.push({ name, poser: new m.MdlPoser(await m.createBackend(name), big.model) });
  const blends = await bestMedians(quick ? 2 : 4, { time: quick ? 100 : 250, warmupTime: 50 }, (bench) => {
    for (const { name, poser } of posers) {
      let f = 0;
      const n = big.model.poseCount;
      bench.add(name, () => {
        poser.poseBlend(f, (f + 1) % n, 0.5);
        f = (f + 1) % n;
      });
    }
  });
  const mverts = Object.fromEntries(backends.map((b) => [b, big.model.vertexCount / blends.get(b) / 1000]));
  for (const p of posers) p.poser.dispose();
  const blend = { file: basename(big.file), vertices: big.model.vertexCount, poses: big.model.poseCount, blend_mverts_per_s: mverts, simd_over_ts: mverts['wasm-simd'] / mverts.ts, simd_over_scalar: mverts['wasm-simd'] / mverts['wasm-scalar'] };

  // (3) listing a ~100 MB pak against unzip -l on the same members.
  let listing;
  const hasZip = spawnSync('sh', ['-c', 'command -v zip && command -v unzip'], { encoding: 'utf8' }).status === 0;
  const target = quick ? 20e6 : 100e6;
  if (!hasZip) listing = { note: 'zip/unzip not found: the .pak listing comparison was skipped' };
  else {
    const { pak, zip, entries } = makeBigPak(target);
    const rounds = quick ? 3 : 7;
    const ours = [], unzip = [];
    let listed = 0;
    for (let r = 0; r < rounds; r++) {
      let t0 = performance.now();
      const a = await m.openArchive(pak);
      listed = (await a.list('')).length;
      await a.close();
      ours.push(performance.now() - t0);
      t0 = performance.now();
      const p = spawnSync('unzip', ['-l', zip], { stdio: ['ignore', 'ignore', 'inherit'] });
      unzip.push(performance.now() - t0);
      if (p.status !== 0) throw new Error(`unzip -l ${zip} failed`);
    }
    if (listed !== entries) throw new Error(`listed ${listed} of ${entries} entries`);
    listing = { pak_bytes: statSync(pak).size, entries, ours_ms: best(ours), unzip_ms: best(unzip), ratio: best(unzip) / best(ours) };
  }
  return { parse, totals, assimp: bin ?? null, blend, listing };
}

export function formatMdlTable(r) {
  const top = [...r.parse].sort((a, b) => b.bytes - a.bytes).slice(0, 6);
  const parse = formatRows(
    ['MDL parse (largest six)', 'bytes', 'ours ms', 'assimp import ms', 'assimp/ours'],
    [...top.map((x) => [x.file, String(x.bytes), x.ours_ms.toFixed(4), x.assimp_ms?.toFixed(3) ?? '-', x.assimp_ms ? `${(x.assimp_ms / x.ours_ms).toFixed(1)}×` : '-']),
      [`all ${r.totals.files} files`, String(r.totals.bytes), r.totals.ours_ms.toFixed(3), r.totals.assimp_ms?.toFixed(3) ?? '-', r.totals.ratio ? `${r.totals.ratio.toFixed(1)}×` : '-']],
  );
  const b = r.blend;
  const backends = Object.keys(b.blend_mverts_per_s);
  const blend = formatRows(
    ['MDL blend (two poses, positions + normals)', 'vertices', ...backends.map((x) => `${x} Mv/s`), 'SIMD/TS', 'SIMD/scalar'],
    [[b.file, String(b.vertices), ...backends.map((x) => b.blend_mverts_per_s[x].toFixed(1)), `${b.simd_over_ts.toFixed(2)}×`, `${b.simd_over_scalar.toFixed(2)}×`]],
  );
  const l = r.listing;
  const listing = l.note ?? formatRows(['.pak listing', 'bytes', 'entries', 'ours ms', 'unzip -l ms (same members, zip)', 'unzip/ours'], [['big.pak', String(l.pak_bytes), String(l.entries), l.ours_ms.toFixed(2), l.unzip_ms.toFixed(2), `${l.ratio.toFixed(2)}×`]]);
  return `${parse}${r.assimp ? '' : '\n(assimp not found: its column is empty)'}\n\n${blend}\n\n${listing}`;
}

if (isMain(import.meta.url)) {
  const result = await benchMdl({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMdlTable(result));
}
