/**
 * `convert IN.glb|IN.gltf -o OUT.md3` through the built CLI: an MD3 player part → glb → MD3 comes back within one
 * 1/64 step and native assimp reads it with the original's counts; the corpus' glTF samples (skinned Fox and
 * CesiumMan, the morph-target AnimatedMorphCube as .gltf + .bin) convert with their animations sampled at --fps,
 * and the ioquake3 limits the result goes past are named on stderr; bad usage exits 2. `-o OUT.md2` the same into
 * MD2: an MD2 → .glb → .md2 keeps its frames, triangles and clips (assimp reads the original's counts), Fox's
 * 1024-high skin is named against Quake 2's MAX_LBM_HEIGHT, CesiumMan's vertex count against MAX_VERTS.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { assimpCounts, assimpField, assimpInfo } from '../helpers/assimp.js';
import type { ChildResult } from '../helpers/child.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';

const tmp = cliTemp('convert-id');

/**
 * An id model → .glb → the same format through the CLI (checked to succeed): the run, our file and a copy of the
 * original, each alone in a folder under the original's name (assimp's MD3 reader pulls in parts found beside it).
 */
async function throughGlb(original: string): Promise<{ r: ChildResult; out: string; theirs: string }> {
  const name = basename(original);
  const glb = join(tmp, name.replace(/\.\w+$/, '.glb'));
  expect((await runCli('convert', original, '--no-textures', '-o', glb)).status).toBe(0);
  const out = join(mkdtempSync(join(tmp, 'ours-')), name);
  const theirs = join(mkdtempSync(join(tmp, 'theirs-')), name);
  copyFileSync(original, theirs);
  const r = await runCli('convert', glb, '-o', out);
  expect(r.status, r.stderr).toBe(0);
  return { r, out, theirs };
}

