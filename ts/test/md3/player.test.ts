/**
 * The Quake 3 player chain on the real Tremulous human_base (lower/upper/head) plus the rifle as the weapon.
 * Expected transforms are computed by hand in this file from the raw tag floats (read with a DataView, not from the
 * parser) following ioquake3 CG_PositionRotatedEntityOnTag / CG_PositionEntityOnTag: child origin = parent origin
 * + Σ tag.origin[i] · parent.axis[i], child axis = tag.axis · parent.axis (rows), tag axes normalised (R_LerpTag).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { FIXTURES, read } from '../helpers/models.js';
import { HUMAN_BASE, rawHeader, view } from './_helpers.js';

type V3 = [number, number, number];
type M3 = [V3, V3, V3];

const bytes = { lower: read(HUMAN_BASE.lower), upper: read(HUMAN_BASE.upper), head: read(HUMAN_BASE.head), rifle: read(HUMAN_BASE.rifle) };
const models = { lower: parseMd3(bytes.lower), upper: parseMd3(bytes.upper), head: parseMd3(bytes.head), weapon: parseMd3(bytes.rifle) };
const cfg = parseAnimationCfg(readFileSync(join(FIXTURES, 'md3', 'animation.cfg'), 'latin1'));

/** Tag `name` of frame `f`, read from the raw bytes: origin and axes, each axis normalised. */
function rawTag(b: Uint8Array, name: string, f: number): { origin: V3; axis: M3 } {
  const h = rawHeader(b);
  const dv = view(b);
  for (let k = 0; k < h.numTags; k++) {
    const at = h.ofsTags + (f * h.numTags + k) * 112;
    const tagName = new TextDecoder('latin1').decode(b.subarray(at, at + 64)).replace(/\0.*$/s, '');
    if (tagName !== name) continue;
    const fl = (i: number) => dv.getFloat32(at + 64 + 4 * i, true);
    const row = (r: number): V3 => {
      const v: V3 = [fl(3 + r * 3), fl(4 + r * 3), fl(5 + r * 3)];
      const len = Math.hypot(...v);
      return [v[0] / len, v[1] / len, v[2] / len];
    };
    return { origin: [fl(0), fl(1), fl(2)], axis: [row(0), row(1), row(2)] };
  }
  throw new Error(`no ${name}`);
}

/** Vertex v of surface s at frame f, decoded from the raw bytes (×1/64). */
function rawVertex(b: Uint8Array, s: number, f: number, v: number): V3 {
  const h = rawHeader(b);
  const surf = h.surfaces[s];
  const at = surf.start + surf.ofsXyz + (f * surf.numVerts + v) * 8;
  const dv = view(b);
  return [dv.getInt16(at, true) / 64, dv.getInt16(at + 2, true) / 64, dv.getInt16(at + 4, true) / 64];
}

const mul = (a: M3, b: M3): M3 => a.map((row) => [0, 1, 2].map((j) => row[0] * b[0][j] + row[1] * b[1][j] + row[2] * b[2][j])) as M3;
/** origin + Σ p[i] · axis[i]. */
const apply = (origin: V3, axis: M3, p: V3): V3 => [0, 1, 2].map((c) => origin[c] + p[0] * axis[0][c] + p[1] * axis[1][c] + p[2] * axis[2][c]) as V3;
const I: M3 = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

function expectMatrix(m: Float32Array, origin: V3, axis: M3): void {
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) expect(m[r * 4 + c]).toBeCloseTo(axis[c][r], 5);
    expect(m[r * 4 + 3]).toBeCloseTo(origin[r], 4);
  }
}

const still = (f: number) => ({ frame1: f, frame2: f, t: 0 });

