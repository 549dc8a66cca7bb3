/**
 * What an entity sets on a Half-Life studio model (formats/goldsrc/controls.ts): bone controllers (StudioCalcBoneAdj:
 * degrees or units per controller index, clamped to the range, RLOOP wrapped, 4 the mouth; none given: no
 * adjustment) and a sequence's blends (StudioSetupBones / StudioSlerpBones). Poses of the H1 group's man.mdl on WASM
 * and TS against the independent reference decoder (ts/test/reference/goldsrc.ts), and on copies of it whose
 * controller records are changed in the test (an RLOOP controller, a mouth controller) — the corpus has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sequenceSources, type SequenceSource } from '../../src/formats/goldsrc/anim.js';
import type { GoldsrcControls } from '../../src/formats/goldsrc/controls.js';
import { goldsrcDraw } from '../../src/formats/goldsrc/geometry.js';
import type { GoldsrcModel } from '../../src/formats/goldsrc/model.js';
import { parseGoldsrc } from '../../src/formats/goldsrc/parser.js';
import { GoldsrcPoser } from '../../src/formats/goldsrc/poser.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { goldsrcMdl } from '../helpers/corpus-kinds.js';
import { manifest, read } from '../helpers/models.js';
import { readRef, refBoneMatrices, transform, type RefControls } from '../reference/goldsrc.js';

const rows = manifest().filter(goldsrcMdl);
const manPath = rows.find((r) => r.path.endsWith('/man.mdl'))!.absPath;

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

/** man.mdl's bytes, with controller `c`'s record changed by `edit` (type at +4, index at +20). */
function manWith(edit?: (v: DataView, at: number) => void): Uint8Array {
  const bytes = read(manPath).slice();
  if (edit) {
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    edit(v, v.getInt32(152, true));
  }
  return bytes;
}

/** Positions of sequence `s` frame `f` with `controls` on `backend`. */
function pose(backend: PoseBackend, m: GoldsrcModel, s: number, f: number, controls: GoldsrcControls, t = 0): Float32Array {
  const poser = new GoldsrcPoser(backend, m, goldsrcDraw(m));
  try {
    const source = sequenceSources(m, new Map(), 'man.mdl').sources[s] as SequenceSource;
    return Float32Array.from(poser.setControls(controls).poseSequence(source, f, t).positions);
  } finally {
    poser.dispose();
  }
}

/** Largest distance from the reference's vertices, and the reference's box diagonal. */
function againstRef(bytes: Uint8Array, m: GoldsrcModel, s: number, f: number, controls: RefControls, positions: Float32Array): { err: number; diag: number } {
  const mats = refBoneMatrices(readRef(bytes), bytes, s, f, controls);
  const draw = goldsrcDraw(m);
  let err = 0;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < draw.vertexCount; v++) {
    const w = draw.positionWeights;
    const p = transform(mats[draw.vertexBones[v]], [w[v * 4], w[v * 4 + 1], w[v * 4 + 2]]);
    for (let k = 0; k < 3; k++) {
      err = Math.max(err, Math.abs(p[k] - positions[v * 3 + k]));
      lo[k] = Math.min(lo[k], p[k]);
      hi[k] = Math.max(hi[k], p[k]);
    }
  }
  return { err, diag: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) };
}

const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, x, k) => Math.max(m, Math.abs(x - b[k])), 0);

