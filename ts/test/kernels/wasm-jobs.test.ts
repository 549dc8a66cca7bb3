/**
 * The WASM backend's kernels are generated from the Rust surface (scripts/gen-jobs.mjs → ts/src/kernels/wasm-jobs.ts):
 * the file is what the generator makes of jobs.rs and lib.rs today; every kernel writes each field of its TS job at
 * the word its `#[repr(C)]` struct gives it (read here from jobs.rs with a regex of this test's own); the resident
 * block follows every swapped buffer of every job; and a job struct the generator has never seen becomes a kernel
 * with no hand edit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KernelBuffer, Typed } from '../../src/kernels/backend.js';
import { wasmJobKernels, type JobExports } from '../../src/kernels/wasm-jobs.js';
import { execChild } from '../helpers/child.js';
import { REPO } from '../helpers/models.js';
import { generate } from '../../../scripts/gen-jobs.mjs';

const JOBS_RS = readFileSync(join(REPO, 'crates/wasm/src/jobs.rs'), 'utf8');
const LIB_RS = readFileSync(join(REPO, 'crates/wasm/src/lib.rs'), 'utf8');

interface Field {
  rust: string;
  type: string;
  word: number;
  /** Where the TS job keeps it (`anim.parents`), and the number that is its element count, if any. */
  path: string[];
  length: string[] | null;
}

/** jobs.rs's structs read independently of the generator: fields in order, two words per Buf, the `// ts:` notes. */
function structs(text: string): Map<string, Field[]> {
  const out = new Map<string, Field[]>();
  for (const [, name, body] of text.matchAll(/pub struct (\w+Job) \{([^}]*)\}/g)) {
    let word = 0;
    const fields: Field[] = [];
    for (const line of body.split('\n')) {
      const m = /^\s*pub (\w+): (\w+),(?:\s*\/\/ ts: ([\w.]+)(?:, length: ([\w.]+))?)?/.exec(line);
      if (!m) continue;
      const camel = m[1].replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
      fields.push({ rust: m[1], type: m[2], word, path: (m[3] ?? camel).split('.'), length: m[4] ? m[4].split('.') : null });
      word += m[2] === 'Buf' ? 2 : 1;
    }
    out.set(name, fields);
  }
  return out;
}

/** lib.rs's entry points taking a job, read independently: kernel name, export name, job struct. */
function entries(text: string): { kernel: string; exported: string; job: string; validator: boolean }[] {
  return [...text.matchAll(/pub fn (\w+)\(job_ptr: usize\) -> (bool|i32) \{[^}]*?let j: &(\w+Job)/g)].map(([, exported, returns, job]) => ({
    kernel: exported.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
    exported,
    job,
    validator: returns === 'i32',
  }));
}

const setAt = (o: Record<string, unknown>, path: string[], v: unknown) => {
  let x = o;
  for (const k of path.slice(0, -1)) x = (x[k] ??= {}) as Record<string, unknown>;
  x[path[path.length - 1]] = v;
};

let nextPtr = 1000;
const fakeBuffer = (length: number) => ({ ptr: (nextPtr += 64), length, view: null }) as unknown as KernelBuffer<Typed>;

/** The generated kernels over a plain block: `put` writes address and length as the backend's does, exports log their calls. */
function harness(results: { ok: boolean }) {
  const memory = new ArrayBuffer(64 * 4);
  const words = new Uint32Array(memory), floats = new Float32Array(memory);
  const calls: string[] = [];
  const g = new Proxy({}, { get: (_, name: string) => (at: number) => (calls.push(`${name}@${at}`), name.startsWith('validate') ? -1 : results.ok) }) as JobExports;
  const { kernels, forget } = wasmJobKernels(g, {
    ptr: 4096,
    words: () => words,
    floats: () => floats,
    put(u, at, b) {
      u[at] = b ? b.ptr : 0;
      u[at + 1] = b ? b.length : 0;
    },
  });
  return { kernels: kernels as unknown as Record<string, (j: unknown) => unknown>, forget, words, floats, calls };
}

