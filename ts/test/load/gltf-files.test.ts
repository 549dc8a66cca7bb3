/**
 * The Node reader of a `.gltf`'s files (load/gltf-files.ts): only regular files, only inside the glTF's own folder
 * once links are resolved, sizes checked before reading. Every hostile file is made here, in a temp folder: links
 * to /etc/passwd and /dev/zero, a FIFO (which would block a plain read forever), a folder, a short buffer, a large
 * image.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGltf } from '../../src/registry/import-gltf.js';
import { gltfFileReader } from '../../src/load/gltf-files.js';
import { readRegularFile } from '../../src/load/regular-file.js';
import { triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { shared } from '../helpers/cli.js';
import { readFileSync } from 'node:fs';
import { failure } from '../helpers/failure.js';


/** A folder holding `model.gltf` (one triangle, its buffer named `bufferUri`) and whatever `setup` puts beside it. */
function folder(bufferUri: string, setup: (dir: string) => void, extra: { imageUri?: string; byteLength?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'idtech-gltf-files-'));
  const path = join(dir, 'model.gltf');
  writeFileSync(path, triangleGltf({ bufferUri, ...extra }));
  setup(dir);
  return { dir, path, input: () => ({ bytes: readFileSync(path), readResource: gltfFileReader(path) }) };
}

describe('gltfFileReader', () => {
  it('reads a buffer beside the glTF, and one in a sub-folder, to its declared byteLength (extra bytes are not read)', async () => {
    const f = folder('bin/tri.bin', (d) => {
      mkdirSync(join(d, 'bin'));
      writeFileSync(join(d, 'bin/tri.bin'), new Uint8Array([...triangleBin(), 1, 2, 3, 4]));
    });
    expect((await importGltf(f.input(), { format: 'md3' })).surfaces[0].vertexCount).toBe(3);
    const bytes = await gltfFileReader(f.path)({ uri: 'bin/tri.bin', path: 'bin/tri.bin', kind: 'buffer', index: 0, byteLength: 36 });
    expect(bytes).toEqual(triangleBin());
  });

  it('the corpus .gltf with its .bin reads through it', async () => {
    const path = shared('gltf-samples/assimp/test/models/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf');
    const out = await importGltf({ bytes: readFileSync(path), readResource: gltfFileReader(path) }, { format: 'md3' });
    expect(out.surfaces[0].vertexCount).toBe(24);
  });

  it('a link beside the glTF to /etc/passwd is UNSAFE_PATH: its real path is outside the folder; a link inside it is followed', async () => {
    const out = folder('passwd.bin', (d) => symlinkSync('/etc/passwd', join(d, 'passwd.bin')));
    const e = await failure(importGltf(out.input(), { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['UNSAFE_PATH', expect.stringMatching(/^buffer 0's uri 'passwd\.bin' leads to \/etc\/passwd \(through a symbolic link\), outside the glTF's folder /)]);
    const inside = folder('alias.bin', (d) => {
      writeFileSync(join(d, 'tri.bin'), triangleBin());
      symlinkSync('tri.bin', join(d, 'alias.bin'));
    });
    expect((await importGltf(inside.input(), { format: 'md3' })).surfaces).toHaveLength(1);
  });

  it('a folder linked beside the glTF cannot lead out either (sub/../ is resolved on the real path)', async () => {
    const f = folder('up/passwd', (d) => symlinkSync('/etc', join(d, 'up')));
    expect((await failure(importGltf(f.input(), { format: 'md3' }))).code).toBe('UNSAFE_PATH');
  });

  it('/dev/zero through a link is UNSAFE_PATH, never read until memory runs out', async () => {
    const f = folder('zero.bin', (d) => symlinkSync('/dev/zero', join(d, 'zero.bin')));
    expect((await failure(importGltf(f.input(), { format: 'md3' }))).code).toBe('UNSAFE_PATH');
  });

  it('a FIFO beside the glTF is READ_FAILED at once (opened without blocking, refused as not a regular file)', async () => {
    const f = folder('pipe.bin', (d) => execFileSync('mkfifo', [join(d, 'pipe.bin')]));
    const e = await failure(importGltf(f.input(), { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['READ_FAILED', "buffer 0's uri 'pipe.bin': is a FIFO, not a regular file: not read"]);
  });

  it('a character device is refused the same way (readRegularFile on /dev/zero itself)', async () => {
    const e = await failure(readRegularFile('/dev/zero', { maxBytes: 1 << 20, limit: 'maxGltfFileBytes', label: 'zero' }));
    expect([e.code, e.detail]).toEqual(['READ_FAILED', 'zero: is a device, not a regular file: not read']);
  });

  it('a folder, a missing file, a short buffer and an image over maxGltfFileBytes are typed errors naming the uri', async () => {
    const dir = folder('sub', (d) => mkdirSync(join(d, 'sub')));
    expect((await failure(importGltf(dir.input(), { format: 'md3' }))).detail).toMatch(/is a folder, not a regular file/);
    const missing = folder('nothere.bin', () => {});
    const m = await failure(importGltf(missing.input(), { format: 'md3' }));
    expect([m.code, m.detail]).toEqual(['READ_FAILED', "buffer 0's uri 'nothere.bin' names nothere.bin, which cannot be found beside the glTF (ENOENT)"]);
    const short = folder('tri.bin', (d) => writeFileSync(join(d, 'tri.bin'), triangleBin().subarray(0, 30)));
    const s = await failure(importGltf(short.input(), { format: 'md3' }));
    expect([s.code, s.detail]).toEqual(['TRUNCATED', "buffer 0's uri 'tri.bin': the file holds 30 bytes, 36 are declared"]);
    const big = folder('tri.bin', (d) => {
      writeFileSync(join(d, 'tri.bin'), triangleBin());
      writeFileSync(join(d, 'skin.png'), new Uint8Array(5000));
    }, { imageUri: 'skin.png' });
    const input = { bytes: readFileSync(big.path), readResource: gltfFileReader(big.path, { maxGltfFileBytes: 4999 }) };
    const b = await failure(importGltf(input, { format: 'md3' }));
    expect([b.code, b.detail]).toEqual(['RESOURCE_LIMIT', "image 0's uri 'skin.png' is 5000 bytes: over the limit maxGltfFileBytes = 4999 (raise it with --limit maxGltfFileBytes=N, or the maxGltfFileBytes option)"]);
  });
});
