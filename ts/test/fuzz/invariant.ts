/**
 * The invariant every input is held to: the parser returns a model or throws ModelParseError (a documented code, an
 * offset inside the input, line:column ≥ 1 for text) — no other exception, no accepted model that fails an
 * independent re-check, typed-array allocation within the target's memory bound, time within its time bound (in
 * `npm run fuzz` only: `timed`), the same outcome when the input arrives in random chunks, and no untyped exception when the accepted model is used.
 */
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { metered } from './alloc-meter.js';
import { memoryLimit, timeLimitMs } from './bounds.js';
import type { Rng } from './rng.js';
import type { FuzzTarget } from './targets.js';

const CODES = new Set<string>(Object.values(ErrorCode));

/** `steps`: more library blocks executed than the grammar campaigns' bound (grammar.ts: a deterministic step count). */
export type ViolationKind = 'untyped' | 'bad-error' | 'accepted-invalid' | 'memory' | 'slow' | 'chunk-mismatch' | 'use-untyped' | 'steps';

export interface Outcome {
  /** The error code, or 'OK'. */
  code: string;
  /** Typed-array bytes the parse allocated. */
  allocated: number;
  ms: number;
  violation?: { kind: ViolationKind; detail: string };
}

export interface CheckOptions {
  /** Also parse in random chunks and compare (needs `target.parseChunks`). */
  chunks?: boolean;
  /** Also use an accepted model (`target.use`). */
  use?: boolean;
  /** The seed an input came from (for `use`, which may need the seed's companion file). */
  seedName?: string;
  /**
   * Hold the parse to its time bound (`timeLimitMs`): `npm run fuzz` does, to find slow paths; a test never does
   * (no test asserts a time: a busy machine must not fail one).
   */
  timed?: boolean;
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    // The first frames of library code (the allocation meter's constructor wrappers are not library code).
    const frames = (e.stack ?? '').split('\n').slice(1).filter((l) => !l.includes('alloc-meter'));
    return `${e.name}: ${e.message} ${frames.slice(0, 3).map((l) => l.trim()).join(' ')}`;
  }
  return `non-Error thrown: ${String(e)}`;
}

/** What is wrong with a thrown ModelParseError's fields, or ''. */
function errorShape(e: ModelParseError, n: number, text: boolean): string {
  if (!CODES.has(e.code)) return `undocumented code ${e.code}`;
  if (!Number.isInteger(e.offset) || e.offset < 0 || e.offset > n) return `offset ${e.offset} outside 0..${n}`;
  if (text && !(Number.isInteger(e.line) && (e.line as number) >= 1 && Number.isInteger(e.column) && (e.column as number) >= 1)) {
    return `line:column ${e.line}:${e.column}`;
  }
  return '';
}

/** FNV-1a over a result's structure and every byte of its typed arrays: equal results ⇔ equal prints (in practice). */
export function fingerprint(x: unknown): string {
  let h = 0x811c9dc5;
  const byte = (b: number) => {
    h = Math.imul(h ^ b, 0x01000193);
  };
  const str = (s: string) => {
    for (let i = 0; i < s.length; i++) byte(s.charCodeAt(i) & 0xff), byte(s.charCodeAt(i) >>> 8);
    byte(0);
  };
  const walk = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      str(v.constructor.name);
      const u = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      for (let i = 0; i < u.length; i++) byte(u[i]);
      str('|');
    } else if (Array.isArray(v)) {
      str(`[${v.length}`);
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v).sort()) {
        str(k);
        walk((v as Record<string, unknown>)[k]);
      }
    } else str(`${typeof v}:${Object.is(v, -0) ? '-0' : String(v)}`);
  };
  walk(x);
  return (h >>> 0).toString(16);
}

/** One parse's outcome as a comparable string: the model's fingerprint, or the error's code and position. */
function outcomeKey(run: () => unknown): string {
  try {
    return `OK ${fingerprint(run())}`;
  } catch (e) {
    if (e instanceof ModelParseError) return `${e.code} @${e.offset} ${e.line}:${e.column}`;
    return `untyped ${describe(e)}`;
  }
}

/** Random chunking: 1-byte chunks for some small inputs, else 2–9 chunks of random lengths (empty ones included). */
export function randomChunks(bytes: Uint8Array, rng: Rng): Uint8Array[] {
  const n = bytes.length;
  if (n <= 2048 && rng.chance(0.2)) return Array.from(bytes, (b) => Uint8Array.of(b));
  const out: Uint8Array[] = [];
  const pieces = rng.range(1, 8);
  let at = 0;
  for (let k = 0; k < pieces; k++) {
    const len = rng.below(Math.ceil(((n - at) * 2) / (pieces - k)) + 1);
    out.push(bytes.subarray(at, Math.min(n, at + len)));
    at = Math.min(n, at + len);
  }
  out.push(bytes.subarray(at));
  return out;
}

/** Check one input against `target`; `rng` drives the chunk cuts. */
export function checkInput(target: FuzzTarget, bytes: Uint8Array, rng: Rng, opts: CheckOptions = {}): Outcome {
  const n = bytes.length;
  const t0 = performance.now();
  const run = metered(() => target.parse(bytes));
  let ms = performance.now() - t0;
  const out: Outcome = { code: 'OK', allocated: run.bytes, ms };
  const fail = (kind: ViolationKind, detail: string): Outcome => ({ ...out, violation: { kind, detail } });

  if (run.error !== undefined) {
    if (!(run.error instanceof ModelParseError)) return fail('untyped', describe(run.error));
    out.code = run.error.code;
    const bad = errorShape(run.error, n, target.text);
    if (bad) return fail('bad-error', `${bad}: ${run.error.message}`);
  } else {
    const bad = target.check(run.value, bytes);
    if (bad) return fail('accepted-invalid', bad);
  }

  const limit = memoryLimit(target.memory, n);
  if (run.bytes > limit) return fail('memory', `${run.bytes} typed-array bytes for ${n} input bytes (limit ${limit})`);

  if (opts.timed && ms > timeLimitMs(n)) {
    // Re-time: a GC pause or a busy neighbour passes, a slow path does not.
    for (let k = 0; k < 2 && ms > timeLimitMs(n); k++) {
      const t1 = performance.now();
      metered(() => target.parse(bytes));
      ms = Math.min(ms, performance.now() - t1);
    }
    out.ms = ms;
    if (ms > timeLimitMs(n)) return fail('slow', `${ms.toFixed(1)} ms for ${n} bytes (limit ${timeLimitMs(n).toFixed(1)} ms)`);
  }

  if (opts.chunks && target.parseChunks) {
    const chunks = randomChunks(bytes, rng);
    const whole = outcomeKey(() => {
      if (run.error !== undefined) throw run.error;
      return run.value;
    });
    const split = outcomeKey(() => target.parseChunks!(chunks, rng));
    if (whole !== split) {
      return fail('chunk-mismatch', `one chunk: ${whole}; ${chunks.length} chunks (${chunks.map((c) => c.length).join('+')}): ${split}`);
    }
  }

  if (opts.use && run.error === undefined && target.use) {
    try {
      target.use(run.value, opts.seedName ?? '');
    } catch (e) {
      if (!(e instanceof ModelParseError)) return fail('use-untyped', describe(e));
    }
  }
  return out;
}
