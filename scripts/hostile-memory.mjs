#!/usr/bin/env node
// node scripts/hostile-memory.mjs [--lifted] [--timeout S] [--only=REGEX] [--batch-only]
//
// Peak memory of the built CLI (dist/) against the size of hostile inputs made here, in a temp folder (issue 27;
// docs/security.md quotes the table): each input is converted under /usr/bin/time -v and the line printed is its
// size, the exit status, the error code of the first stderr line and the maximum resident set size. With --lifted
// the same inputs run again with the limit that stopped each one raised, to show what it held back (these runs can
// take gigabytes: run them on a machine with room). After the table, `convert --all` over .pak files holding a
// hostile model beside a normal one (the batch's budgets, issue 36): the summary line, the failed rows' codes, the
// wall time and the peak RSS of the batch's processes together (the CLI and its workers, sampled from /proc every
// 50 ms) and of the largest one. `--batch-only` runs only those.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';

import { atlasBombGlb, longAnimationGlb, morphGlb, pngBombGlb, skeletonGlb } from '../fixtures/generate-hostile-gltf.mjs';
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = process.env.IDTECH_BIN ?? join(REPO, 'bin', 'idtech-models.js'); // IDTECH_BIN: another build, to compare
const MODELS = join(REPO, '..', 'shared', 'models');
const lifted = process.argv.includes('--lifted');
const batchOnly = process.argv.includes('--batch-only');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7); // run the inputs whose description matches this pattern
const timeoutAt = process.argv.indexOf('--timeout');
const timeoutSeconds = timeoutAt >= 0 ? Number(process.argv[timeoutAt + 1]) : 0; // --timeout S: each run killed after S seconds
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

