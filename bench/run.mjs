// `npm run bench`: compose / skin / frame on WASM SIMD, WASM scalar, TS and the same Rust kernels built
// natively, on the largest real MD5 models in ../shared/models and on generated 50k and 1M vertex models.
// Prints a table with ratio columns, writes bench/results/latest.json (+ a dated copy) and latest.svg.
//   node bench/run.mjs [--quick] [--json]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMd5Anim, loadMd5Mesh } from '../dist/node.js';
import { buildSkinStream, buildTangentStream } from '../dist/advanced.js';
import { formatTable, runSuite } from '../dist/bench-suite.js';
import { syntheticModel } from './synthetic.mjs';
import { chartSvg } from './chart.mjs';
import { benchMd2, formatMd2Table } from './md2.mjs';
import { benchMd3, formatMd3Table } from './md3.mjs';
import { benchMaterials, formatMaterialsTable } from './materials.mjs';
import { benchMorph, formatMorphTable } from './morph.mjs';
import { benchBakeIsolated, formatBakeTable } from './bake.mjs';
import { benchParseIsolated, formatParseTable } from './parse.mjs';
import { benchArchives, formatArchivesTable } from './archives.mjs';
import { benchBatch, formatBatchTable } from './batch.mjs';
import { benchThree, formatThreeTable } from './three.mjs';
import { benchImages, formatImagesTable } from './images.mjs';
import { benchTextured, formatTexturedTable } from './textured.mjs';
import { benchGlbSize, formatGlbSizeTable } from './glb-size.mjs';
import { benchBundleSize, formatBundleSizeTable } from './bundle-size.mjs';
import { benchCliStartup, formatCliStartupTable } from './cli-startup.mjs';
import { benchGltfImport, formatGltfImportTable } from './gltf-import.mjs';
import { benchMdl, formatMdlTable } from './mdl.mjs';
import { benchIqm, formatIqmTable } from './iqm.mjs';
import { benchGoldsrc, formatGoldsrcTable } from './goldsrc.mjs';
import { benchCrowd, formatCrowdTable } from './crowd.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = join(ROOT, '..', 'shared', 'models');
const quick = process.argv.includes('--quick');
const jsonOnly = process.argv.includes('--json');
const log = (...a) => { if (!jsonOnly) console.error(...a); };

const real = [
  ['rifle_view + reload (real)', 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh', 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_reload.md5anim'],
  ['drone + forward (real)', 'actors/drone/mesh.md5mesh', 'actors/drone/forward.md5anim'],
];
const models = [];
for (const [name, m, a] of real) {
  if (!existsSync(join(SHARED, m))) { log(`skipping ${name}: ${join(SHARED, m)} not found`); continue; }
  models.push({ name, mesh: await loadMd5Mesh(join(SHARED, m)), anim: await loadMd5Anim(join(SHARED, a)) });
}
models.push({ name: 'synthetic 50k', ...syntheticModel({ vertices: 50_000, joints: 64, frames: 16, seed: 50 }) });
if (!quick) models.push({ name: 'synthetic 1M', ...syntheticModel({ vertices: 1_000_000, joints: 128, frames: 4, seed: 1000 }) });

