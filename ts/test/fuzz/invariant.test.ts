/**
 * The fuzzer's checks can fail: fake parsers that break the invariant in each way are caught as that kind of
 * violation (otherwise a green fuzz run would prove nothing), and the allocation meter counts what it should.
 */
import { describe, expect, test } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { metered } from './alloc-meter.js';
import { PARSER_MEMORY_BOUND } from './bounds.js';
import { checkInput } from './invariant.js';
import { minimize } from './minimize.js';
import { Rng } from './rng.js';
import { md5Structure } from './structure.js';
import type { FuzzTarget } from './targets.js';

function fake(parse: (b: Uint8Array) => unknown, extra: Partial<FuzzTarget> = {}): FuzzTarget {
  return { name: 'fake', formats: [], text: false, parse, structure: md5Structure, check: () => '', memory: PARSER_MEMORY_BOUND, ...extra };
}

const typed = (at: number) => new ModelParseError(ErrorCode.Truncated, 'x', { offset: at });
const kindOf = (t: FuzzTarget, b: Uint8Array) => checkInput(t, b, new Rng(1), { chunks: true, use: true }).violation?.kind;

describe('the invariant', () => {
  test('accepts a model or a documented ModelParseError inside the input', () => {
    expect(kindOf(fake(() => ({})), new Uint8Array(4))).toBeUndefined();
    expect(kindOf(fake(() => { throw typed(4); }), new Uint8Array(4))).toBeUndefined();
  });

  test('catches each way of breaking it', () => {
    const b = new Uint8Array(100);
    expect(kindOf(fake(() => { throw new TypeError('x is undefined'); }), b)).toBe('untyped');
    expect(kindOf(fake(() => { throw new RangeError('Invalid typed array length'); }), b)).toBe('untyped');
    expect(kindOf(fake(() => { throw typed(101); }), b)).toBe('bad-error');
    expect(kindOf(fake(() => { throw new ModelParseError('NOT_A_CODE' as ErrorCode, 'x', { offset: 0 }); }), b)).toBe('bad-error');
    expect(kindOf(fake(() => { throw typed(0); }, { text: true }), b)).toBe('bad-error'); // text errors need line:column
    expect(kindOf(fake(() => ({}), { check: () => 'index 7 out of range' }), b)).toBe('accepted-invalid');
    // 100 bytes may cost 12 · 100 + 512 KiB; one byte more fails.
    expect(kindOf(fake(() => new Uint8Array(12 * 100 + 512 * 1024)), b)).toBeUndefined();
    expect(kindOf(fake(() => new Uint8Array(12 * 100 + 512 * 1024 + 1)), b)).toBe('memory');
    const busy = () => {
      const end = performance.now() + 150;
      while (performance.now() < end);
      return {};
    };
    // the time bound is npm run fuzz's (timed), never a test's: a busy parse passes here, and is caught when timed
    expect(kindOf(fake(busy), new Uint8Array(10))).toBeUndefined();
    expect(checkInput(fake(busy), new Uint8Array(10), new Rng(1), { timed: true }).violation?.kind).toBe('slow'); // 150 ms > 100 ms + 10 bytes · 1 µs, three times
    expect(kindOf(fake(() => ({}), { parseChunks: (c) => { if (c.length > 1) throw typed(0); return {}; } }), b)).toBe('chunk-mismatch');
    expect(kindOf(fake(() => ({}), { use: () => { throw new TypeError('no'); } }), b)).toBe('use-untyped');
    expect(kindOf(fake(() => ({}), { use: () => { throw typed(0); } }), b)).toBeUndefined();
  });

  test('the meter counts allocations, not views on existing buffers, and keeps instanceof working', () => {
    const outer = new Uint8Array(64);
    const r = metered(() => {
      const f = new Float32Array(10); // 40
      f.slice(0, 5); // 20
      f.subarray(2); // a view: 0
      new Uint8Array(outer.buffer, 8, 8); // a view: 0
      return [new Uint32Array([1, 2, 3]), f]; // 12
    });
    expect(r.bytes).toBe(72);
    expect(outer instanceof Uint8Array && r.value![1] instanceof Float32Array).toBe(true);
  });

  test('the minimiser keeps the failure and drops the rest', () => {
    // Fails untyped whenever the input contains byte 0x2a: minimises to that one byte.
    const t = fake((b) => {
      if (b.includes(0x2a)) throw new TypeError('star');
      throw typed(0);
    });
    const input = new TextEncoder().encode('MD5Version 10 commandline "a*b" numJoints 1');
    expect(Array.from(minimize(t, input, 'untyped'))).toEqual([0x2a]);
  });
});
