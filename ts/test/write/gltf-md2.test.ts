/**
 * glTF → MD2 (gltfToMd2, then writeMd2, read back by parseMd2):
 *
 * - every real MD2 of the corpus → our glb (toGlb) → MD2: the same frames, triangles (in order, each corner's st
 *   exactly), clips and skin; every corner's position at every frame within the bound the two quantisations give
 *   (below), every normal the same anorm; native assimp reads it with the original's counts;
 * - the corpus' glTF samples (skinned Fox and CesiumMan, the morph-target AnimatedMorphCube): every corner at every
 *   sampled frame within half a step of that frame's grid of the glTF's own posed position (id axes);
 * - what MD2 cannot hold is UNWRITABLE, naming it.
 *
 * The position bound, per axis and frame. The default glb's grid is a fifth of the file's finest frame scale
 * (`export/gltf-quantize.ts` md2SourceGrid), fine enough that the import's rounding to each new frame's grid lands
 * back on the original's bytes: every corner at every frame within half of that frame's own step (plus float32
 * rounding, 1e-5 relative), and every byte the original's. The compact glb (`md2Grid: 'box'`: 255 steps over the box
 * of every frame) is within half its step of the original, and the import adds half of the new frame's scale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Md2Model } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { groupClips, md2GlCommandTriangles, parseMd2 } from '../../src/formats/md2/index.js';
import { readGltfDocument, type GltfInput } from '../../src/import/gltf.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { md2FrameNames, nearestMd2Normal } from '../../src/import/quake-frames.js';
import { importGltf } from '../../src/registry/import-gltf.js';
import { restPose } from '../../src/import/gltf-sample.js';
import { posedPrimitive } from '../reference/gltf-pose.js';
import { sampleFrames, sceneNodes, toId, trianglePrimitives } from '../../src/import/gltf-scene.js';
import { writeMd2 } from '../../src/formats/md2/write.js';
import { assimpCounts } from '../helpers/assimp.js';
import { shared } from '../helpers/cli.js';
import { read } from '../helpers/models.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { caught } from './_helpers.js';
import { goodMd2Rows } from '../md2/_helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-gltf-md2-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * `assimp info --raw` counts of `bytes` written as `name` (its own reader, not ours). Raw: without it assimp joins
 * vertices equal at frame 0, and two distinct original vertices can quantise onto one point of the new grid.
 */
function assimpCountsOf(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(mkdtempSync(join(tmp, 'a')), name);
  writeFileSync(path, bytes);
  return assimpCounts(path, '--raw');
}

/** Vertex v of frame f, decoded as Quake 2 does: byte · scale + translate. */
const decode = (m: Md2Model, f: number, v: number, k: number) => m.frameVertices[4 * (m.vertexCount * f + v) + k] * m.frameScales[3 * f + k] + m.frameTranslates[3 * f + k];


