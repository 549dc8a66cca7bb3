import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { Md5AnimParser, parseMd5Anim } from '../../src/formats/md5/index.js';
import { FILES, HAVE_MODELS, animFromChunks, badEditChecker, catchParse, enc, expectError, readModel } from './_helpers.js';

const f32 = Math.fround;

const BASE = `MD5Version 10
commandline "anim"

numFrames 2
numJoints 2
frameRate 24
numAnimatedComponents 4

hierarchy {
\t"root"\t-1 3 0\t// ( Tx Ty )
\t"child"\t0 40 2\t// root ( Qx Qz )
}

bounds {
\t( -1 -1 -1 ) ( 1 1 1 )
\t( -2 -2 -2 ) ( 2 2 2 )
}

baseframe {
\t( 0 0 0 ) ( 0 0 0 )
\t( 1 2 3 ) ( 0.5 0.5 0.5 )
}

frame 0 {
\t0.25 -0.5
\t0.1 0.2
}

frame 1 {
\t1 2 3 4
}
`;

/** Parse BASE with `from` replaced by `to`; expect `code` at the position of `at` (default: `to`). */
const expectBad = badEditChecker(BASE, parseMd5Anim);

describe('md5anim: hand-written input', () => {
  test('parses every field', () => {
    const a = parseMd5Anim(BASE);
    expect(a.format).toBe('md5anim');
    expect(a.version).toBe(10);
    expect(a.commandline).toBe('anim');
    expect([a.frameCount, a.jointCount, a.frameRate, a.componentCount]).toEqual([2, 2, 24, 4]);
    expect(a.names).toEqual(['root', 'child']);
    expect([...a.parents]).toEqual([-1, 0]);
    expect([...a.flags]).toEqual([3, 40]);
    expect([...a.startIndices]).toEqual([0, 2]);
    expect([...a.bounds]).toEqual([-1, -1, -1, 1, 1, 1, -2, -2, -2, 2, 2, 2]);
    expect([...a.baseframe]).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 3, 0.5, 0.5, 0.5]);
    expect([...a.frames]).toEqual([0.25, -0.5, f32(0.1), f32(0.2), 1, 2, 3, 4]);
    expect(a.frames).toBeInstanceOf(Float32Array);
  });

  test('frameRate may look like a float; zero frames and zero components are fine', () => {
    expect(parseMd5Anim(BASE.replace('frameRate 24', 'frameRate 24.0')).frameRate).toBe(24);
    expect(parseMd5Anim(BASE.replace('frameRate 24', 'frameRate 29.97')).frameRate).toBe(29.97);
    const z = parseMd5Anim(
      'MD5Version 10 commandline "" numFrames 0 numJoints 1 frameRate 1 numAnimatedComponents 0 ' +
        'hierarchy { "a" -1 0 0 } bounds { } baseframe { ( 0 0 0 ) ( 0 0 0 ) }',
    );
    expect([z.frameCount, z.frames.length, z.bounds.length]).toEqual([0, 0, 0]);
    const c0 = parseMd5Anim(
      'MD5Version 10 commandline "" numFrames 2 numJoints 1 frameRate 1 numAnimatedComponents 0 ' +
        'hierarchy { "a" -1 0 0 } bounds { (0 0 0)(0 0 0) (0 0 0)(0 0 0) } baseframe { ( 0 0 0 ) ( 0 0 0 ) } frame 0 { } frame 1 { }',
    );
    expect([c0.frameCount, c0.frames.length]).toEqual([2, 0]);
  });

  test('header errors', () => {
    expectBad('MD5Version 10', 'MD5Version 6', ErrorCode.BadVersion, '6');
    expectBad('frameRate 24', 'frameRate 0', ErrorCode.BadNumber, '0', 'frameRate ');
    expectBad('frameRate 24', 'frameRate -24', ErrorCode.BadNumber, '-24');
    expectBad('numAnimatedComponents 4', 'numAnimatedComponents 13', ErrorCode.BadCount, '13');
    expectBad('numAnimatedComponents 4', 'numAnimatedComponents 4.5', ErrorCode.BadNumber, '4.5');
    expectBad('numFrames 2', 'numFrames 2147483648', ErrorCode.BadCount, '2147483648'); // int32, as Doom 3 parses it
    expectBad('numJoints 2', 'numJoints 4097', ErrorCode.BadCount, '4097');
    expectBad('numFrames 2\n', '', ErrorCode.MissingBlock, 'numJoints');
    expectBad('frameRate 24\n', 'frameRate 24\nnumFrames 2\n', ErrorCode.DuplicateBlock, 'numFrames', 'frameRate 24\n');
  });

  test('hierarchy errors', () => {
    expectBad('"child"\t0 40 2', '"child"\t1 40 2', ErrorCode.IndexOutOfRange, '1 40');
    expectBad('"child"\t0 40 2', '"child"\t0 64 2', ErrorCode.BadNumber, '64');
    expectBad('"child"\t0 40 2', '"child"\t0 40 3', ErrorCode.IndexOutOfRange, '3', '"child"\t0 40 ');
    expectBad('"child"\t0 40 2', '"child"\t0 56 2', ErrorCode.IndexOutOfRange, '2', '"child"\t0 56 ');
    expectBad('"child"\t0 40 2', '"child"\t0 40 -1', ErrorCode.IndexOutOfRange, '-1', '"child"\t0 40 ');
    expectBad('\t"child"\t0 40 2\t// root ( Qx Qz )\n', '', ErrorCode.BadCount, '}', '( Tx Ty )');
    expectBad('numJoints 2', 'numJoints 1', ErrorCode.BadCount, '"child"');
  });

  test('bounds and baseframe errors', () => {
    expectBad('\t( -2 -2 -2 ) ( 2 2 2 )\n', '', ErrorCode.BadCount, '}', '( 1 1 1 )');
    expectBad('\t( -2 -2 -2 ) ( 2 2 2 )\n', '\t( -2 -2 -2 ) ( 2 2 2 )\n\t( 0 0 0 ) ( 0 0 0 )\n', ErrorCode.BadCount, '( 0 0 0 ) ( 0 0 0 )\n}\n\nbaseframe');
    expectBad('\t( 1 2 3 ) ( 0.5 0.5 0.5 )\n', '', ErrorCode.BadCount, '}', '( 0 0 0 ) ( 0 0 0 )\n');
    expectBad('( 1 2 3 ) ( 0.5', '( 1 2 3 ) ( inf', ErrorCode.BadNumber, 'inf');
    expectBad('bounds {', 'baseframe {', ErrorCode.MissingBlock, 'baseframe');
    expectBad('baseframe {', 'hierarchy {', ErrorCode.DuplicateBlock, 'hierarchy', '( 2 2 2 )');
    expectBad('baseframe {', 'frame {', ErrorCode.MissingBlock, 'frame {');
  });

  test('a bounds or baseframe group with one value too few or too many: the error names the group', () => {
    // The groups fill the tokenizer's float-run window, as frames do; a short or long group fails where and as the
    // grammar says. [line, edited line, the token the error is at, the text before it, the message].
    const B = '( -2 -2 -2 ) ( 2 2 2 )';
    const P = '( 1 2 3 ) ( 0.5 0.5 0.5 )';
    const cases: [string, string, string, string, string][] = [
      [B, '( -2 -2 ) ( 2 2 2 )', ')', '( -2 -2 ', 'expected a bounds minimum'],
      [B, '( -2 -2 -2 7 ) ( 2 2 2 )', '7', '( -2 -2 -2 ', "expected ')' after the bounds minimum"],
      [B, '( -2 -2 -2 ) ( 2 2 )', ')', '( 2 2 ', 'expected a bounds maximum'],
      [B, '( -2 -2 -2 ) ( 2 2 2 7 )', '7', '( 2 2 2 ', "expected ')' after the bounds maximum"],
      [P, '( 1 2 ) ( 0.5 0.5 0.5 )', ')', '( 1 2 ', 'expected a baseframe position number'],
      [P, '( 1 2 3 7 ) ( 0.5 0.5 0.5 )', '7', '( 1 2 3 ', "expected ')' after the baseframe position"],
      [P, '( 1 2 3 ) ( 0.5 0.5 )', ')', '( 0.5 0.5 ', 'expected a baseframe orientation number'],
      [P, '( 1 2 3 ) ( 0.5 0.5 0.5 7 )', '7', '( 0.5 0.5 0.5 ', "expected ')' after the baseframe orientation"],
    ];
    for (const [line, edited, at, before, message] of cases) {
      expect(expectBad(line, edited, ErrorCode.UnexpectedToken, at, before).message).toContain(message);
    }
    // Values the float run leaves to the ordinary path (an exponent, a leading '+') land in the same slots.
    const odd = parseMd5Anim(BASE.replace(B, '( -2e0 -2 -2 ) ( 2 +2 2e0 )').replace(P, '( 1 2 3e0 ) ( 5e-1 0.5 +0.5 )'));
    expect([...odd.bounds]).toEqual([...parseMd5Anim(BASE).bounds]);
    expect([...odd.baseframe]).toEqual([...parseMd5Anim(BASE).baseframe]);
  });

  test('frame errors', () => {
    expectBad('frame 1 {', 'frame 2 {', ErrorCode.BadIndexMarker, '2 {');
    expectBad('frame 1 {', 'frame 1.0 {', ErrorCode.BadNumber, '1.0');
    const few = expectBad('\t1 2 3 4\n', '\t1 2 3\n', ErrorCode.BadCount, '}', '1 2 3\n');
    expect(few.detail).toMatch(/frame 1 has 3 values/);
    const many = expectBad('\t1 2 3 4\n', '\t1 2 3 4 5\n', ErrorCode.BadCount, '5', '1 2 3 4 ');
    expect(many.detail).toMatch(/frame 1/);
    expectBad('\t1 2 3 4\n}\n', '\t1 2 3 4\n}\nframe 2 { 1 2 3 4 }\n', ErrorCode.BadCount, 'frame 2');
    expectBad('\t1 2 3 4\n', '\t1 2 nan 4\n', ErrorCode.BadNumber, 'nan');
    expectBad('\t1 2 3 4\n', '\t1 2 "3" 4\n', ErrorCode.UnexpectedToken, '"3"');
  });

  test('end of input: TRUNCATED inside, BAD_COUNT between frames', () => {
    const t1 = BASE.slice(0, BASE.indexOf('\t1 2 3 4'));
    const e1 = expectError(() => parseMd5Anim(t1), ErrorCode.Truncated);
    expect([e1.line, e1.column, e1.offset]).toEqual([t1.split('\n').length, 1, enc(t1).length]);
    const t2 = BASE.slice(0, BASE.indexOf('frame 1'));
    expectError(() => parseMd5Anim(t2), ErrorCode.BadCount, t2.split('\n').length, 1);
    expectError(() => parseMd5Anim(''), ErrorCode.Truncated, 1, 1);
  });

  test('a tiny file claiming a huge frame count allocates little', () => {
    const p = new Md5AnimParser();
    const before = process.memoryUsage().arrayBuffers;
    p.write(
      enc(
        'MD5Version 10 commandline "" numFrames 16000000 numJoints 1 frameRate 24 numAnimatedComponents 6 ' +
          'hierarchy { "a" -1 63 0 } bounds { ( 0 0 0 ) ( 0 0 0 ) ',
      ),
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    expect(catchParse(() => p.end()).code).toBe(ErrorCode.Truncated);
  });
});

