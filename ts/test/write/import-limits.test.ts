/**
 * Issue 36 item 8: the glTF → id imports bounded before they decode, copy or sample, each bound a `ResourceLimits`
 * entry (docs/security.md, "glTF → id formats"), raised per call (`limits`, `maxFrames` / `maxBytes`) or for the
 * process (`setResourceLimits`, the CLI's `--limit`). Every hostile input is made by fixtures/generate-hostile-gltf.mjs:
 * a 71 KB glb whose skin is a 24,000² PNG, a 50 KB glb whose 2-key animation spans 4,360 s, 680 joints over 2,730 s,
 * 50,000 morph targets naming one accessor.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { recoverW } from '../../src/base/quat.js';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { decodePngRgba } from '../../src/images/png-decode.js';
import { pngSize } from '../../src/images/png-info.js';
import { gltfToIqm } from '../../src/formats/iqm/from-gltf.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { gltfToMd3 } from '../../src/formats/md3/from-gltf.js';
import { gltfToMd5, md5QuaternionXyz } from '../../src/import/gltf-md5.js';
import { gltfToMdl } from '../../src/formats/mdl/from-gltf.js';
import { longAnimationGlb, morphGlb, pngBombGlb, skeletonGlb, zeroPng } from '../../../fixtures/generate-hostile-gltf.mjs';
import { failure, refusal } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

const raise = (limit: string) => `(raise it with --limit ${limit}=N, or the ${limit} option)`;

describe('PNG skins: the size the header declares, checked before inflating', () => {
  it('pngSize reads IHDR alone; decodePngRgba refuses past maxImagePixels before decoding', () => {
    const png = zeroPng(300);
    expect(pngSize(png)).toEqual({ width: 300, height: 300 });
    expect(decodePngRgba(png).rgba.length).toBe(300 * 300 * 4);
    const e = refusal(() => decodePngRgba(png, { maxImagePixels: 89_999 }));
    expect([e.code, e.detail, e.offset]).toEqual(['RESOURCE_LIMIT', `the PNG is 300×300, 90000 pixels: over the limit maxImagePixels = 89999 ${raise('maxImagePixels')}`, 16]);
  });

  it('a 71 KB glb whose skin is a 24,000² PNG → MDL: the skin is not decoded (a warning naming the bound), the MDL has the factor skin', async () => {
    const bytes = pngBombGlb({ side: 24000 });
    expect(bytes.length).toBeLessThan(72_000);
    const mdl = await gltfToMdl({ bytes });
    expect([mdl.skinWidth, mdl.skinHeight]).toEqual([256, 256]);
    expect(mdl.warnings.map((w) => `${w.code}: ${w.message}`)).toEqual([expect.stringMatching(/^GLTF_SKIN_NOT_DECODED: the base colour image "bomb" does not decode \(BAD_COUNT: the PNG is 24000×24000: 576000000 pixels, over ioquake3's limit/)]);
  });

  it('a 16,384² PNG (over maxImagePixels, under ioquake3 bound): the warning names maxImagePixels; raised per call, a 300² skin decodes', async () => {
    const big = await gltfToMdl({ bytes: pngBombGlb({ side: 16384 }) });
    expect(big.warnings.map((w) => w.message)).toEqual([expect.stringContaining(`the PNG is 16384×16384, 268435456 pixels: over the limit maxImagePixels = 67108864 ${raise('maxImagePixels')}`)]);
    const small = pngBombGlb({ side: 300 });
    expect((await gltfToMdl({ bytes: small, limits: { maxImagePixels: 89_999 } })).warnings[0].message).toMatch(/over the limit maxImagePixels = 89999/);
    const decoded = await gltfToMdl({ bytes: small });
    expect([decoded.skinWidth, decoded.skinHeight, decoded.warnings]).toEqual([300, 300, []]);
  });
});

describe('frames from resampling: counted before sampling', () => {
  it('a 50 KB glb, 4,095 vertices moved over 4,360 s: MD3 (2 GB), MD2 and MDL refused naming maxImportBytes', async () => {
    const bytes = longAnimationGlb();
    expect(bytes.length).toBeLessThan(51_000);
    const md3 = await failure(gltfToMd3({ bytes }));
    // 65,401 frames at 15 fps × (56 + 8 × 4,095)
    expect([md3.code, md3.detail]).toEqual(['UNWRITABLE', `65401 frames of 1 surfaces and 0 tags of MD3 are 2146199216 bytes to sample: over the limit maxImportBytes = 67108864 ${raise('maxImportBytes')}`]);
    expect((await failure(gltfToMd2({ bytes }))).detail).toBe(`43601 frames of 4095 vertices (4 bytes each) of MD2 frames are 714184380 bytes to sample: over the limit maxImportBytes = 67108864 ${raise('maxImportBytes')}`);
    expect((await failure(gltfToMdl({ bytes }))).detail).toBe(`43601 frames of 4095 vertices (52 bytes each) of MDL poses are 9284396940 bytes to sample: over the limit maxImportBytes = 67108864 ${raise('maxImportBytes')}`);
  });

  it('a key at 10⁶ s is refused naming maxImportFrames; a short one samples, and each bound moves with the limit given', async () => {
    expect((await failure(gltfToMd3({ bytes: longAnimationGlb({ vertices: 3, seconds: 1e6 }) }))).detail).toBe(`animation 0 ("drift") lasts 1000000 s: at 15 fps that makes 15000001 frames in all: over the limit maxImportFrames = 65536 ${raise('maxImportFrames')}`);
    const bytes = longAnimationGlb({ vertices: 30, seconds: 10 });
    // 151 frames × (56 + 8 × 30) = 44,696 bytes
    expect((await gltfToMd3({ bytes })).frameCount).toBe(151);
    expect((await failure(gltfToMd3({ bytes, limits: { maxImportBytes: 44_695 } }))).detail).toMatch(/ are 44696 bytes to sample: over the limit maxImportBytes = 44695 /);
    expect((await gltfToMd3({ bytes, limits: { maxImportBytes: 44_696 } })).frameCount).toBe(151);
    expect((await failure(gltfToMd3({ bytes }, { maxFrames: 150 }))).detail).toMatch(/makes 151 frames in all: over the limit maxImportFrames = 150 /);
    // the process's limits (what --limit sets) when the call gives none
    setResourceLimits({ maxImportFrames: 100 });
    expect((await failure(gltfToMd2({ bytes }))).detail).toMatch(/makes 101 frames in all: over the limit maxImportFrames = 100 /);
  });
});

describe('joints × frames: counted before the loop', () => {
  it('680 joints over 2,730 s (44.6 million joint poses) → md5mesh and IQM: refused naming maxImportBytes', async () => {
    const bytes = skeletonGlb();
    const want = `65521 frames of 680 joints (48 bytes each) and 3 vertices (4 bytes each) are 2139391692 bytes to sample: over the limit maxImportBytes = 67108864 ${raise('maxImportBytes')}`;
    expect((await failure(gltfToMd5({ bytes }))).detail).toBe(want);
    // IQM counts md5ToIqm's float64 channels too: 48 + 80 bytes a joint pose
    expect((await failure(gltfToIqm({ bytes }))).detail).toBe(`65521 frames of 680 joints (128 bytes each) and 3 vertices (4 bytes each) are ${65521 * (128 * 680 + 12)} bytes to sample: over the limit maxImportBytes = 67108864 ${raise('maxImportBytes')}`);
    // a short one goes through: 2 s at 24 fps, 49 frames
    expect((await gltfToMd5({ bytes: skeletonGlb({ joints: 680, seconds: 2 }) })).anims[0].anim.frameCount).toBe(49);
  });
});

describe('morph targets × vertices: counted before they are read, whatever accessor they share', () => {
  it('50,000 targets naming one 3,072-vertex accessor → MD3, MD2: refused before glTF Transform reads them', async () => {
    const bytes = morphGlb();
    const want = `mesh 0 primitive 0: 50000 morph targets × 3072 vertices make 153600000 morph target vertices in all: over the limit maxMorphTargetVertices = 4194304 ${raise('maxMorphTargetVertices')}`;
    expect((await failure(gltfToMd3({ bytes }))).detail).toBe(want);
    expect((await failure(gltfToMd2({ bytes }))).detail).toBe(want);
  });

  it('a mesh shown by many nodes: one frame of every node\'s copy counted (maxImportBytes) before any is copied', async () => {
    // 10 nodes of a 30-vertex, 10-triangle mesh: the fifth makes 4 · 150 + 12 · 50 = 1,200 bytes
    const bytes = morphGlb({ targets: 1, vertices: 30, nodes: 10 });
    const e = await failure(gltfToMd3({ bytes, limits: { maxImportBytes: 1000 } }));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', `one frame of 150 vertices and 50 triangles (every mesh node's primitives, at least 4 and 12 bytes each) are 1200 bytes to sample: over the limit maxImportBytes = 1000 ${raise('maxImportBytes')}`]);
    expect((await gltfToMd3({ bytes })).surfaces).toHaveLength(10);
  });

  it('each node showing the mesh counts again (each node copies its targets)', async () => {
    const bytes = morphGlb({ targets: 10, vertices: 3, nodes: 3 });
    expect((await gltfToMd3({ bytes, limits: { maxMorphTargetVertices: 90 } })).surfaces).toHaveLength(3);
    const e = await failure(gltfToMd3({ bytes, limits: { maxMorphTargetVertices: 89 } }));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', `mesh "blob" primitive 0: 10 morph targets × 3 vertices make 90 morph target vertices in all: over the limit maxMorphTargetVertices = 89 ${raise('maxMorphTargetVertices')}`]);
  });
});

describe('the MD5 import near a half turn: faster, the same answer', () => {
  /** md5QuaternionXyz as it was before issue 36: every triple of the search tried, each with its exact gap. */
  function everyTriple(q: [number, number, number, number]): [number, number, number] {
    const n = q[3] > 0 ? q.map((v) => -v) : q;
    const f32 = new Float32Array(1), bits = new Int32Array(f32.buffer);
    const step = (v: number, s: number) => {
      if (s === 0) return v;
      f32[0] = v;
      if (v === 0) return s > 0 ? 1.401298464324817e-45 * s : -1.401298464324817e-45 * -s;
      bits[0] += v > 0 ? s : -s;
      return f32[0];
    };
    const gapOf = (x: number, y: number, z: number, w: number) => {
      const [a, b, c, d] = n;
      return Math.hypot(d * x - w * a - (b * z - c * y), d * y - w * b - (c * x - a * z), d * z - w * c - (a * y - b * x)) / Math.hypot(x, y, z, w);
    };
    const r: [number, number, number] = [Math.fround(n[0]), Math.fround(n[1]), Math.fround(n[2])];
    if (Math.abs(n[3]) >= 0.05) return r;
    let best = r, gap = gapOf(r[0], r[1], r[2], recoverW(r[0], r[1], r[2]));
    const c = [0, 0, 0];
    for (let free = 0; free < 3; free++) {
      const [a, b] = [(free + 1) % 3, (free + 2) % 3];
      for (let i = -3; i <= 3; i++) {
        c[a] = step(r[a], i);
        for (let j = -3; j <= 3; j++) {
          c[b] = step(r[b], j);
          const fix = Math.fround((n[free] < 0 ? -1 : 1) * Math.sqrt(Math.max(0, 1 - c[a] * c[a] - c[b] * c[b] - n[3] * n[3])));
          for (const base of [r[free], fix]) {
            for (let k = -3; k <= 3; k++) {
              c[free] = step(base, k);
              const g = gapOf(c[0], c[1], c[2], recoverW(c[0], c[1], c[2]));
              if (g < gap) (gap = g), (best = [c[0], c[1], c[2]]);
            }
          }
        }
      }
    }
    return best;
  }

  it('md5QuaternionXyz gives the triple trying every one gives, bit for bit, on 3,000 rotations near a half turn', () => {
    fc.assert(
      fc.property(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true })), ([x, y, z, w]) => {
        const len = Math.hypot(x, y, z, w);
        fc.pre(len > 0.1);
        const q: [number, number, number, number] = [x / len, y / len, z / len, w / len];
        expect(md5QuaternionXyz(q).map((v) => Object.is(v, -0) ? '-0' : v)).toEqual(everyTriple(q).map((v) => Object.is(v, -0) ? '-0' : v));
      }),
      { numRuns: 3000, seed: 36 },
    );
  });

  it('a skeleton every joint of which turns at a half turn samples every frame', async () => {
    const { anims, mesh } = await gltfToMd5({ bytes: skeletonGlb({ joints: 8, seconds: 1, halfTurn: true }) }, { fps: 24 });
    expect([mesh.joints.count, anims[0].anim.frameCount]).toEqual([8, 25]);
  });
});