describe('gltfToMd2: id MD2 → our glb → MD2 within the two quantisations', () => {
  const measured = { corners: 0, worst: 0, worstUnits: 0, worstSteps: 0, sourceValues: 0, sourceSameBytes: 0, worstBox: 0, worstBoxSteps: 0, worstFloat: 0, floatValues: 0, sameBytes: 0, normals: 0, sameNormals: 0 };
  for (const row of goodMd2Rows()) {
    it(row.path, async () => {
      const model = parseMd2(read(row.absPath));
      const bytes = await roundTrip(model, 'source');
      expect(await assimpCountsOf(basename(row.path), bytes)).toBe(await assimpCountsOf(basename(row.path), read(row.absPath)));
      await roundTrip(model, 'box');
      // a float glb holds the original's positions: only the new grid's half step is left
      await roundTrip(model, 'float');
    });
  }

  /** model → glb (quantised on the default grid or the box's, or float) → MD2 → parsed, checked against `model`; the MD2 bytes. */
  async function roundTrip(model: Md2Model, mode: 'source' | 'box' | 'float'): Promise<Uint8Array> {
    const glb = await toGlb(model, mode === 'float' ? { quantize: false } : { md2Grid: mode });
    const imported = await gltfToMd2({ bytes: glb }, { skinSize: { width: model.skinWidth, height: model.skinHeight } });
    const bytes = writeMd2(imported);
    const back = parseMd2(bytes);
    expect(back.frameCount).toBe(model.frameCount);
    expect(back.triangleCount).toBe(model.triangleCount);
    expect(back.vertexCount).toBeLessThanOrEqual(model.vertexCount);
    expect([back.skinWidth, back.skinHeight]).toEqual([model.skinWidth, model.skinHeight]);
    if (model.skins[0]) expect(back.skins.map((s) => s.name)).toEqual([model.skins[0].name]);
    // one clip per animation of the glb, i.e. per clip of the original, with its frame count
    if (model.frameCount > 1) expect(back.clips.map((c) => c.frameCount)).toEqual(model.clips.map((c) => c.frameCount));
    // the glb grid: 255 steps over the longest side of the box of every frame (any axes: a rotation keeps extents)
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let f = 0; f < model.frameCount; f++) for (let v = 0; v < model.vertexCount; v++) for (let k = 0; k < 3; k++) {
      const p = decode(model, f, v, k);
      lo[k] = Math.min(lo[k], p);
      hi[k] = Math.max(hi[k], p);
    }
    const glbStep = mode === 'box' ? Math.max(...[0, 1, 2].map((k) => hi[k] - lo[k])) / 255 : 0;
    const size = Math.max(...[0, 1, 2].map((k) => Math.max(Math.abs(lo[k]), Math.abs(hi[k]))));
    for (let c = 0; c < 3 * model.triangleCount; c++) {
      await turnIfHeld();
      const s0 = model.triangleStIndices[c], s1 = back.triangleStIndices[c];
      expect([back.st[2 * s1], back.st[2 * s1 + 1]], `corner ${c} st`).toEqual([model.st[2 * s0], model.st[2 * s0 + 1]]);
      const v0 = model.trianglePositionIndices[c], v1 = back.trianglePositionIndices[c];
      for (let f = 0; f < model.frameCount; f++) {
        for (let k = 0; k < 3; k++) {
          const own = model.frameScales[3 * f + k];
          // the default glb: within half the original frame's own step (and its bytes, counted below)
          const bound = mode === 'source' ? own / 2 + 1e-5 * size : glbStep / 2 + back.frameScales[3 * f + k] / 2 + 1e-5 * size;
          const err = Math.abs(decode(back, f, v1, k) - decode(model, f, v0, k));
          if (err > bound) expect.fail(`${mode}: corner ${c} frame ${f} axis ${k}: ${err} past ${bound}`);
          const same = model.frameVertices[4 * (model.vertexCount * f + v0) + k] === back.frameVertices[4 * (back.vertexCount * f + v1) + k];
          if (mode === 'source') {
            measured.worst = Math.max(measured.worst, err / bound);
            measured.worstUnits = Math.max(measured.worstUnits, err);
            if (own > 0) measured.worstSteps = Math.max(measured.worstSteps, err / own);
            measured.sourceValues++;
            if (same) measured.sourceSameBytes++;
          } else if (mode === 'box') {
            measured.worstBox = Math.max(measured.worstBox, err / bound);
            if (own > 0) measured.worstBoxSteps = Math.max(measured.worstBoxSteps, err / own);
          } else {
            measured.worstFloat = Math.max(measured.worstFloat, err / bound);
            measured.floatValues++;
            if (same) measured.sameBytes++;
          }
        }
        if (mode !== 'source') continue;
        measured.normals++;
        if (model.frameVertices[4 * (model.vertexCount * f + v0) + 3] === back.frameVertices[4 * (back.vertexCount * f + v1) + 3]) measured.sameNormals++;
      }
      if (mode === 'source') measured.corners++;
    }
    return bytes;
  }

  it('on the corpus: worst position error against its bound, normals that come back as the same anorm', () => {
    console.log(
      `corpus: ${measured.corners} corners, worst position error ${measured.worstUnits.toFixed(4)} units, ${measured.worstSteps.toFixed(4)} of the original frame's step ` +
        `(${measured.sourceSameBytes} of ${measured.sourceValues} coordinate bytes the original's); the compact 'box' glb: ${measured.worstBoxSteps.toFixed(2)} steps; ` +
        `(${(100 * measured.worstFloat).toPrecision(2)} % of the new half step alone from a float glb, where ${measured.sameBytes} of ${measured.floatValues} coordinate bytes are the original's); ` +
        `${measured.sameNormals} of ${measured.normals} corner normals the same anorm`,
    );
    expect(measured.corners).toBeGreaterThan(0);
    expect(measured.worst).toBeLessThanOrEqual(1);
    expect(measured.sourceSameBytes).toBe(measured.sourceValues);
    expect(measured.worstBox).toBeLessThanOrEqual(1);
    expect(measured.worstFloat).toBeLessThanOrEqual(1);
    // each original frame spans its own 0..255 grid on every axis (qdata's quantisation is the one the import
    // repeats), so from float positions the grid is the same and every byte comes back
    expect(measured.sameBytes).toBe(measured.floatValues);
    expect(measured.sameNormals).toBe(measured.normals);
  });
});

