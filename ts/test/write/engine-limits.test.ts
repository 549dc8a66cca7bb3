/**
 * The writers' `validate` option and the engine checks behind `convert --validate`: on every real file of the corpus
 * a file is refused exactly when our parser's audit of the engine (ENGINE_LIMIT) finds a limit past, naming it;
 * MD5 anims are checked alone and against the mesh they are played on (Doom 3's CheckModelHierarchy). And
 * `splitMd3Surfaces`: a glTF model past ioquake3's tessellator limits cut into surfaces that fit, the same triangles
 * (every corner's position, normal and st at every frame, in their winding); property-tested on random surfaces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import type { Md3Surface } from '../../src/base/model.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { gltfToMd3 } from '../../src/formats/md3/from-gltf.js';
import { md3EngineLimits } from '../../src/formats/md3/write-limits.js';
import { md5AnimEngineLimits, md5MeshEngineLimits } from '../../src/formats/md5/write-limits.js';
import { writeMd2 } from '../../src/formats/md2/write.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { splitMd3Surface, splitMd3Surfaces } from '../../src/formats/md3/write-split.js';
import { writeMd5Anim } from '../../src/formats/md5/write-anim.js';
import { writeMd5Mesh } from '../../src/formats/md5/write-mesh.js';
import { shared } from '../helpers/cli.js';
import { read, realAnimPairs, realMeshes, renamedAnimPairs, sameNamePairs } from '../helpers/models.js';
import { goodMd2Rows } from '../md2/_helpers.js';
import { realMd3s } from '../md3/_helpers.js';

function refusal(f: () => unknown): ModelParseError | null {
  try {
    f();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelParseError);
    return e as ModelParseError;
  }
}

describe('validate: the writers refuse exactly what the engine refuses', () => {
  it('every real MD3: refused with validate iff ioquake3 has a limit it goes past, each named', () => {
    let refused = 0;
    for (const row of realMd3s()) {
      const model = parseMd3(row.bytes);
      const limits = model.warnings.filter((w) => w.code === 'ENGINE_LIMIT');
      const e = refusal(() => writeMd3(model, { validate: true }));
      expect(e === null, row.path).toBe(limits.length === 0);
      if (e) {
        refused++;
        expect(e.code).toBe('UNWRITABLE');
        for (const w of limits) expect(e.detail).toContain(w.message);
      }
    }
    console.log(`validate: ${refused} of ${realMd3s().length} real MD3s go past an ioquake3 limit`);
  });

  it('every real MD2: refused with validate iff Quake 2 has a limit it goes past (AssaultCube\'s 512-high skins)', () => {
    let refused = 0;
    const rows = goodMd2Rows();
    for (const row of rows) {
      const model = parseMd2(read(row.absPath));
      const written = parseMd2(writeMd2(model));
      const limits = written.warnings.filter((w) => w.code === 'ENGINE_LIMIT');
      const e = refusal(() => writeMd2(model, { validate: true }));
      expect(e === null, row.path).toBe(limits.length === 0);
      if (e) {
        refused++;
        expect(e.detail).toMatch(/Quake 2 will not load/);
        for (const w of limits) expect(e.detail).toContain(w.message);
      }
    }
    expect(refused).toBeGreaterThan(0); // the corpus has skins past MAX_LBM_HEIGHT
    expect(refused).toBeLessThan(rows.length);
    console.log(`validate: ${refused} of ${rows.length} real MD2s go past a Quake 2 limit`);
  });

  it('every real md5mesh passes, and every real md5anim naming its mesh\'s joints passes on it', () => {
    for (const row of realMeshes()) {
      const mesh = parseMd5Mesh(read(row.absPath));
      expect(md5MeshEngineLimits(mesh), row.path).toEqual([]);
      expect(writeMd5Mesh(mesh, { validate: true }), row.path).toBe(writeMd5Mesh(mesh));
    }
    for (const { anim, mesh } of sameNamePairs()) {
      const a = parseMd5Anim(read(anim.absPath));
      const m = parseMd5Mesh(read(mesh.absPath));
      expect(md5AnimEngineLimits(a, m), anim.path).toEqual([]);
      expect(writeMd5Anim(a, { validate: true, mesh: m })).toBe(writeMd5Anim(a));
    }
  });

  it('an md5anim naming joints otherwise than its mesh (Unvanquished walk, jump): Doom 3\'s name check, at the joint the MANIFEST names', () => {
    const pairs = renamedAnimPairs();
    expect(pairs.length).toBeGreaterThan(0);
    for (const { anim, mesh } of pairs) {
      const limits = md5AnimEngineLimits(parseMd5Anim(read(anim.absPath)), parseMd5Mesh(read(mesh.absPath)));
      expect(limits.length, anim.path).toBeGreaterThan(0);
      const joint = /joints? (\d+)/.exec(anim.notes)![1];
      expect(limits[0].message, anim.path).toMatch(new RegExp(`joint ${joint} is ".*", the md5mesh's ".*".*joint names don't match`));
    }
  });

  it('an md5anim played on another mesh, with a second root or a fractional frame rate: Doom 3\'s refusals, named', () => {
    const pairs = realAnimPairs();
    const { anim, mesh } = pairs[0];
    const a = parseMd5Anim(read(anim.absPath));
    const other = realMeshes().map((r) => parseMd5Mesh(read(r.absPath))).find((m) => m.joints.count !== a.jointCount)!;
    const e = refusal(() => writeMd5Anim(a, { validate: true, mesh: other }));
    expect(e?.code).toBe('UNWRITABLE');
    expect(e?.detail).toMatch(new RegExp(`has ${a.jointCount} joints, the md5mesh ${other.joints.count}: .*CheckModelHierarchy`));

    const m = parseMd5Mesh(read(mesh.absPath));
    const renamed = { ...m, joints: { ...m.joints, names: m.joints.names.map((n, j) => (j === 1 ? `${n}_x` : n)) } };
    expect(md5AnimEngineLimits(a, renamed)[0].message).toMatch(/joint 1 is ".*", the md5mesh's ".*_x".*joint names don't match/);

    const twoRoots = { ...a, parents: a.parents.map((p, j) => (j === 1 ? -1 : p)) };
    expect(md5AnimEngineLimits(twoRoots)[0].message).toMatch(/joint 1 .* second root.*only one root joint/);
    const fractional = { ...a, frameRate: 24.5 };
    expect(md5AnimEngineLimits(fractional)[0].message).toMatch(/frameRate 24\.5: Doom 3 reads it with ParseInt, as 24/);
    // without validate the writer still writes them (the format holds them)
    expect(parseMd5Anim(writeMd5Anim(fractional)).frameRate).toBe(24.5);
  });

  it('an md5mesh vertex without weights or a weight on a missing joint: refused with validate, named', () => {
    const m = parseMd5Mesh(read(shared('assimp/test/models/MD5/SimpleCube.md5mesh')));
    const part = m.meshes[0];
    const noWeights = { ...m, meshes: [{ ...part, weightCount: part.weightCount.map((c, v) => (v === 2 ? 0 : c)) }] };
    expect(refusal(() => writeMd5Mesh(noWeights, { validate: true }))?.detail).toMatch(/mesh 0 vertex 2 has no weights: .*Vertex without any joint weights/);
    const badJoint = { ...m, meshes: [{ ...part, weightJoints: part.weightJoints.map((j, w) => (w === 0 ? m.joints.count : j)) }] };
    expect(md5MeshEngineLimits(badJoint)[0].message).toMatch(new RegExp(`weight 0 is on joint ${m.joints.count} of ${m.joints.count}`));
  });
});

/** Every triangle of `surfaces` at frame f as its three corners (x y z normal s t each, in winding order), sorted. */
function corners(surfaces: Md3Surface[], frame: number): string[] {
  const out: string[] = [];
  for (const s of surfaces) {
    for (let t = 0; t < s.triangleCount; t++) {
      const c: number[] = [];
      for (let k = 0; k < 3; k++) {
        const v = s.triangles[3 * t + k];
        const o = 4 * (s.vertexCount * frame + v);
        c.push(s.xyzNormals[o], s.xyzNormals[o + 1], s.xyzNormals[o + 2], s.xyzNormals[o + 3], s.st[2 * v], s.st[2 * v + 1]);
      }
      out.push(c.join(' '));
    }
  }
  return out.sort();
}

