/**
 * The game the viewer's browser tests open, made from ../shared/models at test time (never committed): models of
 * every registered model format with what their engines texture them from — the Red Eclipse drone with its
 * md5anims and md5.cfg, faerie and dolphin (MD2; dolphin's BMP skin beside it), a Quake 3 player folder with its
 * skins, portals.md3 with two skins and its shader script, the grenade launcher (tags, .shader and .mtr), stasis.md3
 * with its shader and every image but one (bubbles.png left out on purpose: the viewer must say why it is missing) —
 * and, for any other registered model format (IQM, MDL …), the first MANIFEST sample of it with the files of its folder. Paths
 * are game paths (a dpkdir's or an asset repository's own folder dropped).
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { selectFormat } from '../../src/load/format.js';
import type { FormatEntry } from '../../src/formats/entry.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { manifest, read, SHARED_MODELS } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';

export interface GameFile {
  /** Its path in the game. */
  path: string;
  /** Its file under ../shared/models. */
  from: string;
  /** Its bytes, when the test makes them (a cfg fitting a corpus model) rather than copying `from`. */
  bytes?: Uint8Array;
}

const folderFiles = (dir: string, to: string, skip: readonly string[] = []): GameFile[] =>
  readdirSync(join(SHARED_MODELS, dir)).filter((f) => !skip.includes(f)).map((f) => ({ path: `${to}/${f}`, from: `${dir}/${f}` }));

/** The models the tests pick, by format id (a folder format's folder). */
export const SAMPLES: Record<string, string> = {
  md5mesh: 'actors/drone/mesh.md5mesh',
  md2: 'models/dolphin/dolphin.md2',
  md3: 'models/mapobjects/stasis/stasis.md3',
  player: 'models/players/human_bsuit',
  nonseg: 'models/players/spitfire',
  buildable: 'models/buildables/slime_zunge',
};

/**
 * An animation.cfg of `count` lines fitting a model of `frames` frames (4 frames each, every other one looping), for
 * Tremulous' forms (formats/md3/tremulous-format.ts) on a textured corpus model: the corpus has no Tremulous alien or
 * buildable folder with its cfg (helpers/tremulous-game.ts).
 */
function cfgFitting(count: number, frames: number, keyword: string): Uint8Array {
  const lines = Array.from({ length: count }, (_, i) => `${(i * 4) % (frames - 4)} 4 ${i % 2 ? 0 : 4} 15`);
  return new TextEncoder().encode(`// made by the viewer's tests, not a real model's file\n${keyword}${lines.join('\n')}\n`);
}
export const FAERIE = 'models/faerie/faerie.md2';
export const PORTALS = 'models/fx/portal/portals.md3';
export const LAUNCHER = 'models/weapons/grenade_launcher/grenade_launcher.md3';
/** Left out of the game: stasis.md3's shader names it, so its surface shows as missing. */
export const LEFT_OUT = 'models/mapobjects/stasis/bubbles.png';

/** A MANIFEST path as a game path: from its `models/` folder on when it has one. */
const gamePath = (p: string) => (p.includes('/models/') ? p.slice(p.indexOf('/models/') + 1) : p);