// --- issue 36 (items 1, 2, 6, 7): IQM side files (iqm.cfg, .framegroups) and Quake's gfx/palette.lmp ------------------
{
  const mine = cases.length;
  const turret = readFileSync(join(MODELS, 'actors-iqm/turret/sphere/turret_sphere.iqm')); // 1 mesh, 3 joints, 4 frames
  const animOnly = readFileSync(join(MODELS, 'actors-iqm/player/runcycle0.iqm')); // poses, no meshes
  /** A folder `name` holding the turret as m/turret.iqm with `cfg` as its iqm.cfg (and `extra` files); the model's path. */
  const iqmWith = (name, cfg, extra = {}) => {
    const model = file(`${name}/m/turret.iqm`, turret);
    if (cfg !== null) file(`${name}/m/iqm.cfg`, cfg);
    for (const [p, bytes] of Object.entries(extra)) file(`${name}/${p}`, bytes);
    return model;
  };
  const sparse = (p, bytes) => {
    const f = file(p, Buffer.alloc(0));
    truncateSync(f, bytes);
    return f;
  };
  const nestedIf = (n, inner = 'iqmanim "idle" "turret.iqm"') => `iqmload "turret.iqm"\n${'if 1 [\n'.repeat(n)}${inner}\n${']\n'.repeat(n)}`;
  const look = /UNSAFE_PATH|UNKNOWN_FORMAT|RESOURCE_LIMIT|RangeError|FATAL|converted \d+[^;]*failed \d+|wrote/;
  cases.push({ what: 'iqm.cfg: exec "/etc/passwd"', input: iqmWith('cfg-passwd', 'iqmload "turret.iqm"\nexec "/etc/passwd"\n'), args: [], raise: [], look });
  cases.push({ what: 'iqm.cfg: iqmanim "../outside/x.iqm"', input: iqmWith('cfg-outside', 'iqmload "turret.iqm"\niqmanim "stolen" "../outside/x.iqm"\n', { 'outside/x.iqm': turret }), args: [], raise: [], look });
  {
    // an animation-only IQM in a folder under another: its parent holds a hostile iqm.cfg
    file('anim-parent/iqm.cfg', nestedIf(4000));
    cases.push({ what: 'animation-only IQM in a subfolder, a hostile iqm.cfg in its parent', input: file('anim-parent/sub/run.iqm', animOnly), args: [], raise: [] });
  }
  {
    const model = iqmWith('fg-sparse', null);
    sparse('fg-sparse/m/turret.iqm.framegroups', 600 << 20);
    cases.push({ what: 'sparse 600 MB .framegroups', input: model, args: [], raise: ['maxScriptBytes=1G'] });
  }
  {
    const model = iqmWith('cfg-sparse', null);
    sparse('cfg-sparse/m/iqm.cfg', 600 << 20);
    cases.push({ what: 'sparse 600 MB iqm.cfg', input: model, args: [], raise: ['maxScriptBytes=1G'] });
  }
  {
    const model = iqmWith('fg-many', null, { 'm/turret.iqm.framegroups': Buffer.from('0 1\n'.repeat(200_000)) });
    cases.push({ what: '.framegroups: 200,000 groups', input: model, args: [], raise: ['maxAnimationClips=Infinity'] });
  }
  {
    const model = iqmWith('fg-same', null, { 'm/turret.iqm.framegroups': Buffer.from('0 1 20 1 same\n'.repeat(5_000)) });
    cases.push({ what: '.framegroups: 5,000 groups of one name', input: model, args: [], raise: ['maxAnimationClips=Infinity'] });
  }
  cases.push({ what: 'iqm.cfg: 4,000 nested `if 1 [`', input: iqmWith('cfg-if', nestedIf(4000)), args: [], raise: [] });
  cases.push({ what: 'iqm.cfg: 20,000 nested `(!`', input: iqmWith('cfg-not', `iqmload "turret.iqm"\nif ${'(! '.repeat(20000)}1${')'.repeat(20000)} [ iqmanim "idle" "turret.iqm" ]\n`), args: [], raise: [] });
  cases.push({ what: 'iqm.cfg: 2.5 MB of padding 1,000 `if 1 [` deep', input: iqmWith('cfg-pad', nestedIf(1000, `${' '.repeat(2_500_000)}iqmanim "idle" "turret.iqm"`)), args: [], raise: [] });
  {
    const mdl = readFileSync(join(MODELS, 'LibreQuake/lq1/progs/wizard.mdl'));
    file('pal/progs/wizard.mdl', mdl);
    sparse('pal/gfx/palette.lmp', 1536 << 20);
    cases.push({ what: 'sparse 1.5 GB gfx/palette.lmp beside an MDL', input: join(tmp, 'pal/progs/wizard.mdl'), args: [], textures: true, raise: [] });
  }
  {
    // a game folder of two models, one with a hostile iqm.cfg: inspect DIR and convert DIR --all
    file('cfg-dir/models/good/turret.iqm', turret);
    file('cfg-dir/models/bad/turret.iqm', turret);
    file('cfg-dir/models/bad/iqm.cfg', nestedIf(4000));
    cases.push({ what: 'inspect DIR: one of two models with 4,000 nested `if 1 [`', input: join(tmp, 'cfg-dir'), argv: ['inspect', join(tmp, 'cfg-dir')], raise: [] });
    cases.push({ what: 'convert DIR --all: the same folder', input: join(tmp, 'cfg-dir'), argv: ['convert', join(tmp, 'cfg-dir'), '--all', '--no-textures', '--force', '-o', join(tmp, 'out-all')], raise: [] });
  }
  for (const c of cases.slice(mine)) c.look ??= look;
}

