/**
 * `DEFAULT_MODELS` (what `toGlb` and `resolveModelTextures` look a parsed model up among, so that exporting carries
 * no parser or writer) is the `ModelEntry` part of `DEFAULT_FORMATS`, entry for entry: the same ids and titles as the
 * formats' own, in the same order, and the very functions the registrations hold.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { DEFAULT_MODELS } from '../../src/registry/models.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

describe('DEFAULT_MODELS', () => {
  it('is DEFAULT_FORMATS without what reads files: same ids, titles and order, the same owns, gltf and materials', () => {
    expect(DEFAULT_MODELS.map((m) => [m.id, m.title])).toEqual(DEFAULT_FORMATS.map((f) => [f.id, f.title]));
    DEFAULT_MODELS.forEach((m, i) => {
      const f = DEFAULT_FORMATS[i];
      expect(f.owns, m.id).toBe(m.owns);
      expect(f.gltf, m.id).toBe(m.gltf);
      expect(f.materials, m.id).toBe(m.materials);
    });
    expect(DEFAULT_MODELS.filter((m) => m.gltf).map((m) => m.id)).toEqual(['md5mesh', 'md2', 'md3', 'player', 'nonseg', 'buildable', 'mdl', 'iqm', 'hl1mdl']);
  });

  it('toGlb finds a model among them as among the registrations: the same bytes, the same refusals', async () => {
    // watercan.md3 (MANIFEST: one surface, 92 vertices)
    const model = parseMd3(read(`${SHARED_MODELS}/assimp/test/models-nonbsd/MD3/watercan.md3`));
    expect(Buffer.compare(await toGlb(model), await toGlb(model, { formats: DEFAULT_FORMATS }))).toBe(0);
    const notAModel = { format: 'md5anim' };
    await expect(toGlb(notAModel as never)).rejects.toThrow(/^Doom 3 animation \(md5anim\): no glTF export for this format$/);
    await expect(toGlb({} as never)).rejects.toThrow(/no format here holds this value \(formats: md5mesh, md5anim, md2, md3, player, nonseg, buildable, mdl, iqm, hl1mdl, md5camera\)/);
  });
});