describe('gltfToMd2: the corpus\' glTF samples', () => {
  const samples: [string, string[]][] = [
    ['gltf-samples/bevy/assets/models/animated/Fox.glb', []],
    ['gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf', ['AnimatedMorphCube.bin']],
  ];
  for (const [path, resources] of samples) {
    it(`${path}: every corner at every frame within half a step of that frame's grid; assimp reads every face`, async () => {
      const input: GltfInput = { bytes: read(shared(path)), resources: Object.fromEntries(resources.map((r) => [r, read(shared(path.replace(/[^/]+$/, r)))])) };
      const imported = await gltfToMd2(input, { fps: 10 });
      const bytes = writeMd2(imported);
      const back = parseMd2(bytes);
      // the glTF posed at the same times, independently of the import's merging and quantisation
      const doc = await readGltfDocument(input);
      const nodes = sceneNodes(doc);
      const prims = trianglePrimitives(nodes, []);
      const frames = sampleFrames(doc, 10);
      expect(back.frameCount).toBe(frames.length);
      expect(back.triangleCount).toBe(prims.reduce((n, p) => n + p.triangles.length / 3, 0));
      expect(back.clips.length).toBe(Math.max(1, doc.getRoot().listAnimations().length));
      const rest = restPose(nodes);
      let worst = 0;
      frames.forEach((frame, f) => {
        rest.restore();
        frame.play?.(frame.time);
        let c = 0;
        for (const p of prims) {
          const { positions } = posedPrimitive(p.node, p.mesh, p.prim);
          for (const v of p.triangles) {
            const want = toId(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
            const xyz = back.trianglePositionIndices[c++];
            for (let k = 0; k < 3; k++) {
              const half = back.frameScales[3 * f + k] / 2;
              const err = Math.abs(decode(back, f, xyz, k) - want[k]);
              worst = Math.max(worst, err / half);
              if (err > half * (1 + 1e-4) + 1e-6) expect.fail(`frame ${f} corner ${c - 1} axis ${k}: ${err} past half a step ${half}`);
            }
          }
        }
      });
      console.log(`${path}: ${back.frameCount} frames, ${back.vertexCount} vertices (from ${prims.reduce((n, p) => n + p.vertexCount, 0)} glTF vertices), ${back.stCount} st, ${back.triangleCount} triangles, ${back.glCommands!.commandCount} glcmds; worst ${(100 * worst).toFixed(1)} % of half a step`);
      expect(md2GlCommandTriangles(back.glCommands!).length, 'glcmds written for the import: one triangle each').toBe(3 * back.triangleCount);
      expect(await assimpCountsOf('model.md2', bytes)).toBe(`meshes 1 vertices ${3 * back.triangleCount} faces ${back.triangleCount}`);
    });
  }

  it('Fox: the skin is the material (its texture has no uri or name), st in pixels of the texture\'s own 1024 × 1024', async () => {
    const input = { bytes: read(shared('gltf-samples/bevy/assets/models/animated/Fox.glb')) };
    const model = await gltfToMd2(input);
    const doc = await readGltfDocument(input);
    const material = doc.getRoot().listMaterials()[0];
    const [w, h] = material.getBaseColorTexture()!.getSize()!;
    expect([model.skinWidth, model.skinHeight]).toEqual([w, h]);
    expect(model.skins.map((x) => x.name)).toEqual([material.getName()]);
    const prim = trianglePrimitives(sceneNodes(doc), [])[0];
    for (let c = 0; c < model.triangleCount * 3; c++) {
      const v = prim.triangles[c], st = model.triangleStIndices[c];
      expect([model.st[2 * st], model.st[2 * st + 1]]).toEqual([Math.round(prim.uvs[2 * v] * w), Math.round(prim.uvs[2 * v + 1] * h)]);
    }
    expect(model.frameNames.slice(0, 2)).toEqual(['Survey01', 'Survey02']);
  });

  it('CesiumMan: more vertices than MAX_VERTS is UNWRITABLE after its first frame, naming the count (Quake 2 and our parser refuse it)', async () => {
    const input = { bytes: read(shared('gltf-samples/mjolnir-zig/assets/CesiumMan.glb')) };
    const e = await caught(() => importGltf(input, { format: 'md2', fps: 5 }));
    expect(e.code).toBe('UNWRITABLE');
    // 2 s at 5 fps: 11 frames, 10 of them never sampled
    expect(e.detail).toMatch(/refused before sampling the other 10 frames$/);
    const n = Number(/^at least (\d+) vertices/.exec(e.detail)?.[1]);
    expect(n).toBeGreaterThan(2048);
    expect(n).toBeLessThanOrEqual(trianglePrimitives(sceneNodes(await readGltfDocument(input)), [])[0].vertexCount);
    expect(e.detail).toMatch(/MAX_VERTS 2048/);
  });
});

/** A one-node glTF: a primitive per part (positions 3 per corner, uvs 2, its material and texture uri), animations by name. */
async function glb(parts: { positions: number[]; uvs?: number[]; material?: string; texture?: string }[], animations: string[] = []): Promise<GltfInput> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh('m');
  for (const part of parts) {
    const prim = doc.createPrimitive().setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(part.positions)).setBuffer(buffer));
    if (part.uvs) prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(new Float32Array(part.uvs)).setBuffer(buffer));
    if (part.material !== undefined) {
      const m = doc.createMaterial(part.material);
      if (part.texture !== undefined) m.setBaseColorTexture(doc.createTexture('').setURI(part.texture).setMimeType('image/png').setImage(png(64, 32)));
      prim.setMaterial(m);
    }
    mesh.addPrimitive(prim);
  }
  const node = doc.createNode('n').setMesh(mesh);
  doc.createScene('s').addChild(node);
  for (const name of animations) {
    const sampler = doc.createAnimationSampler().setInput(doc.createAccessor().setArray(new Float32Array([0, 0.1])).setBuffer(buffer)).setOutput(doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0])).setBuffer(buffer));
    doc.createAnimation(name).addSampler(sampler).addChannel(doc.createAnimationChannel().setSampler(sampler).setTargetNode(node).setTargetPath('translation'));
  }
  if (!parts.some((p) => p.texture)) return { bytes: await new WebIO().writeBinary(doc) };
  // a .gltf: its images keep their uri (a .glb embeds them)
  const { json, resources } = await new WebIO().writeJSON(doc);
  return { bytes: new TextEncoder().encode(JSON.stringify(json)), resources };
}

