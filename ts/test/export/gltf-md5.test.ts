/**
 * MD5 → glTF on every real model: the Khronos validator finds 0 errors, and the glTF, evaluated by our own
 * spec-based reader (gltf-eval.ts, no code shared with the exporter), reproduces `Md5Poser`'s frames.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { buildGltf, gltfFiles, toGlb, toGltf } from '../../src/registry/gltf.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { Md5Mesh } from '../../src/base/model.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { diagonal } from '../helpers/compare.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { read, realAnimPairs, realMeshes, renamedAnimPairs } from '../helpers/models.js';
import { gltfPositions, readAccessor, readGlb, yUp, type Gltf } from './gltf-eval.js';
import { expectClean as expectCleanIn, summaryLine, validate } from './validate.js';

const baseName = (p: string) => p.split('/').pop()!.replace(/\.[^.]+$/, '');
const results: string[] = [];
const expectClean = (name: string, s: Awaited<ReturnType<typeof validate>>) => expectCleanIn(results, name, s);
afterAll(() => console.log(`glTF validator, MD5:\n  ${results.join('\n  ')}`));

/** Per vertex (file order, all meshes): does it have at most 4 distinct joints? */
function fourOrFewerJoints(mesh: Md5Mesh): boolean[] {
  const out: boolean[] = [];
  for (const m of mesh.meshes) {
    for (let v = 0; v < m.vertexCount; v++) {
      const js = new Set<number>();
      for (let w = m.weightStart[v]; w < m.weightStart[v] + m.weightCount[v]; w++) js.add(m.weightJoints[w]);
      out.push(js.size <= 4);
    }
  }
  return out;
}

/** Largest distance between matching vertices, separately over `exact` vertices and the others. */
function vertexError(a: ArrayLike<number>, b: ArrayLike<number>, exact: boolean[]): { exact: number; others: number } {
  expect(a.length).toBe(b.length);
  let e = 0, o = 0;
  for (let v = 0; v < a.length / 3; v++) {
    const d = Math.hypot(a[v * 3] - b[v * 3], a[v * 3 + 1] - b[v * 3 + 1], a[v * 3 + 2] - b[v * 3 + 2]);
    if (!(d <= (exact[v] ? e : o))) exact[v] ? (e = d) : (o = d); // NaN becomes the error
  }
  return { exact: e, others: o };
}