describe('convert glTF → MD3', () => {
  it('an MD3 with 153 frames and 3 tags → .glb → .md3: same frames and tags, vertices within 1/64, same counts for assimp', async () => {
    const original = shared('res-players_src.dpkdir/models/players/human_bsuit/upper.md3');
    const { r, out, theirs } = await throughGlb(original);
    expect(r.stderr).toMatch(/wrote .*upper\.md3: 1 surface, \d+ vertices, 153 frames, 3 tags/);
    const a = parseMd3(new Uint8Array(readFileSync(original)));
    const b = parseMd3(new Uint8Array(readFileSync(out)));
    expect(b.tagNames).toEqual(a.tagNames);
    let max = 0;
    a.surfaces[0].xyzNormals.forEach((v, i) => {
      if (i % 4 !== 3) max = Math.max(max, Math.abs(v - b.surfaces[0].xyzNormals[i]));
    });
    expect(max).toBeLessThanOrEqual(1);
    expect(await assimpCounts(out)).toBe(await assimpCounts(theirs));
  });

  it.each([
    ['gltf-samples/bevy/assets/models/animated/Fox.glb', 3],
    ['gltf-samples/mjolnir-zig/assets/CesiumMan.glb', 1],
    ['gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf', 1],
  ])('%s: every animation sampled at --fps into MD3 frames', async (path, animations) => {
    const input = shared(path);
    const json = (() => {
      const bytes = readFileSync(input);
      if (bytes.readUInt32LE(0) !== 0x46546c67) return JSON.parse(bytes.toString('utf8'));
      return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
    })();
    expect(json.animations).toHaveLength(animations);
    const out = join(tmp, basename(path).replace(/\.\w+$/, '.md3'));
    const r = await runCli('convert', input, '--fps', '10', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const md3 = parseMd3(new Uint8Array(readFileSync(out)));
    // frames per animation: floor(duration × 10) + 1, from the glTF's own sampler inputs
    const accessors = json.accessors as { max?: number[] }[];
    const expected = (json.animations as { samplers: { input: number }[] }[])
      .map((an) => Math.floor(Math.max(...an.samplers.map((s) => accessors[s.input].max![0])) * 10 + 1e-4) + 1)
      .reduce((x, y) => x + y, 0);
    expect(md3.frameCount).toBe(expected);
    for (let f = 0; f < md3.frameCount; f++) expect(md3.frameMaxs[3 * f + 2]).toBeGreaterThan(md3.frameMins[3 * f + 2]);
    if (path.includes('CesiumMan')) expect(r.stderr).toMatch(/ENGINE_LIMIT .*SHADER_MAX_INDEXES/);
  });

  it('--player: the human_bsuit player folder → .glb → OUTDIR/lower, upper, head.md3 + animation.cfg; assimp reads each part with the original\'s counts', async () => {
    const folder = shared('res-players_src.dpkdir/models/players/human_bsuit');
    const glb = join(tmp, 'human_bsuit.glb');
    expect((await runCli('convert', folder, '--no-textures', '-o', glb)).status).toBe(0);
    const dir = join(tmp, 'player-out');
    const r = await runCli('convert', glb, '--player', '-o', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*lower\.md3, .*upper\.md3, .*head\.md3, .*animation\.cfg: 3 surfaces, \d+ vertices, frames lower 191, upper 147, head 1, 43 animations/);
    const cfg = parseAnimationCfg(new Uint8Array(readFileSync(join(dir, 'animation.cfg'))));
    const original = parseAnimationCfg(new Uint8Array(readFileSync(join(folder, 'animation.cfg'))));
    expect(cfg.playerNames).toBe(original.playerNames);
    expect(cfg.byName.LEGS_RUN!.numFrames).toBe(original.byName.LEGS_RUN!.numFrames);
    expect(cfg.byName.LEGS_WALK!.loopFrames).toBe(cfg.byName.LEGS_WALK!.numFrames);
    expect(cfg.byName.TORSO_GESTURE!.fps).toBe(original.byName.TORSO_GESTURE!.fps);
    mkdirSync(join(tmp, 'player-theirs'));
    // assimp reads lower.md3 beside upper.md3 and head.md3 as the whole player (its MD3 multipart handling): same folder layout for both
    for (const part of ['lower', 'upper', 'head']) copyFileSync(join(folder, `${part}.md3`), join(tmp, 'player-theirs', `${part}.md3`));
    for (const part of ['lower', 'upper', 'head']) {
      const ours = parseMd3(new Uint8Array(readFileSync(join(dir, `${part}.md3`))));
      const theirs = parseMd3(new Uint8Array(readFileSync(join(folder, `${part}.md3`))));
      expect(ours.tagNames, part).toEqual(theirs.tagNames);
      expect(await assimpCounts(join(dir, `${part}.md3`)), part).toBe(await assimpCounts(join(tmp, 'player-theirs', `${part}.md3`)));
    }
    // a glb that is not a player: named as such, exit 1
    const fox = await runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--player', '-o', join(tmp, 'fox-player'));
    expect(fox.status).toBe(1);
    expect(fox.stderr).toMatch(/UNWRITABLE.*no node named lower, upper, head/);
  });

  it('an id model is written through glTF in memory (MD2 → MD3); a --scale that is not positive is refused (exit 2)', async () => {
    const md3 = join(tmp, 'faerie.md3');
    const r = await runCli('convert', shared('assimp/test/models/MD2/faerie.md2'), '--no-textures', '-o', md3);
    expect(r.status, r.stderr).toBe(0);
    const back = parseMd3(new Uint8Array(readFileSync(md3)));
    expect(back.surfaces.length).toBe(1);
    expect(back.frameCount).toBeGreaterThan(1);
    expect((await runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--scale', '0', '-o', join(tmp, 'x.md3'))).status).toBe(2);
    expect((await runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--scale', '2', '-o', join(tmp, 'x.glb'))).status).toBe(2);
  });

  it('--validate names each ioquake3 limit and writes nothing (exit 1); --split cuts surfaces so it passes and assimp reads every face', async () => {
    const input = shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb');
    const refused = join(tmp, 'refused.md3');
    const r = await runCli('convert', input, '--fps', '5', '--validate', '-o', refused);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/refused\.md3: error ENGINE_LIMIT at byte \d+: surface 0 \("Cesium_Man"\) numVerts 3273: ioquake3 refuses the model \(R_LoadMD3: numVerts >= SHADER_MAX_VERTEXES 1000\)/);
    expect(r.stderr).toMatch(/error ENGINE_LIMIT at byte \d+: .*numTriangles 4672: .*SHADER_MAX_INDEXES 6000/);
    expect(r.stderr).toMatch(/not written: ioquake3 will not load it/);
    expect(existsSync(refused)).toBe(false);

    const out = join(tmp, 'split.md3');
    const ok = await runCli('convert', input, '--fps', '5', '--split', '--validate', '-o', out);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).not.toMatch(/ENGINE_LIMIT/);
    const md3 = parseMd3(new Uint8Array(readFileSync(out)));
    expect(md3.surfaces.length).toBe(4);
    for (const s of md3.surfaces) expect(s.vertexCount).toBeLessThan(1000);
    expect(md3.surfaces.reduce((n, s) => n + s.triangleCount, 0)).toBe(4672);
    expect(await assimpCounts(out)).toMatch(/faces 4672$/);
  });
});

describe('convert glTF → MD5', () => {
  it('Fox.glb → fox.md5mesh + fox_<animation>.md5anim for each of its 3 animations, which our parser and assimp read', async () => {
    const out = join(tmp, 'md5', 'fox.md5mesh');
    mkdirSync(join(tmp, 'md5'), { recursive: true });
    const r = await runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 mesh, 1728 vertices, 24 joints, 3 anims/);
    const mesh = parseMd5Mesh(new Uint8Array(readFileSync(out)));
    expect(mesh.joints.count).toBe(24);
    for (const name of ['Survey', 'Walk', 'Run']) {
      const anim = parseMd5Anim(new Uint8Array(readFileSync(join(tmp, 'md5', `fox_${name}.md5anim`))));
      expect(anim.jointCount).toBe(24);
      expect(anim.frameRate).toBe(24);
      expect(anim.names).toEqual(mesh.joints.names);
    }
    // assimp's own MD5 reader: one mesh, every face (its info joins identical vertices, so vertices are not compared)
    expect(await assimpCounts(out)).toMatch(new RegExp(`^meshes 1 vertices \\d+ faces ${mesh.meshes[0].triangleCount}$`));
  });

  it('assimp plays only <mesh>.md5anim: without --assimp-anim it finds no animation, with it the first one; other outputs refuse the flag', async () => {
    const animations = async (path: string) => Number(assimpField(await assimpInfo(path), 'Animations'));
    const fox = shared('gltf-samples/bevy/assets/models/animated/Fox.glb');
    for (const dir of ['plain', 'assimp']) mkdirSync(join(tmp, dir), { recursive: true });
    expect((await runCli('convert', fox, '-o', join(tmp, 'plain', 'fox.md5mesh'))).status).toBe(0);
    expect(await animations(join(tmp, 'plain', 'fox.md5mesh'))).toBe(0);
    const r = await runCli('convert', fox, '--assimp-anim', '-o', join(tmp, 'assimp', 'fox.md5mesh'));
    expect(r.status, r.stderr).toBe(0);
    expect(readdirSync(join(tmp, 'assimp')).sort()).toEqual(['fox.md5anim', 'fox.md5mesh', 'fox_Run.md5anim', 'fox_Walk.md5anim']);
    expect(await animations(join(tmp, 'assimp', 'fox.md5mesh'))).toBe(1);
    expect((await runCli('convert', fox, '--assimp-anim', '-o', join(tmp, 'x.md3'))).status).toBe(2);
  });

  it('a fractional --fps and --split are usage errors for .md5mesh (exit 2); --validate passes what Doom 3 loads', async () => {
    const fox = shared('gltf-samples/bevy/assets/models/animated/Fox.glb');
    expect((await runCli('convert', fox, '--fps', '24.5', '-o', join(tmp, 'x.md5mesh'))).status).toBe(2);
    expect((await runCli('convert', fox, '--split', '-o', join(tmp, 'x.md5mesh'))).status).toBe(2);
    const r = await runCli('convert', shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb'), '--fps', '10', '--validate', '-o', join(tmp, 'cesium.md5mesh'));
    expect(r.status, r.stderr).toBe(0);
    const anims = readdirSync(tmp).filter((f) => /^cesium_.*\.md5anim$/.test(f));
    expect(anims).toHaveLength(1);
    expect(parseMd5Anim(new Uint8Array(readFileSync(join(tmp, anims[0])))).frameRate).toBe(10);
  });
});

describe('convert glTF → id with --texture-path: shaders name the glTF images, written where the game looks', () => {
  it('Fox.glb → game/models/fox/fox.md3, fox.md2 and fox.md5mesh: the shader (MD2: skin) is models/fox/<image>, the image beside them is the glb\'s', async () => {
    const folder = join(tmp, 'game', 'models', 'fox');
    mkdirSync(folder, { recursive: true });
    const glb = shared('gltf-samples/bevy/assets/models/animated/Fox.glb');
    const [image] = (await readGltfDocument({ bytes: new Uint8Array(readFileSync(glb)) })).getRoot().listTextures().map((t) => t.getImage()!);
    for (const out of ['fox.md3', 'fox.md5mesh', 'fox.md2']) {
      const r = await runCli('convert', glb, '--fps', '5', '--texture-path', 'models/fox', '-o', join(folder, out));
      expect(r.status, r.stderr).toBe(0);
    }
    const md3Shader = parseMd3(new Uint8Array(readFileSync(join(folder, 'fox.md3')))).surfaces[0].shaders[0].name;
    expect(md3Shader).toMatch(/^models\/fox\/\w+\.png$/);
    expect(new Uint8Array(readFileSync(join(tmp, 'game', md3Shader)))).toEqual(image);
    const md5Shader = parseMd5Mesh(new Uint8Array(readFileSync(join(folder, 'fox.md5mesh')))).meshes[0].shader;
    expect(md5Shader + '.png').toBe(md3Shader);
    expect(parseMd2(new Uint8Array(readFileSync(join(folder, 'fox.md2')))).skins.map((k) => k.name)).toEqual([md3Shader]);
    // without it, the shader is the material's name
    const plain = join(tmp, 'fox-plain.md3');
    expect((await runCli('convert', glb, '--fps', '5', '-o', plain)).status).toBe(0);
    expect(parseMd3(new Uint8Array(readFileSync(plain))).surfaces[0].shaders[0].name).toBe('fox_material');
  });
});

describe('convert glTF → MD2', () => {
  it('an MD2 → .glb → .md2: same frames, triangles and clips; assimp reads the original\'s counts', async () => {
    const original = shared('assimp/test/models-nonbsd/MD2/dolphin.md2');
    const { r, out, theirs } = await throughGlb(original);
    const a = parseMd2(new Uint8Array(readFileSync(original)));
    const b = parseMd2(new Uint8Array(readFileSync(out)));
    expect(r.stderr).toMatch(new RegExp(`wrote .*dolphin\\.md2: ${b.vertexCount} vertices, ${a.triangleCount} triangles, ${a.frameCount} frames, ${b.glCommands!.commandCount} glcmd strips/fans`));
    expect([b.frameCount, b.triangleCount]).toEqual([a.frameCount, a.triangleCount]);
    expect(b.clips.map((c) => c.frameCount)).toEqual(a.clips.map((c) => c.frameCount));
    // raw: assimp's default post-processing joins vertices equal at frame 0, which requantising can change
    expect(await assimpCounts(out, '--raw')).toBe(await assimpCounts(theirs, '--raw'));
  });

  it('Fox: its animations at --fps 10; the 1024-high skin is a Quake 2 limit, an error with --validate (exit 1, nothing written)', async () => {
    const input = shared('gltf-samples/bevy/assets/models/animated/Fox.glb');
    const out = join(tmp, 'fox.md2');
    const r = await runCli('convert', input, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ENGINE_LIMIT .*skinheight 1024 is over MAX_LBM_HEIGHT 480/);
    const md2 = parseMd2(new Uint8Array(readFileSync(out)));
    expect(md2.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    const refused = join(tmp, 'fox-refused.md2');
    const v = await runCli('convert', input, '--validate', '-o', refused);
    expect(v.status).toBe(1);
    expect(v.stderr).toMatch(/fox-refused\.md2: error ENGINE_LIMIT at byte 12: skinheight 1024/);
    expect(v.stderr).toMatch(/not written: Quake 2 will not load it/);
    expect(existsSync(refused)).toBe(false);
  });

  it('CesiumMan: more vertices than MAX_VERTS is an error naming the count (exit 1); --split is for MD3 (exit 2)', async () => {
    const input = shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb');
    const r = await runCli('convert', input, '--fps', '5', '-o', join(tmp, 'cesium.md2'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/UNWRITABLE: at least \d+ vertices .*MAX_VERTS 2048/);
    expect((await runCli('convert', input, '--split', '-o', join(tmp, 'cesium.md2'))).status).toBe(2);
  });
});
