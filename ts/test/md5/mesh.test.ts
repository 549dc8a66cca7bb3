import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { LIMITS } from '../../src/formats/md5/limits.js';
import { Md5MeshParser, parseMd5Mesh, parseMd5Anim, recoverW } from '../../src/formats/md5/index.js';
import { FILES, HAVE_MODELS, badEditChecker, catchParse, enc, expectError, readModel } from './_helpers.js';

const f32 = Math.fround;

const BASE = `MD5Version 10 // written by hand
commandline "x"

numJoints 2
numMeshes 1

joints {
\t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )\t\t//
\t"child"\t0 ( 1 2 3 ) ( 0.5 0.5 0.5 )\t\t// root
}

mesh {
\t// meshes: body
\tname "body"
\tshader "skin/body"

\tnumverts 3
\tvert 0 ( 0 0 ) 0 1
\tvert 1 ( 1 0 ) 1 1
\tvert 2 ( 0 1 ) 2 2

\tnumtris 1
\ttri 0 0 1 2

\tnumweights 4
\tweight 0 0 1 ( 0 0 0 )
\tweight 1 1 1 ( 1 0 0 )
\tweight 2 0 0.5 ( 0 1 0 )
\tweight 3 1 0.5 ( 0 1 0 )
}
`;

/** Parse BASE with `from` replaced by `to`; expect `code` at the position of `at` (default: `to`). */
const expectBad = badEditChecker(BASE, parseMd5Mesh);

