/** What the writers and the glTF import cannot hold is one typed error (UNWRITABLE / UNSUPPORTED), naming the element. */
import { describe, expect, it } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { importGltf } from '../../src/registry/import-gltf.js';
import { writeMd2 } from '../../src/formats/md2/write.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { writeMd5Mesh } from '../../src/formats/md5/write-mesh.js';
import { shared } from '../helpers/cli.js';
import { read } from '../helpers/models.js';
import { caught } from './_helpers.js';


describe('writer errors', () => {
  const md3 = () => parseMd3(read(shared('res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3')));

  it('an MD5 joint name holding a quote, which idLexer strings cannot escape', async () => {
    const mesh = parseMd5Mesh(read(shared('assimp/test/models/MD5/SimpleCube.md5mesh')));
    mesh.joints.names[1] = 'bad"name';
    const e = await caught(() => writeMd5Mesh(mesh));
    expect(e.code).toBe('UNWRITABLE');
    expect(e.detail).toMatch(/joint 1 name/);
  });

  it('an MD3 surface name longer than its 64-byte field, at the field', async () => {
    const model = md3();
    model.surfaces[2].name = 'x'.repeat(65);
    const e = await caught(() => writeMd3(model));
    expect(e.code).toBe('UNWRITABLE');
    expect(e.detail).toMatch(/surface 2 name/);
    expect(e.offset).toBeGreaterThan(108);
  });

  it('an MD2 frame name with a character outside Latin-1, and arrays shorter than the counts', async () => {
    const model = parseMd2(read(shared('assimp/test/models-nonbsd/MD2/flag.md2')));
    const e = await caught(() => writeMd2({ ...model, frameNames: model.frameNames.map((n, i) => (i === 3 ? 'стоп' : n)) }));
    expect(e.detail).toMatch(/frame 3 name/);
    const short = await caught(() => writeMd2({ ...model, frameVertices: model.frameVertices.subarray(4) }));
    expect(short.detail).toMatch(/frameVertices/);
  });

  it('glTF import: bytes that are not glTF are UNSUPPORTED; a vertex past MD3\'s ±512 units is UNWRITABLE, named', async () => {
    expect((await caught(() => importGltf({ bytes: new Uint8Array([1, 2, 3, 4, 5]) }, { format: 'md3' }))).code).toBe('UNSUPPORTED');
    const glb = await toGlb(md3());
    const e = await caught(() => importGltf({ bytes: glb }, { format: 'md3', scale: 1000 }));
    expect(e.code).toBe('UNWRITABLE');
    expect(e.detail).toMatch(/surface \d+ \(".*"\) frame 0 vertex \d+: .* outside MD3's ±512 units/);
  });
});