/** A job for `fields` with distinct buffers and numbers (an element count within its buffer). */
function makeJob(fields: Field[], seed: number): Record<string, unknown> {
  const j: Record<string, unknown> = {};
  fields.forEach((f, k) => {
    if (f.type === 'Buf') setAt(j, f.path, fakeBuffer(50 + k + seed));
    else setAt(j, f.path, f.type === 'f32' ? 0.25 + k + seed : 3 + k + seed);
  });
  for (const f of fields) if (f.length) setAt(j, f.length, 7 + seed);
  return j;
}

const get = (o: Record<string, unknown>, path: string[]) => path.reduce<unknown>((x, k) => (x as Record<string, unknown>)[k], o);

/** The block holds `j` as `fields` say: each Buf's address and count, each number. */
function expectWords(words: Uint32Array, floats: Float32Array, fields: Field[], j: Record<string, unknown>) {
  for (const f of fields) {
    const v = get(j, f.path);
    if (f.type === 'Buf') {
      const b = v as KernelBuffer<Typed>;
      expect([words[f.word], words[f.word + 1]], f.rust).toEqual([b.ptr, f.length ? (get(j, f.length) as number) : b.length]);
    } else if (f.type === 'f32') expect(floats[f.word], f.rust).toBe(Math.fround(v as number));
    else expect(words[f.word], f.rust).toBe(v);
  }
}

