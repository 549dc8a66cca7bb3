/**
 * The layouts the kernels share have one source, the Rust code: ts/src/kernels/layout.ts is generated from
 * crates/core/src/layout.rs and crates/wasm/src/jobs.rs, and the WASM surface takes exactly the jobs it describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as layout from '../../src/kernels/layout.js';
import { JOB_BLOCK_WORDS } from '../../src/kernels/wasm-jobs.js';
import * as glue from '../../wasm/scalar/idtech_wasm.js';
import { execChild } from '../helpers/child.js';
import { REPO } from '../helpers/models.js';

describe('kernel layout', () => {
  it('ts/src/kernels/layout.ts is what scripts/gen-layout.mjs makes of the Rust sources', async () => {
    await expect(execChild(process.execPath, [join(REPO, 'scripts/gen-layout.mjs'), '--check'])).resolves.toBeTypeOf('string');
  });

  it('the generator reads the Rust constants and job words as written there', () => {
    const rust = readFileSync(join(REPO, 'crates/core/src/layout.rs'), 'utf8');
    expect(rust).toMatch(new RegExp(`pub const POSE_STRIDE: usize = ${layout.POSE_STRIDE};`));
    expect(layout.MD3_XYZ_SCALE).toBe(1 / 64);
    const jobs = readFileSync(join(REPO, 'crates/wasm/src/jobs.rs'), 'utf8');
    const skinJob = /pub struct SkinJob \{([^}]*)\}/.exec(jobs)![1];
    // six Buf fields: two words each, in declaration order
    expect(layout.SKIN_JOB).toEqual({ matrices: 0, groupSizes: 2, joints: 4, weights: 6, dest: 8, out: 10, words: 12 });
    expect([...skinJob.matchAll(/pub (\w+): Buf/g)].length).toBe(6);
  });

  it('every job has a WASM entry point taking one pointer, and fits the backend job block', () => {
    const jobs = Object.entries(layout).filter(([name]) => name.endsWith('_JOB')) as [string, { words: number }][];
    const rust = readFileSync(join(REPO, 'crates/wasm/src/jobs.rs'), 'utf8');
    expect(jobs.length).toBe([...rust.matchAll(/#\[repr\(C\)\]\s*pub struct \w+Job \{/g)].length);
    const lib = readFileSync(join(REPO, 'crates/wasm/src/lib.rs'), 'utf8');
    const entries = [...lib.matchAll(/pub fn (\w+)\(job_ptr: usize\)[^{]*\{[^}]*?let j: &(\w+)Job\b/g)];
    for (const [name, job] of jobs) {
      const screaming = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
      const taking = entries.filter((e) => `${screaming(e[2])}_JOB` === name).map((e) => e[1]);
      expect(taking.length, name).toBeGreaterThan(0);
      for (const e of taking) {
        const fn = (glue as Record<string, unknown>)[e];
        expect(typeof fn, `${name} → ${e}`).toBe('function');
        expect((fn as (...a: unknown[]) => unknown).length, e).toBe(1);
      }
      expect(job.words).toBeLessThanOrEqual(JOB_BLOCK_WORDS);
    }
  });
});
