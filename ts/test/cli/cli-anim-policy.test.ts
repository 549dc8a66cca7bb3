/**
 * One policy for an animation that does not fit its model, with --anim as with --all: the model is written with
 * what fits, each one left out is an ANIM_MESH_MISMATCH warning, and the exit status (1) says not all was played.
 * Before, one --anim that did not fit aborted `convert` with nothing written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gltfJson } from '../../src/commands/convert/gltf-counts.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';

const tmp = cliTemp('anim-policy');
const MESH = shared('actors/drone/mesh.md5mesh');
const FITS = shared('actors/drone/idle.md5anim');
/** 85 joints, the drone has 27. */
const OTHER = shared('res-players_src.dpkdir/models/players/human_nobsuit_common/jump.md5anim');

describe('an --anim that does not fit: the rest written, a warning, exit 1', () => {
  it('glTF: the drone with its idle and a human jump → idle only, ANIM_MESH_MISMATCH naming the jump, exit 1', async () => {
    const out = join(tmp, 'drone.glb');
    const r = await runCli('convert', MESH, '--anim', FITS, '--anim', OTHER, '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${OTHER}: warning ANIM_MESH_MISMATCH: the anim has 85 joints, the mesh 27`);
    expect(r.stderr).toMatch(/wrote .*drone\.glb: 2 meshes, 1439 vertices, 1 clip/);
    expect(r.stderr).toMatch(/1 of 2 --anim not played .*jump\.md5anim.*exit 1/);
    const json = gltfJson(new Uint8Array(readFileSync(out))) as { animations?: { name?: string }[] };
    expect(json.animations?.map((x) => x.name)).toEqual(['idle']);
  });

  it('id output: the same, written as .md3 (exit 1)', async () => {
    const out = join(tmp, 'drone.md3');
    const r = await runCli('convert', MESH, '--anim', OTHER, '--anim', FITS, '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('ANIM_MESH_MISMATCH');
    expect(r.stderr).toMatch(/wrote .*drone\.md3/);
  });

  it('every --anim fits: exit 0, no such line', async () => {
    const r = await runCli('convert', MESH, '--anim', FITS, '--no-textures', '-o', join(tmp, 'ok.glb'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not played');
  });
});
