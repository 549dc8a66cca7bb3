/**
 * A format is one room and one registration: a made-up vertex-animated format ("TOYM": a few lines of parser over a
 * toy binary layout, and a MorphView of it) is registered here, at test time, and flows through detection,
 * `inspect`, `convert` to .glb (validator-clean) and .obj, `openPlayable` and `IdTechLoader` (three.js) — without
 * any of those files knowing it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { byteChunks, type ByteSource } from '../../src/base/source.js';
import { main } from '../../src/cli/main.js';
import { hasMagic, selectFormat } from '../../src/load/format.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import type { FormatEntry } from '../../src/formats/entry.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { morphCapabilities } from '../../src/formats/morph-view.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { IdTechLoader } from '../../src/three/loader.js';
import type { IdTechModel } from '../../src/three/model.js';
import { validate } from '../export/validate.js';
import { REPO } from '../helpers/models.js';
import { maxDistance, setTime, threePositions } from '../three/three-eval.js';
import type { Mesh } from 'three';

/** The toy layout: 'TOYM', u32 vertices, u32 triangles, u32 frames; u16 × 3 per triangle; f32 × 2 uv per vertex; f32 × 3 per vertex per frame. */
interface Toy {
  format: 'toy';
  vertexCount: number;
  frameCount: number;
  triangles: Uint32Array;
  uvs: Float32Array;
  positions: Float32Array;
}

async function parseToy(source: ByteSource): Promise<Toy> {
  const parts: Uint8Array[] = [];
  for await (const c of byteChunks(source)) parts.push(c.slice());
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  if (!hasMagic(bytes, 'TOYM')) throw new ModelParseError(ErrorCode.BadMagic, 'not TOYM', { offset: 0 });
  const dv = new DataView(bytes.buffer);
  const [v, t, f] = [dv.getUint32(4, true), dv.getUint32(8, true), dv.getUint32(12, true)];
  let at = 16;
  const triangles = Uint32Array.from({ length: t * 3 }, (_, i) => dv.getUint16(at + i * 2, true));
  at += t * 6;
  const uvs = Float32Array.from({ length: v * 2 }, (_, i) => dv.getFloat32(at + i * 4, true));
  at += v * 8;
  const positions = Float32Array.from({ length: v * 3 * f }, (_, i) => dv.getFloat32(at + i * 4, true));
  return { format: 'toy', vertexCount: v, frameCount: f, triangles, uvs, positions };
}

const toy: FormatEntry<Toy> = {
  id: 'toy',
  title: 'toy model (TOYM)',
  extensions: ['.toy'],
  test: (head) => hasMagic(head, 'TOYM'),
  role: 'model',
  animation: 'vertex',
  parseStream: parseToy,
  owns: (d): d is Toy => (d as Toy | null)?.format === 'toy',
  inspect: async (source) => {
    const m = await parseToy(source);
    return { summary: { format: 'toy', vertices: m.vertexCount, triangles: m.triangles.length / 3, frames: m.frameCount } };
  },
  ...morphCapabilities<Toy>({
    shape: (m) => ({
      surfaces: [{ name: 'body', vertexCount: m.vertexCount, triangles: m.triangles, uvs: m.uvs, material: 'toy/skin' }],
      frameCount: m.frameCount,
      clips: [{ name: 'wobble', firstFrame: 0, frameCount: m.frameCount, fps: 5 }],
    }),
    posing: (m) => ({
      pose(f1, f2, t, out) {
        const n = m.vertexCount * 3;
        for (let i = 0; i < n; i++) out.positions[i] = m.positions[f1 * n + i] * (1 - t) + m.positions[f2 * n + i] * t;
        out.normals.fill(0);
        for (let i = 2; i < n; i += 3) out.normals[i] = 1;
      },
    }),
  }),
};

/** A tetrahedron whose apex rises over three frames. */
function toyFile(): Uint8Array {
  const tris = [0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3];
  const uvs = [0, 0, 1, 0, 0, 1, 1, 1];
  const frames = [0, 1, 2].flatMap((f) => [0, 0, 0, 10, 0, 0, 0, 10, 0, 3, 3, 5 + f * 4]);
  const out = new DataView(new ArrayBuffer(16 + tris.length * 2 + uvs.length * 4 + frames.length * 4));
  [0x54, 0x4f, 0x59, 0x4d].forEach((b, i) => out.setUint8(i, b));
  out.setUint32(4, 4, true);
  out.setUint32(8, 4, true);
  out.setUint32(12, 3, true);
  let at = 16;
  for (const x of tris) (out.setUint16(at, x, true), (at += 2));
  for (const x of [...uvs, ...frames]) (out.setFloat32(at, x, true), (at += 4));
  return new Uint8Array(out.buffer);
}

