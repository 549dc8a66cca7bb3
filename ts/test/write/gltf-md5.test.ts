/**
 * glTF → MD5 (gltfToMd5): the skinned glTF samples of the corpus and every real md5mesh (with the md5anims that
 * pair with it) through our glb come out as an md5mesh + md5anims whose poses, written as text, parsed back and
 * posed by our poser at every sampled frame, lie within 1e-4 × the model's diagonal of what glTF's own skinning
 * gives (ts/test/reference/gltf-pose.ts, the pipeline written plainly) — and, from an id file, of the original's pose.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { gltfToMd5, md5QuaternionXyz } from '../../src/import/gltf-md5.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { recoverW } from '../../src/base/quat.js';
import { animationPlayer, restPose } from '../../src/import/gltf-sample.js';
import { posedPrimitive } from '../reference/gltf-pose.js';
import { sceneNodes, toId, trianglePrimitives } from '../../src/import/gltf-scene.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { md5AnimEngineLimits, md5MeshEngineLimits } from '../../src/formats/md5/write-limits.js';
import { writeMd5Anim } from '../../src/formats/md5/write-anim.js';
import { writeMd5Mesh } from '../../src/formats/md5/write-mesh.js';
import { assimpInfo } from '../helpers/assimp.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { read, realAnimPairs, realMeshes, SHARED_MODELS } from '../helpers/models.js';

const BOUND = 1e-4;
/**
 * An md5anim stores a rotation's x y z and recovers w = √(1 − x² − y² − z²) from float32 values: at a half turn
 * (w → 0) a step of one float32 ulp in x y z moves w by about √(2⁻²⁴) ≈ 2.4e-4, so a rotation written again can land
 * that far from the original's however it is rounded. Unvanquished's jump.md5anim turns `neckcontol` exactly half way
 * (w = 0); where an anim holds such a rotation the round trip is held to this bound instead.
 */
const HALF_TURN_BOUND = 2.5e-4;

/** Whether any joint of `anim` reaches a half turn (recovered w below 1e-3) in any frame. */
function reachesHalfTurn(anim: Md5Anim): boolean {
  const C = anim.componentCount;
  for (let f = 0; f < anim.frameCount; f++) {
    for (let j = 0; j < anim.jointCount; j++) {
      const v = Array.from(anim.baseframe.subarray(6 * j, 6 * j + 6));
      for (let c = 0, k = anim.startIndices[j]; c < 6; c++) if (anim.flags[j] & (1 << c)) v[c] = anim.frames[f * C + k++];
      if (1 - (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]) < 1e-6) return true;
    }
  }
  return false;
}
const backend = createTsBackend();

function diagonal(p: ArrayLike<number>): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let o = 0; o < p.length; o += 3) for (let k = 0; k < 3; k++) {
    lo[k] = Math.min(lo[k], p[o + k]);
    hi[k] = Math.max(hi[k], p[o + k]);
  }
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

function worstDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let o = 0; o < a.length; o += 3) worst = Math.max(worst, Math.hypot(a[o] - b[o], a[o + 1] - b[o + 1], a[o + 2] - b[o + 2]));
  return worst;
}

/** What we write, read back as the game would read it (text → our parser). */
function throughText(mesh: Md5Mesh, anims: { anim: Md5Anim }[]) {
  return { mesh: parseMd5Mesh(writeMd5Mesh(mesh)), anims: anims.map((a) => parseMd5Anim(writeMd5Anim(a.anim))) };
}

/** The glb posed by glTF's rules at `time` of animation `index` (id axes, every triangle primitive back to back). */
async function gltfPoser(bytes: Uint8Array) {
  const doc = await readGltfDocument({ bytes });
  const order = sceneNodes(doc);
  const prims = trianglePrimitives(order, []);
  const rest = restPose(order);
  const players = doc.getRoot().listAnimations().map(animationPlayer);
  return {
    names: doc.getRoot().listAnimations().map((a) => a.getName()),
    pose(index: number, time: number): Float32Array {
      rest.restore();
      players[index]?.(time);
      const out: number[] = [];
      for (const p of prims) {
        const { positions } = posedPrimitive(p.node, p.mesh, p.prim);
        for (let o = 0; o < positions.length; o += 3) out.push(...toId(positions[o], positions[o + 1], positions[o + 2]));
      }
      return Float32Array.from(out);
    },
  };
}

