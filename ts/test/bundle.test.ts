/** The built package as users import it: the browser bundle carries no Node built-ins and works on its own. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { read, REPO, SHARED_MODELS } from './helpers/models.js';

describe('dist bundles', () => {
  it('dist/browser.js imports nothing (no node: modules, no require), wasm embedded', () => {
    const code = readFileSync(join(REPO, 'dist/browser.js'), 'utf8');
    expect(code).not.toMatch(/from\s*["'](node:|fs|path|url|stream)["']/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/^import\s/m);
  });

  it('the browser entry parses, poses and skins with WASM and TS alike', async () => {
    const lib = await import(pathToFileURL(join(REPO, 'dist/browser.js')).href);
    const mesh = await lib.parseMd5MeshStream(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
    const anim = lib.parseMd5Anim(read(`${SHARED_MODELS}/actors/drone/forward.md5anim`));
    const out: Float32Array[] = [];
    for (const name of ['wasm', 'ts']) {
      const p = new lib.Md5Poser(await lib.createBackend(name), mesh);
      p.setAnim(anim);
      p.poseTime(0.2);
      out.push(p.positions.slice());
    }
    expect(out[0].length).toBe(1439 * 3);
    let d = 0;
    for (let i = 0; i < out[0].length; i++) d = Math.max(d, Math.abs(out[0][i] - out[1][i]));
    expect(d).toBeLessThan(1e-4);
  });

  it('package.json routes node and browser to their bundles, with types', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.exports['.'].node.default).toBe('./dist/node.js');
    expect(pkg.exports['.'].browser.default).toBe('./dist/browser.js');
    for (const cond of ['node', 'browser']) expect(readFileSync(join(REPO, pkg.exports['.'][cond].types), 'utf8')).toMatch(/export/);
  });
});