describe('bone controllers', () => {
  it("man.mdl's three controllers (bone 7: YR ±60°, ZR ±45°, Y 0–5 units) move its head as the reference does, on WASM and TS", () => {
    const bytes = manWith();
    const m = parseGoldsrc(bytes);
    const settings: Record<number, number>[] = [{ 0: 30 }, { 1: -20 }, { 2: 3 }, { 0: -45, 1: 40, 2: 5 }];
    for (const controllers of settings) {
      for (const f of [0, 5, 13]) {
        const got = backends.map((b) => pose(b, m, 1, f, { controllers }));
        expect(maxDiff(got[0], got[1]), JSON.stringify(controllers)).toBeLessThan(1e-4);
        for (const p of got) {
          const r = againstRef(bytes, m, 1, f, { controllers }, p);
          expect(r.err, `${JSON.stringify(controllers)} frame ${f}`).toBeLessThanOrEqual(1e-4 * r.diag);
        }
        // and the head did move: the pose is not the unadjusted one
        expect(maxDiff(got[1], pose(backends[1], m, 1, f, {})), JSON.stringify(controllers)).toBeGreaterThan(0.1);
      }
    }
  });

  it('no value is no adjustment (the default); a value past the range is held at its end', () => {
    const m = parseGoldsrc(manWith());
    const none = pose(backends[1], m, 1, 5, {});
    // 0 lies in each range of man.mdl's controllers (−60..60, −45..45, 0..5): the same pose as none given
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: { 0: 0, 1: 0, 2: 0 } }), none)).toBe(0);
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: new Map([[0, 0]]) }), none)).toBe(0);
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: { 0: 100 } }), pose(backends[1], m, 1, 5, { controllers: { 0: 60 } }))).toBe(0);
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: { 2: -7 } }), pose(backends[1], m, 1, 5, { controllers: { 2: 0 } }))).toBe(0);
    // a controller index the model does not have adjusts nothing
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: { 3: 40 } }), none)).toBe(0);
  });

  it('an RLOOP controller wraps around its 360° instead of stopping at its end (man.mdl with controller 0 made RLOOP)', () => {
    const bytes = manWith((v, at) => v.setInt32(at + 4, v.getInt32(at + 4, true) | 0x8000, true));
    const m = parseGoldsrc(bytes);
    expect(m.controllers[0].type & 0x8000).toBe(0x8000);
    const at30 = pose(backends[0], m, 1, 5, { controllers: { 0: 30 } });
    expect(maxDiff(pose(backends[0], m, 1, 5, { controllers: { 0: 390 } }), at30)).toBeLessThan(1e-4);
    expect(maxDiff(pose(backends[0], m, 1, 5, { controllers: { 0: -330 } }), at30)).toBeLessThan(1e-4);
    // 200° is −160°, not clamped to 60° as the plain controller is
    const at200 = pose(backends[1], m, 1, 5, { controllers: { 0: 200 } });
    expect(maxDiff(at200, pose(backends[1], m, 1, 5, { controllers: { 0: -160 } }))).toBeLessThan(1e-4);
    expect(maxDiff(at200, pose(backends[1], m, 1, 5, { controllers: { 0: 60 } }))).toBeGreaterThan(0.1);
    const r = againstRef(bytes, m, 1, 5, { controllers: { 0: 200 } }, at200);
    expect(r.err).toBeLessThanOrEqual(1e-4 * r.diag);
  });

  it('the mouth is controller 4 (man.mdl with controller 2 given index 4): set by 4, no longer by 2', () => {
    const bytes = manWith((v, at) => v.setInt32(at + 2 * 24 + 20, 4, true));
    const m = parseGoldsrc(bytes);
    expect(m.controllers[2].index).toBe(4);
    const none = pose(backends[1], m, 1, 5, {});
    const open = pose(backends[1], m, 1, 5, { controllers: { 4: 4 } });
    expect(maxDiff(open, none)).toBeGreaterThan(1);
    expect(maxDiff(pose(backends[1], m, 1, 5, { controllers: { 2: 4 } }), none)).toBe(0);
    for (const p of [open, pose(backends[0], m, 1, 5, { controllers: { 4: 4 } })]) {
      const r = againstRef(bytes, m, 1, 5, { controllers: { 4: 4 } }, p);
      expect(r.err).toBeLessThanOrEqual(1e-4 * r.diag);
    }
  });

  it('between two frames the adjustment holds (t = 0.5 lies between the adjusted frames, WASM = TS)', () => {
    const m = parseGoldsrc(manWith());
    const c = { controllers: { 0: 45, 2: 2 } };
    const [w, t] = backends.map((b) => pose(b, m, 1, 3, c, 0.5));
    expect(maxDiff(w, t)).toBeLessThan(1e-4);
    const a = pose(backends[1], m, 1, 3, c), b = pose(backends[1], m, 1, 4, c);
    const k = a.findIndex((x, i) => Math.abs(x - b[i]) > 0.01);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(Math.min(a[k], b[k]) - 1e-4).toBeLessThanOrEqual(t[k]);
    expect(t[k]).toBeLessThanOrEqual(Math.max(a[k], b[k]) + 1e-4);
  });
});