// --- issue 36: IQM, MDL and MD2 inputs that claimed memory or time without bound (fixtures/generate-iqm.mjs,
// fixtures/generate-unwelded.mjs) --------------------------------------------------------------------------------
{
  const iqm = await import('../fixtures/generate-iqm.mjs');
  const { md2ManySt, rapoManySt } = await import('../fixtures/generate-unwelded.mjs');
  cases.push({ what: 'IQM: 2³² − 1 frames of no channels', input: file('iqm/zero-channels.iqm', iqm.zeroChannelFrames()), args: [], raise: ['maxAnimationKeys=Infinity'] });
  cases.push({ what: 'RAPO MDL: 1 vertex, 20,000 st, 2,000 poses', input: file('mdl/rapo.mdl', rapoManySt()), args: [], raise: ['maxMorphVertices=Infinity'] });
  cases.push({ what: 'MD2: 1 vertex, 30,000 st, 3,000 frames', input: file('md2/many-st.md2', md2ManySt()), args: [], raise: ['maxMorphVertices=Infinity'] });
  cases.push({ what: 'IQM: 80,000 extensions', input: file('iqm/extensions.iqm', iqm.manyExtensions(80000)), args: [], raise: [] });
  cases.push({ what: 'IQM: 10,000 custom arrays named into 300 KB of NUL-free text', input: file('iqm/names300.iqm', iqm.customArrayNames(10000, 300000)), args: [], raise: [] });
  cases.push({ what: 'IQM: 10,000 custom arrays named into 900 KB of NUL-free text', input: file('iqm/names900.iqm', iqm.customArrayNames(10000, 900000)), args: [], raise: [] });
  cases.push({ what: 'IQM: 10,000 anims of one name', input: file('iqm/same-name.iqm', iqm.sameNameAnims(10000)), args: [], raise: [] });
  cases.push({ what: 'IQM: 140,000 anims', input: file('iqm/many-anims.iqm', iqm.sameNameAnims(140000)), args: [], raise: ['maxGltfAnimations=Infinity'] });
  const fg = file('iqm/few-poses/m.iqm', iqm.fewPoses());
  file('iqm/few-poses/m.iqm.framegroups', Buffer.from('0 2 10 1 // all\n'));
  cases.push({ what: 'IQM: 3 joints, 1 pose, a .framegroups over its frames', input: fg, args: [], raise: [] });
}

