/**
 * The layouts the kernels share have one source, the Rust code: ts/src/kernels/layout.ts is generated from
 * crates/core/src/layout.rs and crates/wasm/src/jobs.rs, and the WASM surface takes exactly the jobs it describes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as layout from '../../src/kernels/layout.js';
import * as glue from '../../wasm/scalar/idtech_wasm.js';
import { REPO } from '../helpers/models.js';

describe('kernel layout', () => {
  it('ts/src/kernels/layout.ts is what scripts/gen-layout.mjs makes of the Rust sources', () => {
    expect(() => execFileSync('node', [join(REPO, 'scripts/gen-layout.mjs'), '--check'], { stdio: 'pipe' })).not.toThrow();
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
    expect(jobs.length).toBe(16);
    for (const [name, job] of jobs) {
      const entry = name.replace(/_JOB$/, '').toLowerCase().replace(/^matrices$/, 'pose_matrices').replace(/^compose$/, 'compose_frame').replace(/^interpolate$/, 'interpolate_local').replace(/^transform$/, 'transform_vertices');
      const skin = name === 'SKIN_JOB' ? ['skin_positions', 'skin_normals'] : [entry];
      for (const e of skin) {
        const fn = (glue as Record<string, unknown>)[e];
        expect(typeof fn, `${name} → ${e}`).toBe('function');
        expect((fn as (...a: unknown[]) => unknown).length, e).toBe(1);
      }
      expect(job.words).toBeLessThanOrEqual(32);
    }
  });
});