/** A valid 1×1 RGB PNG (PNG spec: signature, IHDR, IDAT = zlib(filter 0 + pixel), IEND, CRC-32 per chunk). */
function onePixelPng(): Uint8Array {
  const crc = (bytes: Uint8Array) => {
    let c = ~0;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    dv.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', new Uint8Array(deflateSync(new Uint8Array([0, 200, 100, 50])))), chunk('IEND', new Uint8Array(0))];
  return new Uint8Array(parts.flatMap((p) => Array.from(p)));
}

describe('every real md5mesh, bind pose', () => {
  for (const row of realMeshes()) {
    it(`${row.path}: validator 0 errors; the glTF at rest is the poser's bind pose`, async () => {
      const mesh = parseMd5Mesh(read(row.absPath));
      const glb = await toGlb(mesh, { name: baseName(row.path) });
      expectClean(row.path, await validate(glb));

      const poser = new Md5Poser(createTsBackend(), mesh);
      poser.poseBind();
      const ours = yUp(poser.positions);
      const theirs = gltfPositions(readGlb(glb), null, 0);
      const err = vertexError(theirs, ours, fourOrFewerJoints(mesh));
      // 1e-4 × diagonal: the project's parity tolerance (docs/design.md)
      expect(err.exact).toBeLessThanOrEqual(1e-4 * diagonal(poser.positions));
    });
  }
});

describe('every real md5mesh with each of its md5anims', () => {
  for (const pair of realAnimPairs()) {
    it(`${pair.anim.path}: validator 0 errors; every frame and every half frame equals the poser's`, async () => {
      const mesh = parseMd5Mesh(read(pair.mesh.absPath));
      const anim = parseMd5Anim(read(pair.anim.absPath));
      const glb = await toGlb(mesh, { anims: [{ name: baseName(pair.anim.path), anim }] });
      expectClean(`${pair.mesh.path} + ${baseName(pair.anim.path)}`, await validate(glb));

      const g = readGlb(glb);
      expect(g.json.animations.map((a: any) => a.name)).toEqual([baseName(pair.anim.path)]);
      const poser = new Md5Poser(createTsBackend(), mesh);
      poser.setAnim(anim);
      const exact = fourOrFewerJoints(mesh);
      let worst = 0, worstOthers = 0;
      for (let f = 0; f < anim.frameCount; f++) {
        await turnIfHeld();
        poser.poseFrame(f);
        const tol = 1e-4 * diagonal(poser.positions);
        const err = vertexError(gltfPositions(g, 0, f / anim.frameRate), yUp(poser.positions), exact);
        expect(err.exact, `frame ${f}`).toBeLessThanOrEqual(tol);
        worst = Math.max(worst, err.exact / tol);
        worstOthers = Math.max(worstOthers, err.others / tol);
        if (f + 1 < anim.frameCount) {
          // between keys: glTF LINEAR (lerp + slerp of local TRS) is the engine's interpolation
          poser.poseBlend(f, f + 1, 0.5);
          const mid = vertexError(gltfPositions(g, 0, (f + 0.5) / anim.frameRate), yUp(poser.positions), exact);
          expect(mid.exact, `frame ${f}.5`).toBeLessThanOrEqual(tol);
          worst = Math.max(worst, mid.exact / tol);
        }
      }
      results.push(`  round trip ${baseName(pair.anim.path)}: ${anim.frameCount} frames, worst error ${worst.toFixed(3)} × tolerance (≤ 4 joints), ${worstOthers.toFixed(3)} × on the others`);
    });
  }

  it('all anims of a mesh in one file: one animation per anim, named after its file, 0 errors', async () => {
    const byMesh = new Map<string, typeof realAnimPairs extends () => (infer T)[] ? T[] : never>();
    for (const p of realAnimPairs()) byMesh.set(p.mesh.path, [...(byMesh.get(p.mesh.path) ?? []), p]);
    for (const [meshPath, pairs] of byMesh) {
      const mesh = parseMd5Mesh(read(pairs[0].mesh.absPath));
      const anims = pairs.map((p) => ({ name: baseName(p.anim.path), anim: parseMd5Anim(read(p.anim.absPath)) }));
      const glb = await toGlb(mesh, { anims });
      expectClean(`${meshPath} + all ${anims.length} anims`, await validate(glb));
      const g = readGlb(glb);
      expect(g.json.animations.map((a: any) => a.name)).toEqual(anims.map((a) => a.name));
      // one translation and one rotation channel per joint, keys at i / frameRate
      g.json.animations.forEach((a: any, i: number) => {
        expect(a.channels).toHaveLength(2 * mesh.joints.count);
        const times = readAccessor(g, a.samplers[0].input).values;
        expect(times).toHaveLength(anims[i].anim.frameCount);
        expect(times[times.length - 1]).toBeCloseTo((anims[i].anim.frameCount - 1) / anims[i].anim.frameRate, 5);
      });
    }
  });
});

describe('mapping details', () => {
  const cube = () => parseMd5Mesh(read(realMeshes().find((r) => r.path.endsWith('SimpleCube.md5mesh'))!.absPath));

  it('faces wind counter-clockwise seen from outside: a closed mesh has positive signed volume', async () => {
    // SimpleCube is closed; docs/real-data.md measured its file-order signed volume as negative (clockwise)
    const g = readGlb(await toGlb(cube()));
    const p = readAccessor(g, g.json.meshes[0].primitives[0].attributes.POSITION).values;
    const idx = readAccessor(g, g.json.meshes[0].primitives[0].indices).values;
    let vol = 0;
    for (let t = 0; t < idx.length; t += 3) {
      const [a, b, c] = [idx[t] * 3, idx[t + 1] * 3, idx[t + 2] * 3];
      vol += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6;
    }
    expect(vol).toBeGreaterThan(0);
  });

  it('normals point out of the closed cube (outward: dot with the offset from the centre > 0)', async () => {
    const g = readGlb(await toGlb(cube()));
    const prim = g.json.meshes[0].primitives[0];
    const p = readAccessor(g, prim.attributes.POSITION).values;
    const n = readAccessor(g, prim.attributes.NORMAL).values;
    const c = [0, 1, 2].map((k) => (g.json.accessors[prim.attributes.POSITION].min[k] + g.json.accessors[prim.attributes.POSITION].max[k]) / 2);
    for (let v = 0; v < p.length / 3; v++) {
      const d = (p[v * 3] - c[0]) * n[v * 3] + (p[v * 3 + 1] - c[1]) * n[v * 3 + 1] + (p[v * 3 + 2] - c[2]) * n[v * 3 + 2];
      expect(d).toBeGreaterThan(0);
    }
  });

  it("texture coordinates are the file's (Doom 3's t grows downward, as glTF's does)", async () => {
    const mesh = cube();
    const g = readGlb(await toGlb(mesh));
    const uv = readAccessor(g, g.json.meshes[0].primitives[0].attributes.TEXCOORD_0).values;
    expect(Array.from(uv)).toEqual(Array.from(mesh.meshes[0].uvs));
  });

  it('Y up: the glTF bind box is the file box with (x, y, z) → (x, z, −y); yUp: false keeps Z up', async () => {
    const mesh = cube();
    const poser = new Md5Poser(createTsBackend(), mesh);
    poser.poseBind();
    const box = (p: ArrayLike<number>) => [0, 1, 2].map((k) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = k; i < p.length; i += 3) (lo = Math.min(lo, p[i])), (hi = Math.max(hi, p[i]));
      return [lo, hi];
    });
    const idBox = box(poser.positions);
    const up = readGlb(await toGlb(mesh)), keep = readGlb(await toGlb(mesh, { yUp: false }));
    const acc = (g: Gltf) => g.json.accessors[g.json.meshes[0].primitives[0].attributes.POSITION];
    expect(acc(up).min).toEqual([idBox[0][0], idBox[2][0], -idBox[1][1]].map(Math.fround));
    expect(acc(up).max).toEqual([idBox[0][1], idBox[2][1], -idBox[1][0]].map(Math.fround));
    expect(acc(keep).min).toEqual(idBox.map((r) => r[0]));
  });

  it('materials are named after the shaders; a texture folder turns them into image URIs', async () => {
    const row = realMeshes().find((r) => r.path.endsWith('rifle_view.md5mesh'))!;
    const mesh = parseMd5Mesh(read(row.absPath));
    const plain = readGlb(await toGlb(mesh)).json;
    // shaders from the MANIFEST: models/weapons/rifle/rifle, models/weapons/hand, models/weapons/hand
    expect(plain.materials.map((m: any) => m.name)).toEqual(['models/weapons/rifle/rifle', 'models/weapons/hand']);
    expect(plain.meshes.map((m: any) => m.primitives[0].material)).toEqual([0, 1, 1]);
    expect(plain.images).toBeUndefined();
    expect(readGlb(await toGlb(mesh, { textureFolder: 'tex/', textureExtension: '.jpg' })).json.images.map((i: any) => i.uri)).toEqual(['tex/rifle.jpg', 'tex/hand.jpg']);
    const glb = await toGlb(mesh, { textureFolder: 'textures/rifle' });
    const textured = readGlb(glb).json;
    expect(textured.images.map((i: any) => i.uri)).toEqual(['textures/rifle/rifle.png', 'textures/rifle/hand.png']);
    expect(textured.materials[1].pbrMetallicRoughness.baseColorTexture.index).toBe(1);
    // the validator loads each image: hand it a real 1×1 PNG for every URI we wrote
    const s = await validate(glb, { externalResourceFunction: (uri: string) => (uri.startsWith('textures/rifle/') ? Promise.resolve(onePixelPng()) : Promise.reject(new Error(uri))) });
    expectClean(`${row.path} with textureFolder`, s);
  });

  it('.gltf + .bin: the same document with an external buffer, 0 errors', async () => {
    const row = realAnimPairs()[0];
    const mesh = parseMd5Mesh(read(row.mesh.absPath));
    const anims = [{ name: 'a', anim: parseMd5Anim(read(row.anim.absPath)) }];
    const files = await gltfFiles(mesh, 'out/drone.gltf', { anims });
    expect(files.map((f) => f.path)).toEqual(['out/drone.gltf', 'out/drone.bin']);
    const json = JSON.parse(new TextDecoder().decode(files[0].bytes));
    expect(json.buffers).toEqual([{ byteLength: files[1].bytes.byteLength, uri: 'drone.bin' }]);
    const s = await validate(files[0].bytes, { externalResourceFunction: (uri: string) => (uri === 'drone.bin' ? Promise.resolve(files[1].bytes) : Promise.reject(new Error(uri))) });
    expectClean(`${row.mesh.path} as .gltf + .bin`, s);
    // same bytes as the GLB's BIN chunk
    expect(Array.from(readGlb(await toGlb(mesh, { anims })).bin)).toEqual(Array.from(files[1].bytes));
    expect((await toGltf(mesh)).json).toContain('"uri": "model.bin"');
    await expect(gltfFiles(mesh, 'x.obj')).rejects.toThrow(RangeError);
  });

  it('an anim of another skeleton is ANIM_MESH_MISMATCH', async () => {
    const pairs = realAnimPairs();
    const rifle = pairs.find((p) => p.mesh.path.endsWith('rifle_view.md5mesh'))!;
    const drone = pairs.find((p) => p.mesh.path.endsWith('drone/mesh.md5mesh'))!;
    const mesh = parseMd5Mesh(read(rifle.mesh.absPath));
    const anim = parseMd5Anim(read(drone.anim.absPath));
    let err: unknown;
    try {
      await toGlb(mesh, { anims: [{ name: 'x', anim }] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelParseError);
    expect((err as ModelParseError).code).toBe(ErrorCode.AnimMeshMismatch);
  });

  // Unvanquished's walk and jump on the naked human name some joints otherwise (MANIFEST: "the mesh says …"): played by
  // joint index, as Daemon plays them, with a warning naming the joint.
  for (const { anim, mesh } of renamedAnimPairs()) {
    it(`${anim.path.split('/').pop()} on ${mesh.path.split('/').pop()}, joint names differing, exports with an ENGINE_LIMIT warning at the joint the MANIFEST names`, async () => {
      const m = parseMd5Mesh(read(mesh.absPath));
      const a = parseMd5Anim(read(anim.absPath));
      const warnings: { code: string; message: string }[] = [];
      const g = readGlb(await toGlb(m, { anims: [{ name: 'x', anim: a }], warnings: warnings as never }));
      expect(g.json.animations.map((x: { name: string }) => x.name)).toEqual(['x']);
      const joint = /joints? (\d+)/.exec(anim.notes)![1];
      expect(warnings.filter((w) => w.code === 'ENGINE_LIMIT').map((w) => w.message)).toContainEqual(expect.stringMatching(new RegExp(`^joint ${joint} is "[^"]+" in .* but "[^"]+" in the mesh: Daemon plays it by joint index`)));
    });
  }
});

describe('more than 4 joints per vertex (hand-written md5mesh)', () => {
  // A chain of 6 joints along +X, 1 unit apart, no rotation. Vertex 0 sits at P = (2, 1, 0.5) in the bind
  // pose; every weight's position is P in its joint's space (P − joint origin), so all weights agree.
  // Vertex 0's weights: joint 0 ×0.05, joint 1 ×0.30, joint 2 ×0.10, joint 3 ×0.25, joint 4 ×0.20,
  // joint 1 again ×0.05, joint 5 ×0.05. Distinct joints: 6 (joint 1 merges to 0.35). Kept by size:
  // 1 (0.35), 3 (0.25), 4 (0.20), 2 (0.10) → total 0.90; dropped 0.10 of 1.00 = 10%.
  const joints = [0, 1, 2, 3, 4, 5].map((j) => `\t"j${j}" ${j - 1} ( ${j} 0 0 ) ( 0 0 0 )`).join('\n');
  const w = (i: number, j: number, b: number) => `\tweight ${i} ${j} ${b} ( ${2 - j} 1 0.5 )`;
  const text = `MD5Version 10\ncommandline ""\nnumJoints 6\nnumMeshes 1\njoints {\n${joints}\n}\nmesh {\n\tshader "s"\n\tnumverts 3\n` +
    `\tvert 0 ( 0 0 ) 0 7\n\tvert 1 ( 1 0 ) 7 1\n\tvert 2 ( 0 1 ) 8 1\n\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 9\n` +
    [w(0, 0, 0.05), w(1, 1, 0.3), w(2, 2, 0.1), w(3, 3, 0.25), w(4, 4, 0.2), w(5, 1, 0.05), w(6, 5, 0.05)].join('\n') +
    `\n\tweight 7 0 1 ( 0 0 0 )\n\tweight 8 5 1 ( 0 0 1 )\n}\n`;

  it('keeps the 4 largest merged influences, renormalised, and reports the vertex', async () => {
    const mesh = parseMd5Mesh(new TextEncoder().encode(text));
    const warnings: { code: string; message: string }[] = [];
    const r = await buildGltf(mesh, { warnings: warnings as never });
    expect(r.md5).toEqual({ verticesLostWeight: 1, maxLostWeight: expect.closeTo(0.1, 6), jointsPerVertex: [2, 0, 0, 0, 0, 1] });
    expect(warnings.map((x) => x.code)).toEqual(['WEIGHTS_DROPPED']);
    const g = readGlb(r.builder.glb());
    const prim = g.json.meshes[0].primitives[0];
    const js = readAccessor(g, prim.attributes.JOINTS_0).values;
    const ws = readAccessor(g, prim.attributes.WEIGHTS_0).values;
    expect(Array.from(js.subarray(0, 4))).toEqual([1, 3, 4, 2]);
    [0.35 / 0.9, 0.25 / 0.9, 0.2 / 0.9, 0.1 / 0.9].forEach((x, k) => expect(ws[k]).toBeCloseTo(x, 6));
    expect(Array.from(js.subarray(4))).toEqual([0, 0, 0, 0, 5, 0, 0, 0]);
    expect(Array.from(ws.subarray(4))).toEqual([1, 0, 0, 0, 1, 0, 0, 0]);
    // consistent weights: at rest the renormalised skin still puts vertex 0 at P, in Y-up (2, 0.5, −1)
    const p = gltfPositions(g, null, 0);
    [2, 0.5, -1].forEach((x, k) => expect(p[k]).toBeCloseTo(x, 5));
    expectClean('hand-written 6-joint vertex', await validate(r.builder.glb()));
  });
});