// glTF → id formats (issue 36 item 8): what one glb may make an import decode, copy or sample
{
  const glb = file('png-skin.glb', pngBombGlb({ side: 24000 }));
  cases.push({ what: '.glb → .mdl: a 1-bit PNG skin of 24,000² (2.3 GB as RGBA)', input: glb, args: [], out: 'x.mdl', raise: [] });
}
// the MD2 / MDL atlas (issue 41 item 12): every material's image decoded and every repeat baked into one skin
{
  const glb = file('atlas-many.glb', atlasBombGlb({ materials: 100, side: 4096 }));
  cases.push({ what: '.glb → .mdl: 100 materials, each its own 4096² PNG (6.7 GB as RGBA), packed into one skin', input: glb, args: [], out: 'x.mdl', raise: [] });
  const tiles = file('atlas-tiles.glb', atlasBombGlb({ materials: 2, side: 2048, repeats: 16 }));
  cases.push({ what: '.glb → .md2: 2 materials of 2048², UVs over 16 repeats (134 M texels to bake)', input: tiles, args: [], out: 'x.md2', raise: [] });
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
// --- issue 40 part 2: a Tremulous buildable's config (configs/buildables/<name>.cfg names its models) ---------------
{
  const buildable = (config) => zip([
    { name: 'models/buildables/b/b.md3', data: small },
    { name: 'models/buildables/b/animation.cfg', data: readFileSync(new URL('../fixtures/md3/buildable-animation.cfg', import.meta.url)) },
    { name: 'configs/buildables/b.cfg', data: config },
  ]);
  cases.push({ what: 'Tremulous buildable: 300 MB of spaces as configs/buildables/b.cfg', input: `${file('trem-cfg-spaces.pk3', buildable(Buffer.alloc(300 << 20, 0x20)))}:models/buildables/b/b.md3`, args: [], raise: ['maxTotalRatio=2000'], raiseAll: ['maxTotalRatio=2000', 'maxMemberBytes=1G', 'maxScriptBytes=1G'] });
  cases.push({ what: 'Tremulous buildable: its config names /dev/zero as model 1', input: `${file('trem-cfg-zero.pk3', buildable(Buffer.from('model 0 "models/buildables/b/b.md3"\nmodel 1 "/dev/zero"\nmodelScale 1\nmins 0 0 0\nmaxs 1 1 1\nzOffset 0\n')))}:models/buildables/b/b.md3`, args: [], raise: [] });
}
// --- the coverage campaign's IQM findings: a vertex array whose size is not its type's (fixtures/generate-iqm.mjs) ----
{
  const iqm = await import('../fixtures/generate-iqm.mjs');
  cases.push({ what: 'IQM: a tangent of 8 floats holding a NaN', input: file('iqm/wide-tangent.iqm', iqm.wideTangentNaN()), args: [], raise: [] });
  cases.push({ what: 'IQM: a position of 0 components beside 9 normal floats, no meshes', input: file('iqm/position-size-0.iqm', iqm.positionSizeZero()), args: [], raise: [] });
}
// --- GoldSrc (Half-Life) studio models (fixtures/generate-goldsrc.mjs, issue 38) ------------------------------------
{
  const gs = await import('../fixtures/generate-goldsrc.mjs');
  cases.push({ what: 'GoldSrc: a 244-byte header claiming 2³¹ − 1 bones', input: file('goldsrc/huge-bones.mdl', gs.hugeBones()), args: [], raise: [] });
  cases.push({ what: 'GoldSrc: a header whose length claims 2 GB, 300 bytes sent', input: file('goldsrc/long-length.mdl', gs.longLength()), args: [], raise: [] });
  cases.push({ what: 'GoldSrc: 2,000,000 one-frame runs in one sequence (8 MB): every frame exported', input: file('goldsrc/one-frame-runs.mdl', gs.oneFrameRuns(2_000_000)), args: [], raise: [] });
  cases.push({ what: 'GoldSrc: 64 fans of 32,767 corners over one vertex (16 MB, 2.1 M triangles)', input: file('goldsrc/fans.mdl', gs.fans(64)), args: [], raise: [] });
  cases.push({ what: 'GoldSrc: a sequence of 1,000,000 blends (12 MB of records): one glTF clip each', input: file('goldsrc/many-blends.mdl', gs.manyBlends(1_000_000)), args: [], raise: ['maxGltfAnimations=Infinity'] });
}

// --- RTCW/ET MDC (fixtures/generate-mdc.mjs, issue 39) --------------------------------------------------------------
{
  const mdc = await import('../fixtures/generate-mdc.mjs');
  cases.push({ what: 'MDC: 10,000 vertices stored once, 20,000 frames naming them (1.2 MB → 1.6 GB of frames)', input: file('mdc/frame-flood.mdc', mdc.frameFlood(10000, 20000)), args: [], raise: ['maxMdcFrameBytes=4G'] });
  cases.push({ what: 'MDC: a header claiming 2³¹ − 1 surfaces', input: file('mdc/huge-surfaces.mdc', mdc.hugeSurfaces()), args: [], raise: [] });
  cases.push({ what: 'MDC: a header whose ofsEnd claims 2 GB, 300 bytes sent', input: file('mdc/long-end.mdc', mdc.longEnd()), args: [], raise: [] });
}

// --- RtCW's MDS (fixtures/generate-mds.mjs, issue 39) ----------------------------------------------------------------
{
  const mds = await import('../fixtures/generate-mds.mjs');
  cases.push({ what: 'MDS: a 120-byte header claiming 2³¹ − 1 frames', input: file('mds/huge-frames.mds', mds.hugeFrames()), args: [], raise: [] });
  cases.push({ what: 'MDS: an ofsEnd claiming 2 GB, 300 bytes sent', input: file('mds/long-end.mds', mds.longEnd()), args: [], raise: [] });
  cases.push({ what: 'MDS: 4,000 surfaces naming one block of 6,000 vertices (1 MB)', input: file('mds/shared-surfaces.mds', mds.sharedSurfaces(4000)), args: [], raise: ['maxMeshRecords=200M'] });
  cases.push({ what: 'MDS: 1,000,000 frames of one bone (64 MB): every frame composed and exported', input: file('mds/many-frames.mds', mds.manyFrames(1_000_000)), args: [], raise: [] });
}

// --- issue 40: a re-release's MD5 replacement beside an MD2, with a hostile .md5scale (convert --replacement) ---------
{
  const { q2Replacement } = await import('../fixtures/generate-md5-replacement.mjs');
  const mesh = readFileSync(join(MODELS, 'actors/drone/mesh.md5mesh'));
  const anim = readFileSync(join(MODELS, 'actors/drone/forward.md5anim'));
  const layOut = (name, scale) => {
    for (const f of q2Replacement({ mesh, anim, scale })) file(`${name}/${f.path}`, f.bytes);
    return join(tmp, name, 'models/drone/tris.md2');
  };
  const deep = 4_000_000; // 8 MB of brackets: one below maxScriptBytes
  cases.push({ what: 'MD2 + MD5 replacement, a .md5scale nested 4,000,000 deep', input: layOut('md5scale-deep', `{"Head":${'['.repeat(deep - 5)}${']'.repeat(deep - 5)}}`), args: ['--replacement'], look: /MD5SCALE/, raise: [] });
  const many = `{${Array.from({ length: 400_000 }, (_, i) => `"j${i}":{"0":1}`).join(',')}}`; // ~7 MB, 1.6 M tokens
  cases.push({ what: 'MD2 + MD5 replacement, a .md5scale of 1.6 M JSON tokens', input: layOut('md5scale-many', many), args: ['--replacement'], look: /MD5SCALE/, raise: [] });
}

const size = (input) => {
  const s = statSync(input.split(':')[0]);
  if (!s.isDirectory()) return s.size; // an archive member: the archive's size
  let n = 0;
  for (const e of readdirSync(input, { recursive: true, withFileTypes: true })) if (e.isFile()) n += statSync(join(e.parentPath ?? e.path, e.name)).blocks * 512;
  return n;
};
const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;
function run(c, limits) {
  const out = join(tmp, 'out', c.out ?? 'x.glb');
  mkdirSync(dirname(out), { recursive: true });
  // textures are resolved only where the input is about them (the TGA); id output from glTF resolves none
  const limitArgs = limits.flatMap((l) => ['--limit', l]);
  const args = c.argv ? [BIN, ...c.argv, ...limitArgs] : [BIN, 'convert', c.input, ...c.args, ...limitArgs, ...(c.out || c.textures ? [] : ['--no-textures']), '-o', out];
  // --timeout S: each run is killed after S seconds (then its exit is 124 or 137 and its peak the peak until then)
  const limit = timeoutSeconds ? ['timeout', '--kill-after=5', String(timeoutSeconds)] : [];
  const r = spawnSync('/usr/bin/time', ['-v', ...limit, process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 600_000 });
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
  const seconds = wall ? Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]) : NaN;
  const first = r.stderr.split('\n').find((l) => l.startsWith('idtech-models:') || /warning|wrote|FATAL|RangeError/.test(l)) ?? '';
  const looked = c.look?.exec(r.stderr)?.[0]; // a case's own answer (a warning among the model's others), when it has one
  const code = looked ?? /\b([A-Z][A-Za-z_]{4,}(?:Error)?)\b/.exec(first.replace(/^idtech-models:\s*/, ''))?.[1] ?? (r.status === 0 ? 'written' : '?');
  return { status: r.status, code, rss, seconds };
}