describe('Md3Player on human_base', () => {
  const backend = createTsBackend();
  const player = new Md3Player(backend, models, cfg);
  // LEGS_IDLE's first frame in lower.md3 and TORSO_STAND's in upper.md3, from the fixture.
  const legsFrame = cfg.byName.LEGS_IDLE!.firstFrame;
  const torsoFrame = cfg.byName.TORSO_STAND!.firstFrame;
  const pose = player.place({ legs: { frame1: legsFrame, frame2: legsFrame, t: 0 }, torso: { frame1: torsoFrame, frame2: torsoFrame, t: 0 } });

  it('the hand-made animation.cfg fits the real models (no FRAME_RANGE warning)', () => {
    expect(player.warnings).toEqual([]);
    expect(player.vertexCount).toBe(279 + 26 + 64 + 48 + 68 + 275 + 152 + 179 + 349); // MANIFEST vertex counts
  });

  it('head matrix = upper’s tag_head placed by lower’s tag_torso; weapon on tag_weapon', () => {
    const torso = rawTag(bytes.lower, 'tag_torso', legsFrame);
    const head = rawTag(bytes.upper, 'tag_head', torsoFrame);
    const gun = rawTag(bytes.upper, 'tag_weapon', torsoFrame);
    expectMatrix(pose.lower.matrix, [0, 0, 0], I);
    expectMatrix(pose.upper.matrix, torso.origin, torso.axis);
    const headOrigin = apply(torso.origin, torso.axis, head.origin);
    expectMatrix(pose.head.matrix, headOrigin, mul(head.axis, torso.axis));
    expectMatrix(pose.weapon!.matrix, apply(torso.origin, torso.axis, gun.origin), mul(gun.axis, torso.axis));
    expect([pose.lower.frame1, pose.upper.frame1, pose.head.frame1, pose.weapon!.frame1]).toEqual([legsFrame, torsoFrame, 0, 0]);
    // A standing player (z up): feet (the legs' lowest vertex) below the torso tag, the torso tag below the head.
    const feet = Math.min(...Array.from({ length: 279 }, (_, v) => rawVertex(bytes.lower, 0, legsFrame, v)[2]));
    expect(feet).toBeLessThan(torso.origin[2] - 10);
    expect(torso.origin[2]).toBeLessThan(headOrigin[2] - 5);
  });

  it('world positions of one vertex per part, from raw vertices and raw tags', () => {
    const out = player.pose({ legs: pose.lower, torso: pose.upper }).positions;
    const torso = rawTag(bytes.lower, 'tag_torso', legsFrame);
    const head = rawTag(bytes.upper, 'tag_head', torsoFrame);
    const gun = rawTag(bytes.upper, 'tag_weapon', torsoFrame);
    const headAxis = mul(head.axis, torso.axis);
    const checks: [string, number, V3][] = [
      ['lower', 1, rawVertex(bytes.lower, 1, legsFrame, 7)],
      ['upper', 3, apply(torso.origin, torso.axis, rawVertex(bytes.upper, 3, torsoFrame, 100))],
      ['head', 0, apply(apply(torso.origin, torso.axis, head.origin), headAxis, rawVertex(bytes.head, 0, 0, 20))],
      ['weapon', 0, apply(apply(torso.origin, torso.axis, gun.origin), mul(gun.axis, torso.axis), rawVertex(bytes.rifle, 0, 0, 5))],
    ];
    const vertexOf: Record<string, number> = { lower: 7, upper: 100, head: 20, weapon: 5 };
    for (const [part, surface, want] of checks) {
      const r = player.surfaces.find((x) => x.part === part && x.surface === surface)!;
      const o = (r.firstVertex + vertexOf[part]) * 3;
      for (let c = 0; c < 3; c++) expect(out[o + c]).toBeCloseTo(want[c], 4);
    }
  });

  it('blending the legs moves the torso along the lerp of tag_torso’s origins', () => {
    const a = cfg.byName.LEGS_RUN!.firstFrame;
    const p = player.place({ legs: { frame1: a, frame2: a + 1, t: 0.25 }, torso: { frame1: torsoFrame, frame2: torsoFrame, t: 0 } });
    const o0 = rawTag(bytes.lower, 'tag_torso', a).origin;
    const o1 = rawTag(bytes.lower, 'tag_torso', a + 1).origin;
    for (let c = 0; c < 3; c++) expect(p.upper.matrix[c * 4 + 3]).toBeCloseTo(o0[c] * 0.75 + o1[c] * 0.25, 4);
    expect(p.upper).toMatchObject({ frame1: torsoFrame, frame2: torsoFrame, t: 0 });
    expect(p.lower).toMatchObject({ frame1: a, frame2: a + 1, t: 0.25 });
  });

  it('an origin and a legs rotation move every posed vertex rigidly', () => {
    const base = player.pose({ legs: pose.lower, torso: pose.upper }).positions.slice();
    const yaw90 = [0, 1, 0, -1, 0, 0, 0, 0, 1]; // forward → +y, left → −x
    const moved = player.pose({ legs: pose.lower, torso: pose.upper, origin: [100, -20, 5], legsAxis: yaw90 }).positions;
    for (let v = 0; v < player.vertexCount; v += 37) {
      const [x, y, z] = [base[v * 3], base[v * 3 + 1], base[v * 3 + 2]];
      // p · axes: x·(0,1,0) + y·(−1,0,0) + z·(0,0,1).
      expect(moved[v * 3]).toBeCloseTo(100 - y, 3);
      expect(moved[v * 3 + 1]).toBeCloseTo(-20 + x, 3);
      expect(moved[v * 3 + 2]).toBeCloseTo(5 + z, 3);
    }
  });

  it('a head turn (own axis) applies before the tag: head axis = own · tag_head · torso', () => {
    const own = [0, 1, 0, -1, 0, 0, 0, 0, 1];
    const p = player.place({ legs: pose.lower, torso: pose.upper, headAxis: own });
    const torso = rawTag(bytes.lower, 'tag_torso', legsFrame);
    const head = rawTag(bytes.upper, 'tag_head', torsoFrame);
    const ownM: M3 = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]];
    expectMatrix(p.head.matrix, apply(torso.origin, torso.axis, head.origin), mul(mul(ownM, head.axis), torso.axis));
    // The torso and the rest do not move.
    expect(Array.from(p.upper.matrix)).toEqual(Array.from(pose.upper.matrix));
  });

  it('normals come out unit length; placing reuses the matrices it is given', () => {
    const normals = player.pose({ legs: pose.lower, torso: pose.upper }).normals;
    for (let v = 0; v < player.vertexCount; v++) expect(Math.hypot(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2])).toBeCloseTo(1, 5);
    const again = player.place({ legs: pose.lower, torso: pose.upper }, pose);
    expect(again.head.matrix).toBe(pose.head.matrix);
  });

  it('clipFrameAt reads the cfg; bad frames are RangeErrors; missing tags are warnings', () => {
    expect(player.clipFrameAt('LEGS_IDLE', 0)).toEqual({ frame1: legsFrame, frame2: legsFrame + 1, t: 0 });
    expect(() => player.pose({ legs: { frame1: 184, frame2: 0, t: 0 }, torso: pose.upper })).toThrow(RangeError);
    expect(() => player.place({ legs: pose.lower, torso: pose.upper, head: { frame1: 1, frame2: 0, t: 0 } })).toThrow(RangeError);
    expect(new Md3Player(backend, { lower: models.upper, upper: models.upper, head: models.head }).warnings).toEqual([]);
    // A part without the tag the chain needs loads, as in ioquake3 (R_LerpTag answers the identity): a warning, and
    // the child sits at its parent's origin, unrotated.
    const headless = new Md3Player(backend, { lower: models.head, upper: models.upper, head: models.head });
    expect(headless.warnings.map((w) => [w.code, w.message.slice(0, 25)])).toEqual([['MISSING_TAG', 'lower.md3 has no tag_tors']]);
    expectMatrix(headless.place({ legs: still(0), torso: still(torsoFrame), origin: [1, 2, 3] }).upper.matrix, [1, 2, 3], I);
    expect(new Md3Player(backend, { lower: models.lower, upper: models.lower, head: models.head }).warnings[0].message).toMatch(/upper.md3 has no tag_head/);
  });

  it('FRAME_RANGE warnings for clips past the model’s frames', () => {
    const text = readFileSync(join(FIXTURES, 'md3', 'animation.cfg'), 'latin1').replace('245\t2\t2\t15', '245\t9\t2\t15');
    const p = new Md3Player(backend, models, parseAnimationCfg(text));
    expect(p.warnings.map((w) => w.code)).toEqual(['FRAME_RANGE']);
    expect(p.warnings[0].message).toContain('LEGS_TURN');
  });

  it('WASM poses the same vertices as TS (blended legs, turned head, moved origin)', async () => {
    const wasm = new Md3Player(await createWasmBackend('scalar'), models, cfg);
    const input = { legs: { frame1: cfg.byName.LEGS_RUN!.firstFrame, frame2: cfg.byName.LEGS_RUN!.firstFrame + 1, t: 0.4 }, torso: pose.upper, headAxis: [0, 1, 0, -1, 0, 0, 0, 0, 1], origin: [3, 4, 5] };
    const ts = player.pose(input);
    wasm.pose(input);
    let dp = 0, dn = 0;
    for (let i = 0; i < player.vertexCount * 3; i++) {
      dp = Math.max(dp, Math.abs(wasm.positions[i] - ts.positions[i]));
      dn = Math.max(dn, Math.abs(wasm.normals[i] - ts.normals[i]));
    }
    expect(dp).toBeLessThan(1e-3); // float32 vs float64 arithmetic on ±100-unit coordinates
    expect(dn).toBeLessThan(1e-5);
    wasm.dispose();
    expect(() => wasm.positions).toThrow(/disposed/);
  });
});
