import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { LIMITS } from '../../src/formats/md5/limits.js';
import { KeywordTable, Md5Tokenizer, decodeText, type Md5TokenSink } from '../../src/text/tokenizer.js';
import { catchParse, enc, splitAt } from './_helpers.js';

type Tok = [kind: string, value: string | number, line: number, column: number, offset: number];

/** Tokenize `chunks`, recording every token with its start position. */
function lex(chunks: readonly Uint8Array[]): Tok[] {
  const out: Tok[] = [];
  const sink: Md5TokenSink = {
    word(buf, s, e) {
      out.push(['w', decodeText(buf, s, e), t.tokenLine, t.tokenColumn, t.tokenOffset]);
    },
    string(buf, s, e) {
      out.push(['s', decodeText(buf, s, e), t.tokenLine, t.tokenColumn, t.tokenOffset]);
    },
    number(v, integer) {
      out.push([integer ? 'i' : 'n', v, t.tokenLine, t.tokenColumn, t.tokenOffset]);
    },
    punct(c) {
      out.push(['p', String.fromCharCode(c), t.tokenLine, t.tokenColumn, t.tokenOffset]);
    },
  };
  const t = new Md5Tokenizer(sink);
  for (const c of chunks) t.write(c);
  t.end();
  return out;
}
const lexText = (s: string) => lex([enc(s)]);

/** Every two-chunk split of `text` gives the same tokens as the one-chunk run. */
function expectSplitInvariant(text: string): Tok[] {
  const bytes = enc(text);
  const whole = lex([bytes]);
  for (let i = 0; i <= bytes.length; i++) {
    expect(lex(splitAt(bytes, [i])), `split at ${i}`).toEqual(whole);
  }
  expect(lex(Array.from(bytes, (b) => Uint8Array.of(b))), '1-byte chunks').toEqual(whole);
  return whole;
}