if (!batchOnly) console.log(`| input | size | exit | answer | peak RSS | time |${lifted ? ' with the limit raised | peak RSS |' : ''}`);
if (!batchOnly) console.log(`|---|---|---|---|---|---|${lifted ? '---|---|' : ''}`);
for (const c of batchOnly ? [] : cases.filter((x) => !only || new RegExp(only).test(x.what))) {
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

// --- convert --all: a hostile model beside a normal one (the batch's budgets, batch-pool.ts) ----------------------
/** A Quake .pak (id's PACK: a 56-byte name, offset and size per member), members stored as they are. */
function pak(entries) {
  const dirAt = 12 + entries.reduce((n, e) => n + e.data.length, 0);
  const head = Buffer.alloc(12);
  head.write('PACK', 0);
  head.writeInt32LE(dirAt, 4);
  head.writeInt32LE(64 * entries.length, 8);
  const dir = Buffer.alloc(64 * entries.length);
  let at = 12;
  entries.forEach((e, i) => {
    dir.write(e.name, 64 * i, 'latin1');
    dir.writeInt32LE(at, 64 * i + 56);
    dir.writeInt32LE(e.data.length, 64 * i + 60);
    at += e.data.length;
  });
  return Buffer.concat([head, ...entries.map((e) => e.data), dir]);
}
/** An md5mesh of `count` one-triangle meshes on one joint, each on `shader`: ~200 bytes of text a mesh. */
function manyMeshes(count, shader = 'm') {
  const mesh = `mesh {\n shader "${shader}"\n numverts 3\n vert 0 ( 0 0 ) 0 1\n vert 1 ( 1 0 ) 1 1\n vert 2 ( 0 1 ) 2 1\n numtris 1\n tri 0 0 1 2\n numweights 3\n weight 0 0 1 ( 0 0 0 )\n weight 1 0 1 ( 1 0 0 )\n weight 2 0 1 ( 0 1 0 )\n}\n`;
  return Buffer.from(`MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes ${count}\njoints {\n "root" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n${mesh.repeat(count)}`);
}

const batchCases = [];
batchCases.push({ what: '.pak of a 6 KB MD3 alone (baseline)', input: file('batch/plain.pak', pak([{ name: 'models/x/x.md3', data: small }])), args: ['--no-textures'] });
batchCases.push({
  what: '.pak: a 6 KB MD3 and an md5mesh of 200,000 one-triangle meshes (40 MB of text; the export holds objects per mesh: heap, not bytes)',
  input: file('batch/huge.pak', pak([{ name: 'models/x/x.md3', data: small }, { name: 'models/m/many.md5mesh', data: manyMeshes(200_000) }])),
  args: ['--no-textures'],
});
batchCases.push({
  what: '.pak: a 6 KB MD3 and an md5mesh of 50,000 meshes on one missing shader (slow: each mesh is added to the one warning\'s list of users by a scan of it), --model-timeout 20',
  input: file('batch/slow.pak', pak([{ name: 'models/x/x.md3', data: small }, { name: 'models/m/slow.md5mesh', data: manyMeshes(50_000, 'models/nothing/here') }])),
  args: ['--model-timeout', '20'],
});

/** KB of resident memory of `pid` and of each process below it (Linux /proc), or null when it is gone. */
function treeRss(pid) {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return null;
  let own = 0;
  try {
    own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1] ?? 0);
  } catch {
    return null;
  }
  let kids = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {}
  const below = kids.map(treeRss).filter(Boolean);
  return { total: own + below.reduce((n, b) => n + b.total, 0), largest: Math.max(own, ...below.map((b) => b.largest)) };
}