const SAMPLES = [
  ['Fox', 'gltf-samples/bevy/assets/models/animated/Fox.glb'],
  ['CesiumMan', 'gltf-samples/mjolnir-zig/assets/CesiumMan.glb'],
] as const;

describe('gltfToMd5: the corpus glTF samples → md5mesh + md5anims posed within 1e-4 × diagonal of glTF skinning', () => {
  for (const [label, path] of SAMPLES) {
    it(`${label}: every frame of every animation`, async () => {
      const bytes = read(join(SHARED_MODELS, path));
      const fps = 24;
      const imported = await gltfToMd5({ bytes }, { fps });
      const { mesh, anims } = throughText(imported.mesh, imported.anims);
      const glb = await gltfPoser(bytes);
      expect(anims.length).toBe(glb.names.length);
      expect(mesh.joints.parents.filter((p) => p < 0).length, 'one root').toBe(1);
      for (let j = 0; j < mesh.joints.count; j++) expect(mesh.joints.parents[j]).toBeLessThan(j);
      expect(md5MeshEngineLimits(mesh)).toEqual([]);
      const poser = new Md5Poser(backend, mesh);
      const diag = diagonal(glb.pose(-1, 0));
      let worst = 0, frames = 0, animatedComponents = 0;
      for (const [a, anim] of anims.entries()) {
        expect(md5AnimEngineLimits(anim, mesh)).toEqual([]);
        animatedComponents += anim.componentCount;
        poser.setAnim(anim);
        for (let f = 0; f < anim.frameCount; f++, frames++) {
          await turnIfHeld();
          poser.poseFrame(f, false);
          worst = Math.max(worst, worstDistance(poser.positions, glb.pose(a, f / fps)));
          // the frame's bounds hold the posed vertices (to float32 rounding of the bounds themselves)
          const p = poser.positions, b = anim.bounds, slack = 1e-5 * diag;
          for (let o = 0; o < p.length; o += 3) for (let k = 0; k < 3; k++) {
            expect(p[o + k]).toBeGreaterThanOrEqual(b[6 * f + k] - slack - worst);
            expect(p[o + k]).toBeLessThanOrEqual(b[6 * f + 3 + k] + slack + worst);
          }
        }
      }
      // flags: only components that move are animated, so fewer than 6 per joint per anim
      expect(animatedComponents).toBeGreaterThan(0);
      expect(animatedComponents).toBeLessThan(6 * mesh.joints.count * anims.length);
      console.log(`${label} → md5: ${mesh.joints.count} joints, ${anims.length} anims, ${frames} frames, worst ${(worst / diag).toExponential(2)} × diagonal (${diag.toFixed(2)})`);
      expect(worst / diag).toBeLessThanOrEqual(BOUND);
    });
  }
});