/** The start of a PNG of w × h (signature and IHDR: what an image size is read from). */
function png(w: number, h: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, w);
  v.setUint32(20, h);
  return b;
}

const TRI = [0, 0, 0, 1, 0, 0, 0, 1, 0];

describe('gltfToMd2: names, merging and what MD2 cannot hold', () => {
  it('frame names <animation><NN>: one clip per animation, whatever the names (digits at the end, too long, empty, repeated)', async () => {
    const names = ['run', 'run', 'attack2', 'attack3', 'a very long animation name', 'a very long animation name!', '', 'stand'];
    const model = await gltfToMd2(await glb([{ positions: TRI }], names));
    expect(model.frameCount).toBe(2 * names.length);
    const back = parseMd2(writeMd2(model));
    expect(back.clips.map((c) => c.frameCount)).toEqual(names.map(() => 2));
    expect(new Set(back.clips.map((c) => c.name)).size).toBe(names.length);
    expect(back.frameNames.slice(0, 4)).toEqual(['run01', 'run02', 'run_b01', 'run_b02']);
    expect(back.frameNames[4]).toBe('attack2_01');
    for (const n of back.frameNames) expect(n.length).toBeLessThanOrEqual(16);
    // more than 99 frames: as many digits as the count needs
    const long = md2FrameNames(Array.from({ length: 120 }, () => ({ animation: 0, name: 'walk' })));
    expect([long[0], long[119]]).toEqual(['walk001', 'walk120']);
    expect(groupClips(long)).toHaveLength(1);
  });

  it('primitives with different materials, atlas: false (or an image that does not decode, or one image alone): one mesh, the first material\'s skin (texture uri), a GLTF_MATERIALS_MERGED warning', async () => {
    const parts = [{ positions: TRI, material: 'a', texture: 'skins/a.pcx' }, { positions: TRI.map((x) => x + 2), material: 'b' }];
    // the default packs the materials' images into one skin (gltf-atlas.test.ts) when two have one: here one has
    const one = await gltfToMd2(await glb(parts), { skinSize: { width: 16, height: 16 } });
    expect(one.warnings.map((w) => w.code)).toEqual(['GLTF_MATERIALS_MERGED']);
    // two, and this header-only PNG does not decode: the atlas is refused, and it merges
    const two = [parts[0], { ...parts[1], texture: 'skins/b.pcx' }];
    const refused = await gltfToMd2(await glb(two), { skinSize: { width: 16, height: 16 } });
    expect(refused.warnings.map((w) => w.code)).toEqual(['GLTF_SKIN_NOT_DECODED', 'GLTF_MATERIALS_MERGED']);
    expect(refused.skins.map((x) => x.name)).toEqual(['skins/a.pcx']);
    const model = await gltfToMd2(await glb(parts), { skinSize: { width: 16, height: 16 }, atlas: false });
    expect(model.triangleCount).toBe(2);
    expect(model.skins.map((x) => x.name)).toEqual(['skins/a.pcx']);
    expect(model.warnings.map((w) => w.code)).toEqual(['GLTF_MATERIALS_MERGED']);
    expect(model.warnings[0].message).toMatch(/"b"/);
    expect([model.skinWidth, model.skinHeight], 'the texture image\'s size, not skinSize').toEqual([64, 32]);
  });

  it('typed UNWRITABLE: a skin past 64 bytes, more than MAX_VERTS vertices, an st outside int16, no triangles, positions past float32', async () => {
    const skin = await caught(async () => gltfToMd2(await glb([{ positions: TRI, material: 'm'.repeat(65) }])));
    expect([skin.code, skin.detail]).toEqual(['UNWRITABLE', expect.stringMatching(/skin "m{65}" is 65 bytes, MD2's skin field holds 64/)]);
    // 683 separate triangles: 2049 vertices, no two alike
    const many = Array.from({ length: 683 * 9 }, (_, i) => (i % 3 === 0 ? Math.floor(i / 3) : i % 3 === 1 ? (i * 7) % 13 : 0));
    const verts = await caught(async () => gltfToMd2(await glb([{ positions: many }])));
    expect(verts.detail).toMatch(/^at least 2049 vertices .*MAX_VERTS 2048/);
    const st = await caught(async () => gltfToMd2(await glb([{ positions: TRI, uvs: [0, 0, 200, 0, 0, 1] }])));
    expect(st.detail).toMatch(/vertex 1: uv \(200, 0\) is st \(51200, 0\) pixels of a 256×256 skin, outside MD2's int16 st/);
    const doc = new Document();
    const prim = doc.createPrimitive().setMode(0).setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(TRI)).setBuffer(doc.createBuffer()));
    doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(prim)));
    const none = await caught(async () => gltfToMd2({ bytes: await new WebIO().writeBinary(doc) }));
    expect(none.detail).toMatch(/no triangle primitive/);
    const huge = await caught(async () => gltfToMd2(await glb([{ positions: TRI }]), { scale: 1e39 }));
    expect(huge.detail).toMatch(/frame 0: positions from 0 to 1e\+39 on axis 0 are past MD2's float32 scale and translate/);
    await expect(gltfToMd2(await glb([{ positions: TRI }]), { fps: 0 })).rejects.toThrow(RangeError);
  });

  it('a model without normals gets its faces\' normals; a flat frame (zero extent on an axis) decodes exactly', async () => {
    const back = parseMd2(writeMd2(await gltfToMd2(await glb([{ positions: TRI }]))));
    // glTF +Z (the triangle's counter-clockwise normal) is id −Y
    const n = back.frameVertices[3];
    expect(back.frameVertices.filter((_, i) => i % 4 === 3)).toEqual(new Uint8Array(3).fill(n));
    expect(n).toBe(nearestMd2Normal(0, -1, 0));
    for (let v = 0; v < 3; v++) expect(decode(back, 0, v, 1)).toBe(0);
  });
});