// --- the native ceiling: same idtech-core kernels, host build --------------------------------------------
const env = Object.fromEntries(readFileSync(join(ROOT, 'target/toolchain.env'), 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => { const i = l.indexOf('='); return [l.slice(0, i), l.slice(i + 1).replace(/^'|'$/g, '')]; }));
let nativeBin = null;
try {
  log('building the native bench (cargo build --release -p idtech-bench)…');
  execFileSync(env.HOST_CARGO, ['build', '--release', '--locked', '-q', '-p', 'idtech-bench'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  nativeBin = join(ROOT, 'target/release/idtech-bench-native');
} catch (e) {
  log(`native bench unavailable: ${e.message}`);
}

function dump(mesh, anim, path) {
  const s = buildSkinStream(mesh);
  const { tangentWeights } = buildTangentStream(mesh, s);
  const J = mesh.joints.count;
  const parts = [
    new Uint32Array([J, anim.frameCount, anim.componentCount, s.groupSizes.length, s.weightTotal, s.vertexCount]),
    new Int32Array(mesh.joints.parents), Uint32Array.from(anim.flags), anim.startIndices, anim.baseframe, anim.frames,
    s.groupSizes, s.joints, s.weights, s.streamToFile, s.normalWeights, tangentWeights,
  ];
  const bytes = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
  writeFileSync(path, bytes);
}

const results = [];
mkdirSync(join(ROOT, 'target/bench'), { recursive: true });
for (const m of models) {
  log(`benchmarking ${m.name}…`);
  const r = await runSuite(m.name, m.mesh, m.anim, { timeMs: quick ? 100 : 250, rounds: quick ? 2 : 4 });
  if (nativeBin) {
    const file = join(ROOT, 'target/bench', `${m.name.replace(/\W+/g, '_')}.bin`);
    dump(m.mesh, m.anim, file);
    const n = JSON.parse(execFileSync(nativeBin, [file], { encoding: 'utf8' }));
    r.backends.native = { compose_ns_per_joint: n.compose_ns_per_joint, skin_mverts_per_s: n.skin_mverts_per_s, skin_grouped_mverts_per_s: n.skin_grouped_mverts_per_s, skin_pnt_mverts_per_s: n.skin_pnt_mverts_per_s, frame_us: n.frame_us };
    r.skin_mverts_per_s.native = n.skin_mverts_per_s;
  }
  results.push(r);
}

// --- MD2 / MD3: parse against three.js (MD2Loader) and assimpjs; vertex animation per backend --------------
log('MD2 parse vs three.js MD2Loader…');
const md2Parse = await benchMd2({ quick });
log('MD3 parse vs assimpjs…');
const md3Parse = await benchMd3({ quick });
log('MD2/MD3 vertex animation…');
const morph = await benchMorph({ quick });
log('Bakes across cores: one thread vs 1 and N worker threads…');
const bake = benchBakeIsolated({ quick }); // its own process: see bake.mjs
log('Material resolution…');
const materials = await benchMaterials({ quick });
log('three.js adapter vs three\'s MD2Loader: memory, GPU morph texture, load, frame…');
const three = await benchThree({ quick });
log('Images: decode MB/s vs three/lunapaint/Pillow, PNG encode vs fast-png/UPNG/Pillow…');
const images = await benchImages({ quick });
log('Textured glb export: resolve + decode + encode + write vs untextured…');
const textured = await benchTextured({ quick });
log('glb size vs source (float, quantised, meshopt), the bundle\'s gzip size and apps built from the packed package…');
const glbSize = await benchGlbSize();
const bundleSize = await benchBundleSize();
log('the CLI\'s start: inspect on a small file…');
const cliStartup = benchCliStartup({ runs: quick ? 5 : 20 });
log('glTF import (→ md5mesh, → MD3): per frame and per vertex…');
const gltfImport = await benchGltfImport({ quick });
log('IQM: parse vs assimp, linear blend skinning per backend and native…');
const iqm = await benchIqm({ quick, log });
log('Crowds: N instances of a real MD5 posed per frame (one job) vs three.js\'s mixer + skeleton per character…');
const crowd = await benchCrowd({ quick, log });

// --- MD5 parse: buffer / 64 KiB stream / frame stream, against assimp native and assimpjs; inspect RSS on ~1 GB --
log('MD5 parse vs assimp and assimpjs…');
const parse = { date: new Date().toISOString(), node: process.version, quick, ...benchParseIsolated({ quick }) }; // its own process: see parse.mjs

// --- Archives: listing vs unzip -l, member streaming per inflater (Node and Chromium) -------------------------
log('Archives: listing vs unzip -l, streaming per inflater…');
const archives = await benchArchives({ quick, log });
const batch = await benchBatch({ quick, log });
log('Quake MDL parse vs assimp, MDL blend per backend, .pak listing vs unzip -l…');
const mdl = await benchMdl({ quick });
log('GoldSrc (Half-Life MDL): pose per backend, parse vs assimp (import only and whole process)…');
const goldsrc = await benchGoldsrc({ quick, log });

const out = {
  date: new Date().toISOString(),
  node: process.version,
  machine: { cpus: (await import('node:os')).cpus().length },
  notes: 'skin = positions in file order; skin_grouped = positions in the grouped (fast) order; skin_pnt = positions + normals + tangents, file order; frame = compose + skin positions; medians (tinybench p50); native = idtech-core built for the host (x86-64 baseline SSE2), scalar kernel',
  results,
  md2_parse: md2Parse.rows,
  md3_parse: md3Parse.rows,
  morph: morph.rows,
  bake,
  materials,
  three: three.rows,
  images,
  textured,
  glb_size: glbSize,
  bundle_size: bundleSize,
  cli_startup: cliStartup,
  gltf_import: gltfImport,
  parse,
  archives,
  batch,
  mdl,
  iqm,
  goldsrc,
  crowd,
};
const dir = join(ROOT, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'latest.json'), JSON.stringify(out, null, 2) + '\n');
writeFileSync(join(dir, 'latest.svg'), chartSvg(results));
if (jsonOnly) {
  console.log(JSON.stringify(out));
} else {
  console.log(formatTable(results));
  console.log('\nMD2 parse (all frames kept) vs three.js MD2Loader\n' + formatMd2Table(md2Parse));
  console.log('\nMD3 parse vs assimpjs\n' + formatMd3Table(md3Parse));
  console.log('\nMD2/MD3 vertex animation\n' + formatMorphTable(morph));
  console.log('\nIQM: parse vs assimp, linear blend skinning\n' + formatIqmTable(iqm));
  console.log('\nBakes across cores (BakePool)\n' + formatBakeTable(bake));
  console.log('\nMaterial resolution (cold: new resolver; warm: cached) and script parsing\n' + formatMaterialsTable(materials));
  console.log('\nthree.js: idtech-models/three (morph targets int16/snorm8, float32, poser) vs three\'s MD2Loader — memory held, GPU morph texture, load, poser frame\n' + formatThreeTable(three));
  console.log('\nImages: decode and PNG encode\n' + formatImagesTable(images));
  console.log('\nTextured .glb export (resolve + read + decode/encode + write) vs untextured, same run\n' + formatTexturedTable(textured));
  console.log('\n.glb size vs source, every real MD2/MD3 (float32 as before, quantised default, + meshopt)\n' + formatGlbSizeTable(glbSize));
  console.log('\nBundle: what a browser fetches for one import (gzip -9 per file)\n' + formatBundleSizeTable(bundleSize));
  console.log('\nThe CLI\'s start: `inspect` on a small file (CPU and wall time of the process, medians)\n' + formatCliStartupTable(cliStartup));
  console.log('\nglTF import: the whole import per sampled frame and per vertex-frame\n' + formatGltfImportTable(gltfImport));
  console.log('\nMD5 parse (MB/s) vs assimp native and assimpjs; inspect peak RSS\n' + formatParseTable(parse));
  console.log('\nArchives: listing vs unzip -l; streaming every member (MB/s inflated)\n' + formatArchivesTable(archives));
  console.log('\nBatch: convert ARCHIVE --all on 1 worker vs every core; inspect ARCHIVE vs unzip -l\n' + formatBatchTable(batch));
  console.log('\nQuake MDL: parse vs assimp (import only), blend per backend; .pak listing vs unzip -l\n' + formatMdlTable(mdl));
  console.log('\nGoldSrc (Half-Life MDL): one frame posed per backend; parse vs assimp, import only and whole process\n' + formatGoldsrcTable(goldsrc));
  console.log('\nCrowds: one frame of N instances of the Unvanquished human (85 joints), joint palettes in one job vs three.js (mixer + skeleton per character)\n' + formatCrowdTable(crowd));
  console.log(`\nwrote bench/results/latest.json and bench/results/latest.svg`);
}
