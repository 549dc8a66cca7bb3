/**
 * Every failure the fuzzer found, replayed: fixtures/regressions/<parser>/<name>.<ext> is the minimised input and
 * <name>.json says where it came from, what was wrong, and what is expected now — `"expect"`: an error code, `"OK"`,
 * or `"no untyped error"` (only the fuzz invariant: a model or a typed error, within bounds, the same in chunks).
 */
import './alloc-meter-install.js'; // before glTF Transform loads (the glTF regressions)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/models.js';
import { checkGltfInput } from './gltf-target.js';
import { checkInput } from './invariant.js';
import { Rng } from './rng.js';
import { TARGETS } from './targets.js';

const DIR = join(FIXTURES, 'regressions');

interface Regression {
  target: string;
  expect: string;
  found: string;
  cause: string;
}

const cases = readdirSync(DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    const files = readdirSync(join(DIR, d.name));
    return files
      .filter((f) => f.endsWith('.json'))
      .map((f) => {
        const base = f.slice(0, -'.json'.length);
        const input = files.find((g) => g !== f && g.startsWith(`${base}.`));
        if (!input) throw new Error(`${d.name}/${f}: no input file ${base}.*`);
        const meta = JSON.parse(readFileSync(join(DIR, d.name, f), 'utf8')) as Regression;
        return { name: `${d.name}/${input}`, meta, bytes: new Uint8Array(readFileSync(join(DIR, d.name, input))) };
      });
  });

describe('fuzzer regressions (fixtures/regressions)', () => {
  test('the directory holds regressions', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const { name, meta, bytes } of cases.filter((c) => c.meta.target === 'gltf')) {
    // the glTF import is asynchronous and has its own check (gltf-target.ts); an input is one file (buffers as data URIs)
    test(`${name}: ${meta.expect}`, async () => {
      const out = await checkGltfInput(bytes, {});
      expect(out.violation, out.violation && `${out.violation.kind}: ${out.violation.detail} (was: ${meta.cause})`).toBeUndefined();
      if (meta.expect !== 'no untyped error') expect(out.code).toBe(meta.expect);
    });
  }

  for (const { name, meta, bytes } of cases.filter((c) => c.meta.target !== 'gltf')) {
    test(`${name}: ${meta.expect}`, () => {
      const target = TARGETS.find((t) => t.name === meta.target);
      expect(target, `no fuzz target ${meta.target}`).toBeDefined();
      // Several chunkings (and modes) of the same input.
      for (let seed = 1; seed <= 8; seed++) {
        const out = checkInput(target!, bytes, new Rng(seed), { chunks: true, use: true });
        expect(out.violation, out.violation && `${out.violation.kind}: ${out.violation.detail} (was: ${meta.cause})`).toBeUndefined();
        if (meta.expect !== 'no untyped error') expect(out.code).toBe(meta.expect);
      }
    });
  }
});