describe('splitMd3Surfaces: surfaces past the tessellator limits cut into ones ioquake3 draws', () => {
  it('CesiumMan (3273 vertices, 4672 triangles in one surface): refused by validate, split into pieces that fit, same corners at every frame', async () => {
    const model = await gltfToMd3({ bytes: read(shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb')) }, { fps: 5 });
    expect(model.surfaces[0].vertexCount).toBe(3273);
    const e = refusal(() => writeMd3(model, { validate: true }));
    expect(e?.detail).toMatch(/numVerts 3273: ioquake3 refuses the model \(R_LoadMD3: numVerts >= SHADER_MAX_VERTEXES 1000\)/);
    expect(e?.detail).toMatch(/numTriangles 4672: ioquake3 refuses the model/);

    const split = splitMd3Surfaces(model);
    expect(split.surfaces.length).toBeGreaterThanOrEqual(4); // 3273 vertices need 4 pieces of ≤ 999 at least
    for (const s of split.surfaces) {
      expect(s.vertexCount).toBeLessThan(1000);
      expect(3 * s.triangleCount).toBeLessThan(6000);
      expect(s.name).toBe(model.surfaces[0].name); // .skin files still name it
      expect(s.shaders).toEqual(model.surfaces[0].shaders);
    }
    const back = parseMd3(writeMd3(split, { validate: true }));
    expect(md3EngineLimits(writeMd3(split))).toEqual([]);
    for (let f = 0; f < model.frameCount; f++) expect(corners(back.surfaces, f)).toEqual(corners(model.surfaces, f));
    console.log(`split CesiumMan: 1 surface → ${split.surfaces.length}, vertices ${model.surfaces[0].vertexCount} → ${split.surfaces.reduce((n, s) => n + s.vertexCount, 0)} (shared at the cuts)`);
  });

  it('random surfaces and limits: every piece within them, every triangle kept with its corners and winding (property)', () => {
    const surface = fc.integer({ min: 3, max: 40 }).chain((vertexCount) =>
      fc.record({
        vertexCount: fc.constant(vertexCount),
        frames: fc.integer({ min: 1, max: 3 }),
        triangles: fc.array(fc.tuple(fc.nat(vertexCount - 1), fc.nat(vertexCount - 1), fc.nat(vertexCount - 1)), { minLength: 1, maxLength: 60 }),
        maxVertices: fc.integer({ min: 3, max: 50 }),
        maxTriangles: fc.integer({ min: 1, max: 70 }),
        seed: fc.integer(),
      }),
    );
    fc.assert(
      fc.property(surface, ({ vertexCount, frames, triangles, maxVertices, maxTriangles, seed }) => {
        const s: Md3Surface = {
          name: 'body',
          flags: 0,
          vertexCount,
          triangleCount: triangles.length,
          shaders: [{ name: 'models/x/body', index: 0 }],
          triangles: Uint32Array.from(triangles.flat()),
          st: Float32Array.from({ length: 2 * vertexCount }, (_, i) => (i * 0.37 + seed) % 1),
          xyzNormals: Int16Array.from({ length: 4 * vertexCount * frames }, (_, i) => ((i * 7919 + seed) % 65536) - 32768),
        };
        const pieces = splitMd3Surface(s, frames, { maxVertices, maxTriangles });
        for (const p of pieces) {
          expect(p.vertexCount).toBeLessThanOrEqual(maxVertices);
          expect(p.triangleCount).toBeLessThanOrEqual(maxTriangles);
          expect(p.triangleCount).toBeGreaterThan(0);
          for (const v of p.triangles) expect(v).toBeLessThan(p.vertexCount);
        }
        for (let f = 0; f < frames; f++) expect(corners(pieces, f)).toEqual(corners([s], f));
      }),
      { numRuns: 300 },
    );
  });
});
