/**
 * One image everywhere: the three.js adapter textures a surface with the file the material resolver chose, decoded by
 * the image floor — the same file the CLI's .glb embeds, with the same pixels. Checked on the C1 arrows (a Quake 2 PCX
 * skin with a same-name .png beside it), where the adapter once fell back to the .png and the CLI decoded the PCX; on
 * a PCX-skinned MD2 with nothing beside it; and on a DDS named by md5.cfg's `<dds>`. URL probing: with an index, a
 * miss costs no request (no 404 in a browser's console).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataTexture, type MeshStandardMaterial } from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDds } from '../../src/images/dds.js';
import { decodePcx } from '../../src/images/pcx.js';
import { IdTechLoader } from '../../src/three/loader.js';
import type { IdTechModel } from '../../src/three/model.js';
import { materialsUnder } from './three-eval.js';
import { urlFileSystem } from '../../src/vfs/browser.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { startServer } from '../../../scripts/serve.mjs';
import { cliTemp, runCli } from '../helpers/cli.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { pngRgba, readGlb } from '../helpers/textured.js';

const AQ = join(SHARED_MODELS, 'distrib/baseaq/pak0');
const tmp = cliTemp('three-textures');

const materialsOf = (m: IdTechModel): MeshStandardMaterial[] => materialsUnder(m.scene);

/** The first embedded image of a .glb as RGBA (PNG decoded by fast-png, an independent decoder). */
function glbImage(path: string): { name: string; width: number; height: number; rgba: Uint8Array } {
  const { json, bin } = readGlb(new Uint8Array(readFileSync(path)));
  const image = json.images[0];
  const view = json.bufferViews[image.bufferView];
  expect(image.mimeType).toBe('image/png');
  return { name: image.name, ...pngRgba(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength)) };
}

describe('the adapter and the CLI show the same image', () => {
  for (const arrow of ['arrow_blue', 'arrow_red']) {
    it(`C1 ${arrow}.md2 (a PCX skin, a .png of the same name beside it): both take the PCX the model names, pixel for pixel`, async () => {
      const model = await new IdTechLoader().setFileSystem(folderFileSystem(AQ)).loadAsync(`models/indicator/${arrow}.md2`);
      const map = materialsOf(model)[0].map as DataTexture;
      expect(map).toBeInstanceOf(DataTexture);
      const pcxPath = `models/indicator/${arrow}.pcx`;
      expect([map.name, model.materials[0].diffuse?.path]).toEqual([pcxPath, pcxPath]);
      const pcx = decodePcx(read(join(AQ, pcxPath)));
      expect([map.image.width, map.image.height]).toEqual([pcx.width, pcx.height]);
      expect(Buffer.compare(Buffer.from(map.image.data as Uint8Array), Buffer.from(pcx.rgba))).toBe(0);

      const out = join(tmp, `${arrow}.glb`);
      const r = await runCli('convert', join(AQ, `models/indicator/${arrow}.md2`), '-o', out);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr.split('\n')).toContain(`  #0: ${pcxPath}`); // the skin the model names is the PCX itself (said once)
      const embedded = glbImage(out);
      expect(embedded.name).toBe(arrow);
      expect([embedded.width, embedded.height]).toEqual([map.image.width, map.image.height]);
      expect(Buffer.compare(Buffer.from(embedded.rgba), Buffer.from(map.image.data as Uint8Array))).toBe(0);
      model.dispose();
    });
  }

  it('a PCX-skinned MD2 with nothing beside it is textured through the adapter (it was PCX_UNSUPPORTED)', async () => {
    const fs = memoryFileSystem(['arrow_red.md2', 'arrow_red.pcx'].map((f) => ({ path: `models/indicator/${f}`, bytes: read(join(AQ, 'models/indicator', f)) })));
    const model = await new IdTechLoader().setFileSystem(fs).loadAsync('models/indicator/arrow_red.md2');
    const map = materialsOf(model)[0].map as DataTexture;
    expect(map).toBeInstanceOf(DataTexture);
    expect(Buffer.compare(Buffer.from(map.image.data as Uint8Array), Buffer.from(decodePcx(read(join(AQ, 'models/indicator/arrow_red.pcx'))).rgba))).toBe(0);
    expect(model.warnings.map((w) => w.code)).not.toContain('PCX_UNSUPPORTED');
  });

  it('a DDS named by md5.cfg\'s "<dds>skin.jpg": the adapter decodes the .dds the resolver picks', async () => {
    const drone = join(SHARED_MODELS, 'actors/drone');
    const dds = read(join(SHARED_MODELS, 'actors-iqm/player/diffuse.dds')); // a real DXT1, standing in as the drone's skin.dds
    const fs = memoryFileSystem([
      { path: 'drone/mesh.md5mesh', bytes: read(join(drone, 'mesh.md5mesh')) },
      { path: 'drone/md5.cfg', bytes: read(join(drone, 'md5.cfg')) },
      { path: 'drone/skin.jpg', bytes: read(join(drone, 'skin.jpg')) },
      { path: 'drone/skin.dds', bytes: dds },
    ]);
    const model = await new IdTechLoader().setFileSystem(fs).loadAsync('drone/mesh.md5mesh');
    expect(model.materials.map((m) => m.diffuse?.path)).toEqual(['drone/skin.dds', 'drone/skin.dds']);
    const map = materialsOf(model)[0].map as DataTexture;
    expect(map).toBeInstanceOf(DataTexture);
    expect(Buffer.compare(Buffer.from(map.image.data as Uint8Array), Buffer.from(decodeDds(dds).rgba))).toBe(0);
    model.dispose();
  });
});