describe('id → glb → id: every real md5mesh (with its md5anims) through toGlb and gltfToMd5', () => {
  const pairs = realAnimPairs();
  for (const row of realMeshes()) {
    it(row.path, async () => {
      const original = parseMd5Mesh(read(row.absPath));
      const named = pairs.filter((p) => p.mesh.path === row.path).map((p) => ({ name: p.anim.path.replace(/^.*\/|\.md5anim$/g, ''), anim: parseMd5Anim(read(p.anim.absPath)) }));
      const glbBytes = await toGlb(original, { anims: named });
      const fps = named[0]?.anim.frameRate ?? 24;
      const imported = await gltfToMd5({ bytes: glbBytes }, { fps });
      const { mesh, anims } = throughText(imported.mesh, imported.anims);
      const roots = Array.from(original.joints.parents).filter((p) => p < 0).length;
      expect(mesh.joints.count).toBe(original.joints.count + (roots > 1 ? 1 : 0));
      expect(mesh.meshes.map((m) => m.triangleCount)).toEqual(original.meshes.filter((m) => m.vertexCount > 0).map((m) => m.triangleCount));
      const before = new Md5Poser(backend, original);
      const after = new Md5Poser(backend, mesh);
      const glb = await gltfPoser(glbBytes);
      const diag = diagonal(before.poseBind(false).positions) || 1;
      // The glb keeps at most 4 influences a vertex (docs/gltf.md): against the glb, always; against the
      // original where nothing was dropped.
      let worstGlb = worstDistance(after.poseBind(false).positions, glb.pose(-1, 0));
      let worstOriginal = 0;
      const exact = original.meshes.every((m) => Array.from(m.weightCount).every((c) => c <= 4));
      if (exact) worstOriginal = worstDistance(after.positions, before.positions);
      for (const [a, anim] of anims.entries()) {
        expect(anim.frameCount).toBe(named[a].anim.frameCount);
        before.setAnim(named[a].anim);
        after.setAnim(anim);
        for (let f = 0; f < anim.frameCount; f++) {
          await turnIfHeld();
          after.poseFrame(f, false);
          worstGlb = Math.max(worstGlb, worstDistance(after.positions, glb.pose(a, f / fps)));
          if (exact) worstOriginal = Math.max(worstOriginal, worstDistance(after.positions, before.poseFrame(f, false).positions));
        }
      }
      const bound = named.some((n) => reachesHalfTurn(n.anim)) ? HALF_TURN_BOUND : BOUND;
      console.log(`${row.path}: ${anims.length} anims, worst ${(worstGlb / diag).toExponential(2)} × diagonal vs the glb${exact ? `, ${(worstOriginal / diag).toExponential(2)} vs the original` : ' (a vertex has > 4 weights: the glb dropped some)'} (bound ${bound})`);
      expect(worstGlb / diag).toBeLessThanOrEqual(bound);
      expect(worstOriginal / diag).toBeLessThanOrEqual(bound);
    });
  }
});

describe('gltfToMd5: what MD5 cannot hold', () => {
  it('AnimatedMorphCube (morph targets only): one rigid joint, GLTF_MORPH_DROPPED, the rest pose', async () => {
    const dir = join(SHARED_MODELS, 'gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF');
    const r = await gltfToMd5({ bytes: read(join(dir, 'AnimatedMorphCube.gltf')), resources: { 'AnimatedMorphCube.bin': read(join(dir, 'AnimatedMorphCube.bin')) } });
    expect(r.warnings.map((w) => w.code)).toContain('GLTF_MORPH_DROPPED');
    expect(r.mesh.joints.count).toBe(1);
    expect(r.mesh.meshes[0].weightTotal).toBe(r.mesh.meshes[0].vertexCount);
    const back = parseMd5Mesh(writeMd5Mesh(r.mesh));
    expect(back.meshes[0].vertexCount).toBe(r.mesh.meshes[0].vertexCount);
  });

  it('native assimp reads the md5mesh written from CesiumMan with its vertex and face counts', async () => {
    const r = await gltfToMd5({ bytes: read(join(SHARED_MODELS, SAMPLES[1][1])) });
    const dir = mkdtempSync(join(tmpdir(), 'idtech-md5-'));
    const file = join(dir, 'cesium.md5mesh');
    writeFileSync(file, writeMd5Mesh(r.mesh));
    const faces = r.mesh.meshes.reduce((n, m) => n + m.triangleCount, 0);
    expect(await assimpInfo(file)).toMatch(new RegExp(`Faces:\\s+${faces}\\b`));
  });
});

