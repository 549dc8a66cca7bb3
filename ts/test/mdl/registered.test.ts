/**
 * MDL through the format registry, as every other format goes: told by name or first bytes, listed by the catalog of
 * a Quake game folder whose progs/ and gfx/ are in a numbered .pak (built here from LibreQuake's files), opened with
 * openModelSet and openPlayable, drawn by IdTechLoader — textured by the skins the file carries, decoded through the
 * pak's gfx/palette.lmp — and written back by the registration's writer.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataTexture, Mesh, type MeshStandardMaterial } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MdlModel } from '../../src/base/model.js';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { MDL_HEADER_BYTES, parseMdl, parseMdlStream } from '../../src/formats/mdl/index.js';
import { selectFormat } from '../../src/load/format.js';
import { catalogModels } from '../../src/load/catalog.js';
import { openModelSet } from '../../src/load/model-set.js';
import { mdlSkinPicture } from '../../src/formats/mdl/materials.js';
import { decodeQuakeSkin } from '../../src/images/quake-palette.js';
import { DEFAULT_FORMATS, entryFor } from '../../src/registry/formats.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { mountGameDir } from '../../src/vfs/node.js';
import { goldsrcMdl } from '../helpers/corpus-kinds.js';
import { manifest, read, SHARED_MODELS } from '../helpers/models.js';
import { makePak } from '../helpers/pak-writer.js';
import { buildMdl, richSpec } from './_build.js';
import { mdlRows, readRow } from './_helpers.js';

const PALETTE = join(SHARED_MODELS, 'LibreQuake/lq1/gfx/palette.lmp');
/** progs/NAME.mdl for a MANIFEST row. */
const gamePath = (path: string) => `progs/${path.split('/').pop()}`;

describe('MDL in the registry', () => {
  it('every MDL of the corpus is told as MDL by its name, and by its first bytes when the name says nothing', () => {
    for (const row of mdlRows()) {
      const head = readRow(row).subarray(0, 64);
      expect(selectFormat(row.path, head, DEFAULT_FORMATS)?.id, row.path).toBe('mdl');
      expect(selectFormat('no-extension', head, DEFAULT_FORMATS)?.id, row.path).toBe('mdl');
    }
  });

  it('its view tells a viewer what the engine does beyond the frames: EF_ROTATE\'s spin, the flags by name, the skin records', async () => {
    const { createTsBackend } = await import('../../src/kernels/ts-backend.js');
    let spinning = 0;
    for (const row of mdlRows()) {
      const model = parseMdl(readRow(row));
      const set = { format: 'mdl', path: row.path, origin: row.path, data: model, companions: [], files: [], sideFiles: [], warnings: [] };
      const view = await entryFor('mdl')!.view!(set as never, createTsBackend());
      const rotates = (model.flags & 8) !== 0; // modelgen.h EF_ROTATE
      spinning += rotates ? 1 : 0;
      expect(view.extras?.spin, row.path).toBe(rotates ? 100 : undefined);
      expect(view.extras?.flags?.includes('EF_ROTATE'), row.path).toBe(rotates);
      expect(view.extras?.skins, row.path).toEqual(model.skins.map((_, i) => `skin${i}`));
      if (view.kind === 'morph') view.poser.dispose();
    }
    expect(spinning).toBeGreaterThan(0); // the corpus' pickups (armour, keys, weapons) rotate
  });

  it('the writer registered for .mdl writes what reads back as the same mesh (glTF out of the registered export, MDL back)', async () => {
    const row = mdlRows().find((r) => r.path.endsWith('/wizard.mdl'))!;
    const model = parseMdl(readRow(row));
    const entry = entryFor('mdl')!;
    expect(entry.writer?.extensions).toEqual(['.mdl']);
    const { toGlb } = await import('../../src/registry/gltf.js');
    const written = await entry.writer!.fromGltf({ bytes: await toGlb(model, { name: 'wizard' }) }, { scale: 1, split: false, out: 'wizard.mdl' });
    const back = parseMdl(written.files[0].bytes as Uint8Array);
    expect([back.vertexCount > 0, back.triangleCount, back.poseCount]).toEqual([true, model.triangleCount, model.poseCount]);
    expect(written.engine[0].warnings).toEqual([]);
  });

  // The archive listing reads each model's frame count from its header (commands/inspect/archive.ts); it must
  // refuse what the parser refuses, for the same reason: the corpus' Half-Life .mdl files (IDST, and IDSQ sequence
  // groups, man01.mdl shorter than Quake's header) are BAD_MAGIC, not truncated MDLs.
  it("the listing's header read refuses a .mdl that is no Quake MDL as the parser does: GoldSrc's files, a RAPO header cut short", async () => {
    const headerFrames = async (bytes: Uint8Array) => {
      const file = await memoryFileSystem([{ path: 'x.mdl', bytes }]).file('x.mdl');
      return entryFor('mdl')!.headerFrames!(file!).then((n) => n, (e: unknown) => e);
    };
    const goldsrc = manifest().filter(goldsrcMdl);
    expect(goldsrc.filter((r) => r.size < MDL_HEADER_BYTES).length).toBeGreaterThan(0);
    for (const r of goldsrc) {
      const e = await headerFrames(read(r.absPath));
      expect(e, r.path).toBeInstanceOf(ModelParseError);
      expect((e as ModelParseError).code, r.path).toBe(ErrorCode.BadMagic);
      await expect(parseMdlStream(read(r.absPath)), r.path).rejects.toMatchObject({ code: ErrorCode.BadMagic });
    }
    // Hexen II's header is 88 bytes: one cut at 86 is TRUNCATED at 86 (it was read past its end).
    const rapo = buildMdl(richSpec({ ident: 'RAPO' }));
    expect(await headerFrames(rapo)).toBe(parseMdl(rapo).frameCount);
    const cut = await headerFrames(rapo.slice(0, 86));
    expect(cut).toBeInstanceOf(ModelParseError);
    expect([(cut as ModelParseError).code, (cut as ModelParseError).offset]).toEqual([ErrorCode.Truncated, 86]);
  });
});

