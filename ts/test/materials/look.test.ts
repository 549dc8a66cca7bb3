/**
 * One reading of a surface's render state for every drawer (materials/look.ts): the alpha a kept fragment needs,
 * from the engines' alpha tests (Quake 3 tr_shade.c GL_State: GT0 keeps alpha > 0, GE128 alpha ≥ 0.5, LT128
 * alpha < 0.5; Doom 3 `alphaTest x` keeps alpha > x), is the glTF exporter's alphaCutoff and the three.js
 * adapter's alphaTest alike.
 */
import { describe, expect, it } from 'vitest';
import type { ParseWarning } from '../../src/base/errors.js';
import { alphaFuncTest } from '../../src/materials/appearance.js';
import { alphaLook, keptFromAlpha } from '../../src/materials/look.js';
import type { AlphaTest, ResolvedMaterial } from '../../src/materials/types.js';
import { threeMaterial } from '../../src/three/materials.js';

const material = (alphaTest: AlphaTest | null, extra: Partial<ResolvedMaterial> = {}) =>
  ({ surface: 's', shaderName: 'textures/x', alphaTest, blend: null, blendMode: 'opaque', sides: 'front', nodraw: false, diffuse: null, normal: null, clamp: false, ...extra }) as unknown as ResolvedMaterial;

/** A fragment of 8-bit alpha a (0…255) is kept by the engine's test. */
const engineKeeps = (t: AlphaTest, a: number) => (t.op === '>' ? a / 255 > t.cutoff : t.op === '>=' ? a / 255 >= t.cutoff : a / 255 < t.cutoff);

describe('the alpha a kept fragment needs', () => {
  const tests: AlphaTest[] = [alphaFuncTest('GT0')!, alphaFuncTest('GE128')!, { op: '>', cutoff: 0.7, written: '0.7' }, { op: '>', cutoff: 0.5, written: '0.5' }];

  it('keeps exactly the 8-bit alphas the engine keeps, for every test a drawer keeping alpha ≥ cutoff can say', () => {
    for (const t of tests) {
      const c = keptFromAlpha(t)!;
      for (let a = 0; a <= 255; a++) expect(a / 255 >= c, `${t.written} at ${a}`).toBe(engineKeeps(t, a));
    }
    expect(keptFromAlpha(alphaFuncTest('LT128')!)).toBeNull();
  });

  it('is the glTF exporter\'s alphaCutoff and the three.js adapter\'s alphaTest', async () => {
    for (const t of tests) {
      const warnings: ParseWarning[] = [];
      const look = alphaLook(material(t), warnings);
      const mat = await threeMaterial(material(t), { textures: null, normalMaps: false, warnings });
      expect([look.alphaMode, look.alphaCutoff]).toEqual(['MASK', keptFromAlpha(t)]);
      expect(mat.alphaTest).toBe(keptFromAlpha(t));
      expect(warnings).toEqual([]);
    }
    const lt: ParseWarning[] = [];
    expect(alphaLook(material(alphaFuncTest('LT128')!), lt).alphaMode).toBe('OPAQUE');
    expect((await threeMaterial(material(alphaFuncTest('LT128')!), { textures: null, normalMaps: false, warnings: lt })).alphaTest).toBe(0);
    expect(lt.map((w) => w.code)).toEqual(['ALPHA_TEST_UNSUPPORTED', 'ALPHA_TEST_UNSUPPORTED']);
  });

  it('blends, sides and nodraw as the file comment says', () => {
    const w: ParseWarning[] = [];
    expect(alphaLook(material(null, { blendMode: 'alpha' }), w)).toMatchObject({ alphaMode: 'BLEND', emissive: false });
    expect(alphaLook(material(null, { blendMode: 'additive' }), w)).toMatchObject({ alphaMode: 'OPAQUE', emissive: true });
    expect(alphaLook(material(null, { nodraw: true }), w)).toMatchObject({ alphaMode: 'BLEND', invisible: true });
    expect(alphaLook(material(null, { sides: 'both' }), w).doubleSided).toBe(true);
    expect(w).toEqual([]);
    expect(alphaLook(material(null, { blendMode: 'multiply', blend: { src: 'GL_DST_COLOR', dst: 'GL_ZERO' } as ResolvedMaterial['blend'] }), w).alphaMode).toBe('OPAQUE');
    expect(w.map((x) => x.code)).toEqual(['BLEND_APPROXIMATED']);
  });
});