describe('md5QuaternionXyz: the float32 x y z whose recovered w gives the rotation nearest q', () => {
  /** sin of half the angle between unit q and (x, y, z, recovered w) normalised. */
  const gap = (q: number[], x: number, y: number, z: number) => {
    const w = recoverW(x, y, z);
    const s = q[3] > 0 ? -1 : 1; // compare with q's w ≤ 0 twin
    const [a, b, c, d] = q.map((v) => v * s);
    return Math.hypot(d * x - w * a - (b * z - c * y), d * y - w * b - (c * x - a * z), d * z - w * c - (a * y - b * x)) / Math.hypot(x, y, z, w);
  };
  it('is never farther than rounding each component, and nearer on many rotations near a half turn (its worst gap smaller)', () => {
    let nearer = 0, runs = 0;
    let worstPlain = 0, worstOurs = 0;
    fc.assert(
      fc.property(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true })), ([x, y, z, w]) => {
        const len = Math.hypot(x, y, z, w);
        fc.pre(len > 0.1);
        const q = [x / len, y / len, z / len, w / len] as [number, number, number, number];
        const plain = gap(q, Math.fround(q[0] * (q[3] > 0 ? -1 : 1)), Math.fround(q[1] * (q[3] > 0 ? -1 : 1)), Math.fround(q[2] * (q[3] > 0 ? -1 : 1)));
        const ours = gap(q, ...md5QuaternionXyz(q));
        worstPlain = Math.max(worstPlain, plain);
        worstOurs = Math.max(worstOurs, ours);
        runs++;
        if (ours < plain) nearer++;
        return ours <= plain;
      }),
      { numRuns: 2000, seed: 17 },
    );
    console.log(`near a half turn (|w| < 0.05): worst rotation gap ${worstPlain.toExponential(2)} rounding each component, ${worstOurs.toExponential(2)} searched; nearer on ${nearer} of ${runs}`);
    expect(worstOurs).toBeLessThan(worstPlain);
    expect(nearer).toBeGreaterThan(runs / 10);
  });
});

describe('gltfToMd5 / gltfToMd2: bounded before sampling', () => {
  it('maxBytes: a sampling past it is UNWRITABLE naming frames, joints or vertices and the limit (maxImportBytes)', async () => {
    const bytes = read(join(SHARED_MODELS, SAMPLES[0][1]));
    // Fox at 24 fps: 129 frames × (24 joints × 48 + 1728 vertices × 4) = 1,040,256 bytes
    await expect(gltfToMd5({ bytes }, { fps: 24, maxBytes: 100_000 })).rejects.toMatchObject({ code: 'UNWRITABLE', detail: expect.stringMatching(/^129 frames of 24 joints \(48 bytes each\) and 1728 vertices \(4 bytes each\) are 1040256 bytes to sample: over the limit maxImportBytes = 100000 \(raise it with --limit maxImportBytes=N/) });
    await expect(gltfToMd2({ bytes }, { fps: 10, maxBytes: 100_000 })).rejects.toMatchObject({ code: 'UNWRITABLE', detail: expect.stringMatching(/^55 frames of 1728 vertices \(4 bytes each\) of MD2 frames are 380160 bytes to sample: over the limit maxImportBytes = 100000 /) });
    await expect(gltfToMd5({ bytes }, { fps: 24, maxFrames: 100 })).rejects.toMatchObject({ code: 'UNWRITABLE', detail: expect.stringMatching(/ at 24 fps that makes \d+ frames in all: over the limit maxImportFrames = 100 /) });
    // the input's limits are the same bound, and the defaults let Fox through
    await expect(gltfToMd5({ bytes, limits: { maxImportBytes: 1_040_255 } }, { fps: 24 })).rejects.toMatchObject({ detail: expect.stringMatching(/over the limit maxImportBytes = 1040255 /) });
    expect((await gltfToMd5({ bytes, limits: { maxImportBytes: 1_040_256 } }, { fps: 24 })).anims.reduce((n, a) => n + a.anim.frameCount, 0)).toBe(129);
  });
});