describe('md5mesh: hand-written input', () => {
  test('parses every field', () => {
    const m = parseMd5Mesh(BASE);
    expect(m.format).toBe('md5mesh');
    expect(m.version).toBe(10);
    expect(m.commandline).toBe('x');
    expect(m.joints.count).toBe(2);
    expect(m.joints.names).toEqual(['root', 'child']);
    expect([...m.joints.parents]).toEqual([-1, 0]);
    expect([...m.joints.positions]).toEqual([0, 0, 0, 1, 2, 3]);
    expect([...m.joints.orientations]).toEqual([0, 0, 0, -1, 0.5, 0.5, 0.5, -0.5]);
    expect(m.meshes).toHaveLength(1);
    const p = m.meshes[0];
    expect(p.name).toBe('body');
    expect(p.shader).toBe('skin/body');
    expect(p.vertexCount).toBe(3);
    expect([...p.uvs]).toEqual([0, 0, 1, 0, 0, 1]);
    expect([...p.weightStart]).toEqual([0, 1, 2]);
    expect([...p.weightCount]).toEqual([1, 1, 2]);
    expect(p.triangleCount).toBe(1);
    expect([...p.triangles]).toEqual([0, 1, 2]);
    expect(p.weightTotal).toBe(4);
    expect([...p.weightJoints]).toEqual([0, 1, 0, 1]);
    expect([...p.weightBiases]).toEqual([1, 1, 0.5, 0.5]);
    expect([...p.weightPositions]).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0]);
    expect(p.uvs).toBeInstanceOf(Float32Array);
    expect(p.triangles).toBeInstanceOf(Uint32Array);
  });

  test('without the optional name, several roots, zero meshes', () => {
    const m = parseMd5Mesh(BASE.replace('\tname "body"\n', '').replace('"child"\t0', '"child"\t-1'));
    expect(m.meshes[0].name).toBe('');
    expect([...m.joints.parents]).toEqual([-1, -1]);
    const z = parseMd5Mesh('MD5Version 10 commandline "" numJoints 0 numMeshes 0 joints { }');
    expect(z.joints.count).toBe(0);
    expect(z.meshes).toEqual([]);
  });

  test('recoverW follows the f32 formula and the −sqrt convention', () => {
    expect(recoverW(0, 0, 0)).toBe(-1);
    expect(recoverW(1, 0, 0)).toBe(0);
    expect(Object.is(recoverW(0.8, 0.8, 0), 0)).toBe(true); // radicand < 0 → +0, as the Rust kernel
    const [x, y, z] = [f32(-0.05548), f32(-0.055477), f32(0.704955)];
    const t = f32(f32(f32(1 - f32(x * x)) - f32(y * y)) - f32(z * z));
    expect(recoverW(x, y, z)).toBe(-f32(Math.sqrt(t)));
  });

  test('version errors', () => {
    expectBad('MD5Version 10', 'MD5Version 11', ErrorCode.BadVersion, '11');
    expectBad('MD5Version 10', 'MD5Version 10.0', ErrorCode.BadVersion, '10.0');
    expectBad('MD5Version 10', 'MD5Versio 10', ErrorCode.BadVersion, 'MD5Versio');
    expectBad('MD5Version 10', '"MD5Version" 10', ErrorCode.BadVersion, '"MD5Version"');
    expectError(() => parseMd5Mesh(''), ErrorCode.Truncated, 1, 1);
    expectError(() => parseMd5Mesh('  \n // nothing\n'), ErrorCode.Truncated, 3, 1);
  });

  test('count errors', () => {
    expectBad('numJoints 2', `numJoints ${LIMITS.maxJoints + 1}`, ErrorCode.BadCount, `${LIMITS.maxJoints + 1}`);
    expectBad('numJoints 2', 'numJoints -1', ErrorCode.BadCount, '-1');
    expectBad('numJoints 2', 'numJoints 2.0', ErrorCode.BadNumber, '2.0');
    expectBad('numJoints 2', 'numJoints 3', ErrorCode.BadCount, '}', '// root');
    expectBad('numJoints 2', 'numJoints 1', ErrorCode.BadCount, '"child"');
    // Doom 3 refuses only negative sizes; the int32 its ParseInt reads is the ceiling (docs/limits.md, MD5)
    expectBad('numMeshes 1', 'numMeshes -1', ErrorCode.BadCount, '-1');
    expectBad('numMeshes 1', 'numMeshes 2147483648', ErrorCode.BadCount, '2147483648');
    expectBad('numverts 3', 'numverts 4', ErrorCode.BadCount, 'numtris');
    expectBad('numverts 3', 'numverts 2', ErrorCode.BadCount, 'vert 2');
    expectBad('numverts 3', 'numverts 2147483648', ErrorCode.BadCount, '2147483648');
    expectBad('numtris 1', 'numtris 2', ErrorCode.BadCount, 'numweights');
    expectBad('numtris 1', 'numtris 0', ErrorCode.BadCount, 'tri 0');
    expectBad('numweights 4', 'numweights 5', ErrorCode.BadCount, '}', 'weight 3');
    expectBad('weight 3 1 0.5 ( 0 1 0 )', 'weight 3 1 0.5 ( 0 1 0 )\n\tweight 4 1 0 ( 0 0 0 )', ErrorCode.BadCount, 'weight 4');
    // mesh blocks: one more than declared, or fewer at end of input
    expect(catchParse(() => parseMd5Mesh(BASE + BASE.slice(BASE.indexOf('mesh {')))).code).toBe(ErrorCode.BadCount);
    const e = expectBad('numMeshes 1', 'numMeshes 2', ErrorCode.BadCount, [BASE.split('\n').length, 1]);
    expect(e.offset).toBe(enc(BASE.replace('numMeshes 1', 'numMeshes 2')).length);
  });

  test('index errors', () => {
    expectBad('"child"\t0', '"child"\t1', ErrorCode.IndexOutOfRange, '1', '"child"\t');
    expectBad('"root"\t-1', '"root"\t0', ErrorCode.IndexOutOfRange, '0', '"root"\t');
    expectBad('"child"\t0', '"child"\t-2', ErrorCode.IndexOutOfRange, '-2');
    expectBad('tri 0 0 1 2', 'tri 0 0 3 2', ErrorCode.IndexOutOfRange, '3', 'tri 0 0 ');
    expectBad('tri 0 0 1 2', 'tri 0 0 -1 2', ErrorCode.IndexOutOfRange, '-1', 'tri 0 0 ');
    expectBad('weight 1 1 1', 'weight 1 2 1', ErrorCode.IndexOutOfRange, '2', 'weight 1 ');
    expectBad('vert 1 ( 1 0 ) 1 1', 'vert 1 ( 1 0 ) 1 0', ErrorCode.IndexOutOfRange, '0', 'vert 1 ( 1 0 ) 1 ');
    // weight range checked when numweights is known, reported at the vertex
    expectBad('vert 2 ( 0 1 ) 2 2', 'vert 2 ( 0 1 ) 2 3', ErrorCode.IndexOutOfRange, '3', 'vert 2 ( 0 1 ) 2 ');
    expectBad('vert 0 ( 0 0 ) 0 1', 'vert 0 ( 0 0 ) 4 1', ErrorCode.IndexOutOfRange, '1', 'vert 0 ( 0 0 ) 4 ');
    expectBad('vert 1 ( 1 0 ) 1 1', 'vert 1 ( 1 0 ) 1.5 1', ErrorCode.BadNumber, '1.5');
  });

  test('a vert/tri/weight marker that is not its position is a warning: Doom 3 reads the number and ignores it', () => {
    const clean = parseMd5Mesh(BASE);
    expect(clean.warnings).toEqual([]);
    for (const [from, to, what] of [
      ['vert 1 (', 'vert 2 (', 'vert 2'],
      ['tri 0 0 1 2', 'tri 1 0 1 2', 'tri 1'],
      ['weight 2 0', 'weight 4294967298 0', 'weight 4294967298'],
    ]) {
      if (!BASE.includes(from)) throw new Error(`the base file has no '${from}'`);
      const text = BASE.replace(from, to);
      const m = parseMd5Mesh(text);
      expect(m.warnings?.map((w) => w.code), to).toEqual(['INDEX_MARKER']);
      const w = m.warnings![0];
      expect(w.message).toContain(`'${what}' at position`);
      expect(text.slice(w.offset)).toMatch(new RegExp('^' + what.split(' ')[1])); // points at the number
      // stored at its position, exactly as the clean file stores it
      expect(m.meshes).toEqual(clean.meshes);
    }
    expectBad('vert 1 (', 'vert 1.5 (', ErrorCode.BadNumber, '1.5');
  });

  test('block order errors', () => {
    expectBad('joints {', 'mesh {', ErrorCode.MissingBlock, 'mesh');
    expectBad('numMeshes 1', 'numMeshes 1 numJoints 2', ErrorCode.DuplicateBlock, 'numJoints', 'numMeshes 1 ');
    expectBad('}\n\nmesh {', '}\njoints { }\nmesh {', ErrorCode.DuplicateBlock, 'joints', '// root');
    expectBad('\tshader "skin/body"\n', '', ErrorCode.MissingBlock, 'numverts');
    expectBad('\tshader "skin/body"\n', '\tshader "skin/body"\n\tshader "a"\n', ErrorCode.DuplicateBlock, 'shader', 'skin/body');
    expectBad('\tname "body"\n', '\tname "body"\n\tname "b"\n', ErrorCode.DuplicateBlock, 'name', 'name "body"');
    expectBad('\tnumtris 1\n\ttri 0 0 1 2\n', '', ErrorCode.MissingBlock, 'numweights');
    expectBad('numweights 4', 'numverts 4', ErrorCode.DuplicateBlock, 'numverts 4');
    expectBad('commandline "x"', '', ErrorCode.MissingBlock, 'numJoints');
  });

  test('token-kind errors', () => {
    expectBad('( 1 2 3 )', '( 1 nan 3 )', ErrorCode.BadNumber, 'nan');
    expectBad('( 1 2 3 )', '( 1 -1.#IND 3 )', ErrorCode.BadNumber, '-1.#IND');
    expectBad('( 1 2 3 )', '( 1 1e999 3 )', ErrorCode.BadNumber, '1e999');
    expectBad('( 1 2 3 )', '( 1 2 3 4 )', ErrorCode.UnexpectedToken, '4 )');
    expectBad('( 1 2 3 )', '( 1 2 )', ErrorCode.UnexpectedToken, ')', '( 1 2 ');
    expectBad('( 1 2 3 )', '[ 1 2 3 ]', ErrorCode.BadCharacter, '[');
    expectBad('shader "skin/body"', 'shader skin', ErrorCode.UnexpectedToken, 'skin');
    expectBad('"root"', 'root', ErrorCode.UnexpectedToken, 'root');
    expectBad('commandline "x"', 'commandline "x\n"', ErrorCode.UnterminatedString, '"x');
    expectBad('commandline "x"', 'commandline "x" /* never closed', ErrorCode.Truncated, '/*');
    expectBad('numJoints 2', 'numJoints 2 @', ErrorCode.BadCharacter, '@');
    expectBad('numverts 3', 'numverts 3 }', ErrorCode.MissingBlock, '}', 'numverts 3 ');
    expectBad('numverts 3', 'numverts 3 {', ErrorCode.UnexpectedToken, '{', 'numverts 3 ');
  });

  test('end of input anywhere inside (at a token boundary) is TRUNCATED at the end position', () => {
    const last = BASE.lastIndexOf('}');
    let n = 0;
    for (let cut = 0; cut < last; cut++) {
      if (!/\s/.test(BASE[cut])) continue;
      const text = BASE.slice(0, cut);
      const lines = text.split('\n');
      // between blocks (after the joints' '}', before 'mesh') a missing mesh block is BAD_COUNT
      const between = cut > BASE.indexOf('}') && cut < BASE.indexOf('mesh {');
      const e = expectError(() => parseMd5Mesh(text), between ? ErrorCode.BadCount : ErrorCode.Truncated);
      expect([e.line, e.column, e.offset], `cut ${cut}`).toEqual([lines.length, lines[lines.length - 1].length + 1, cut]);
      n++;
    }
    expect(n).toBeGreaterThan(100);
    // cut inside a word: the partial word is what the grammar rejects
    expect(catchParse(() => parseMd5Mesh(BASE.slice(0, 3))).code).toBe(ErrorCode.BadVersion);
  });

  test('parser lifecycle: done after end(); errors are sticky', () => {
    const p = new Md5MeshParser();
    p.write(enc(BASE));
    p.end();
    expect(() => p.end()).toThrow();
    expect(() => p.write(enc(' '))).toThrow();
    const q = new Md5MeshParser();
    const e = catchParse(() => q.write(enc('MD5Version 9 ')));
    expect(catchParse(() => q.write(enc(' ')))).toBe(e);
    expect(catchParse(() => q.end())).toBe(e);
  });

  test('a tiny file claiming huge counts allocates little', () => {
    const p = new Md5MeshParser();
    const before = process.memoryUsage().arrayBuffers;
    p.write(
      enc(
        'MD5Version 10 commandline "" numJoints 1 numMeshes 1 joints { "a" -1 ( 0 0 0 ) ( 0 0 0 ) } ' +
          'mesh { shader "" numverts 16000000 vert 0 ( 0 0 ) 0 1 vert 1 ( 0 0 ) 0 1 ',
      ),
    );
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(1 << 20);
    expect(catchParse(() => p.end()).code).toBe(ErrorCode.Truncated);
  });

  test('Latin-1 and UTF-8 names', () => {
    const latin = Uint8Array.from('MD5Version 10 commandline "K\xf6pf" numJoints 0 numMeshes 0 joints { }', (c) =>
      c.charCodeAt(0),
    );
    expect(parseMd5Mesh(latin).commandline).toBe('Köpf');
    expect(parseMd5Mesh(enc('MD5Version 10 commandline "Köpf€" numJoints 0 numMeshes 0 joints { }')).commandline).toBe(
      'Köpf€',
    );
  });
});

