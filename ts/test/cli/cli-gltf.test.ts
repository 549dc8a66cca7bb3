/**
 * `convert … -o OUT.glb|OUT.gltf` through the built CLI: an md5mesh with two anims, an MD2 as .gltf + .bin, an
 * MD3 and a Quake 3 player folder — each accepted by the Khronos validator with 0 errors and only the accepted
 * warnings/infos, with the animations named after the anim files / clips; bad usage exits 2, bad input 1.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { expectClean, validate } from '../export/validate.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-gltf-'));
const M = (p: string) => join(SHARED_MODELS, p);

/** The JSON chunk of a GLB (header 12 bytes, then chunk length, type 'JSON', data). */
function glbJson(bytes: Uint8Array): any {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(dv.getUint32(0, true)).toBe(0x46546c67); // 'glTF'
  const len = dv.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
}

describe('convert to glTF', () => {
  const results: string[] = [];
  it('an md5mesh with two --anim files: one skin, one animation per anim named after its file', async () => {
    const out = join(tmp, 'drone.glb');
    const r = await run('convert', M('actors/drone/mesh.md5mesh'), '--anim', M('actors/drone/idle.md5anim'), '--anim', M('actors/drone/forward.md5anim'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const bytes = new Uint8Array(readFileSync(out));
    expectClean(results, 'drone', await validate(bytes));
    const j = glbJson(bytes);
    expect(j.skins).toHaveLength(1);
    expect(j.animations.map((a: { name: string }) => a.name)).toEqual(['idle', 'forward']);
  });
  it('an MD2 as .gltf + .bin, clips from its frame names', async () => {
    const out = join(tmp, 'faerie.gltf');
    const r = await run('convert', M('assimp/test/models/MD2/faerie.md2'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(tmp, 'faerie.bin'))).toBe(true);
    const json = readFileSync(out, 'utf8');
    const s = await validate(new TextEncoder().encode(json), { externalResourceFunction: (uri: string) => Promise.resolve(new Uint8Array(readFileSync(join(tmp, uri)))) });
    expectClean(results, 'faerie.gltf', s);
    const names = JSON.parse(json).animations.map((a: { name: string }) => a.name);
    expect(names).toContain('run');
    expect(names).toContain('death');
  });
  it('an MD3 and a Quake 3 player folder', async () => {
    for (const [input, name] of [[M('res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3'), 'overmind'], [M('res-tremulous_src.dpkdir/models/tremulous/players/human_base'), 'player']]) {
      const out = join(tmp, `${name}.glb`);
      const r = await run('convert', input, '-o', out);
      expect(r.status, r.stderr).toBe(0);
      expectClean(results, name, await validate(new Uint8Array(readFileSync(out))));
    }
  });
  it('an MD2 quantised by default, float32 with --float, meshopt-compressed with --meshopt, reordered with --reorder (each valid, each smaller)', async () => {
    const sizes: Record<string, number> = {};
    for (const flag of ['--float', '', '--md2-box-grid', '--meshopt', '--reorder']) {
      const out = join(tmp, `faerie${flag || '-default'}.glb`);
      const r = await run('convert', M('assimp/test/models/MD2/faerie.md2'), ...(flag === '--reorder' ? ['--meshopt', flag] : flag ? [flag] : []), '-o', out);
      expect(r.status, r.stderr).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      expect((await validate(bytes)).errors).toBe(0);
      sizes[flag || 'default'] = bytes.byteLength;
      expect(glbJson(bytes).extensionsRequired).toEqual({ '--float': undefined, '': ['KHR_mesh_quantization'], '--md2-box-grid': ['KHR_mesh_quantization'], '--meshopt': ['KHR_mesh_quantization', 'EXT_meshopt_compression'], '--reorder': ['KHR_mesh_quantization', 'EXT_meshopt_compression'] }[flag]);
      expect(glbJson(bytes).meshes[0].primitives[0].extras?.sourceVertex?.length).toBe(flag === '--reorder' ? 503 : undefined);
    }
    expect(sizes.default).toBeLessThan(sizes['--float'] / 2);
    // the 255-step box grid, asked for: smaller than the default (which reads back onto the file's bytes)
    expect(sizes['--md2-box-grid']).toBeLessThan(sizes.default);
    expect((await run('convert', M('res-tremulous_src.dpkdir/models/tremulous/weapons/rifle/rifle.md3'), '--md2-box-grid', '-o', join(tmp, 'x.glb'))).status).toBe(2);
    expect(sizes['--meshopt']).toBeLessThan(sizes.default);
    expect(sizes['--reorder']).toBeLessThan(sizes['--meshopt']);
    expect((await run('convert', M('assimp/test/models/MD2/faerie.md2'), '--reorder', '-o', join(tmp, 'x.glb'))).status).toBe(2);
    expect((await run('convert', M('assimp/test/models/MD2/faerie.md2'), '--meshopt', '-o', join(tmp, 'x.gltf'))).status).toBe(2);
    expect((await run('convert', M('actors/drone/mesh.md5mesh'), '--float', '-o', join(tmp, 'x.glb'))).status).toBe(2);
  });
  it('bad usage exits 2, a malformed input exits 1 with its code', async () => {
    expect((await run('convert', M('actors/drone/mesh.md5mesh'), '--frame', '3', '-o', join(tmp, 'x.glb'))).status).toBe(2);
    expect((await run('convert', M('actors/drone/mesh.md5mesh'), '--clip', 'bad', '-o', join(tmp, 'x.glb'))).status).toBe(2);
    expect((await run('convert', M('actors/drone/mesh.md5mesh'), '--step', '-o', join(tmp, 'x.obj'))).status).toBe(2);
    const bad = await run('convert', M('assimp/test/models/MD2/malformed_zero_numvertices.md2'), '-o', join(tmp, 'x.glb'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/BAD_COUNT/);
  });
});