function runBatch(c) {
  return new Promise((resolve) => {
    const out = join(tmp, 'batch-out', c.input.split('/').pop());
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'convert', c.input, '--all', '--jobs', '1', ...c.args, '-o', out, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', peak = 0, largest = 0;
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const sample = setInterval(() => {
      const r = treeRss(child.pid);
      if (r) (peak = Math.max(peak, r.total)), (largest = Math.max(largest, r.largest));
    }, 50);
    child.on('close', (status) => {
      clearInterval(sample);
      const seconds = (performance.now() - started) / 1000;
      let failed = '';
      try {
        failed = JSON.parse(stdout).models.filter((m) => m.status === 'failed').map((m) => `${m.path}: ${m.code}`).join(', ');
      } catch {}
      resolve({ status, seconds, peak, largest, summary: stderr.trim().split('\n').pop(), failed });
    });
  });
}

console.log('\n`convert PAK --all --jobs 1` (default budgets unless the input says otherwise):\n');
console.log('| input | size | exit | failed | summary | wall | peak RSS, all processes | largest process |');
console.log('|---|---|---|---|---|---|---|---|');
for (const c of batchCases) {
  const r = await runBatch(c);
  console.log(`| ${c.what} | ${(size(c.input) / 1024).toFixed(0)} KB | ${r.status} | ${r.failed || '—'} | ${r.summary} | ${r.seconds.toFixed(1)} s | ${mib(r.peak)} | ${mib(r.largest)} |`);
}

rmSync(tmp, { recursive: true, force: true }); // the inputs made here (sparse files among them) go with the run