describe.skipIf(!HAVE_MODELS)('md5mesh: real files', () => {
  test('drone (Red Eclipse)', () => {
    const m = parseMd5Mesh(readModel(FILES.droneMesh));
    expect(m.commandline).toBe('');
    expect(m.joints.count).toBe(27);
    expect(m.joints.names[0]).toBe('Waist');
    expect(m.joints.names[26]).toBe('Weapon');
    expect([...m.joints.parents]).toEqual([
      -1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 10, 12, 13, 14, 15, 14, 17, 10, 19, 20, 21, 22, 21, 24, 21,
    ]);
    expect([...m.joints.positions.subarray(0, 3)]).toEqual([f32(-0.094203), f32(-0.013319), f32(1.996139)]);
    const o = m.joints.orientations;
    expect([...o.subarray(0, 3)]).toEqual([f32(-0.05548), f32(-0.055477), f32(0.704955)]);
    expect(o[3]).toBe(recoverW(o[0], o[1], o[2]));
    expect(o[3]).toBeCloseTo(-0.70487, 4);
    expect(m.meshes.map((p) => [p.name, p.shader, p.vertexCount, p.triangleCount, p.weightTotal])).toEqual([
      ['', '', 836, 1237, 1104],
      ['', '', 603, 689, 835],
    ]);
    const sum = (k: 'vertexCount' | 'triangleCount' | 'weightTotal') => m.meshes.reduce((s, p) => s + p[k], 0);
    expect([sum('vertexCount'), sum('triangleCount'), sum('weightTotal')]).toEqual([1439, 1926, 1939]);
    const p0 = m.meshes[0];
    expect([...p0.uvs.subarray(0, 2)]).toEqual([f32(0.558643), f32(0.476484)]);
    expect([p0.weightStart[3], p0.weightCount[3]]).toEqual([3, 2]);
    const p1 = m.meshes[1];
    expect(p1.weightJoints[834]).toBe(8);
    expect(p1.weightBiases[834]).toBe(1);
    expect([...p1.weightPositions.subarray(834 * 3)]).toEqual([f32(-0.002582), f32(0.211671), f32(0.09009)]);
    for (const p of m.meshes) {
      expect(p.uvs.length).toBe(p.vertexCount * 2);
      expect(p.triangles.length).toBe(p.triangleCount * 3);
      expect(p.weightPositions.length).toBe(p.weightTotal * 3);
    }
  });

  test('drone mesh and its animations share joint names', () => {
    const m = parseMd5Mesh(readModel(FILES.droneMesh));
    for (const f of [FILES.droneIdle, FILES.droneDeath, FILES.droneForward]) {
      const a = parseMd5Anim(readModel(f));
      expect(a.names).toEqual(m.joints.names);
      expect([...a.parents]).toEqual([...m.joints.parents]);
    }
  });

  test('SimpleCube (assimp)', () => {
    const m = parseMd5Mesh(readModel(FILES.simpleCube));
    expect(m.commandline).toBe('mesh models/code/code.ma -dest models/code/code.md5mesh -game blackrose -game sw');
    expect(m.joints.names).toEqual(['origin', 'root', 'joint1']);
    expect([...m.joints.parents]).toEqual([-1, 0, 1]);
    expect([...m.joints.positions.subarray(6)]).toEqual([f32(0.0249728262), f32(0.0000019062), f32(31.9803333282)]);
    expect(m.joints.orientations[3]).toBe(-1);
    const p = m.meshes[0];
    expect([p.vertexCount, p.triangleCount, p.weightTotal]).toEqual([24, 12, 16]);
    expect([...p.triangles.subarray(0, 6)]).toEqual([2, 1, 0, 2, 0, 3]);
    expect([...p.triangles.subarray(33)]).toEqual([22, 20, 23]);
    expect(p.weightBiases[0]).toBe(f32(0.7386021614));
    expect([...p.weightPositions.subarray(45)]).toEqual([f32(31.9750270844), f32(0.0196647644), -32]);
  });

  test('turret, BoarMan, grenade, rifle_view', () => {
    const t = parseMd5Mesh(readModel(FILES.turret));
    expect(t.joints.names).toEqual(['bottom', 'top', 'useless', 'barrel']);
    expect(t.meshes).toHaveLength(4);
    expect(t.meshes.reduce((s, p) => s + p.vertexCount, 0)).toBe(589);
    expect(t.meshes.reduce((s, p) => s + p.triangleCount, 0)).toBe(808);
    expect(t.meshes.reduce((s, p) => s + p.weightTotal, 0)).toBe(589);
    expect(t.meshes[0].vertexCount).toBe(102);

    const b = parseMd5Mesh(readModel(FILES.boarMan));
    expect(b.joints.count).toBe(1);
    expect(b.meshes).toHaveLength(14);
    expect(b.meshes.reduce((s, p) => s + p.vertexCount, 0)).toBe(1552);
    expect(b.meshes.reduce((s, p) => s + p.triangleCount, 0)).toBe(2812);

    const g = parseMd5Mesh(readModel(FILES.grenade));
    expect(g.meshes.map((p) => [p.shader, p.vertexCount, p.triangleCount, p.weightTotal])).toEqual([
      ['models/weapons/grenade/grenade', 309, 452, 309],
    ]);

    const r = parseMd5Mesh(readModel(FILES.rifleView)); // CRLF
    expect(r.joints.count).toBe(46);
    expect(r.joints.names.slice(0, 3)).toEqual(['tag_weapon', 'gun', 'tag_flash']);
    expect([...r.joints.positions.subarray(0, 3)]).toEqual([f32(-0.0926936), f32(0.135971), 0]);
    expect(r.meshes.map((p) => p.shader)).toEqual(['models/weapons/rifle/rifle', 'models/weapons/hand', 'models/weapons/hand']);
    expect(r.meshes[0].vertexCount).toBe(5709);
    expect([...r.meshes[0].uvs.subarray(0, 2)]).toEqual([f32(0.5353), f32(0.8281)]);
    expect(r.meshes.reduce((s, p) => s + p.vertexCount, 0)).toBe(7421);
    expect(r.meshes.reduce((s, p) => s + p.triangleCount, 0)).toBe(8997);
    expect(r.meshes.reduce((s, p) => s + p.weightTotal, 0)).toBe(5646);
  });

  test('invalid assimp files: code and line:column', () => {
    const cases: [string, string, number, number][] = [
      [FILES.invalidBoneIndex, ErrorCode.IndexOutOfRange, 23, 10], // weight 0 999 …
      [FILES.camera, ErrorCode.UnexpectedToken, 4, 1], // numFrames where numJoints goes
      [FILES.empty, ErrorCode.Truncated, 1, 1],
    ];
    for (const [file, code, line, column] of cases) {
      const e = catchParse(() => parseMd5Mesh(readModel(file)));
      expect([e.code, e.line, e.column], `${file}: ${e.message}`).toEqual([code, line, column]);
    }
    expect(catchParse(() => parseMd5Mesh(readModel(FILES.invalidBoneIndex))).detail).toMatch(/999/);
    // assimp's "overflowing index" files overflow only the markers, which Doom 3 reads and ignores: they load,
    // with one INDEX_MARKER warning at the marker
    for (const [file, line, column] of [[FILES.overflowTri, 18, 5], [FILES.overflowVert, 15, 6], [FILES.overflowWeight, 21, 8]] as const) {
      const m = parseMd5Mesh(readModel(file));
      expect(m.warnings?.map((w) => [w.code, w.line, w.column]), file).toEqual([['INDEX_MARKER', line, column]]);
      expect(m.warnings![0].message).toMatch(/4294967295/);
    }
  });

  test('an md5anim fed to the mesh parser is rejected', () => {
    const e = catchParse(() => parseMd5Mesh(readModel(FILES.droneIdle)));
    expect([e.code, e.line, e.column]).toEqual([ErrorCode.UnexpectedToken, 4, 1]);
  });
});
