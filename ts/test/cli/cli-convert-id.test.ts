/**
 * `convert IN.glb|IN.gltf -o OUT.md3` through the built CLI: an MD3 player part → glb → MD3 comes back within one
 * 1/64 step and native assimp reads it with the original's counts; the corpus' glTF samples (skinned Fox and
 * CesiumMan, the morph-target AnimatedMorphCube as .gltf + .bin) convert with their animations sampled at --fps,
 * and the ioquake3 limits the result goes past are named on stderr; bad usage exits 2.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';

const tmp = cliTemp('convert-id');

function assimpCounts(path: string): string {
  const r = spawnSync('assimp', ['info', path], { encoding: 'utf8' });
  const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(r.stdout)?.[1] ?? '?';
  return `meshes ${field('Meshes')} vertices ${field('Vertices')} faces ${field('Faces')}`;
}

describe('convert glTF → MD3', () => {
  it('an MD3 with 153 frames and 3 tags → .glb → .md3: same frames and tags, vertices within 1/64, same counts for assimp', () => {
    const original = shared('res-players_src.dpkdir/models/players/human_bsuit/upper.md3');
    const glb = join(tmp, 'upper.glb');
    expect(runCli('convert', original, '--no-textures', '-o', glb).status).toBe(0);
    mkdirSync(join(tmp, 'ours'));
    mkdirSync(join(tmp, 'theirs'));
    const out = join(tmp, 'ours', 'upper.md3');
    const r = runCli('convert', glb, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*upper\.md3: 1 surface, \d+ vertices, 153 frames, 3 tags/);
    const a = parseMd3(new Uint8Array(readFileSync(original)));
    const b = parseMd3(new Uint8Array(readFileSync(out)));
    expect(b.tagNames).toEqual(a.tagNames);
    let max = 0;
    a.surfaces[0].xyzNormals.forEach((v, i) => {
      if (i % 4 !== 3) max = Math.max(max, Math.abs(v - b.surfaces[0].xyzNormals[i]));
    });
    expect(max).toBeLessThanOrEqual(1);
    copyFileSync(original, join(tmp, 'theirs', 'upper.md3'));
    expect(assimpCounts(out)).toBe(assimpCounts(join(tmp, 'theirs', 'upper.md3')));
  });

  it.each([
    ['gltf-samples/bevy/assets/models/animated/Fox.glb', 3],
    ['gltf-samples/mjolnir-zig/assets/CesiumMan.glb', 1],
    ['gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf', 1],
  ])('%s: every animation sampled at --fps into MD3 frames', (path, animations) => {
    const input = shared(path);
    const json = (() => {
      const bytes = readFileSync(input);
      if (bytes.readUInt32LE(0) !== 0x46546c67) return JSON.parse(bytes.toString('utf8'));
      return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
    })();
    expect(json.animations).toHaveLength(animations);
    const out = join(tmp, basename(path).replace(/\.\w+$/, '.md3'));
    const r = runCli('convert', input, '--fps', '10', '-o', out);
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

  it('--player: the human_bsuit player folder → .glb → OUTDIR/lower, upper, head.md3 + animation.cfg; assimp reads each part with the original\'s counts', () => {
    const folder = shared('res-players_src.dpkdir/models/players/human_bsuit');
    const glb = join(tmp, 'human_bsuit.glb');
    expect(runCli('convert', folder, '--no-textures', '-o', glb).status).toBe(0);
    const dir = join(tmp, 'player-out');
    const r = runCli('convert', glb, '--player', '-o', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*lower\.md3, .*upper\.md3, .*head\.md3, .*animation\.cfg: 3 surfaces, \d+ vertices, frames lower 147, upper 130, head 1, 25 animations/);
    const cfg = parseAnimationCfg(new Uint8Array(readFileSync(join(dir, 'animation.cfg'))));
    const original = parseAnimationCfg(new Uint8Array(readFileSync(join(folder, 'animation.cfg'))));
    expect(cfg.byName.LEGS_RUN.numFrames).toBe(original.byName.LEGS_RUN.numFrames);
    expect(cfg.byName.LEGS_WALK.loopFrames).toBe(cfg.byName.LEGS_WALK.numFrames);
    expect(cfg.byName.TORSO_GESTURE.fps).toBe(original.byName.TORSO_GESTURE.fps);
    mkdirSync(join(tmp, 'player-theirs'));
    // assimp reads lower.md3 beside upper.md3 and head.md3 as the whole player (its MD3 multipart handling): same folder layout for both
    for (const part of ['lower', 'upper', 'head']) copyFileSync(join(folder, `${part}.md3`), join(tmp, 'player-theirs', `${part}.md3`));
    for (const part of ['lower', 'upper', 'head']) {
      const ours = parseMd3(new Uint8Array(readFileSync(join(dir, `${part}.md3`))));
      const theirs = parseMd3(new Uint8Array(readFileSync(join(folder, `${part}.md3`))));
      expect(ours.tagNames, part).toEqual(theirs.tagNames);
      expect(assimpCounts(join(dir, `${part}.md3`)), part).toBe(assimpCounts(join(tmp, 'player-theirs', `${part}.md3`)));
    }
    // a glb that is not a player: named as such, exit 1
    const fox = runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--player', '-o', join(tmp, 'fox-player'));
    expect(fox.status).toBe(1);
    expect(fox.stderr).toMatch(/UNWRITABLE.*no node named lower, upper, head/);
  });

  it('refuses an id model as input for .md3 output, and a --scale that is not positive (exit 2)', () => {
    expect(runCli('convert', shared('assimp/test/models/MD2/faerie.md2'), '-o', join(tmp, 'x.md3')).status).toBe(2);
    expect(runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--scale', '0', '-o', join(tmp, 'x.md3')).status).toBe(2);
    expect(runCli('convert', shared('gltf-samples/bevy/assets/models/animated/Fox.glb'), '--scale', '2', '-o', join(tmp, 'x.glb')).status).toBe(2);
  });

  it('--validate names each ioquake3 limit and writes nothing (exit 1); --split cuts surfaces so it passes and assimp reads every face', () => {
    const input = shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb');
    const refused = join(tmp, 'refused.md3');
    const r = runCli('convert', input, '--fps', '5', '--validate', '-o', refused);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/refused\.md3: error ENGINE_LIMIT at byte \d+: surface 0 \("Cesium_Man"\) numVerts 3273: ioquake3 refuses the model \(R_LoadMD3: numVerts >= SHADER_MAX_VERTEXES 1000\)/);
    expect(r.stderr).toMatch(/error ENGINE_LIMIT at byte \d+: .*numTriangles 4672: .*SHADER_MAX_INDEXES 6000/);
    expect(r.stderr).toMatch(/not written: ioquake3 will not load it/);
    expect(existsSync(refused)).toBe(false);

    const out = join(tmp, 'split.md3');
    const ok = runCli('convert', input, '--fps', '5', '--split', '--validate', '-o', out);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).not.toMatch(/ENGINE_LIMIT/);
    const md3 = parseMd3(new Uint8Array(readFileSync(out)));
    expect(md3.surfaces.length).toBe(4);
    for (const s of md3.surfaces) expect(s.vertexCount).toBeLessThan(1000);
    expect(md3.surfaces.reduce((n, s) => n + s.triangleCount, 0)).toBe(4672);
    expect(assimpCounts(out)).toMatch(/faces 4672$/);
  });
});