export function viewerGame(formats: readonly FormatEntry[] = DEFAULT_FORMATS): { files: GameFile[]; samples: Record<string, string> } {
  const files: GameFile[] = [
    ...folderFiles('actors/drone', 'actors/drone'),
    { path: FAERIE, from: 'assimp/test/models/MD2/faerie.md2' },
    { path: SAMPLES.md2, from: 'assimp/test/models-nonbsd/MD2/dolphin.md2' },
    { path: 'models/dolphin/dolphin_f.bmp', from: 'assimp/test/models-nonbsd/MD2/dolphin_f.bmp' },
    ...folderFiles('res-players_src.dpkdir/models/players/human_bsuit', SAMPLES.player),
    ...folderFiles('aaa-assets/models/fx/portal', 'models/fx/portal'),
    { path: 'scripts/portals.shader', from: 'aaa-assets/scripts/portals.shader' },
    ...folderFiles('aaa-assets/models/weapons/grenade_launcher', 'models/weapons/grenade_launcher'),
    { path: 'scripts/grenade_launcher.shader', from: 'aaa-assets/scripts/grenade_launcher.shader' },
    { path: 'scripts/grenade_launcher.mtr', from: 'aaa-assets/scripts/grenade_launcher.mtr' },
    ...folderFiles('res-tremulous_src.dpkdir/models/mapobjects/stasis', 'models/mapobjects/stasis', [LEFT_OUT.split('/').pop()!]),
    { path: 'scripts/stasis.shader', from: 'res-tremulous_src.dpkdir/scripts/stasis.shader' },
    // Tremulous' non-segmented player and buildable, on the textured grenade launcher (60 frames; its shaders name their images by path)
    { path: `${SAMPLES.nonseg}/nonseg.md3`, from: 'aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3' },
    { path: `${SAMPLES.nonseg}/animation.cfg`, from: '', bytes: cfgFitting(27, 60, 'nonsegmented\n') },
    { path: `${SAMPLES.buildable}/slime_zunge.md3`, from: 'aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3' },
    { path: `${SAMPLES.buildable}/animation.cfg`, from: '', bytes: cfgFitting(14, 60, '') },
  ];
  const samples = { ...SAMPLES };
  const rows = manifest().filter((r) => !/\/invalid\//.test(r.path));
  for (const f of formats) {
    if (f.role !== 'model' || f.folder || samples[f.id]) continue;
    // by its first bytes as well as its name: `.mdl` is Quake's and Half-Life's
    const sample = rows.find((r) => f.extensions.some((e) => r.path.toLowerCase().endsWith(e)) && selectFormat(r.path, head(r.absPath), formats) === f);
    if (!sample) throw new Error(`${f.title} is registered but MANIFEST.tsv has no file of it for the viewer to open`);
    samples[f.id] = gamePath(sample.path);
    const folder = dirname(sample.path);
    const beside = rows.filter((r) => dirname(r.path) === folder);
    for (const r of beside.length <= 24 ? beside : [sample]) files.push({ path: gamePath(r.path), from: r.path });
  }
  files.push(...rtcwImages(samples));
  return { files, samples };
}

/**
 * The corpus' RtCW/ET models come without their images (README groups C1, R1–R3), so the game gives their shaders
 * images by the engines' rule (a shader name that is no script's is an image path): the MDS and MDM, made from
 * CesiumMan.glb, get that glb's own texture (their UVs are its), under their shader's name; spider.mdc's four shaders
 * get one real image each (chamber.png, not the spider's: its textures are not in assimp's tree). Made by the test,
 * said here, as the Tremulous cfgs above.
 */
function rtcwImages(samples: Record<string, string>): GameFile[] {
  const out: GameFile[] = [];
  if (samples.mds || samples.mdm) out.push({ path: 'Cesium_Man-effect.png', from: '', bytes: glbImage('gltf-samples/mjolnir-zig/assets/CesiumMan.glb') });
  if (samples.mdc?.endsWith('spider.mdc')) {
    for (const shader of ['Augentex', 'BeinTex', 'Skin', 'HLeibTex']) out.push({ path: `${shader}.png`, from: 'res-tremulous_src.dpkdir/models/mapobjects/stasis/chamber.png' });
  }
  return out;
}

/** The first image of a .glb, its bytes as stored (GLB: JSON chunk, then the BIN chunk its buffer views cut). */
function glbImage(path: string): Uint8Array {
  const glb = read(join(SHARED_MODELS, path));
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const bin = 20 + jsonLength + 8;
  const bv = json.bufferViews[json.images[0].bufferView];
  return glb.subarray(bin + (bv.byteOffset ?? 0), bin + (bv.byteOffset ?? 0) + bv.byteLength);
}

/** A file's first 64 bytes. */
function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const b = new Uint8Array(64);
    return b.subarray(0, readSync(fd, b, 0, 64, 0));
  } finally {
    closeSync(fd);
  }
}

/** The game as one .pk3 (deflated). */
export function gameArchive(files: readonly GameFile[]): Uint8Array {
  return makeZip(files.map((f) => ({ name: f.path, data: f.bytes ?? read(join(SHARED_MODELS, f.from)) })));
}
