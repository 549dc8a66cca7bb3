// Images: decode MB/s per format against reference decoders, and PNG encode MB/s and size against PNG libraries, in
// one process (Pillow, the C reference, is timed by bench/pillow-time.py, run from here on the same files).
//   decode — the corpus's TGA (RLE 32-bit; and an uncompressed 32-bit copy of the same pixels), PCX, BMP and DDS
//            (DXT1, DXT5): ours (decodeImage) · three.js TGALoader · @lunapaint/tga-codec · decode-dxt (the npm DXT
//            decoder; its DataView built per call, the header read by us) · Pillow (open + load + RGBA);
//   encode — RGBA8 of real skins (the decoded TGA/PCX/BMP, and a PNG and a JPEG skin decoded by Pillow) to PNG:
//            ours (encodePng, level 6 and 3) · fast-png · UPNG.js (lossless) · Pillow (zlib 6, RGBA as given).
// MB/s are input megabytes (10⁶) per second: the file for decode, the RGBA8 for encode.
//   node bench/images.mjs [--quick] [--json]      (bundles ts/src/images with esbuild; needs python3 + Pillow)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { decodeTga as lunapaintDecodeTga } from '@lunapaint/tga-codec';
import decodeDxt from 'decode-dxt';
import { encode as fastPngEncode } from 'fast-png';
import { TGALoader } from 'three/examples/jsm/loaders/TGALoader.js';
import UPNG from 'upng-js';
import { bestMedians, formatRows, isMain, ROOT, SHARED } from './lib.mjs';

const OUT = join(ROOT, 'target', 'bench', 'images');