describe('the command line', () => {
  it('convert man.mdl --anim walk --frame 5 --controller 0=30 --controller 2=3 -o x.obj: the reference pose on WASM and TS; a bad N=V, or --controller on a format without, exits 2', async () => {
    const { runCli, cliTemp } = await import('../helpers/cli.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = cliTemp('goldsrc-controls');
    const bytes = read(manPath);
    const m = parseGoldsrc(bytes);
    for (const backend of ['wasm', 'ts']) {
      const out = join(dir, `${backend}.obj`);
      const r = await runCli('convert', manPath, '--anim', 'walk', '--frame', '5', '--controller', '0=30', '--controller', '2=3', '--backend', backend, '--no-textures', '-o', out);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/sequence walk frame 5 controller 0=30 controller 2=3/);
      const v = Float32Array.from(readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('v ')).flatMap((l) => l.slice(2).split(' ').map(Number)));
      const ref = againstRef(bytes, m, 1, 5, { controllers: { 0: 30, 2: 3 } }, v);
      expect(ref.err, backend).toBeLessThanOrEqual(1e-4 * ref.diag + 1e-5); // the OBJ's 6 decimals
      expect(maxDiff(v, pose(backends[1], m, 1, 5, {}))).toBeGreaterThan(0.1);
    }
    for (const bad of ['x=1', '0', '5=1', '0=abc']) {
      const r = await runCli('convert', manPath, '--controller', bad, '-o', join(dir, 'bad.obj'));
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(/--controller .*expected N=V/);
    }
    const md2 = manifest().find((r) => r.path.endsWith('.md2'))!;
    const other = await runCli('convert', md2.absPath, '--controller', '0=30', '-o', join(dir, 'md2.obj'));
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/--controller: a .* has no bone controllers/);
  });
});

describe('the playable path (openPlayable: the viewer and the worker)', () => {
  it("a player's setControls poses man.mdl's walk with its controllers as the poser does, on both backends", async () => {
    const { openPlayable } = await import('../../src/registry/open-playable.js');
    const playable = await openPlayable([{ name: 'man.mdl', source: read(manPath) }]);
    const m = parseGoldsrc(read(manPath));
    for (const backend of backends) {
      const player = playable.createPlayer(backend);
      try {
        player.setClip(1);
        expect(player.setControls).toBeTypeOf('function');
        player.setControls!({ controllers: { 0: -40, 1: 30 } });
        player.poseBlend(5, 6, 0);
        expect(maxDiff(Float32Array.from(player.positions), pose(backend, m, 1, 5, { controllers: { 0: -40, 1: 30 } })), backend.name).toBeLessThan(1e-5);
        player.setControls!({});
        player.poseBlend(5, 6, 0);
        expect(maxDiff(Float32Array.from(player.positions), pose(backend, m, 1, 5, {})), backend.name).toBeLessThan(1e-5);
      } finally {
        player.dispose();
      }
    }
  });
});

/**
 * man.mdl with sequence `s` given `n` blends of generated values: `n` × bones records appended, each channel of each
 * record a one-run stream (valid 2, total 255) holding `stored(blend, bone, channel)` at frame 0 and 400 more from
 * frame 1 on (0: the channel does not move),
 * the sequence's numblends and animindex pointed at them, the header's length grown. Built here: nothing committed.
 */
function withBlends(s: number, n: number, stored: (blend: number, bone: number, channel: number) => number): Uint8Array {
  const base = read(manPath);
  const v0 = new DataView(base.buffer, base.byteOffset, base.byteLength);
  const J = v0.getInt32(140, true);
  const recordsAt = (base.length + 3) & ~3;
  const streamsAt = recordsAt + n * J * 12;
  const out = new Uint8Array(streamsAt + n * J * 6 * 6);
  out.set(base);
  const v = new DataView(out.buffer);
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < J; j++) {
      const rec = recordsAt + (k * J + j) * 12;
      for (let c = 0; c < 6; c++) {
        const value = stored(k, j, c);
        if (value === 0) continue;
        const at = streamsAt + ((k * J + j) * 6 + c) * 6;
        out[at] = 2;
        out[at + 1] = 255;
        v.setInt16(at + 2, value, true);
        v.setInt16(at + 4, value + 400, true);
        v.setUint16(rec + 2 * c, at - rec, true);
      }
    }
  }
  const seq = v.getInt32(168, true) + s * 176;
  v.setInt32(seq + 120, n, true);
  v.setInt32(seq + 124, recordsAt, true);
  v.setInt32(72, out.length, true);
  return out;
}

/** Generated blends that turn every bone differently (angles) and move the root (position). */
const turning = (k: number, j: number, c: number) => (c >= 3 ? (k - 4) * 1200 + j * 90 + c * 40 + 1 : j === 0 && c < 3 ? (k + 1) * 20 : 0);

