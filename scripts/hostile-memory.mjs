#!/usr/bin/env node
// node scripts/hostile-memory.mjs [--lifted]
//
// Peak memory of the built CLI (dist/) against the size of hostile inputs made here, in a temp folder (issue 27;
// docs/security.md quotes the table): each input is converted under /usr/bin/time -v and the line printed is its
// size, the exit status, the error code of the first stderr line and the maximum resident set size. With --lifted
// the same inputs run again with the limit that stopped each one raised, to show what it held back (these runs can
// take gigabytes: run them on a machine with room).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { longAnimationGlb, morphGlb, pngBombGlb, skeletonGlb } from '../fixtures/generate-hostile-gltf.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'idtech-models.js');
const MODELS = join(REPO, '..', 'shared', 'models');
const lifted = process.argv.includes('--lifted');
const tmp = mkdtempSync(join(tmpdir(), 'idtech-hostile-memory-'));

// --- a minimal zip writer (deflate, sizes and CRC right): enough for these inputs ---------------------------------
const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b) => {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function zip(entries) {
  const locals = [];
  const centrals = [];
  let at = 0;
  for (const { name, data } of entries) {
    const n = Buffer.from(name);
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(at, 42);
    locals.push(local, n, packed);
    centrals.push(central, n);
    at += 30 + n.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...locals, dir, end]);
}

