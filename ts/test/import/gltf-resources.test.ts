/**
 * The files a glTF names, as the library handles them for every caller (import/gltf-resources.ts): a URL, an
 * absolute path, `..` (plain or percent-encoded) or a control character is UNSAFE_PATH and malformed
 * percent-encoding UNSUPPORTED, each naming the uri, before any reader is asked; a file with no source is
 * READ_FAILED; a buffer shorter than its byteLength TRUNCATED; a GLB's external files go through the same reader.
 */
import { describe, expect, it } from 'vitest';
import { importGltf } from '../../src/registry/import-gltf.js';
import { gltfResourcePath, type GltfResourceRequest } from '../../src/import/gltf-resources.js';
import { glb, triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { failure } from '../helpers/failure.js';


/** A reader that records what it is asked and answers with the triangle's bytes. */
function recorder() {
  const asked: GltfResourceRequest[] = [];
  return { asked, read: async (r: GltfResourceRequest) => (asked.push(r), triangleBin()) };
}

describe('uris a glTF may not name', () => {
  const passwd = `${'../'.repeat(12)}etc/passwd`;
  const cases: [string, string, RegExp][] = [
    [passwd, 'UNSAFE_PATH', /leaves the glTF's folder/],
    [`${'%2e%2e/'.repeat(12)}etc/passwd`, 'UNSAFE_PATH', /leaves the glTF's folder/],
    ['textures/../../x.bin', 'UNSAFE_PATH', /leaves the glTF's folder/],
    ['..\\..\\x.bin', 'UNSAFE_PATH', /leaves the glTF's folder/],
    ['/etc/passwd', 'UNSAFE_PATH', /absolute path/],
    ['%2Fetc%2Fpasswd', 'UNSAFE_PATH', /absolute path/],
    ['//server/share/x.bin', 'UNSAFE_PATH', /absolute path/],
    ['file:///etc/passwd', 'UNSAFE_PATH', /is a URL or a drive path \(file:\)/],
    ['http://example.com/x.bin', 'UNSAFE_PATH', /is a URL or a drive path \(http:\)/],
    ['C:\\Windows\\win.ini', 'UNSAFE_PATH', /is a URL or a drive path \(C:\)/],
    ['x%00.bin', 'UNSAFE_PATH', /control character/],
    ['x%1b]0;pwned%07.bin', 'UNSAFE_PATH', /control character/],
    ['%zz.bin', 'UNSUPPORTED', /not a valid URI \(malformed percent-encoding\)/],
    ['', 'UNSAFE_PATH', /names no file/],
  ];

  for (const [uri, code, why] of cases) {
    it(`buffer uri ${JSON.stringify(uri)}: ${code}, naming it, and no reader is asked`, async () => {
      const r = recorder();
      const e = await failure(importGltf({ bytes: triangleGltf({ bufferUri: uri }), readResource: r.read }, { format: 'md3' }));
      expect([e.code, e.detail]).toEqual([code, expect.stringMatching(why)]);
      expect(e.detail).toContain(`buffer 0's uri '${uri.slice(0, 64)}`);
      expect(r.asked).toEqual([]);
    });
  }

  it('an image uri is checked the same way (the --texture-path exploit of issue 27)', async () => {
    const r = recorder();
    const e = await failure(importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin', imageUri: passwd }), readResource: r.read }, { format: 'md3', texturePath: 'models/x' }));
    expect([e.code, e.detail]).toEqual(['UNSAFE_PATH', expect.stringMatching(/^image 0's uri '\.\.\/\.\.\/.*' leaves the glTF's folder/)]);
    expect(r.asked).toEqual([]);
  });

  it('a file: or http: buffer without any reader is a typed error naming it, not a leaked "Cannot read properties of undefined"', async () => {
    for (const uri of ['file:///etc/passwd', 'http://example.com/x.bin']) {
      const e = await failure(importGltf({ bytes: triangleGltf({ bufferUri: uri }) }, { format: 'md3' }));
      expect(e.code).toBe('UNSAFE_PATH');
      expect(e.message).not.toMatch(/Cannot read properties/);
    }
  });

  it('paths are decoded and tidied for the reader: %20, ./ and a\\\\b', () => {
    expect(gltfResourcePath('my%20model.bin', 'buffer', 0)).toBe('my model.bin');
    expect(gltfResourcePath('./textures//skin.png', 'image', 0)).toBe('textures/skin.png');
    expect(gltfResourcePath('textures\\skin.png', 'image', 0)).toBe('textures/skin.png');
    expect(gltfResourcePath('data:application/octet-stream;base64,AAAA', 'buffer', 0)).toBeNull();
  });
});

describe('reading what a glTF names', () => {
  it('the reader is asked for each file once, with its decoded path, kind, index and declared byteLength', async () => {
    const r = recorder();
    const out = await importGltf({ bytes: triangleGltf({ bufferUri: 'my%20tri.bin' }), readResource: r.read }, { format: 'md3' });
    expect(out.surfaces).toHaveLength(1);
    expect(r.asked).toEqual([{ uri: 'my%20tri.bin', path: 'my tri.bin', kind: 'buffer', index: 0, byteLength: 36 }]);
  });

  it('resources by uri are used first; without them and without a reader a named file is READ_FAILED', async () => {
    const bytes = triangleGltf({ bufferUri: 'tri.bin' });
    expect((await importGltf({ bytes, resources: { 'tri.bin': triangleBin() } }, { format: 'md3' })).surfaces).toHaveLength(1);
    const e = await failure(importGltf({ bytes }, { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['READ_FAILED', "buffer 0's uri 'tri.bin' names a file, and no reader was given for the glTF's files (readResource)"]);
  });

  it('a buffer shorter than its declared byteLength is TRUNCATED; a reader that throws a plain error is READ_FAILED naming the uri', async () => {
    const short = await failure(importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin', byteLength: 40 }), readResource: async () => triangleBin() }, { format: 'md3' }));
    expect([short.code, short.detail]).toEqual(['TRUNCATED', "buffer 0's uri 'tri.bin': the file holds 36 bytes, the glTF declares 40"]);
    const broken = await failure(importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin' }), readResource: async () => { throw new Error('disk on fire'); } }, { format: 'md3' }));
    expect([broken.code, broken.detail]).toEqual(['READ_FAILED', "buffer 0's uri 'tri.bin': disk on fire"]);
  });

  it('a GLB naming an external file goes through the same checks and reader', async () => {
    const json = JSON.parse(new TextDecoder().decode(triangleGltf({ bufferUri: 'tri.bin' })));
    const r = recorder();
    expect((await importGltf({ bytes: glb(json, new Uint8Array(0)), readResource: r.read }, { format: 'md3' })).surfaces).toHaveLength(1);
    expect(r.asked.map((a) => a.path)).toEqual(['tri.bin']);
    json.buffers[0].uri = '../x.bin';
    expect((await failure(importGltf({ bytes: glb(json, new Uint8Array(0)), readResource: r.read }, { format: 'md3' }))).code).toBe('UNSAFE_PATH');
  });

  it('long uris are quoted cut to 64 characters with their length', async () => {
    const uri = `${'a'.repeat(100_000)}/../x.bin`;
    const e = await failure(importGltf({ bytes: triangleGltf({ bufferUri: uri }) }, { format: 'md3' }));
    expect(e.detail.length).toBeLessThan(300);
    expect(e.detail).toContain(`… (${uri.length} characters)`);
  });
});
