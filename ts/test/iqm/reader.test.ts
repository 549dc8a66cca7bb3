/**
 * The IQM reader on the real corpus and on broken files: every file of ../shared/models/actors-iqm parses with the
 * counts the MANIFEST gives, the same in any chunking; limits one engine has are ENGINE_LIMIT warnings naming it;
 * bad input is one ModelParseError code at the byte at fault, before anything is allocated for the block.
 */
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import type { IqmModel } from '../../src/base/model.js';
import { IqmParser, parseIqm } from '../../src/formats/iqm/parser.js';
import { parseIqmStream } from '../../src/formats/iqm/stream.js';
import { iqmFormat } from '../../src/formats/iqm/format.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { iqmFile, iqmFiles } from './_corpus.js';

const count = (notes: string, key: string) => Number(new RegExp(`${key}=(\\d+)`).exec(notes)![1]);

function error(f: () => unknown): ModelParseError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ModelParseError);
    return e as ModelParseError;
  }
  throw new Error('no error thrown');
}

/** A copy of `bytes` with the uint32 at `at` set to `v`. */
function patched(bytes: Uint8Array, at: number, v: number, kind: 'u32' | 'f32' | 'i32' = 'u32'): Uint8Array {
  const b = bytes.slice();
  const view = new DataView(b.buffer);
  if (kind === 'f32') view.setFloat32(at, v, true);
  else if (kind === 'i32') view.setInt32(at, v, true);
  else view.setUint32(at, v, true);
  return b;
}
const word = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, true);