describe.skipIf(!HAVE_MODELS)('md5anim: real files', () => {
  test('rifle_view_idle (CRLF, 501 frames)', () => {
    const a = parseMd5Anim(readModel(FILES.rifleIdle));
    expect([a.frameCount, a.jointCount, a.frameRate, a.componentCount]).toEqual([501, 46, 60, 276]);
    expect(a.frames.length).toBe(501 * 276);
    expect(a.bounds.length).toBe(501 * 6);
    expect(a.names.slice(0, 3)).toEqual(['tag_weapon', 'gun', 'tag_flash']);
    expect([a.parents[0], a.flags[0], a.startIndices[0]]).toEqual([-1, 63, 0]);
    expect([a.parents[1], a.flags[1], a.startIndices[1]]).toEqual([0, 63, 6]);
    expect([...a.bounds.subarray(0, 6)]).toEqual([-1.76633, -7.67341, -10.707, 18.36, 2.88083, -2.50342].map(f32));
    expect([...a.baseframe.subarray(6, 12)]).toEqual([-5.51061, 4.19482, 8.66763, -0.5, -0.5, 0.5].map(f32));
    const f250 = a.frames.subarray(250 * 276, 250 * 276 + 12);
    expect([...f250]).toEqual(
      [-0.0926936, 0.135971, 0.0, 0.707107, 0.000310482, 0.707107, -5.51968, 4.19346, 8.66763, -0.5, -0.5, 0.5].map(f32),
    );
    expect([...a.frames.subarray(501 * 276 - 2)]).toEqual([-0.0202966, 0.0107898].map(f32));
  });

  test('rifle_view_reload and drone animations', () => {
    const r = parseMd5Anim(readModel(FILES.rifleReload));
    expect([r.frameCount, r.jointCount, r.frameRate, r.componentCount]).toEqual([139, 46, 60, 276]);
    const expected: [string, number][] = [
      [FILES.droneIdle, 2],
      [FILES.droneDeath, 5],
      [FILES.droneForward, 12],
    ];
    for (const [f, frames] of expected) {
      const a = parseMd5Anim(readModel(f));
      expect([a.frameCount, a.jointCount, a.frameRate, a.componentCount]).toEqual([frames, 27, 24, 162]);
      expect(a.names[0]).toBe('Waist');
      expect(a.frames.length).toBe(frames * 162);
    }
    const idle = parseMd5Anim(readModel(FILES.droneIdle));
    expect([...idle.frames.subarray(0, 6)]).toEqual([-0.094203, -0.013319, 1.996139, -0.058153, -0.058149, 0.70474].map(f32));
    expect([...idle.baseframe.subarray(0, 6)]).toEqual([-0.094203, -0.013319, 1.996139, 0.058153, 0.058149, -0.70474].map(f32));
    expect([...idle.bounds]).toEqual(new Array(12).fill(0));
  });

  test('line:column after 25,158 lines of CRLF, CR or LF frames (read in the float run), in any chunking', () => {
    const crlf = readModel(FILES.rifleIdle);
    const lastBrace = crlf.lastIndexOf(0x7d); // closes frame 500; a CRLF and an empty line follow
    const head = new TextDecoder().decode(crlf.subarray(0, lastBrace));
    for (const lineBreak of ['\r\n', '\r', '\n']) {
      const bytes = enc(head.replaceAll('\r\n', lineBreak) + '@');
      for (const size of [bytes.length, 65536, 4093, 7]) {
        const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
        const e = catchParse(() => animFromChunks(chunks));
        expect([e.code, e.line, e.column, e.offset], `${JSON.stringify(lineBreak)}, ${size}-byte chunks`).toEqual([
          ErrorCode.BadCharacter,
          25158,
          1,
          bytes.length - 1,
        ]);
      }
    }
  });

  test('non-anim inputs are rejected with typed errors', () => {
    const cam = catchParse(() => parseMd5Anim(readModel(FILES.camera)));
    expect([cam.code, cam.line, cam.column]).toEqual([ErrorCode.MissingBlock, 5, 1]); // frameRate before numJoints
    const mesh = catchParse(() => parseMd5Anim(readModel(FILES.simpleCube)));
    expect([mesh.code, mesh.line, mesh.column]).toEqual([ErrorCode.MissingBlock, 4, 1]); // numJoints before numFrames
    expectError(() => parseMd5Anim(readModel(FILES.empty)), ErrorCode.Truncated, 1, 1);
  });
});