const formats = [...DEFAULT_FORMATS, toy];
const tmp = mkdtempSync(join(tmpdir(), 'idtech-toy-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = join(tmp, 'tetra.toy');
writeFileSync(file, toyFile());

/** Runs the command line in this process with the toy registered; what it printed. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    return { code: await main(argv, { formats }), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('a format registered at test time flows through every door', () => {
  it('detection: by its extension, and by its first bytes under any name', () => {
    expect(selectFormat('a/b/TETRA.TOY', null, formats)?.id).toBe('toy');
    expect(selectFormat('no-extension', toyFile(), formats)?.id).toBe('toy');
    expect(selectFormat('no-extension', toyFile(), DEFAULT_FORMATS)).toBeNull();
  });

  it('inspect prints its summary (and the package without it does not know the file)', async () => {
    const r = await cli('inspect', file, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ file, format: 'toy', vertices: 4, triangles: 4, frames: 3 });
    const without = await main(['inspect', file, '--json'], { formats: DEFAULT_FORMATS }).catch((e) => e);
    expect(without).not.toBe(0);
  });

  it('convert to .glb: a morph-target mesh with its clip, 0 validator errors', async () => {
    const out = join(tmp, 'tetra.glb');
    const r = await cli('convert', file, '--no-textures', '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*tetra\.glb: 1 mesh, 4 vertices, 1 clip/);
    const glb = new Uint8Array(readFileSync(out));
    const v = await validate(glb);
    expect(v.errors, v.sample.join('\n')).toBe(0);
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))));
    expect(json.meshes[0].primitives[0].targets).toHaveLength(2);
    expect(json.animations.map((a: { name: string }) => a.name)).toEqual(['wobble']);
  });

  it('convert to .obj writes the frame asked for', async () => {
    const out = join(tmp, 'tetra.obj');
    expect((await cli('convert', file, '--frame', '2', '--no-textures', '-o', out)).code).toBe(0);
    const apex = readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('v '))[3];
    expect(apex).toBe('v 3 3 13');
  });

  it('openPlayable: parts, clips and a player that poses its frames', async () => {
    const m = await openPlayable([{ name: 'tetra.toy', source: toyFile() }], { formats });
    expect(m.format).toBe('toy');
    expect(m.clips.map((c) => [c.name, c.frameCount, c.frameRate])).toEqual([['wobble', 3, 5]]);
    const player = m.createPlayer(createTsBackend());
    player.setClip(0);
    player.poseBlend(1, 2, 0.5);
    expect(Array.from(player.positions.subarray(9, 12))).toEqual([3, 3, 11]);
    player.dispose();
  });

  describe('IdTechLoader (setFormats): the toy as a three.js mesh, its clip played by three\'s AnimationMixer', () => {
    /** The toy's own pose at `seconds` into its clip (5 fps, frames 0 1 2, looping back to 0): its frames lerped. */
    function toyAt(m: Toy, seconds: number): Float32Array {
      const frames = [0, 1, 2, 0];
      const at = (seconds * 5) % 3;
      const k = Math.floor(at), t = at - k;
      const n = m.vertexCount * 3;
      return Float32Array.from({ length: n }, (_, i) => m.positions[frames[k] * n + i] * (1 - t) + m.positions[frames[k + 1] * n + i] * t);
    }
    const meshOf = (model: IdTechModel) => {
      let mesh: Mesh | undefined;
      model.scene.traverse((o) => (mesh ??= (o as Mesh).isMesh ? (o as Mesh) : undefined));
      return mesh!;
    };

    for (const [how, load] of [
      ['its bytes, sniffed', (l: IdTechLoader) => l.parseAsync(toyFile())],
      ['named files', (l: IdTechLoader) => l.parseAsync([{ name: 'shapes/tetra.toy', source: toyFile() }])],
    ] as const) {
      for (const morph of ['targets', 'poser'] as const) {
        it(`parseAsync of ${how}, ${morph}: the toy's mesh, and its clip at the toy's posed positions`, async () => {
          const model = await load(new IdTechLoader().setFormats(formats).setMorph(morph));
          expect(model.format).toBe('toy');
          expect(model.animations.map((c) => [c.name, c.duration])).toEqual([['wobble', expect.closeTo(3 / 5, 6)]]);
          const mesh = meshOf(model);
          expect(mesh.geometry.index!.count).toBe(4 * 3);
          expect(mesh.geometry.getAttribute('position').count).toBe(4);
          const toyModel = await parseToy(toyFile());
          model.play('wobble');
          let worst = 0;
          // on frames, between them, and across the loop's blend from frame 2 back to frame 0
          for (const t of [0, 0.1, 0.2, 0.3, 0.5, 0.9]) {
            setTime(model.mixer, model.scene, t);
            model.sync();
            model.scene.updateMatrixWorld(true);
            worst = Math.max(worst, maxDistance(threePositions(mesh, model.root), toyAt(toyModel, t)));
          }
          // targets: int16 on a grid over the toy's 13-unit box (2e-4 a step); poser: the toy's own lerp
          expect(worst).toBeLessThanOrEqual(morph === 'targets' ? 1e-3 : 1e-5);
          model.dispose();
        });
      }
    }

    it('the loader without the toy does not know it; no file of three/ names it', async () => {
      await expect(new IdTechLoader().parseAsync(toyFile())).rejects.toMatchObject({ code: ErrorCode.UnknownFormat });
      const three = join(REPO, 'ts/src/three');
      for (const f of readdirSync(three)) expect(readFileSync(join(three, f), 'utf8')).not.toMatch(/toy/i);
    });
  });
});
