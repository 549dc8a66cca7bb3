// Material resolution: a whole Quake 3 player folder, a map-object folder with a large shader script, and the
// script parsers' speed. The materials floor is not in dist/'s entry points (yet), so this script bundles what it
// needs from ts/src with esbuild into target/ first. tinybench, several short rounds, best median per task.
//   cold_ms   a new MaterialResolver: lists and parses every script of the folder, probes every path;
//   warm_ms   the same resolver again: the library and every lookup are cached (a viewer switching skins);
//   ratio     cold / warm.
// Files are read into memory first (memoryFileSystem), so the numbers are the resolver's work, not the disk's.
//   node bench/materials.mjs [--quick] [--json]
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bestMedians, formatRows, isMain, ROOT, SHARED } from './lib.mjs';

async function loadModules() {
  const out = join(ROOT, 'target', 'bench-materials.mjs');
  mkdirSync(join(ROOT, 'target'), { recursive: true });
  await build({
    stdin: {
      contents: `export * from './ts/src/materials/index.ts';
        export { memoryFileSystem } from './ts/src/vfs/memory.ts';
        export { parseMd3 } from './ts/src/formats/md3/index.ts';`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: out,
    logLevel: 'warning',
  });
  return import(pathToFileURL(out).href);
}

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** A corpus folder as a memory file system (paths relative to it). */
function folderFs(m, root) {
  const abs = join(SHARED, root);
  const files = walk(abs).map((p) => ({ path: relative(abs, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) }));
  return { fs: m.memoryFileSystem(files), files };
}

export async function benchMaterials({ quick = false } = {}) {
  const m = await loadModules();

  // 1. A whole player folder: every skin it offers, each part (human_bsuit: lower 191, upper 153 frames).
  const player = folderFs(m, 'res-players_src.dpkdir');
  const dir = 'models/players/human_bsuit';
  const parts = Object.fromEntries(['lower', 'upper', 'head'].map((p) => [p, m.parseMd3(readFileSync(join(SHARED, 'res-players_src.dpkdir', dir, `${p}.md3`)))]));
  const resolvePlayer = async (resolver) => {
    const offers = await m.listSkins(player.fs, dir, m.PLAYER_PARTS);
    let surfaces = 0;
    for (const o of offers) surfaces += (await resolver.player(parts, dir, { skin: o.name })).materials.length;
    return surfaces;
  };

  // 2. A map-object folder: stasis.md3's six surfaces against every shader of its tree's scripts/ (nexus6.shader: 82).
  const trem = folderFs(m, 'res-tremulous_src.dpkdir');
  const stasisPath = 'models/mapobjects/stasis/stasis.md3';
  const stasis = m.parseMd3(readFileSync(join(SHARED, 'res-tremulous_src.dpkdir', stasisPath)));

  // 3. Parsers alone.
  const nexus = readFileSync(join(SHARED, 'res-tremulous_src.dpkdir/scripts/nexus6.shader'));
  const mtr = readFileSync(join(SHARED, 'aaa-assets/scripts/grenade_launcher.mtr'));

  const warmPlayer = new m.MaterialResolver(player.fs);
  const warmTrem = new m.MaterialResolver(trem.fs);
  const checks = { playerSurfaces: await resolvePlayer(warmPlayer), stasisSurfaces: (await warmTrem.md3(stasis, stasisPath)).materials.length };
  const shaderCount = (await warmTrem.library()).shaders.size;
  if (checks.playerSurfaces !== 3 || checks.stasisSurfaces !== 6) throw new Error(`unexpected resolution: ${JSON.stringify(checks)}`);

  const options = { time: quick ? 60 : 200, warmupTime: 30, iterations: quick ? 10 : 30, warmupIterations: 5 };
  const best = await bestMedians(quick ? 2 : 4, options, (bench) => {
    bench.add('player cold', () => resolvePlayer(new m.MaterialResolver(player.fs)));
    bench.add('player warm', () => resolvePlayer(warmPlayer));
    bench.add('stasis cold', () => new m.MaterialResolver(trem.fs).md3(stasis, stasisPath));
    bench.add('stasis warm', () => warmTrem.md3(stasis, stasisPath));
    bench.add('nexus6.shader parse', () => m.parseShaderScript(nexus));
    bench.add('grenade_launcher.mtr parse', () => m.parseMtr(mtr));
  });
  const row = (name, what, files) => ({ name, what, files, cold_ms: best.get(`${name} cold`), warm_ms: best.get(`${name} warm`), ratio: best.get(`${name} cold`) / best.get(`${name} warm`) });
  return {
    resolve: [
      row('player', `${dir}: listSkins + 3 parts per skin`, player.files.length),
      row('stasis', `${stasisPath}: 6 surfaces, ${shaderCount} shaders in scripts/`, trem.files.length),
    ],
    parse: [
      { file: 'nexus6.shader', bytes: nexus.length, ms: best.get('nexus6.shader parse'), mb_per_s: nexus.length / 1e6 / (best.get('nexus6.shader parse') / 1e3) },
      { file: 'grenade_launcher.mtr', bytes: mtr.length, ms: best.get('grenade_launcher.mtr parse'), mb_per_s: mtr.length / 1e6 / (best.get('grenade_launcher.mtr parse') / 1e3) },
    ],
  };
}

export function formatMaterialsTable({ resolve, parse }) {
  const a = formatRows(
    ['folder', 'files', 'cold ms', 'warm ms', 'cold/warm'],
    resolve.map((r) => [r.what, String(r.files), r.cold_ms.toFixed(3), r.warm_ms.toFixed(4), `${r.ratio.toFixed(1)}×`]),
  );
  const b = formatRows(['script', 'bytes', 'parse ms', 'MB/s'], parse.map((p) => [p.file, String(p.bytes), p.ms.toFixed(4), p.mb_per_s.toFixed(1)]));
  return `${a}\n\n${b}`;
}

if (isMain(import.meta.url)) {
  const result = await benchMaterials({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatMaterialsTable(result));
}