describe('the WASM job writers', () => {
  it('ts/src/kernels/wasm-jobs.ts is what scripts/gen-jobs.mjs makes of jobs.rs and lib.rs', async () => {
    await expect(execChild(process.execPath, [join(REPO, 'scripts/gen-jobs.mjs'), '--check'])).resolves.toBeTypeOf('string');
  });

  const all = structs(JOBS_RS);
  const kernelList = entries(LIB_RS);

  it('there is a kernel for every entry point of lib.rs that takes a job, and every job struct has one', () => {
    const { kernels } = harness({ ok: true });
    expect(Object.keys(kernels).sort()).toEqual(kernelList.map((e) => e.kernel).sort());
    for (const name of all.keys()) expect(kernelList.some((e) => e.job === name), name).toBe(true);
    expect(kernelList.length).toBeGreaterThanOrEqual(all.size);
  });

  it.each(kernelList)('$kernel writes $job word for word, calls $exported with the block, and follows every swapped buffer and number', ({ kernel, exported, job, validator }) => {
    const fields = all.get(job)!;
    const h = harness({ ok: true });
    const j = makeJob(fields, 0);
    const result = h.kernels[kernel](j);
    expect(h.calls).toEqual([`${exported}@4096`]);
    if (validator) expect(result).toBe(-1);
    expectWords(h.words, h.floats, fields, j);
    // Resident: run again after the block was scribbled on by nobody — then swap each buffer, each number, in turn.
    for (const f of fields) {
      h.kernels[kernel](j);
      setAt(j, f.path, f.type === 'Buf' ? fakeBuffer(90) : f.type === 'f32' ? 9.5 : 42);
      if (f.length) setAt(j, f.length, 11);
      h.kernels[kernel](j);
      expectWords(h.words, h.floats, fields, j);
    }
    // Another job object with the same buffers, and the same object after `forget` (a released buffer), are written.
    const twin = structuredClone(j);
    fields.filter((f) => f.type === 'Buf').forEach((f) => setAt(twin, f.path, get(j, f.path)));
    h.words.fill(0);
    h.kernels[kernel](twin);
    expectWords(h.words, h.floats, fields, twin);
    // Resident now: only the numbers (and element counts) are written again, not the buffers' words.
    h.words.fill(0);
    h.kernels[kernel](twin);
    for (const f of fields) {
      if (f.type === 'Buf') expect(h.words[f.word], f.rust).toBe(0);
      else expect(f.type === 'f32' ? h.floats[f.word] : h.words[f.word], f.rust).toBe(f.type === 'f32' ? Math.fround(get(twin, f.path) as number) : get(twin, f.path));
    }
    h.forget();
    h.kernels[kernel](twin);
    expectWords(h.words, h.floats, fields, twin);
  });

  it('a resident job is rewritten after another kernel wrote the block', () => {
    const h = harness({ ok: true });
    const [a, b] = kernelList.filter((e) => !all.get(e.job)!.some((f) => f.length)).slice(0, 2);
    const ja = makeJob(all.get(a.job)!, 1), jb = makeJob(all.get(b.job)!, 2);
    h.kernels[a.kernel](ja);
    h.kernels[b.kernel](jb);
    h.kernels[a.kernel](ja);
    expectWords(h.words, h.floats, all.get(a.job)!, ja);
  });

  it('a run kernel refuses with RangeError when its export says no, naming the kernel; an element count past its buffer is refused before any call', () => {
    const results = { ok: false };
    const h = harness(results);
    for (const e of kernelList.filter((x) => !x.validator)) {
      const j = makeJob(all.get(e.job)!, 3);
      expect(() => h.kernels[e.kernel](j)).toThrow(new RegExp(`^${e.kernel}: `));
    }
    expect(() => h.kernels.md2Blend(makeJob(all.get('Md2BlendJob')!, 0))).toThrow('md2Blend: no frames 11, 12, or a buffer is too short');
    results.ok = true;
    for (const e of kernelList) {
      const fields = all.get(e.job)!;
      const counted = fields.find((f) => f.length);
      if (!counted) continue;
      const j = makeJob(fields, 0);
      setAt(j, counted.length!, (get(j, counted.path) as KernelBuffer<Typed>).length + 1);
      h.calls.length = 0;
      expect(() => h.kernels[e.kernel](j)).toThrow(RangeError);
      expect(h.calls).toEqual([]);
    }
  });

  it('a job struct it has never seen (every kind of word, a nested path, an element count) becomes a kernel with no hand edit', () => {
    const jobs = `${JOBS_RS}
/// A made-up job.
#[repr(C)]
pub struct IqmSkinJob {
    pub matrices: Buf,
    pub blend_indices: Buf, // ts: stream.indices
    pub frame_list: Buf,    // ts: frameList, length: frameTotal
    pub out: Buf,
    pub vertex_count: u32,
    pub bias: i32,
    pub t: f32,
}
`;
    const lib = `${LIB_RS}
/// Refused: no {vertex_count} vertices here
#[wasm_bindgen]
pub fn iqm_skin(job_ptr: usize) -> bool {
    let j: &IqmSkinJob = unsafe { job(job_ptr) };
    true
}
`;
    const text: string = generate(jobs, lib);
    expect(text).toContain('  iqm_skin(job: number): boolean;');
    expect(text).toMatch(/^import type \{[^}]* IqmSkinJob,[^}]*\} from '\.\/backend\.js';$/m);
    const writer = text.slice(text.indexOf('function writeIqmSkinJob'), text.indexOf('} // iqmSkin\n'));
    expect(writer).toContain('const frameListCount = count(j.frameTotal, j.frameList, kernel);');
    for (const line of ['put(u, 0, (r[0] = j.matrices));', 'put(u, 2, (r[1] = j.stream.indices));', 'put(u, 4, (r[2] = j.frameList));', 'put(u, 6, (r[3] = j.out));',
      'u[5] = frameListCount;', 'u[8] = index(j.vertexCount);', 'u[9] = j.bias | 0;', 'f[10] = j.t;']) expect(writer).toContain(line);
    expect(text).toContain("    iqmSkin(j) {\n      writeIqmSkinJob(j, 'iqmSkin');\n      if (!g.iqm_skin(at)) refused('iqmSkin', `no ${j.vertexCount} vertices here`);");
    // A struct of 33 words grows the job block to the next 16 bytes.
    const wide = jobs.replace('pub bias: i32,\n    pub t: f32,\n}', `pub bias: i32,\n    pub t: f32,\n${Array.from({ length: 22 }, (_, i) => `    pub w${i}: u32,`).join('\n')}\n}`);
    expect(generate(wide, lib)).toContain('export const JOB_BLOCK_WORDS = 36;');
  });
});