describe('blends', () => {
  it("man.mdl's arms_up (4 blends: Half-Life's two-axis blend) at blending (X, Y) is the reference's mix, on WASM and TS; (0, 0) its first blend", () => {
    const bytes = read(manPath);
    const m = parseGoldsrc(bytes);
    expect(m.sequences[2].blendCount).toBe(4);
    const poses: Float32Array[] = [];
    for (const blend of [[0, 0], [255, 0], [0, 255], [255, 255], [128, 200], [60, 30]]) {
      for (const f of [0, 1]) {
        const got = backends.map((b) => pose(b, m, 2, f, { blend }));
        expect(maxDiff(got[0], got[1]), `${blend}`).toBeLessThan(1e-4);
        for (const p of got) {
          const r = againstRef(bytes, m, 2, f, { blend }, p);
          expect(r.err, `blend ${blend} frame ${f}`).toBeLessThanOrEqual(1e-4 * r.diag);
        }
        if (f === 0) poses.push(got[1]);
      }
    }
    // the four corners are four different poses: the blends are not one pose read four times
    for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) expect(maxDiff(poses[a], poses[b]), `${a} ${b}`).toBeGreaterThan(0.1);
  });

  it('two blends (arms_up cut to numblends 2): blending[0] mixes blends 0 and 1, blending[1] does nothing', () => {
    const bytes = read(manPath).slice();
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    v.setInt32(v.getInt32(168, true) + 2 * 176 + 120, 2, true);
    const m = parseGoldsrc(bytes);
    for (const blend of [[0, 0], [255, 0], [100, 0], [100, 255]]) {
      const p = pose(backends[0], m, 2, 1, { blend });
      const r = againstRef(bytes, m, 2, 1, { blend }, p);
      expect(r.err, `${blend}`).toBeLessThanOrEqual(1e-4 * r.diag);
    }
    expect(maxDiff(pose(backends[1], m, 2, 1, { blend: [100, 0] }), pose(backends[1], m, 2, 1, { blend: [100, 255] }))).toBe(0);
    expect(maxDiff(pose(backends[1], m, 2, 1, { blend: [100, 0] }), pose(backends[1], m, 2, 1, { blend: [0, 0] }))).toBeGreaterThan(0.1);
  });

  it("nine blends (Counter-Strike's 3 × 3 aim grid, generated on man.mdl): each byte's half picks the cell, its corners mixed as CS does, on WASM and TS", () => {
    const bytes = withBlends(2, 9, turning);
    const m = parseGoldsrc(bytes);
    expect(m.sequences[2].blendCount).toBe(9);
    const cases = [[0, 0], [255, 255], [127, 127], [128, 128], [255, 0], [0, 255], [64, 200], [200, 64], [127, 128], [300, -5]];
    for (const blend of cases) {
      const got = backends.map((b) => pose(b, m, 2, 0, { blend }));
      expect(maxDiff(got[0], got[1]), `${blend}`).toBeLessThan(1e-4);
      for (const p of got) {
        const r = againstRef(bytes, m, 2, 0, { blend }, p);
        expect(r.err, `blend ${blend}`).toBeLessThanOrEqual(1e-4 * r.diag);
      }
    }
    // the grid's corners are its cells 0, 2, 6 and 8: (0,0), (255,0), (0,255), (255,255); bytes past 0–255 are held
    const cell = (k: number) => {
      const only = withBlends(2, 9, (b, j, c) => turning(b === 0 ? k : -99, j, c));
      const mk = parseGoldsrc(only);
      return pose(backends[1], mk, 2, 0, {});
    };
    expect(maxDiff(pose(backends[1], m, 2, 0, { blend: [0, 0] }), cell(0))).toBeLessThan(1e-4);
    expect(maxDiff(pose(backends[1], m, 2, 0, { blend: [255, 0] }), cell(2))).toBeLessThan(1e-4);
    expect(maxDiff(pose(backends[1], m, 2, 0, { blend: [0, 255] }), cell(6))).toBeLessThan(1e-4);
    expect(maxDiff(pose(backends[1], m, 2, 0, { blend: [255, 255] }), cell(8))).toBeLessThan(1e-4);
    expect(maxDiff(pose(backends[1], m, 2, 0, { blend: [300, -5] }), cell(2))).toBeLessThan(1e-4);
  });

  it('blends and controllers together, frame 1 against the reference, and between frames (t = 0.5): WASM = TS, between the two frames', () => {
    const bytes = withBlends(2, 9, turning);
    const m = parseGoldsrc(bytes);
    const c = { controllers: { 0: 20, 1: -30 }, blend: [90, 170] };
    for (const b of backends) {
      const r = againstRef(bytes, m, 2, 1, c, pose(b, m, 2, 1, c));
      expect(r.err, b.name).toBeLessThanOrEqual(1e-4 * r.diag);
    }
    const [w, t] = backends.map((b) => pose(b, m, 2, 0, c, 0.5));
    expect(maxDiff(w, t)).toBeLessThan(1e-4);
    const a = pose(backends[1], m, 2, 0, c), b = pose(backends[1], m, 2, 1, c);
    const k = a.findIndex((x, i) => Math.abs(x - b[i]) > 0.01);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(Math.abs(t[k] - a[k])).toBeGreaterThan(0);
    expect(Math.abs(t[k] - b[k])).toBeGreaterThan(0);
  });

  it('convert --blend X,Y -o x.obj poses the mix (the reference), and the glTF export has one clip per blend named after the sequence', async () => {
    const { runCli, cliTemp } = await import('../helpers/cli.js');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = cliTemp('goldsrc-blend');
    const bytes = read(manPath);
    const m = parseGoldsrc(bytes);
    const out = join(dir, 'b.obj');
    const r = await runCli('convert', manPath, '--anim', 'arms_up', '--frame', '1', '--blend', '200,80', '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const v = Float32Array.from(readFileSync(out, 'utf8').split('\n').filter((l) => l.startsWith('v ')).flatMap((l) => l.slice(2).split(' ').map(Number)));
    const ref = againstRef(bytes, m, 2, 1, { blend: [200, 80] }, v);
    expect(ref.err).toBeLessThanOrEqual(1e-4 * ref.diag + 1e-5);
    for (const bad of ['256', 'a', '1,2,3', '']) {
      const b = await runCli('convert', manPath, '--blend', bad, '-o', join(dir, 'bad.obj'));
      expect(b.status, bad).toBe(2);
    }
    const glb = join(dir, 'man.glb');
    const g = await runCli('convert', manPath, '--no-textures', '-o', glb);
    expect(g.status, g.stderr).toBe(0);
    expect(g.stderr).not.toMatch(/NOT_APPLIED/);
    // the GLB's JSON chunk: its length at byte 12, its text from byte 20
    const file = readFileSync(glb);
    const json = JSON.parse(file.subarray(20, 20 + file.readUInt32LE(12)).toString('utf8')) as { animations: { name: string; extras: Record<string, unknown> }[] };
    expect(json.animations.map((a) => a.name)).toEqual(['reference', 'walk', 'arms_up blend 0', 'arms_up blend 1', 'arms_up blend 2', 'arms_up blend 3']);
    expect(json.animations[3].extras).toMatchObject({ sequence: 'arms_up', blend: 1, blendCount: 4, blendType: [16, 0], blendStart: [-30, 0], blendEnd: [30, 0] });
    expect(json.animations[1].extras.blend).toBeUndefined();
  });
});

