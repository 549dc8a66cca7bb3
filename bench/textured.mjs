// Textured export: what resolving and embedding textures adds to a .glb export, on real models.
//   untextured_ms  await toGlb(model) + writeFile                     (materials named after shaders, no images)
//   textured_ms    resolve (new MaterialResolver: skins, every shader script) + read the images + toGlb with
//                  them (TGA/PCX/BMP decoded and re-encoded as PNG, JPEG/PNG passed through) + writeFile
//   ratio          textured / untextured, both measured in the same run
// Files are read into memory first (memoryFileSystem), so the numbers are the work, not the disk's.
//   node bench/textured.mjs [--quick] [--json]
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseMd3, resolveModelTextures, toGlb } from '../dist/node.js';
import { memoryFileSystem } from '../dist/advanced.js';
import { bestMedians, formatRows, isMain, ROOT, SHARED } from './lib.mjs';

function walk(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const folderFs = (root) => {
  const abs = join(SHARED, root);
  return memoryFileSystem(walk(abs).map((p) => ({ path: relative(abs, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) })));
};
const md3 = (root, path) => parseMd3(new Uint8Array(readFileSync(join(SHARED, root, path))));

export async function benchTextured({ quick = false } = {}) {
  const players = folderFs('res-players_src.dpkdir');
  const dir = 'models/players/human_bsuit';
  const player = { models: Object.fromEntries(['lower', 'upper', 'head'].map((p) => [p, md3('res-players_src.dpkdir', `${dir}/${p}.md3`)])) };
  const aaa = folderFs('aaa-assets');
  const launcherPath = 'models/weapons/grenade_launcher/grenade_launcher.md3';
  const launcher = md3('aaa-assets', launcherPath);
  const cases = [
    { name: 'player human_bsuit (512² JPEG skin, passed through)', fs: players, model: player, path: dir },
    { name: 'grenade_launcher.md3 (512² JPEG + 512² RLE TGA normal map → PNG)', fs: aaa, model: launcher, path: launcherPath },
  ];
  const outDir = join(ROOT, 'target', 'bench');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'textured.glb');
  const rows = [];
  for (const c of cases) {
    const untextured = async () => writeFileSync(out, await toGlb(c.model));
    const textured = async () => writeFileSync(out, await toGlb(c.model, { textures: await resolveModelTextures(c.fs, c.model, c.path) }));
    const best = await bestMedians(quick ? 2 : 4, { time: quick ? 150 : 400, warmupTime: 50, iterations: 5, warmupIterations: 1 }, (b) => {
      b.add('untextured', untextured);
      b.add('textured', textured);
    });
    const t = await resolveModelTextures(c.fs, c.model, c.path);
    rows.push({
      model: c.name,
      untextured_ms: best.get('untextured'),
      textured_ms: best.get('textured'),
      ratio: best.get('textured') / best.get('untextured'),
      untextured_bytes: (await toGlb(c.model)).byteLength,
      textured_bytes: (await toGlb(c.model, { textures: t })).byteLength,
      images: t.images.size,
    });
  }
  return { date: new Date().toISOString(), node: process.version, quick, rows };
}

export function formatTexturedTable(r) {
  return formatRows(
    ['model', 'untextured ms', 'textured ms', 'ratio', 'untextured KB', 'textured KB', 'images'],
    r.rows.map((x) => [x.model, x.untextured_ms.toFixed(2), x.textured_ms.toFixed(2), `${x.ratio.toFixed(1)}×`, (x.untextured_bytes / 1024).toFixed(0), (x.textured_bytes / 1024).toFixed(0), String(x.images)]),
  );
}

if (isMain(import.meta.url)) {
  const r = await benchTextured({ quick: process.argv.includes('--quick') });
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : formatTexturedTable(r));
}
