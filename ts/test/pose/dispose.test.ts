/**
 * After `dispose()`, a poser (or a backend) refuses every call — getters of what it posed (`blend`, `anim`, `parts`)
 * and `clipFrameAt` included — with a clear error, and never writes into memory that another poser now owns.
 * Every poser × every backend, on real models.
 */
import { describe, expect, it } from 'vitest';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend, wasmSimdSupported } from '../../src/kernels/wasm-backend.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const backends: [string, () => Promise<PoseBackend>][] = [
  ['ts', async () => createTsBackend()],
  ['wasm-scalar', () => createWasmBackend('scalar')],
  ...(wasmSimdSupported() ? ([['wasm-simd', () => createWasmBackend('simd')]] as [string, () => Promise<PoseBackend>][]) : []),
];

const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
const anim = parseMd5Anim(read(`${SHARED_MODELS}/actors/drone/forward.md5anim`));
const md2 = parseMd2(read(`${SHARED_MODELS}/assimp/test/models/MD2/faerie.md2`));
const human = (part: string) => parseMd3(read(`${SHARED_MODELS}/res-tremulous_src.dpkdir/models/tremulous/players/human_base/${part}.md3`));
const players = { lower: human('lower'), upper: human('upper'), head: human('head') };
const md3 = players.upper;
const cfg = parseAnimationCfg(read(`${SHARED_MODELS}/res-players_src.dpkdir/models/players/human_bsuit/animation.cfg`));
const still = { frame1: 0, frame2: 0, t: 0 };

/** A poser kind: how to make one, pose it, and every call a disposed one must refuse. */
interface Kind {
  name: string;
  make(b: PoseBackend): { dispose(): void; readonly positions: Float32Array };
  pose(p: any): void;
  calls: ((p: any) => unknown)[];
}
const kinds: Kind[] = [
  {
    name: 'Md5Poser',
    make: (b) => new Md5Poser(b, mesh).setAnim(anim),
    pose: (p) => p.poseBlend(1, 2, 0.3),
    calls: [(p) => p.poseBind(), (p) => p.poseFrame(1), (p) => p.poseBlend(0, 1, 0.5), (p) => p.poseTime(0.1), (p) => p.poseJoints(1), (p) => p.skin(), (p) => p.bakeFrames([0, 1]), (p) => p.localPose(0), (p) => p.setAnim(anim), (p) => p.positions, (p) => p.normals, (p) => p.jointMatrices, (p) => p.tangents, (p) => p.blend, (p) => p.anim],
  },
  {
    name: 'Md2Poser',
    make: (b) => new Md2Poser(b, md2),
    pose: (p) => p.poseBlend(3, 4, 0.5),
    calls: [(p) => p.poseFrame(1), (p) => p.poseBlend(0, 1, 0.5), (p) => p.poseTime({ firstFrame: 0, frameCount: 4 }, 0.2), (p) => p.poseTime({ firstFrame: 0, frameCount: 4 }, NaN), (p) => p.positions, (p) => p.normals, (p) => p.blend],
  },
  {
    name: 'Md3Poser',
    make: (b) => new Md3Poser(b, md3),
    pose: (p) => p.poseBlend(3, 4, 0.5),
    calls: [(p) => p.poseFrame(1), (p) => p.poseBlend(0, 1, 0.5), (p) => p.poseTime({ firstFrame: 0, frameCount: 4 }, 0.2), (p) => p.positions, (p) => p.normals, (p) => p.blend],
  },
  {
    name: 'Md3Player',
    make: (b) => new Md3Player(b, players, cfg),
    pose: (p) => p.pose({ legs: { frame1: 2, frame2: 3, t: 0.5 }, torso: still }),
    calls: [(p) => p.pose({ legs: still, torso: still }), (p) => p.place({ legs: still, torso: still }), (p) => p.positions, (p) => p.normals, (p) => p.parts, (p) => p.clipFrameAt('LEGS_RUN', 0.5)],
  },
];

describe.each(backends)('dispose on %s', (_, make) => {
  for (const kind of kinds) {
    it(`a disposed ${kind.name} throws on every call and leaves the next poser's output alone`, async () => {
      const backend = await make();
      const a = kind.make(backend);
      kind.pose(a);
      a.dispose();
      a.dispose(); // idempotent
      const b = kind.make(backend);
      kind.pose(b);
      const before = b.positions.slice();
      for (const call of kind.calls) expect(() => call(a)).toThrow(/disposed/);
      expect(b.positions).toEqual(before);
      b.dispose();
      backend.dispose();
    });
  }

  it('a disposed backend refuses allocations and kernels, and its posers refuse every call', async () => {
    const backend = await make();
    const posers = kinds.map((k) => k.make(backend));
    const buffer = backend.memory.f32(16);
    backend.dispose();
    expect(backend.disposed).toBe(true);
    expect(() => backend.memory.f32(4)).toThrow(/disposed/);
    expect(() => buffer.view).toThrow(/disposed/);
    expect(() => backend.kernels.poseMatrices({ object: buffer, out: buffer })).toThrow(/disposed/);
    posers.forEach((p, i) => {
      for (const call of kinds[i].calls) expect(() => call(p)).toThrow(/disposed/);
      p.dispose(); // still safe
    });
  });

  it('a released buffer refuses its view and any kernel it is given', async () => {
    const backend = await make();
    const object = backend.memory.f32(8);
    const out = backend.memory.f32(16);
    backend.memory.release(object);
    expect(() => object.view).toThrow(/disposed/);
    expect(() => backend.kernels.poseMatrices({ object, out })).toThrow(/disposed/);
    backend.dispose();
  });
});

describe('buffers stay with their backend', () => {
  it('a WASM kernel refuses a buffer from another backend instead of reading address 0', async () => {
    const wasm = await createWasmBackend('scalar');
    const ts = createTsBackend();
    const object = ts.memory.f32(8);
    const out = wasm.memory.f32(16);
    expect(() => wasm.kernels.poseMatrices({ object, out })).toThrow(/another backend/);
    const other = await createWasmBackend('scalar');
    expect(() => wasm.kernels.poseMatrices({ object: other.memory.f32(8), out })).toThrow(/another backend/);
    for (const b of [wasm, ts, other]) b.dispose();
  });
});