/**
 * StudioCalcRotations (Half-Life SDK): after the channels (and controllers) are made, the motion bone's position
 * loses x, y, z where the motion type has STUDIO_X, Y, Z (1, 2, 4); STUDIO_LX, LY, LZ (64, 128, 256) add
 * `s × linearmovement` with s = 0 × … — nothing: studiomdl took the linear movement out of the stored frames when it
 * compiled them (the entity is moved by the game instead). Checked on man.mdl's walk (LX, as compiled) and on copies
 * of it whose motion type, bone and linear movement are changed in the test.
 */
describe('motion removal', () => {
  /** man.mdl with sequence 1 (walk)'s motion type, motion bone and linear movement set. */
  const walkWith = (type: number, bone = 0, linear = [0, 0, 0]) => {
    const bytes = read(manPath).slice();
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const seq = v.getInt32(168, true) + 176;
    v.setInt32(seq + 68, type, true);
    v.setInt32(seq + 72, bone, true);
    linear.forEach((x, k) => v.setFloat32(seq + 76 + 4 * k, x, true));
    return bytes;
  };
  /** The motion bone's local position on `backend` at `frame` (with `controls`). */
  const rootAt = (backend: PoseBackend, bytes: Uint8Array, frame: number, bone = 0, controls: GoldsrcControls = {}) => {
    const m = parseGoldsrc(bytes);
    const poser = new GoldsrcPoser(backend, m, goldsrcDraw(m));
    try {
      const source = sequenceSources(m, new Map(), 'man.mdl').sources[1]!;
      return Array.from(poser.setControls(controls).poseSequence(source, frame).localPoses.subarray(bone * 8, bone * 8 + 3));
    } finally {
      poser.dispose();
    }
  };

  it("man.mdl's walk is LX on its root (as studiomdl compiled it): posed as with no motion type, every vertex", () => {
    const m = parseGoldsrc(read(manPath));
    expect([m.sequences[1].motionType, m.sequences[1].motionBone]).toEqual([0x40, 0]);
    const none = parseGoldsrc(walkWith(0));
    for (const b of backends) for (const f of [0, 6, 13, 20]) expect(maxDiff(pose(b, m, 1, f, {}), pose(b, none, 1, f, {})), `${b.name} frame ${f}`).toBe(0);
  });

  it('STUDIO_Y, Z zero those of the motion bone at every frame (bone 5 of man.mdl, which stands off its parent); LY, LZ with a linear movement change nothing (the engine adds 0 × it)', () => {
    for (const b of backends) {
      for (const f of [0, 7, 19]) {
        const raw = rootAt(b, walkWith(0, 5), f, 5);
        expect(Math.abs(raw[1]) > 1 && Math.abs(raw[2]) > 1, `${raw}`).toBe(true);
        expect(rootAt(b, walkWith(0x2, 5), f, 5), `Y frame ${f}`).toEqual([raw[0], 0, raw[2]]);
        expect(rootAt(b, walkWith(0x4, 5), f, 5), `Z frame ${f}`).toEqual([raw[0], raw[1], 0]);
        expect(rootAt(b, walkWith(0x7, 5), f, 5), `XYZ frame ${f}`).toEqual([0, 0, 0]);
        expect(rootAt(b, walkWith(0x1c0, 5, [100, -50, 25]), f, 5), `LX LY LZ frame ${f}`).toEqual(raw);
      }
    }
    // and every vertex agrees with the reference under each type
    for (const type of [0x2, 0x4, 0x6, 0x1c0]) {
      const bytes = walkWith(type, 5, [100, -50, 25]);
      const m = parseGoldsrc(bytes);
      for (const b of backends) {
        const r = againstRef(bytes, m, 1, 9, {}, pose(b, m, 1, 9, {}));
        expect(r.err, `type ${type} ${b.name}`).toBeLessThanOrEqual(1e-4 * r.diag);
      }
    }
  });

  it('the motion test comes after the controllers (StudioCalcRotations): a controller moving the motion bone along a removed axis moves nothing', () => {
    // bone 7's y channel is controller 2's (0–5 units): with bone 7 the motion bone and STUDIO_Y, controller 2 is undone
    const plain = walkWith(0, 7), removed = walkWith(0x2, 7);
    for (const b of backends) {
      expect(rootAt(b, plain, 5, 7, { controllers: { 2: 4 } })[1] - rootAt(b, plain, 5, 7)[1]).toBeCloseTo(4, 4);
      expect(rootAt(b, removed, 5, 7, { controllers: { 2: 4 } })).toEqual(rootAt(b, removed, 5, 7));
      expect(rootAt(b, removed, 5, 7)[1]).toBe(0);
    }
  });
});