describe('a Quake game folder: id1/pak0.pak holding LibreQuake\'s progs/ and gfx/palette.lmp', () => {
  let root: string;
  let models: string[];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'idtech-mdl-pak-'));
    mkdirSync(join(root, 'id1'));
    const rows = mdlRows();
    models = rows.map((r) => gamePath(r.path)).sort();
    writeFileSync(join(root, 'id1', 'pak0.pak'), makePak([{ name: 'gfx/palette.lmp', data: read(PALETTE) }, ...rows.map((r) => ({ name: gamePath(r.path), data: readRow(r) }))]));
  });

  it('the catalog lists every MDL in the pak, as MDL', async () => {
    const fs = await mountGameDir(join(root, 'id1'));
    try {
      const listed = await catalogModels(fs, DEFAULT_FORMATS);
      expect(listed.map((e) => e.path).sort()).toEqual(models);
      expect(new Set(listed.map((e) => e.kind))).toEqual(new Set(['mdl']));
    } finally {
      await fs.close();
    }
  });

  it('openModelSet reads a model out of the pak; its materials carry the skins decoded through the pak\'s palette', async () => {
    const fs = await mountGameDir(join(root, 'id1'));
    try {
      const set = await openModelSet(fs, 'progs/ogre.mdl', { formats: DEFAULT_FORMATS });
      expect(set.format).toBe('mdl');
      const model = set.data as MdlModel;
      const { MaterialResolver } = await import('../../src/materials/resolver.js');
      const materials = await entryFor('mdl')!.materials!(new MaterialResolver(fs), model, set.path, {});
      expect(materials.warnings.map((w) => w.code)).not.toContain('PALETTE_NOT_FOUND');
      const skin0 = materials.materials[0].diffuse!;
      expect(skin0.embedded).toBe(true);
      // the independent lookup: each index → its palette colour (fullbrights split off to the glow image)
      const palette = read(PALETTE);
      const indices = model.skinPixels.subarray(0, model.skinWidth * model.skinHeight);
      const pixels = materials.pixels!.get(skin0.path!)!;
      for (let i = 0; i < indices.length; i += 97) {
        const c = indices[i];
        const expected = c >= 224 ? [0, 0, 0] : [palette[3 * c], palette[3 * c + 1], palette[3 * c + 2]];
        expect([...pixels.rgba.subarray(4 * i, 4 * i + 3)], `texel ${i} (index ${c})`).toEqual(expected);
      }
      expect(pixels.rgba).toEqual(decodeQuakeSkin(indices, model.skinWidth, model.skinHeight, palette).base);
    } finally {
      await fs.close();
    }
  });

  it('IdTechLoader draws it textured: a morph mesh with its frame-name clips, its map the skin\'s palette-decoded pixels', async () => {
    const fs = await mountGameDir(join(root, 'id1'));
    try {
      const three = await new IdTechLoader().setFileSystem(fs).loadAsync('progs/ogre.mdl');
      const model = parseMdl(readRow(mdlRows().find((r) => r.path.endsWith('/ogre.mdl'))!));
      expect(three.format).toBe('mdl');
      expect(three.animations.map((a) => a.name)).toEqual(model.clips.map((c) => c.name));
      const meshes: Mesh[] = [];
      three.scene.traverse((o) => {
        if (o instanceof Mesh) meshes.push(o);
      });
      expect(meshes.length).toBe(1);
      const material = ([] as unknown[]).concat(meshes[0].material)[0] as MeshStandardMaterial;
      const map = material.map as DataTexture;
      expect(map).toBeInstanceOf(DataTexture);
      expect([map.image.width, map.image.height]).toEqual([model.skinWidth, model.skinHeight]);
      expect(map.image.data).toEqual(mdlSkinPicture(model, 0, read(PALETTE)).base);
      expect(three.warnings.map((w) => w.code).filter((c) => /TEXTURE|PALETTE/.test(c))).toEqual([]);
    } finally {
      await fs.close();
    }
  });

  it('openPlayable opens the dropped .mdl with its clips and its carried skin as the part\'s image', async () => {
    const row = mdlRows().find((r) => r.path.endsWith('/ogre.mdl'))!;
    const model = parseMdl(readRow(row));
    const playable = await openPlayable([{ name: 'ogre.mdl', source: readRow(row) }]);
    expect(playable.format).toBe('mdl');
    expect(playable.clips.map((c) => c.name)).toEqual(model.clips.map((c) => c.name));
    const image = playable.materials[0].image as { width: number; height: number; rgba: Uint8Array };
    expect([image.width, image.height]).toEqual([model.skinWidth, model.skinHeight]);
  });
});