/** The image floor, bundled (it is not on a package entry point yet; its own bundle keeps the bench independent of that). */
async function imagesLib() {
  const outfile = join(OUT, 'images-lib.mjs');
  await build({ entryPoints: [join(ROOT, 'ts/src/images/index.ts')], outfile, bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', logLevel: 'warning' });
  return import(pathToFileURL(outfile).href);
}

const DECODE_FILES = [
  'aaa-assets/models/weapons/grenade_launcher/launcher_n.tga',
  'aaa-assets/models/weapons/grenade_launcher/launcher_s.tga',
  'distrib/baseaq/pak0/models/indicator/arrow_blue.pcx',
  'distrib/baseaq/pak0/models/indicator/arrow_red.pcx',
  'assimp/test/models-nonbsd/MD2/dolphin_f.bmp',
  'actors-iqm/player/diffuse.dds',
  'actors-iqm/player/mask.dds',
];
/** Skins only Pillow decodes here, as further PNG-encode inputs: a photographic JPEG and a drawn PNG. */
const PILLOW_RGBA = ['actors/drone/skin.jpg', 'res-weapons_src.dpkdir/models/weapons/grenade/grenade.png'];

const u8 = (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** An uncompressed 32-bit bottom-up TGA of `rgba` (top row first): the same pixels as an RLE file, stored raw. */
function rawTga(rgba, width, height) {
  const out = new Uint8Array(18 + rgba.length);
  out.set([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, width & 255, width >> 8, height & 255, height >> 8, 32, 8]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = ((height - 1 - y) * width + x) * 4;
      const d = 18 + (y * width + x) * 4;
      out[d] = rgba[s + 2];
      out[d + 1] = rgba[s + 1];
      out[d + 2] = rgba[s];
      out[d + 3] = rgba[s + 3];
    }
  }
  return out;
}

function pillow(mode, rounds, args) {
  return JSON.parse(execFileSync('python3', [join(ROOT, 'bench/pillow-time.py'), mode, String(rounds), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

export async function benchImages({ quick = false } = {}) {
  mkdirSync(OUT, { recursive: true });
  const lib = await imagesLib();
  const rounds = quick ? 2 : 4;
  const benchOptions = { time: quick ? 100 : 250, warmupTime: 50 };

  // --- decode ---------------------------------------------------------------------------------------------------
  const inputs = DECODE_FILES.map((file) => ({ file, path: join(SHARED, file), bytes: u8(readFileSync(join(SHARED, file))) }));
  const launcher = lib.decodeImage(inputs[0].bytes, inputs[0].file);
  const raw = rawTga(launcher.rgba, launcher.width, launcher.height);
  const rawPath = join(OUT, 'launcher_n-uncompressed.tga');
  writeFileSync(rawPath, raw);
  inputs.splice(2, 0, { file: 'launcher_n.tga, uncompressed copy', path: rawPath, bytes: raw });
  for (const x of inputs) {
    x.image = lib.decodeImage(x.bytes, x.path);
    x.buffer = x.bytes.slice().buffer;
    x.tga = x.path.endsWith('.tga');
    x.dds = x.path.endsWith('.dds') ? String.fromCharCode(...x.bytes.subarray(84, 88)).toLowerCase() : null;
  }
  const three = new TGALoader();
  const decodeBest = await bestMedians(rounds, benchOptions, (bench) => {
    for (const x of inputs) {
      bench.add(`${x.file} ours`, () => lib.decodeImage(x.bytes, x.path));
      if (x.tga) {
        bench.add(`${x.file} three`, () => three.parse(x.buffer));
        bench.add(`${x.file} lunapaint`, async () => lunapaintDecodeTga(x.bytes));
      }
      if (x.dds) {
        const { width, height } = x.image;
        bench.add(`${x.file} decode-dxt`, () => decodeDxt(new DataView(x.buffer, 128), width, height, x.dds));
      }
    }
  });
  const decodePillow = pillow('decode', rounds, inputs.map((x) => x.path));
  const decode = inputs.map((x, i) => {
    const mbps = (ms) => (ms === undefined ? null : x.bytes.length / 1e3 / ms);
    const format = x.image.format;
    const what = format === 'tga' ? (x.bytes[2] === 10 ? 'TGA RLE 32-bit' : 'TGA raw 32-bit') : format === 'pcx' ? 'PCX 8-bit RLE' : format === 'dds' ? `DDS ${x.dds.toUpperCase()}` : `BMP ${x.bytes[28]}-bit`;
    return {
      file: x.file,
      format: what,
      bytes: x.bytes.length,
      pixels: x.image.width * x.image.height,
      ours_ms: decodeBest.get(`${x.file} ours`),
      ours_mb_s: mbps(decodeBest.get(`${x.file} ours`)),
      three_mb_s: mbps(decodeBest.get(`${x.file} three`)),
      lunapaint_mb_s: mbps(decodeBest.get(`${x.file} lunapaint`)),
      decodedxt_mb_s: mbps(decodeBest.get(`${x.file} decode-dxt`)),
      pillow_mb_s: mbps(decodePillow[i].ms),
    };
  });

  // --- encode ---------------------------------------------------------------------------------------------------
  const skins = inputs.filter((x) => x.file !== 'launcher_n.tga, uncompressed copy' && !x.dds).map((x) => ({ file: x.file, width: x.image.width, height: x.image.height, rgba: x.image.rgba }));
  for (const file of PILLOW_RGBA) {
    const out = join(OUT, file.replace(/\W+/g, '_') + '.rgba');
    const size = execFileSync('python3', ['-c', 'import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert("RGBA"); open(sys.argv[2], "wb").write(im.tobytes()); print(im.width, im.height)', join(SHARED, file), out], { encoding: 'utf8' });
    const [width, height] = size.trim().split(' ').map(Number);
    skins.push({ file, width, height, rgba: u8(readFileSync(out)) });
  }
  for (const s of skins) {
    s.raw = join(OUT, s.file.replace(/\W+/g, '_') + '.enc.rgba');
    writeFileSync(s.raw, s.rgba);
    s.sizes = {
      ours: lib.encodePng(s.rgba, s.width, s.height).length,
      ours3: lib.encodePng(s.rgba, s.width, s.height, { level: 3 }).length,
      fastpng: fastPngEncode({ width: s.width, height: s.height, data: s.rgba, channels: 4, depth: 8 }).length,
      upng: UPNG.encode([s.rgba.slice().buffer], s.width, s.height, 0).byteLength,
    };
    // Lossless, all of them: the fast-png and UPNG round trips are checked by the tests for ours only.
  }
  const encodeBest = await bestMedians(rounds, { ...benchOptions, iterations: 3, warmupIterations: 1, time: quick ? 150 : 400 }, (bench) => {
    for (const s of skins) {
      bench.add(`${s.file} ours`, () => lib.encodePng(s.rgba, s.width, s.height));
      bench.add(`${s.file} ours3`, () => lib.encodePng(s.rgba, s.width, s.height, { level: 3 }));
      bench.add(`${s.file} fastpng`, () => fastPngEncode({ width: s.width, height: s.height, data: s.rgba, channels: 4, depth: 8 }));
      bench.add(`${s.file} upng`, () => UPNG.encode([s.rgba.buffer.slice(s.rgba.byteOffset, s.rgba.byteOffset + s.rgba.byteLength)], s.width, s.height, 0));
    }
  });
  const encodePillow = pillow('encode', rounds, skins.map((s) => `${s.raw}:${s.width}:${s.height}`));
  const encode = skins.map((s, i) => {
    const mbps = (ms) => s.rgba.length / 1e3 / ms;
    const row = { file: s.file, pixels: s.width * s.height, rgba_bytes: s.rgba.length };
    for (const k of ['ours', 'ours3', 'fastpng', 'upng']) {
      row[`${k}_mb_s`] = mbps(encodeBest.get(`${s.file} ${k}`));
      row[`${k}_bytes`] = s.sizes[k];
    }
    row.pillow_mb_s = mbps(encodePillow[i].ms);
    row.pillow_bytes = encodePillow[i].bytes;
    return row;
  });
  const total = (k) => encode.reduce((n, r) => n + r[`${k}_bytes`], 0);
  const totals = Object.fromEntries(['ours', 'ours3', 'fastpng', 'upng', 'pillow'].map((k) => [k, total(k)]));
  return { decode, encode, encode_total_bytes: totals };
}

const f1 = (v) => (v === null || v === undefined ? '—' : v.toFixed(1));

export function formatImagesTable({ decode, encode, encode_total_bytes: t }) {
  const dec = formatRows(
    ['file', 'format', 'bytes', 'ours MB/s', 'three MB/s', 'lunapaint MB/s', 'decode-dxt MB/s', 'Pillow MB/s', 'ours/Pillow'],
    decode.map((r) => [r.file.split('/').pop(), r.format, String(r.bytes), f1(r.ours_mb_s), f1(r.three_mb_s), f1(r.lunapaint_mb_s), f1(r.decodedxt_mb_s), f1(r.pillow_mb_s), `${(r.ours_mb_s / r.pillow_mb_s).toFixed(2)}×`]),
  );
  const enc = formatRows(
    ['RGBA of', 'pixels', 'ours L6 MB/s', 'bytes', 'ours L3 MB/s', 'bytes', 'fast-png MB/s', 'bytes', 'UPNG MB/s', 'bytes', 'Pillow MB/s', 'bytes'],
    [
      ...encode.map((r) => [r.file.split('/').pop(), String(r.pixels), f1(r.ours_mb_s), String(r.ours_bytes), f1(r.ours3_mb_s), String(r.ours3_bytes), f1(r.fastpng_mb_s), String(r.fastpng_bytes), f1(r.upng_mb_s), String(r.upng_bytes), f1(r.pillow_mb_s), String(r.pillow_bytes)]),
      ['total', '', '', String(t.ours), '', String(t.ours3), '', String(t.fastpng), '', String(t.upng), '', String(t.pillow)],
    ],
  );
  return `decode (MB/s of file)\n${dec}\n\nPNG encode (MB/s of RGBA8; output bytes)\n${enc}`;
}

if (isMain(import.meta.url)) {
  const result = await benchImages({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatImagesTable(result));
}