/** Whether two models hold the same data (typed arrays byte for byte; warnings by code: their offsets move). */
function expectSameModel(a: IqmModel, b: IqmModel, what: string): void {
  const bytesOf = (x: ArrayBufferView) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (ArrayBuffer.isView(x) && ArrayBuffer.isView(y)) {
      expect(x.constructor, `${what} ${path}`).toBe(y.constructor);
      expect(Buffer.compare(bytesOf(x), bytesOf(y)), `${what} ${path}`).toBe(0);
    } else if (x && y && typeof x === 'object' && typeof y === 'object') {
      expect(Object.keys(x).sort(), `${what} ${path}`).toEqual(Object.keys(y).sort());
      for (const k of Object.keys(x)) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`);
    } else expect(x, `${what} ${path}`).toEqual(y);
  };
  walk({ ...a, warnings: a.warnings.map((w) => w.code) }, { ...b, warnings: b.warnings.map((w) => w.code) }, 'model');
}

describe('the IQM corpus', () => {
  it('holds 178 files and every one parses with the MANIFEST counts', () => {
    const files = iqmFiles();
    expect(files.length).toBe(178);
    for (const f of files) {
      const m = f.model;
      expect(m.meshes.length, f.path).toBe(count(f.notes, 'meshes'));
      expect(m.vertexCount, f.path).toBe(count(f.notes, 'verts'));
      expect(m.triangleCount, f.path).toBe(count(f.notes, 'tris'));
      expect(m.joints.count, f.path).toBe(count(f.notes, 'joints'));
      expect(m.poses.count, f.path).toBe(count(f.notes, 'poses'));
      expect(m.anims.length, f.path).toBe(count(f.notes, 'anims'));
      expect(m.frameCount, f.path).toBe(count(f.notes, 'frames'));
      expect(iqmFormat.test!(f.bytes.subarray(0, 16)), f.path).toBe(true);
    }
  });

  it('reads the player mesh as Red Eclipse ships it: 78 joints, blend arrays in bytes, no anims', () => {
    const m = iqmFile('player/male/RE_Player_male.iqm').model;
    expect(m.joints.names.slice(0, 5)).toEqual(['hips', 'spine', 'thigh.L.01', 'thigh.R.01', 'ribs']);
    expect(m.vertexArrays.map((a) => `${a.name}:${a.format}x${a.size}`)).toEqual(['position:7x3', 'texcoord:7x2', 'normal:7x3', 'tangent:7x4', 'blendindexes:1x4', 'blendweights:1x4']);
    expect(m.blendWeights).toBeInstanceOf(Uint8Array);
    expect(m.meshes[0]).toMatchObject({ name: 'RE_Player', firstVertex: 0, vertexCount: 3110, firstTriangle: 0, triangleCount: 5006 });
    expect(m.adjacency!.length).toBe(5006 * 3);
    // ioquake3's tessellator refuses a 3110-vertex surface; Tesseract draws it: a warning naming the engine
    expect(m.warnings.map((w) => w.message).join('\n')).toMatch(/ioquake3 refuses the model \(R_LoadIQM: num_vertexes >= SHADER_MAX_VERTEXES 1000\)/);
  });

  it('reads an animation-only file: 78 poses, no joints, one anim; ioquake3 would refuse it', () => {
    const m = iqmFile('player/runcycle0.iqm').model;
    expect(m.joints.count).toBe(0);
    expect(m.poses.count).toBe(78);
    expect(m.anims).toHaveLength(1);
    expect(m.frames.length).toBe(m.frameCount * m.frameChannels);
    expect(m.warnings.find((w) => w.code === 'ENGINE_LIMIT')!.message).toMatch(/num_poses 78 with num_joints 0: ioquake3 refuses/);
  });

  it('parses the same model from any chunking of the stream', async () => {
    for (const [path, sizes] of [['player/idle.iqm', [1, 7, 124]], ['turret/sphere/turret_sphere.iqm', [13, 4096]], ['janitor/lod2/lod2.iqm', [100, 65536]]] as const) {
      const f = iqmFile(path);
      for (const size of sizes) {
        const chunks = [];
        for (let i = 0; i < f.bytes.length; i += size) chunks.push(f.bytes.subarray(i, i + size));
        expectSameModel(await parseIqmStream(chunks), f.model, `${path} in ${size}-byte chunks`);
      }
    }
  });

  it('parse → write → parse gives the same model for every file', () => {
    for (const f of iqmFiles()) {
      expectSameModel(parseIqm(writeIqm(f.model)), f.model, f.path);
    }
  });
});

describe('bad IQM files', () => {
  const good = iqmFile('turret/sphere/turret_sphere.iqm').bytes;

  it('a wrong magic fails on the first chunk, a wrong version at its field, a short file as TRUNCATED', () => {
    const p = new IqmParser();
    expect(() => p.write(new TextEncoder().encode('INTERQUAKEMODEX'))).toThrow(/BAD_MAGIC/);
    expect(error(() => parseIqm(patched(good, 16, 1)))).toMatchObject({ code: 'BAD_VERSION', offset: 16 });
    expect(error(() => parseIqm(new Uint8Array(0)))).toMatchObject({ code: 'TRUNCATED', offset: 0 });
    expect(error(() => parseIqm(good.subarray(0, 100)))).toMatchObject({ code: 'TRUNCATED' });
    expect(error(() => parseIqm(good.subarray(0, good.length - 1)))).toMatchObject({ code: 'TRUNCATED', offset: good.length - 1 });
  });

  it('a block past filesize is BAD_OFFSET at the field that placed it, whatever its count claims', () => {
    expect(error(() => parseIqm(patched(good, 56, 0x7fffffff)))).toMatchObject({ code: 'BAD_OFFSET', offset: 60 }); // num_triangles
    const idle = iqmFile('player/idle.iqm').bytes;
    expect(error(() => parseIqm(patched(idle, 100, idle.length)))).toMatchObject({ code: 'BAD_OFFSET', offset: 100 }); // ofs_frames
    expect(error(() => parseIqm(patched(good, 68, 0xffffffff)))).toMatchObject({ code: 'BAD_OFFSET', offset: 72 }); // num_joints
  });

  it('indices and numbers are checked: triangle vertex, joint parent, finite floats, channels per frame', () => {
    const ofsTriangles = word(good, 60), ofsJoints = word(good, 72), numVertexes = word(good, 48);
    expect(error(() => parseIqm(patched(good, ofsTriangles + 4, numVertexes)))).toMatchObject({ code: 'INDEX_OUT_OF_RANGE', offset: ofsTriangles + 4 });
    expect(error(() => parseIqm(patched(good, ofsJoints + 4, 0, 'i32')))).toMatchObject({ code: 'INDEX_OUT_OF_RANGE', offset: ofsJoints + 4 });
    expect(error(() => parseIqm(patched(good, ofsJoints + 48 + 8, NaN, 'f32')))).toMatchObject({ code: 'BAD_NUMBER', offset: ofsJoints + 48 + 8 });
    const ofsPoses = word(good, 80);
    expect(error(() => parseIqm(patched(good, ofsPoses + 4, 0x3ff)))).toMatchObject({ code: 'BAD_COUNT', offset: 96 }); // 10 channels, the file stores 0 a frame
  });

  it('vertex arrays whose bytes overlap are read once: the first listed, the others skipped', () => {
    const ofsVA = word(good, 52);
    let b = good;
    for (let k = 1; k < 6; k++) b = patched(b, ofsVA + 20 * k + 16, word(good, ofsVA + 16)); // every array at the positions' bytes
    const m = parseIqm(b);
    expect(m.positions).not.toBeNull();
    expect(m.vertexArrays.filter((a) => a.data !== null).map((a) => a.name)).toEqual(['position']);
    expect(m.warnings.filter((w) => w.code === 'IQM_ARRAY_SKIPPED')).toHaveLength(5);
  });

  it('an extension list that links back to itself ends there; more records than the file holds is BAD_COUNT', () => {
    const withExt = writeIqm({ ...iqmFile('player/idle.iqm').model, extensions: [{ name: 'a', data: new Uint8Array([1, 2]) }, { name: 'b', data: new Uint8Array([3]) }] });
    expect(parseIqm(withExt).extensions.map((e) => [e.name, [...e.data]])).toEqual([['a', [1, 2]], ['b', [3]]]);
    const first = word(withExt, 120);
    const looped = patched(patched(withExt, first + 12, first), 116, 3); // record 0 links to itself; 3 declared
    const m = parseIqm(looped);
    expect(m.extensions).toHaveLength(1);
    expect(m.warnings.map((w) => w.code)).toContain('IQM_EXTENSION_LOOP');
    expect(error(() => parseIqm(patched(withExt, 116, 0x10000000)))).toMatchObject({ code: 'BAD_COUNT', offset: 116 });
  });

  it('a vertex array past the file is skipped with a warning, as DarkPlaces skips it', () => {
    const ofsVA = word(good, 52);
    const m = parseIqm(patched(good, ofsVA + 20 * 5 + 16, good.length)); // blend weights' offset
    expect(m.blendWeights).toBeNull();
    expect(m.warnings.map((w) => w.code)).toContain('IQM_ARRAY_SKIPPED');
  });
});
