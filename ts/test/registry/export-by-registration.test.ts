/**
 * The stable door's export (registry/export.ts): a model set or a parsed model goes out through its format's
 * registration, given or found among a list — never a default list (docs/package.md, "What an app carries") — and
 * gives the very bytes the defaulting forms give (registry/gltf.ts, what the CLI wrote before), a set's companions
 * made its animations as its registration says (IQM: iqm.cfg's cuts and rates, which the viewer lost once when it
 * forgot `setGltfOptions`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParseWarning } from '../../src/base/errors.js';
import { md3Model } from '../../src/formats/md3/model-entry.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { openModelFile } from '../../src/node.js';
import { toGlb, toObj } from '../../src/registry/export.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb as toGlbDefaulting } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const JANITOR = join(SHARED_MODELS, 'actors-iqm/janitor/janitor.iqm'); // MANIFEST: an iqm.cfg beside it cuts its clips
const GRENADE = join(SHARED_MODELS, 'aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3');

/** The animation names of a .glb. */
function clipNames(glb: Uint8Array): string[] {
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
  return (json.animations ?? []).map((a: { name: string }) => a.name);
}

describe('export by registration', () => {
  it("a set goes out with its companions as its registration makes them: the same bytes as the CLI's setGltfOptions path", async () => {
    const set = await openModelFile(JANITOR);
    const viaSet = await toGlb(set, { formats: DEFAULT_FORMATS, name: 'janitor' });
    const viaOptions = await toGlbDefaulting(set.data as never, { ...setGltfOptions(set, { name: 'janitor' }, DEFAULT_FORMATS), formats: DEFAULT_FORMATS });
    expect(Buffer.from(viaSet).equals(Buffer.from(viaOptions))).toBe(true);
    expect(clipNames(viaSet).length).toBeGreaterThan(1); // the cfg's clips, not one whole-file animation
  });

  it("a parsed model with its format's ModelEntry: the bytes of the defaulting toGlb", async () => {
    const md3 = parseMd3(read(GRENADE));
    const a = await toGlb(md3, { format: md3Model });
    const b = await toGlbDefaulting(md3);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('without a registration or a list it names what to pass; a list without the format says which it has', async () => {
    const md3 = parseMd3(read(GRENADE));
    await expect(toGlb(md3)).rejects.toThrow(/pass \{ format \}.*or \{ formats \}/);
    await expect(toGlb(md3, { formats: DEFAULT_FORMATS.filter((f) => f.id === 'md2') })).rejects.toThrow(/no format here holds md3 \(formats: md2\)/);
  });

  it('textures built by hand without a converter are left out with a warning; with one, embedded', async () => {
    const md3 = parseMd3(read(GRENADE));
    const { imageConverter } = await import('../../src/export/image-convert.js');
    const png = read(join(SHARED_MODELS, 'aaa-assets/models/weapons/grenade_launcher/launcher_d.jpg'));
    const materials = md3.surfaces.map((s, i) => ({ surface: s.name, index: i, shaderName: s.shaders[0]?.name ?? '', diffuse: { name: 'd', path: 'd.jpg' }, others: [] }));
    const textures = { materials: materials as never, images: new Map([['d.jpg', png]]) };
    const warnings: ParseWarning[] = [];
    const bare = await toGlb(md3, { format: md3Model, textures, warnings });
    expect(warnings.filter((w) => w.code === 'TEXTURE_NOT_GIVEN').map((w) => w.message)).toEqual(['d.jpg: the textures came without an image converter (resolveModelTextures gives one): left untextured']);
    const withImages = await toGlb(md3, { format: md3Model, textures: { ...textures, convert: imageConverter } });
    expect(withImages.length - bare.length).toBeGreaterThanOrEqual(png.length); // the JPEG inside
  });

  it("toObj writes a set's frame by its registration, and refuses a frame it has not", async () => {
    const set = await openModelFile(GRENADE);
    const text = await toObj(set, { formats: DEFAULT_FORMATS, frame: 2 });
    expect(text).toMatch(/^# /);
    expect(text.match(/^v /gm)?.length).toBe(1234); // MANIFEST: 1234 vertices over its 2 surfaces
    const frames = (set.data as { frameCount: number }).frameCount;
    await expect(toObj(set, { formats: DEFAULT_FORMATS, frame: frames })).rejects.toThrow(RangeError);
  });
});