describe('skin families (the entity\'s skin: StudioSetupSkin\'s row of the table)', () => {
  it("man.mdl's materials in family1 show manT.mdl's second row; a skin that is no family is a warning and family0; the view offers the families as skins", async () => {
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const { resolveGoldsrcMaterials } = await import('../../src/formats/goldsrc/materials.js');
    const dir = manPath.slice(0, -'man.mdl'.length);
    const fs = memoryFileSystem(['man.mdl', 'manT.mdl', 'man01.mdl'].map((n) => ({ path: n, bytes: read(dir + n) })));
    const m = parseGoldsrc(read(manPath));
    const t = parseGoldsrc(read(`${dir}manT.mdl`));
    expect(t.skinFamilies.length).toBe(2);
    const names = (set: { materials: { diffuse: { name: string } | null }[] }) => set.materials.map((x) => x.diffuse?.name);
    const f0 = await resolveGoldsrcMaterials(fs, m, 'man.mdl'), f1 = await resolveGoldsrcMaterials(fs, m, 'man.mdl', 'family1');
    // each mesh's texture is the one its skin reference names in that row of manT.mdl's table
    const { goldsrcDraw: draw } = await import('../../src/formats/goldsrc/geometry.js');
    const want = (row: number) => draw(m).meshes.map((mesh) => `man.mdl/${t.textures[t.skinFamilies[row][mesh.skinRef]].name}`);
    expect(names(f0)).toEqual(want(0));
    expect(names(f1)).toEqual(want(1));
    expect(names(f1)).not.toEqual(names(f0));
    const bad = await resolveGoldsrcMaterials(fs, m, 'man.mdl', 'family7');
    expect(names(bad)).toEqual(want(0));
    expect(bad.warnings.map((w) => w.message).join()).toMatch(/skin "family7": the model's skin families are family0, family1/);
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { DEFAULT_FORMATS } = await import('../../src/registry/formats.js');
    const { entryFor } = await import('../../src/registry/formats.js');
    const set = await openModelSet(fs, 'man.mdl', { formats: DEFAULT_FORMATS });
    const view = await entryFor('hl1mdl')!.view!(set, backends[1]);
    expect(view.extras?.skins).toEqual(['family0', 'family1']);
  });
});

describe('hostile blend counts', () => {
  it('a numblends whose records run past the file is BAD_OFFSET when read; the clips (sequences × blends) meet maxGltfAnimations before any is listed', async () => {
    const { ModelParseError } = await import('../../src/base/errors.js');
    const bytes = read(manPath).slice();
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    v.setInt32(v.getInt32(168, true) + 2 * 176 + 120, 0x7fffffff, true);
    const err = (() => {
      try {
        parseGoldsrc(bytes);
        return null;
      } catch (e) {
        return e as InstanceType<typeof ModelParseError>;
      }
    })();
    expect(err).toBeInstanceOf(ModelParseError);
    expect(err!.code).toBe('BAD_OFFSET');
    // man.mdl's 1 + 1 + 4 clips against a limit of 5: refused by count, naming the limit
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { DEFAULT_FORMATS, entryFor } = await import('../../src/registry/formats.js');
    const { buildGltf } = await import('../../src/registry/gltf.js');
    const { resourceLimits, setResourceLimits } = await import('../../src/base/resource-limits.js');
    const set = await openModelSet(memoryFileSystem([{ path: 'man.mdl', bytes: read(manPath) }]), 'man.mdl', { formats: DEFAULT_FORMATS });
    const options = entryFor('hl1mdl')!.gltfOptions!(set, { name: 'man' });
    const before = resourceLimits().maxGltfAnimations;
    setResourceLimits({ maxGltfAnimations: 5 });
    try {
      const e = await buildGltf(set.data as never, options).then(() => null, (x: unknown) => x as Error);
      expect(e?.message).toMatch(/6 animations \(sequences × their blends\).*maxGltfAnimations/);
      setResourceLimits({ maxGltfAnimations: 6 });
      const ok = await buildGltf(set.data as never, options);
      expect((ok.builder.json as { animations: unknown[] }).animations.length).toBe(6);
    } finally {
      setResourceLimits({ maxGltfAnimations: before });
    }
  });
});

describe('the body value (StudioSetupModel: submodel (body / base) % count of each part)', () => {
  it("man.mdl's view and materials for body 2 are its heads part's submodel 2 (reference_head3); the view offers the part's submodels", async () => {
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const { openModelSet } = await import('../../src/load/model-set.js');
    const { DEFAULT_FORMATS, entryFor } = await import('../../src/registry/formats.js');
    const { resolveGoldsrcMaterials } = await import('../../src/formats/goldsrc/materials.js');
    const dir = manPath.slice(0, -'man.mdl'.length);
    const fs = memoryFileSystem(['man.mdl', 'manT.mdl'].map((n) => ({ path: n, bytes: read(dir + n) })));
    const set = await openModelSet(fs, 'man.mdl', { formats: DEFAULT_FORMATS });
    const entry = entryFor('hl1mdl')!;
    const m = parseGoldsrc(read(manPath));
    const [v0, v2] = [await entry.view!(set, backends[0]), await entry.view!(set, backends[0], { body: 2 })];
    expect(m.bodyParts[1].models[2].name).toBe('reference_head3');
    expect(v2.kind === 'skinned' && v2.groups.map((g) => g.name)).toEqual(goldsrcDraw(m, 2).meshes.map((x) => x.name));
    expect(v2.kind === 'skinned' && v2.vertexCount).toBe(goldsrcDraw(m, 2).vertexCount);
    expect(v0.kind === 'skinned' && v0.vertexCount).toBe(goldsrcDraw(m, 0).vertexCount);
    expect(goldsrcDraw(m, 2).vertexCount).not.toBe(goldsrcDraw(m, 0).vertexCount);
    expect(v0.extras?.controls?.filter((c) => c.kind === 'submodel')).toEqual([{ kind: 'submodel', index: 1, label: 'body part "heads" (3 submodels)', min: 0, max: 2, unit: 'submodel', rest: 0, weight: 1 }]);
    const mats = await resolveGoldsrcMaterials(fs, m, 'man.mdl', undefined, 2);
    expect(mats.materials.map((x) => x.surface)).toEqual(goldsrcDraw(m, 2).meshes.map((x) => x.name));
  });
});

describe('the three.js loader (IdTechLoader): settings baked in', () => {
  it("loadAsync(man.mdl, …, { settings }) plays the walk with controller 0 at 30° and draws body 2's head, as the poser and goldsrcDraw do", async () => {
    const { IdTechLoader } = await import('../../src/three/loader.js');
    const { memoryFileSystem } = await import('../../src/vfs/memory.js');
    const { SkinnedMesh } = await import('three');
    const dir = manPath.slice(0, -'man.mdl'.length);
    const fs = memoryFileSystem(['man.mdl', 'manT.mdl'].map((n) => ({ path: n, bytes: read(dir + n) })));
    const m = parseGoldsrc(read(manPath));
    const three = await new IdTechLoader().setFileSystem(fs).loadAsync('man.mdl', undefined, { settings: { controllers: { 0: 30 }, body: 2 } });
    const plain = await new IdTechLoader().setFileSystem(fs).loadAsync('man.mdl');
    const walkOf = (t: typeof three) => t.animations.find((c) => c.name === 'walk')!;
    // bone 7's rotation track: key 5 is the poser's with controller 0 at 30°, not the plain one's
    const track = (t: typeof three) => walkOf(t).tracks.find((k) => k.name.endsWith('.quaternion') && k.name.includes(m.bones[7].name))!;
    // the track as three plays it at frame 5 (a track three found constant keeps fewer keys)
    const key = (t: typeof three) => Array.from((track(t) as unknown as { createInterpolant(): { evaluate(time: number): Float32Array } }).createInterpolant().evaluate(5 / 30));
    const backend = createTsBackend();
    const poser = new GoldsrcPoser(backend, m, goldsrcDraw(m));
    const want = Array.from(poser.setControls({ controllers: { 0: 30 } }).poseSequence(sequenceSources(m, new Map(), 'man.mdl').sources[1]!, 5).localPoses.subarray(7 * 8 + 4, 7 * 8 + 8));
    poser.dispose();
    backend.dispose();
    key(three).forEach((x, i) => expect(Math.abs(x - want[i])).toBeLessThan(1e-5));
    expect(key(plain).some((x, i) => Math.abs(x - want[i]) > 1e-3)).toBe(true);
    const vertices = (t: typeof three) => {
      let n = 0;
      t.scene.traverse((o) => {
        if (o instanceof SkinnedMesh) n += o.geometry.getAttribute('position').count;
      });
      return n;
    };
    expect(vertices(three)).toBe(goldsrcDraw(m, 2).vertexCount);
    expect(vertices(plain)).toBe(goldsrcDraw(m, 0).vertexCount);
  });
});

describe('a generated sequence of many blends (fixtures/generate-goldsrc.mjs manyBlends)', () => {
  it('20,000 blends whose records fit: convert -o x.glb exits 1 UNWRITABLE naming maxGltfAnimations and how to raise it; the OBJ of its mix poses', async () => {
    const { manyBlends } = await import('../../../fixtures/generate-goldsrc.mjs');
    const { runCli, cliTemp } = await import('../helpers/cli.js');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = cliTemp('goldsrc-blends');
    const file = join(dir, 'many.mdl');
    writeFileSync(file, manyBlends(20_000));
    expect(parseGoldsrc(manyBlends(20_000)).sequences[0].blendCount).toBe(20_000);
    const r = await runCli('convert', file, '--no-textures', '-o', join(dir, 'x.glb'));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/UNWRITABLE: 20000 animations \(sequences × their blends\): over the limit maxGltfAnimations = 16384 \(raise it with --limit maxGltfAnimations=N/);
    const obj = await runCli('convert', file, '--blend', '128', '--no-textures', '-o', join(dir, 'x.obj'));
    expect(obj.status, obj.stderr).toBe(0);
  });
});