describe('probing URLs for textures', () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  /** A fetch that records each request's method, path and status. */
  const recording = (log: string[]) => async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await fetch(input, init);
    log.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${res.status}`);
    return res;
  };

  it('without an index every miss is a request answered 404 (a red line in a browser console); with one, misses cost no request', async () => {
    const root = `${server.url}/models/actors/`;
    const index = ['drone/mesh.md5mesh', 'drone/md5.cfg', 'drone/skin.jpg', 'drone/mask.jpg', 'drone/normals.png'];
    const bare: string[] = [];
    const m1 = await new IdTechLoader().setFileSystem(urlFileSystem(root, { fetch: recording(bare) })).setTextures(false).loadAsync('drone/mesh.md5mesh');
    const indexed: string[] = [];
    const m2 = await new IdTechLoader().setFileSystem(urlFileSystem(root, { index, fetch: recording(indexed) })).setTextures(false).loadAsync('drone/mesh.md5mesh');
    // md5.cfg's "<dds>skin.jpg": Tesseract looks for skin.dds first, which this folder does not have
    expect(bare.filter((l) => l.endsWith(' 404'))).toContain('HEAD /models/actors/drone/skin.dds 404');
    expect(indexed.filter((l) => l.endsWith(' 404'))).toEqual([]);
    expect(m2.materials.map((m) => m.diffuse?.path)).toEqual(m1.materials.map((m) => m.diffuse?.path));
    m1.dispose();
    m2.dispose();
  });

  it('plain URLs: the model says how many lookups the server answered 404 and how to avoid them; setIndex asks none', async () => {
    const url = `${server.url}/models/actors/drone/mesh.md5mesh`;
    const log: string[] = [];
    const original = globalThis.fetch;
    const realFetch = original;
    const record = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await realFetch(input, init);
      log.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} ${res.status}`);
      return res;
    };
    globalThis.fetch = record as typeof fetch;
    try {
      const bare = await new IdTechLoader().setTextures(false).loadAsync(url);
      const missed = log.filter((l) => l.startsWith('HEAD ') && l.endsWith(' 404')).length;
      expect(missed).toBeGreaterThan(0);
      const warning = bare.warnings.find((w) => w.code === 'HTTP_NOT_FOUND');
      expect(warning?.message).toMatch(new RegExp(`^${missed} files? looked up under ${server.url}/ .* setIndex`));
      log.length = 0;
      const index = ['drone/mesh.md5mesh', 'drone/md5.cfg', 'drone/skin.jpg', 'drone/mask.jpg', 'drone/normals.png'].map((p) => `models/actors/${p}`);
      const indexed = await new IdTechLoader().setIndex(index).setTextures(false).loadAsync(url);
      expect(log.filter((l) => l.endsWith(' 404'))).toEqual([]);
      expect(indexed.warnings.map((w) => w.code)).not.toContain('HTTP_NOT_FOUND');
      expect(indexed.materials.map((m) => m.diffuse?.path)).toEqual(bare.materials.map((m) => m.diffuse?.path));
      bare.dispose();
      indexed.dispose();
    } finally {
      globalThis.fetch = original;
    }
  });
});
