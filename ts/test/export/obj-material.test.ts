/**
 * OBJ with a material library on the corpus's textured models: the .mtl defines every `usemtl` the OBJ names, and
 * every file it references is written beside it and is the resolved image (PNG pixels equal to the source's decode).
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { objMaterialLibrary } from '../../src/export/obj-material.js';
import { toObj } from '../../src/export/obj.js';
import { md2ToObj, md3ToObj } from '../../src/export/obj-morph.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { decodeImage } from '../../src/images/decode.js';
import { sharedBytes, sharedFileSystem } from '../helpers/shared-fs.js';
import { pngRgba, TEXTURED } from '../helpers/textured.js';

function objOf(root: string, path: string, materials: { file: string; nameFor(i: number): string | undefined }): string {
  const backend = createTsBackend();
  const bytes = sharedBytes(join(root, path));
  try {
    if (path.endsWith('.md2')) {
      const m = parseMd2(bytes);
      return md2ToObj(m, { positions: new Md2Poser(backend, m).poseFrame(0).positions, materials });
    }
    if (path.endsWith('.md3')) {
      const m = parseMd3(bytes);
      const p = new Md3Poser(backend, m).poseFrame(0);
      return md3ToObj(m, { positions: p.positions, normals: p.normals, materials });
    }
    const m = parseMd5Mesh(bytes);
    const p = new Md5Poser(backend, m);
    p.poseBind();
    return toObj(m, { positions: p.positions, normals: p.normals, materials });
  } finally {
    backend.dispose();
  }
}

const parseAny = (root: string, path: string) => {
  const bytes = sharedBytes(join(root, path));
  return path.endsWith('.md2') ? parseMd2(bytes) : path.endsWith('.md3') ? parseMd3(bytes) : parseMd5Mesh(bytes);
};

describe('OBJ + MTL of every textured corpus model (not players: OBJ is one model)', () => {
  for (const c of TEXTURED.filter((c) => /\.(md2|md3|md5mesh)$/.test(c.path))) {
    test(`${c.root}/${c.path}${c.skin ? ` skin ${c.skin}` : ''}`, async () => {
      const textures = await resolveModelTextures(sharedFileSystem(c.root), parseAny(c.root, c.path), c.path, { skin: c.skin });
      const lib = objMaterialLibrary(textures, { filePrefix: 'model_' });
      const dir = mkdtempSync(join(tmpdir(), 'objmtl-'));
      const obj = objOf(c.root, c.path, { file: 'model.mtl', nameFor: lib.nameFor });
      writeFileSync(join(dir, 'model.obj'), obj);
      writeFileSync(join(dir, 'model.mtl'), lib.mtl);
      for (const f of lib.files) writeFileSync(join(dir, f.uri), f.bytes);

      const defined = [...lib.mtl.matchAll(/^newmtl (.+)$/gm)].map((m) => m[1]);
      const used = [...obj.matchAll(/^usemtl (.+)$/gm)].map((m) => m[1]);
      expect(used.length).toBeGreaterThan(0);
      for (const u of used) expect(defined).toContain(u);
      const maps = [...lib.mtl.matchAll(/^(map_\w+) (.+)$/gm)];
      expect(maps.some((m) => m[1] === 'map_Kd' || m[1] === 'map_Ke'), 'a textured material').toBe(true);
      for (const [, , file] of maps) expect(existsSync(join(dir, file)), file).toBe(true);
      // each written image is its source: PNG pixels equal the decoded source, JPEG bytes equal
      for (const m of textures.materials) {
        const path = m.diffuse?.path;
        if (!path) continue;
        const name = lib.nameFor(m.index)!;
        const block = lib.mtl.split('newmtl ').find((b) => b.startsWith(name + '\n'))!;
        const file = /^map_K[de] (.+)$/m.exec(block)![1];
        const written = new Uint8Array(readFileSync(join(dir, file)));
        const source = decodeImage(textures.images.get(path)!, path);
        if (source.kind === 'passthrough') expect(Buffer.compare(Buffer.from(written), Buffer.from(source.bytes))).toBe(0);
        else expect(Buffer.compare(Buffer.from(pngRgba(written).rgba), Buffer.from(source.rgba))).toBe(0);
      }
    });
  }

  test('grass (alphaFunc GE128) says d + map_d; grenade_launcher names its normal map', async () => {
    const lib = async (i: number) => objMaterialLibrary(await resolveModelTextures(sharedFileSystem(TEXTURED[i].root), parseAny(TEXTURED[i].root, TEXTURED[i].path), TEXTURED[i].path), { filePrefix: 'x_' }).mtl;
    expect(await lib(1)).toMatch(/map_Kd x_grass\.png\nKs 0 0 0\nillum 1\nd 1\nmap_d x_grass\.png/);
    expect(await lib(6)).toMatch(/map_Bump x_launcher_n\.png/);
  });
});
