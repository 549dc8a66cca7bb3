/**
 * `npm run demo` is the README's first command: its script (scripts/demo.js) runs on the built package as a user
 * imports it, so a change to the package's doors can break it without any library test noticing.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runChild } from './helpers/child.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/demo.js', import.meta.url));

describe('npm run demo (scripts/demo.js)', () => {
  it('streams the bundled worm, poses every frame with every backend and reports WASM within 1e-4 of TS', async () => {
    const r = await runChild(process.execPath, [SCRIPT]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/fixtures\/default\/worm\.md5mesh/);
    const joints = /(\d+) joints, (\d+) meshes/.exec(r.stdout);
    expect(Number(joints?.[1])).toBeGreaterThan(0);
    const parity = /max \|WASM − TS\| over (\d+) frames = (\S+) \((\S+) of the/.exec(r.stdout);
    expect(Number(parity?.[1])).toBeGreaterThan(1);
    expect(Number(parity?.[3])).toBeLessThanOrEqual(1e-4);
    for (const backend of ['wasm-scalar', 'ts']) expect(r.stdout).toMatch(new RegExp(`^\\s+${backend}\\s+[\\d.]+ µs/frame`, 'm'));
  }, 180_000);
});