describe('Md5Tokenizer', () => {
  test('token kinds and positions', () => {
    expect(lexText('MD5Version 10\ncommandline "a b"\n\tjoints {\n( -0 .5 5. 1e-5 )}')).toEqual([
      ['w', 'MD5Version', 1, 1, 0],
      ['i', 10, 1, 12, 11],
      ['w', 'commandline', 2, 1, 14],
      ['s', 'a b', 2, 13, 26],
      ['w', 'joints', 3, 2, 33],
      ['p', '{', 3, 9, 40],
      ['p', '(', 4, 1, 42],
      ['i', -0, 4, 3, 44],
      ['n', 0.5, 4, 6, 47],
      ['n', 5, 4, 9, 50],
      ['n', 1e-5, 4, 12, 53],
      ['p', ')', 4, 17, 58],
      ['p', '}', 4, 18, 59],
    ]);
  });

  test('-0 keeps its sign; punctuation needs no spaces', () => {
    const toks = lexText('(0 -0)"x"{a}');
    expect(toks.map((t) => t[1])).toEqual(['(', 0, -0, ')', 'x', '{', 'a', '}']);
    expect(Object.is(toks[2][1], -0)).toBe(true);
  });

  test('empty string and strings with odd bytes', () => {
    expect(lexText('"" "\t/* not a comment */ //x"').map((t) => t[1])).toEqual(['', '\t/* not a comment */ //x']);
  });

  test('comments of both kinds, split at every position', () => {
    const toks = expectSplitInvariant('a // line comment { "x" 1\r\n/* block\n * still */ b/**/c /*x*/ 1.5 //\n"s t"{()}//eof');
    expect(toks.map((t) => [t[1], t[2], t[3]])).toEqual([
      ['a', 1, 1],
      ['b', 3, 13],
      ['c', 3, 18],
      [1.5, 3, 26],
      ['s t', 4, 1],
      ['{', 4, 6],
      ['(', 4, 7],
      [')', 4, 8],
      ['}', 4, 9],
    ]);
  });

  test('block comment end marker split between * and /; "/*/" does not close', () => {
    expect(lex([enc('/* x *'), enc('/ y')]).map((t) => t[1])).toEqual(['y']);
    expect(lex([enc('/'), enc('* x */z')]).map((t) => t[1])).toEqual(['z']);
    const e = catchParse(() => lexText('/*/ a'));
    expect(e.code).toBe(ErrorCode.Truncated);
  });

  test('CRLF is one line break, also when split between CR and LF; lone CR and LF count', () => {
    const text = 'a\r\nb\r\n\r\nc\rd\ne\n\rf';
    const toks = expectSplitInvariant(text);
    expect(toks.map((t) => [t[1], t[2], t[3]])).toEqual([
      ['a', 1, 1],
      ['b', 2, 1],
      ['c', 4, 1],
      ['d', 5, 1],
      ['e', 6, 1],
      ['f', 8, 1],
    ]);
    // explicit split between CR and LF
    expect(lex([enc('x\r'), enc('\ny')]).map((t) => [t[1], t[2], t[3]])).toEqual([
      ['x', 1, 1],
      ['y', 2, 1],
    ]);
  });

  test('CRLF inside comments keeps line numbers right', () => {
    expect(lex([enc('/* a\r'), enc('\n b\r'), enc('\n*/ z')]).map((t) => [t[1], t[2], t[3]])).toEqual([['z', 3, 4]]);
    expect(lex([enc('// c\r'), enc('\nz')]).map((t) => [t[1], t[2], t[3]])).toEqual([['z', 2, 1]]);
  });

  test('line breaks inside a float run count as in the ground loop, CR and LF split or not', () => {
    const text = '{ 1 2\r\n3\r4\n5\r\n\r\n6 \r\n} x\r\n';
    /** Tokens other than numbers, the numbers in order, and the end position, with a run of 6 opened at '{'. */
    const lexWithRun = (chunks: readonly Uint8Array[], checkOnly = false) => {
      const run = { out: new Float32Array(6), pos: 0, end: 0, checkOnly };
      const toks: [string, number, number][] = [];
      const sink: Md5TokenSink = {
        floatRun: run,
        word: (buf, s, e) => toks.push([decodeText(buf, s, e), t.tokenLine, t.tokenColumn]),
        string: () => {},
        number: (v) => {
          run.out[run.pos++] = v; // a number the run left to the ordinary path (cut by a chunk end)
        },
        punct: (c) => {
          toks.push([String.fromCharCode(c), t.tokenLine, t.tokenColumn]);
          if (c === 0x7b) run.end = 6;
        },
      };
      const t = new Md5Tokenizer(sink);
      for (const c of chunks) t.write(c);
      t.end();
      return { toks, values: [...run.out], end: t.position(), taken: run.pos };
    };
    const bytes = enc(text);
    const whole = lexWithRun([bytes]);
    expect(whole).toEqual({
      toks: [
        ['{', 1, 1],
        ['}', 7, 1],
        ['x', 7, 3],
      ],
      values: [1, 2, 3, 4, 5, 6],
      end: { offset: bytes.length, line: 8, column: 1 },
      taken: 6,
    });
    // the same as without a run, and under every split (a CR and its LF read by different loops included)
    expect(lexText(text).filter((k) => k[0] === 'p' || k[0] === 'w').map((k) => [k[1], k[2], k[3]])).toEqual(whole.toks);
    for (let i = 0; i <= bytes.length; i++) expect(lexWithRun(splitAt(bytes, [i])), `split at ${i}`).toEqual(whole);
    expect(lexWithRun(Array.from(bytes, (b) => Uint8Array.of(b))), '1-byte chunks').toEqual(whole);
    // A run that only checks (checkOnly) takes the same numbers and counts the same lines, and stores nothing.
    const checked = lexWithRun([bytes], true);
    expect(checked).toEqual({ ...whole, values: [0, 0, 0, 0, 0, 0] });
    for (let i = 0; i <= bytes.length; i++) {
      const split = lexWithRun(splitAt(bytes, [i]), true);
      expect({ ...split, values: [] }, `checked, split at ${i}`).toEqual({ ...whole, values: [] });
    }
  });

  test('an index run takes the marker and the indices below its limit; every other value reaches number() at its own position', () => {
    // A window of 4 (marker 7, then indices below 5) opened at each 'w'. The window's values and what number() got
    // (value, line, column) under every split: one-byte chunks and cut literals take the ordinary path, so the
    // same slots must fill the same way with or without the run.
    const text = 'w 7 0 4 1\r\nw 7 3\n2 0 w 6 5 +1 2 w 7 /* c */ 1 2 3 w 0007 01 1.5 -0 w 7 1 2 3 4 }';
    const lexWithIndices = (chunks: readonly Uint8Array[]) => {
      const run = { out: new Uint32Array(4), pos: 0, end: 0, markerAt: 0, marker: 7, limit: 5, lastOffset: -1, lastLine: -1, lastColumn: -1 };
      const windows: number[][] = [];
      const last: number[][] = [];
      const numbers: [number, number, number][] = [];
      const close = () => {
        if (run.end === 0) return;
        windows.push([...run.out.subarray(0, run.pos)]);
        last.push([run.lastOffset, run.lastLine, run.lastColumn]);
      };
      const sink: Md5TokenSink = {
        indexRun: run,
        word: () => {
          close();
          run.out.fill(0);
          run.pos = 0;
          run.end = 4;
        },
        string: () => {},
        number: (v) => {
          numbers.push([v, t.tokenLine, t.tokenColumn]);
          if (run.pos < run.end) run.out[run.pos++] = v; // as the md5mesh parser stores a value the run left
        },
        punct: () => close(),
      };
      const t = new Md5Tokenizer(sink);
      for (const c of chunks) t.write(c);
      t.end();
      return { windows, last, numbers, end: t.position() };
    };
    const bytes = enc(text);
    const whole = lexWithIndices([bytes]);
    expect(whole.windows).toEqual([
      [7, 0, 4, 1],
      [7, 3, 2, 0],
      [6, 5, 1, 2], // 6 is not the marker and 5 not below the limit: number() got them; '+1' too
      [7, 1, 2, 3], // a comment between values ends one run; the next number starts another
      [7, 1, 1, 0], // leading zeros are the same integer; 1.5 and -0 are not plain indices
      [7, 1, 2, 3], // the fifth value finds the window full: number()
    ]);
    expect(whole.numbers).toEqual([
      [6, 3, 7],
      [5, 3, 9],
      [1, 3, 11],
      [1.5, 3, 44],
      [-0, 3, 48],
      [4, 3, 61],
    ]);
    // the last value the run took in each window, where the run took it: '1' of 'w 7 0 4 1', the '0' after '2' …
    expect(whole.last.slice(0, 2)).toEqual([
      [text.indexOf('1\r\n'), 1, 9],
      [text.indexOf(' 0 w 6') + 1, 3, 3],
    ]);
    // a literal cut by a chunk end reaches number() instead: the windows fill the same way
    for (let i = 0; i <= bytes.length; i++) {
      const split = lexWithIndices(splitAt(bytes, [i]));
      expect([split.windows, split.end], `split at ${i}`).toEqual([whole.windows, whole.end]);
    }
    const bytewise = lexWithIndices(Array.from(bytes, (b) => Uint8Array.of(b)));
    expect([bytewise.windows, bytewise.end]).toEqual([whole.windows, whole.end]);
    expect(bytewise.numbers).toHaveLength(25); // every number: the run took none
  });

  test('numbers, words and strings split at every position', () => {
    expectSplitInvariant('MD5Version 10 -0.0249728262 "models/weapons/rifle/rifle" 1e-5 -.5 5. numAnimatedComponents');
  });

  test('quoted string with a newline is UNTERMINATED_STRING at the string start', () => {
    for (const chunks of [[enc('a\n  "abc\ndef"')], [enc('a\n  "ab'), enc('c\ndef"')], [enc('a\n  "abc'), enc('\r\n')]]) {
      const e = catchParse(() => lex(chunks));
      expect(e.code).toBe(ErrorCode.UnterminatedString);
      expect([e.line, e.column, e.offset]).toEqual([2, 3, 4]);
    }
  });

  test('string open at end of input is UNTERMINATED_STRING', () => {
    const e = catchParse(() => lex([enc('x "abc'), enc('de')]));
    expect([e.code, e.line, e.column]).toEqual([ErrorCode.UnterminatedString, 1, 3]);
  });

  test('unterminated /* at end of input is a typed error at the comment start', () => {
    for (const chunks of [[enc('a\n /* never closed')], [enc('a\n /'), enc('* never *')], [enc('a\n /* x *')]]) {
      const e = catchParse(() => lex(chunks));
      expect(e.code).toBe(ErrorCode.Truncated);
      expect([e.line, e.column, e.offset]).toEqual([2, 2, 3]);
      expect(e.detail).toMatch(/unterminated \/\* comment/);
    }
  });

  test('bad characters with line:column', () => {
    const cases: [string, number, number][] = [
      ['a\n  #', 2, 3],
      ['a b\n\n x / y', 3, 4],
      ['x\t;', 1, 3],
      ['"ok" \x7f', 1, 6],
      ['ab \xe9', 1, 4],
      ['a /', 1, 3],
    ];
    for (const [text, line, column] of cases) {
      const bytes = Uint8Array.from(text, (ch) => ch.charCodeAt(0));
      const e = catchParse(() => lex([bytes]));
      expect([e.code, e.line, e.column], JSON.stringify(text)).toEqual([ErrorCode.BadCharacter, line, column]);
    }
    const e = catchParse(() => lex([enc('a /'), enc('x')]));
    expect([e.code, e.line, e.column]).toEqual([ErrorCode.BadCharacter, 1, 3]);
  });

  test('control bytes and NUL are whitespace', () => {
    expect(lex([Uint8Array.of(0x61, 0x00, 0x01, 0x0b, 0x0c, 0x20, 0x62)]).map((t) => t[1])).toEqual(['a', 'b']);
  });

  test('malformed, non-finite or float32-overflowing numbers are BAD_NUMBER', () => {
    for (const t of ['1e999', '-1e999', '1e39', '3.5e38', '-1.#IND', '1.#INF', '1-2', '-', '.', '1e', '1.2.3', '12abc', '0x1f', '1,5']) {
      const e = catchParse(() => lexText(`  ${t} `));
      expect([e.code, e.line, e.column], t).toEqual([ErrorCode.BadNumber, 1, 3]);
    }
    // largest float32 is fine
    expect(lexText('3.4028234663852886e38')[0][1]).toBe(3.4028234663852886e38);
  });

  test('TOKEN_TOO_LONG for numbers, words and strings, in one chunk or many', () => {
    const n = LIMITS.maxTokenBytes + 1;
    const bodies = ['1'.repeat(n), 'a'.repeat(n), `"${'s'.repeat(n)}"`];
    for (const body of bodies) {
      const bytes = enc(`x\n ${body} y`);
      for (const chunks of [[bytes], splitAt(bytes, [5, 100, 5000, 40000])]) {
        const e = catchParse(() => lex(chunks));
        expect([e.code, e.line, e.column]).toEqual([ErrorCode.TokenTooLong, 2, 2]);
      }
    }
    // exactly the limit is fine
    expect(lexText('a'.repeat(LIMITS.maxTokenBytes))[0][1]).toHaveLength(LIMITS.maxTokenBytes);
  });

  test('decodeText: ASCII, UTF-8, and Latin-1 fallback for invalid UTF-8', () => {
    const utf8 = enc('Kopf_ä€');
    expect(decodeText(utf8, 0, utf8.length)).toBe('Kopf_ä€');
    const latin = Uint8Array.of(0x4b, 0xf6, 0x70, 0x66);
    expect(decodeText(latin, 0, latin.length)).toBe('Köpf');
    expect(lex([Uint8Array.of(0x22, 0xe9, 0x22)])[0][1]).toBe('é');
  });

  test('property: random token streams, random multi-splits (incl. 1-byte chunks) give identical tokens', () => {
    const piece = fc.oneof(
      fc.constantFrom('{', '}', '(', ')', 'MD5Version', 'numverts', 'vert', 'joint_1', '""', '"Thigh.Right"', '"a b/c"'),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }).map((v) => String(v)),
      fc.integer({ min: -100000, max: 100000 }).map(String),
      fc.constantFrom('// comment\n', '/* block\r\n comment */', '/**/', '/* * / */'),
    );
    const sep = fc.constantFrom(' ', '\t', '\n', '\r\n', '\r', '  ');
    const doc = fc
      .array(fc.tuple(piece, sep), { minLength: 1, maxLength: 40 })
      .map((parts) => parts.map(([p, s]) => p + s).join(''));
    fc.assert(
      fc.property(doc, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (text, rawCuts, bytewise) => {
        const bytes = enc(text);
        const whole = lex([bytes]);
        const chunks = bytewise
          ? Array.from(bytes, (b) => Uint8Array.of(b))
          : splitAt(bytes, [...new Set(rawCuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b));
        expect(lex(chunks)).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  test('write after end is refused', () => {
    const t = new Md5Tokenizer({ word() {}, string() {}, number() {}, punct() {} });
    t.write(enc('a'));
    t.end();
    expect(() => t.write(enc('b'))).toThrow();
  });
});

describe('plain decimal literals (the short loop for indices, counts and biases)', () => {
  test('give the value and integer flag parseFloat and the general scanner give, before every separator, under every split', () => {
    const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
    const literal = fc.oneof(
      fc.integer({ min: -2147483648, max: 2147483647 }).map(String),
      // fractions of up to 17 digits in all: up to 15 take the short loop, more go on to the general scan
      fc.tuple(fc.constantFrom('', '-', '+'), digits(0, 9), digits(0, 8)).map(([s, a, b]) => `${s}${a}.${b}`).filter((l) => /\d/.test(l)),
      fc.constantFrom('0', '-0', '007', '-00', '999999999999999', '9999999999999999', '12345678901234567890', '+5', '5.', '5e3'),
      fc.constantFrom('-0.0', '.5', '-.5', '0.000', '123456789012.345', '1234567890123.456', '0.1', '-0.30000000000000004'),
    );
    const sep = fc.constantFrom(' ', '\t', '\n', '\r\n', ')', '}', '//c\n', '/*c*/ ', '(');
    fc.assert(
      fc.property(fc.array(fc.tuple(literal, sep), { minLength: 1, maxLength: 6 }), (items) => {
        const text = items.map(([l, s]) => `${l}${s}`).join('');
        const toks = expectSplitInvariant(text).filter((t) => t[0] === 'i' || t[0] === 'n');
        const want = items.map(([l]) => [/^[+-]?\d+$/.test(l) ? 'i' : 'n', parseFloat(l)]);
        expect(toks.map((t) => [t[0], t[1]])).toEqual(want);
        for (const [t, [l]] of toks.map((t, k) => [t, items[k]] as const)) expect(Object.is(t[1], parseFloat(l)), l).toBe(true); // -0 stays -0
      }),
      { numRuns: 300 },
    );
  });
});

describe('KeywordTable (one slot read per word)', () => {
  const MESH = ['MD5Version', 'commandline', 'numJoints', 'numMeshes', 'joints', 'mesh', 'name', 'shader', 'numverts', 'vert', 'numtris', 'tri', 'numweights', 'weight'];
  const ANIM = ['MD5Version', 'commandline', 'numFrames', 'numJoints', 'frameRate', 'numAnimatedComponents', 'hierarchy', 'bounds', 'baseframe', 'frame'];
  test('finds every keyword of both formats, also the ones that share a slot (numJoints, numMeshes, numFrames)', () => {
    for (const list of [MESH, ANIM]) {
      const table = new KeywordTable(list);
      list.forEach((w, k) => expect(table.index(enc(` ${w} `), 1, w.length + 1), w).toBe(k));
    }
  });
  test('any other word is −1: same length and ends, other case, prefixes, the empty word', () => {
    const table = new KeywordTable(MESH);
    for (const w of ['vart', 'Vert', 'VERT', 'verts', 'ver', 'numJointz', 'numMeshez', 'nuMJoints', 'weigh', 'tri_', 'x', 'shadeR', 'mesh2']) {
      expect(table.index(enc(w), 0, w.length), w).toBe(-1);
    }
    expect(table.index(enc('vert'), 2, 2)).toBe(-1);
  });
  test('property: agrees with a plain search of the list', () => {
    const table = new KeywordTable(MESH);
    const word = fc.oneof(fc.constantFrom(...MESH), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), fc.constantFrom(...MESH).map((w) => w.slice(0, -1) + 'q'));
    fc.assert(
      fc.property(word, (w) => {
        expect(table.index(enc(w), 0, w.length)).toBe(MESH.indexOf(w));
      }),
      { numRuns: 2000 },
    );
  });
});