// --- hostile inputs ---------------------------------------------------------------------------------------------
/** An MD3 of one 3-vertex surface and `frames` frames (zeros: they deflate ~1000:1), its shader `shader`. */
function md3(frames, shader = 'models/x/skin') {
  const verts = 3;
  const surface = 108 + 68 + 12 + 8 * verts + 8 * verts * frames;
  const b = Buffer.alloc(108 + 56 * frames + surface);
  b.write('IDP3', 0);
  b.writeInt32LE(15, 4);
  b.writeInt32LE(frames, 76);
  b.writeInt32LE(1, 84);
  b.writeInt32LE(108, 92);
  b.writeInt32LE(108 + 56 * frames, 96);
  const s = 108 + 56 * frames;
  b.writeInt32LE(s, 100);
  b.writeInt32LE(b.length, 104);
  b.write('IDP3', s);
  b.write('surface', s + 4);
  b.writeInt32LE(frames, s + 72);
  b.writeInt32LE(1, s + 76);
  b.writeInt32LE(verts, s + 80);
  b.writeInt32LE(1, s + 84);
  b.writeInt32LE(108 + 68, s + 88); // triangles
  b.writeInt32LE(108, s + 92); // shaders
  b.writeInt32LE(108 + 68 + 12, s + 96); // st
  b.writeInt32LE(108 + 68 + 12 + 8 * verts, s + 100); // xyz normals
  b.writeInt32LE(surface, s + 104);
  b.write(shader, s + 108);
  b.writeInt32LE(0, s + 176);
  b.writeInt32LE(2, s + 180);
  b.writeInt32LE(1, s + 184);
  return b;
}
/** An RLE grey TGA of w × h: 2 bytes per 128 pixels. */
function rleTga(w, h) {
  const packets = Math.ceil((w * h) / 128);
  const b = Buffer.alloc(18 + 2 * packets);
  b[2] = 11;
  b.writeUInt16LE(w, 12);
  b.writeUInt16LE(h, 14);
  b[16] = 8;
  b[17] = 0x20;
  for (let i = 0; i < packets; i++) (b[18 + 2 * i] = 0xff), (b[19 + 2 * i] = 0x80);
  return b;
}
/** An md5anim for `mesh` (its joints, none animated: the bind pose in every frame) of `frames` frames. */
function md5anim(mesh, frames) {
  const joints = [...mesh.toString().matchAll(/^\s*("[^"]*")\s+(-?\d+)\s+(\([^)]*\))\s+(\([^)]*\))/gm)];
  const head = [`MD5Version 10`, `commandline ""`, `numFrames ${frames}`, `numJoints ${joints.length}`, 'frameRate 24', 'numAnimatedComponents 0',
    'hierarchy {', ...joints.map((j) => `${j[1]} ${j[2]} 0 0`), '}', 'bounds {'].join('\n');
  const parts = [head, '\n', '( -1 -1 -1 ) ( 1 1 1 )\n'.repeat(frames), '}\nbaseframe {\n', ...joints.map((j) => `${j[3]} ${j[4]}\n`), '}\n'];
  for (let f = 0; f < frames; f++) parts.push(`frame ${f} {\n}\n`);
  return Buffer.from(parts.join(''));
}
/** A .gltf of one triangle (its buffer by data URI) with `extra` merged over it. */
function gltf(extra = {}) {
  const bin = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
  return Buffer.from(JSON.stringify({
    asset: { version: '2.0' },
    buffers: [{ uri: `data:application/octet-stream;base64,${bin.toString('base64')}`, byteLength: 36 }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    ...extra,
  }));
}
const chain = (n) => ({ nodes: Array.from({ length: n }, (_, i) => (i + 1 < n ? { children: [i + 1] } : { mesh: 0 })) });

const cases = [];
const file = (name, bytes) => {
  const p = join(tmp, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, bytes);
  return p;
};
const small = readFileSync(join(MODELS, 'res-tremulous_src.dpkdir/models/mapobjects/nexus6/wallthing.md3'));

cases.push({ what: 'a real 6 KB MD3 (baseline)', input: join(MODELS, 'res-tremulous_src.dpkdir/models/mapobjects/nexus6/wallthing.md3'), args: [], raise: [] });
{
  const pk3 = file('tga-bomb.pk3', zip([{ name: 'models/x/x.md3', data: md3(1, 'models/x/skin') }, { name: 'models/x/skin.tga', data: rleTga(23170, 23170) }]));
  cases.push({ what: '.pk3: an MD3 and an RLE TGA declaring 23170×23170', input: `${pk3}:models/x/x.md3`, args: [], textures: true, raise: ['maxTotalRatio=2000'], raiseAll: ['maxTotalRatio=2000', 'maxImagePixels=Infinity'] });
}
{
  const pk3 = file('md3-bomb.pk3', zip([0, 1, 2, 3].map((i) => ({ name: `models/x/m${i}.md3`, data: md3(60000) }))));
  cases.push({ what: '.pk3 of four MD3s of 60,000 frames', input: `${pk3}:models/x/m0.md3`, args: [], raise: ['maxTotalRatio=2000'] });
}
{
  const mesh = readFileSync(join(MODELS, 'actors/drone/mesh.md5mesh'));
  const pk3 = file('anim-bomb.pk3', zip([{ name: 'models/d/mesh.md5mesh', data: mesh }, { name: 'models/d/walk.md5anim', data: md5anim(mesh, 2_000_000) }]));
  cases.push({ what: '.pk3: an md5mesh and a 2,000,000-frame md5anim', input: `${pk3}:models/d/mesh.md5mesh`, args: ['--anim', 'models/d/walk.md5anim'], raise: ['maxAnimationKeys=Infinity'] });
}
{
  const pk3 = file('script-bomb.pk3', zip([{ name: 'models/x/x.md3', data: small }, { name: 'scripts/spaces.shader', data: Buffer.alloc(300 << 20, 0x20) }]));
  cases.push({ what: '.pk3: a 6 KB MD3 and 300 MB of spaces as a shader script', input: `${pk3}:models/x/x.md3`, args: [], textures: true, raise: ['maxTotalRatio=2000'], raiseAll: ['maxTotalRatio=2000', 'maxMemberBytes=1G', 'maxScriptBytes=1G'] });
}
cases.push({ what: '.gltf: a chain of 8,000 nodes', input: file('chain8000.gltf', gltf(chain(8000))), args: [], out: 'x.md3', raise: ['maxGltfDepth=100000'] });
cases.push({ what: '.gltf: 20,000 nodes in a chain', input: file('chain20000.gltf', gltf(chain(20000))), args: [], out: 'x.md3', raise: ['maxGltfNodes=100000', 'maxGltfDepth=100000'] });
cases.push({
  what: '.gltf: a sparse accessor of count 2³¹ − 1',
  input: file('sparse.gltf', gltf({ bufferViews: [{ buffer: 0, byteLength: 36 }, { buffer: 0, byteLength: 36 }], accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' }, { componentType: 5126, count: 2 ** 31 - 1, type: 'SCALAR', sparse: { count: 2 ** 31 - 1, indices: { bufferView: 1, componentType: 5125 }, values: { bufferView: 1 } } }] })),
  args: [],
  out: 'x.md3',
  raise: [],
});
{
  const dir = join(tmp, 'zero');
  mkdirSync(dir);
  execFileSync('ln', ['-s', '/dev/zero', join(dir, 'zero.bin')]);
  const g = JSON.parse(gltf().toString());
  g.buffers[0] = { uri: 'zero.bin', byteLength: 36 };
  cases.push({ what: '.gltf: a buffer linked to /dev/zero', input: file('zero/in.gltf', Buffer.from(JSON.stringify(g))), args: [], out: 'x.md3', raise: [] });
}
// glTF → id formats (issue 36 item 8): what one glb may make an import decode, copy or sample
{
  const glb = file('png-skin.glb', pngBombGlb({ side: 24000 }));
  cases.push({ what: '.glb → .mdl: a 1-bit PNG skin of 24,000² (2.3 GB as RGBA)', input: glb, args: [], out: 'x.mdl', raise: [] });
}
{
  const glb = file('long.glb', longAnimationGlb({ vertices: 4095, seconds: 4360 }));
  cases.push({ what: '.glb → .md3: 4,095 vertices, a 2-key animation over 4,360 s (a 2 GB MD3)', input: glb, args: [], out: 'x.md3', raise: ['maxImportBytes=Infinity'] });
}
{
  const glb = file('skeleton.glb', skeletonGlb({ joints: 680, seconds: 2730 }));
  cases.push({ what: '.glb → .md5mesh: 680 joints, a 2-key animation over 2,730 s', input: glb, args: [], out: 'x.md5mesh', raise: ['maxImportBytes=Infinity'] });
  cases.push({ what: '.glb → .iqm: the same 680 joints over 2,730 s', input: glb, args: [], out: 'x.iqm', raise: ['maxImportBytes=Infinity'] });
}
{
  const glb = file('morph.glb', morphGlb({ targets: 50000, vertices: 3072 }));
  cases.push({ what: '.glb → .md3: 50,000 morph targets naming one 3,072-vertex accessor', input: glb, args: [], out: 'x.md3', raise: ['maxMorphTargetVertices=Infinity'] });
  cases.push({ what: '.glb → .md2: the same 50,000 morph targets', input: glb, args: [], out: 'x.md2', raise: ['maxMorphTargetVertices=Infinity'] });
}

const size = (input) => statSync(input.split(':')[0]).size; // an archive member: the archive's size
const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;
function run(c, limits) {
  const out = join(tmp, 'out', c.out ?? 'x.glb');
  mkdirSync(dirname(out), { recursive: true });
  // textures are resolved only where the input is about them (the TGA); id output from glTF resolves none
  const args = [BIN, 'convert', c.input, ...c.args, ...limits.flatMap((l) => ['--limit', l]), ...(c.out || c.textures ? [] : ['--no-textures']), '-o', out];
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0);
  const seconds = (/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(r.stderr)?.[1] ?? '0').split(':').reduce((t, x) => 60 * t + Number(x), 0);
  const first = r.stderr.split('\n').find((l) => l.startsWith('idtech-models:') || /warning|wrote/.test(l)) ?? '';
  const code = /\b([A-Z][A-Z_]{4,})\b/.exec(first)?.[1] ?? (r.status === 0 ? 'written' : '?');
  return { status: r.status, code, rss, seconds };
}

console.log(`| input | size | exit | answer | peak RSS | time |${lifted ? ' with the limit raised | peak RSS |' : ''}`);
console.log(`|---|---|---|---|---|---|${lifted ? '---|---|' : ''}`);
for (const c of cases) {
  const d = run(c, []);
  let row = `| ${c.what} | ${(size(c.input) / 1024).toFixed(0)} KB | ${d.status} | ${d.code} | ${mib(d.rss)} | ${d.seconds.toFixed(1)} s |`;
  if (lifted && c.raise.length) {
    // the limit that answered raised: the next one answers (or the input is read as before the limits existed)
    for (const raise of [c.raise, ...(c.raiseAll ? [c.raiseAll] : [])]) {
      const l = run(c, raise);
      row += ` ${raise.join(' ')}: ${l.status === null || l.status > 1 ? `died (${l.status ?? 'signal'})` : l.code} | ${mib(l.rss)} |`;
    }
  }
  console.log(row);
}
