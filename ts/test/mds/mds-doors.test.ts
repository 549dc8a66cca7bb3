/**
 * The MDS through every door: the registry recognises it by its first bytes; `inspect` and `convert` (to .glb and
 * .obj) through the built CLI; the glTF is validator-clean and, evaluated at a key, skins to the poser's positions
 * of that frame within 1e-4 (bound in the pose the weights were made in, fitted from the offsets — bound at frame 0
 * it drifted 3 cm at frame 24; every CesiumMan vertex has at most four weights, so a four-influence skin can be exact);
 * `openPlayable` plays it on both backends alike; `IdTechLoader` draws it as one skinned mesh with its clip.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMds } from '../../src/formats/mds/parser.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { WolfPoser, wolfSkinStream } from '../../src/pose/wolf-poser.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { gltfPositions, readGlb, yUp } from '../export/gltf-eval.js';
import { expectClean, validate } from '../export/validate.js';
import { runCli } from '../helpers/cli.js';
import { SHARED_MODELS } from '../helpers/models.js';

const FILE = join(SHARED_MODELS, 'rtcw-made/mds/cesiumman.mds');
const bytes = () => new Uint8Array(readFileSync(FILE));
const model = parseMds(bytes());

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

describe('cesiumman.mds through the doors', () => {
  it('is recognised by its first bytes, and by no other format', () => {
    expect(DEFAULT_FORMATS.filter((f) => f.test?.(bytes().subarray(0, 64))).map((f) => f.id)).toEqual(['mds']);
  });

  it('exports a validator-clean glTF whose skin, evaluated at frame 24, is the poser\'s frame 24', async () => {
    const { toGlb } = await import('../../src/registry/export.js');
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const set = await openModelSet(memoryFileSystem([{ path: 'cesiumman.mds', bytes: bytes() }]), 'cesiumman.mds', { formats: DEFAULT_FORMATS });
    const glb = await toGlb(set, { name: 'cesiumman', warnings: [] });
    const results: string[] = [];
    expectClean(results, 'cesiumman.glb', await validate(glb));
    const g = readGlb(glb);
    expect(g.json.animations.map((a: { name: string }) => a.name)).toEqual(['frames']);
    expect(g.json.nodes.filter((n: { name: string }) => n.name === 'tag_head' || n.name === 'tag_weapon').length).toBe(3); // tag_weapon is a bone too
    const poser = new WolfPoser(backends[1], model, wolfSkinStream(model.surfaces));
    for (const f of [0, 24]) {
      const want = yUp(poser.pose({ frame: f }).positions);
      const got = gltfPositions(g, 0, f / 20);
      let max = 0;
      for (let i = 0; i < want.length; i++) max = Math.max(max, Math.abs(got[i] - want[i]));
      expect(max, `frame ${f}`).toBeLessThan(1e-4);
    }
    poser.dispose();
  });

  it('inspect and convert through the CLI', async () => {
    const out = mkdtempSync(join(tmpdir(), 'mds-'));
    const inspect = await runCli('inspect', FILE, '--json');
    expect(inspect.status).toBe(0);
    const summary = JSON.parse(inspect.stdout);
    const s = Array.isArray(summary) ? summary[0] : summary;
    expect([s.format, s.frames, s.vertices, s.triangles, s.tags.length]).toEqual(['mds', 48, 3273, 4672, 2]);
    const glb = await runCli('convert', FILE, '-o', join(out, 'c.glb'));
    expect(glb.status, glb.stderr).toBe(0);
    expect(glb.stdout + glb.stderr).toMatch(/3273 vertices, 1 clip/);
    const obj = await runCli('convert', FILE, '--frame', '24', '-o', join(out, 'c.obj'));
    expect(obj.status, obj.stderr).toBe(0);
    const text = readFileSync(join(out, 'c.obj'), 'utf8');
    const v = text.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    expect(v.length).toBe(3273);
    const ref = JSON.parse(readFileSync(FILE.replace(/\.mds$/, '.json'), 'utf8')).surfaces[0].vertices_model_space['24'] as number[][];
    // in the file's own axes (Z up) unless --y-up
    let max = 0;
    ref.forEach((p, i) => p.forEach((x, k) => (max = Math.max(max, Math.abs(x - v[i][k])))));
    expect(max).toBeLessThan(3.5e-4);
    const past = await runCli('convert', FILE, '--frame', '48', '-o', join(out, 'd.obj'));
    expect(past.status).not.toBe(0);
  });

  it('openPlayable plays it on both backends alike', async () => {
    const { openPlayable } = await import('../../src/registry/open-playable.js');
    const playable = await openPlayable([{ name: 'cesiumman.mds', source: bytes() }]);
    expect(playable.format).toBe('mds');
    expect(playable.clips.map((c) => [c.name, c.frameCount])).toEqual([['frames', 48]]);
    expect(playable.indices.length).toBe(4672 * 3);
    const [a, b] = backends.map((be) => playable.createPlayer(be));
    a.setClip(0);
    b.setClip(0);
    a.poseBlend(10, 11, 0.25);
    b.poseBlend(10, 11, 0.25);
    let max = 0;
    for (let k = 0; k < a.positions.length; k++) max = Math.max(max, Math.abs(a.positions[k] - b.positions[k]));
    expect(max).toBeLessThan(1e-5);
    // t = 0 is the first frame
    a.poseBlend(24, 25, 0);
    const ref = new WolfPoser(backends[1], model, wolfSkinStream(model.surfaces)).pose({ frame: 24 });
    for (let k = 0; k < a.positions.length; k += 97) expect(a.positions[k]).toBeCloseTo(ref.positions[k], 4);
    ref.dispose();
    a.dispose();
    b.dispose();
  });

  it('its view holds every frame and its bind pose in its bounds', async () => {
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const set = await openModelSet(memoryFileSystem([{ path: 'cesiumman.mds', bytes: bytes() }]), 'cesiumman.mds', { formats: DEFAULT_FORMATS });
    const view = await set.registration.view!(set, backends[1]);
    if (view.kind !== 'skinned') throw new Error(view.kind);
    const { min, max } = view.bounds!;
    const p = new WolfPoser(backends[1], model, wolfSkinStream(model.surfaces));
    for (let f = 0; f < model.frames.length; f += 7) {
      const pos = p.pose({ frame: f }).positions;
      for (let i = 0; i < pos.length; i++) {
        expect(pos[i]).toBeGreaterThanOrEqual(min[i % 3] - 1e-6);
        expect(pos[i]).toBeLessThanOrEqual(max[i % 3] + 1e-6);
      }
    }
    p.dispose();
    for (let i = 0; i < view.positions.length; i++) expect(view.positions[i] >= min[i % 3] && view.positions[i] <= max[i % 3]).toBe(true);
    // at least the box the file states for frame 0 (the writing tool's decoding differs by 1.5e-3 at most)
    expect(max[2] - min[2]).toBeGreaterThan(model.frames.bounds[5] - model.frames.bounds[2] - 2e-3);
  });

  it('IdTechLoader draws it as one skinned mesh with its clip', async () => {
    const { IdTechLoader } = await import('../../src/three/loader.js');
    const { SkinnedMesh } = await import('three');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const three = await new IdTechLoader().setFileSystem(memoryFileSystem([{ path: 'cesiumman.mds', bytes: bytes() }])).loadAsync('cesiumman.mds');
    expect(three.format).toBe('mds');
    expect(three.animations.map((c) => c.name)).toEqual(['frames']);
    const meshes: InstanceType<typeof SkinnedMesh>[] = [];
    three.scene.traverse((o) => {
      if (o instanceof SkinnedMesh) meshes.push(o);
    });
    expect(meshes.length).toBe(1);
    expect(meshes[0].skeleton.bones.length).toBe(20);
  });
});
