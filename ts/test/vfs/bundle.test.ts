/**
 * The vfs floor splits in two: everything but node.ts, node-file.ts and node-zlib.ts is platform-neutral and must
 * bundle for the browser with no Node built-in (esbuild's platform 'browser' fails on one); the Node files are for
 * the Node entry only.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/models.js';

const VFS = join(REPO, 'ts/src/vfs');
const NODE_ONLY = new Set(['node.ts', 'node-file.ts', 'node-zlib.ts']);

describe('the vfs floor in bundles', () => {
  it('every platform-neutral vfs file bundles for the browser without Node built-ins', async () => {
    const neutral = readdirSync(VFS).filter((f) => f.endsWith('.ts') && !NODE_ONLY.has(f));
    expect(neutral.length).toBeGreaterThan(10);
    const result = await build({
      stdin: { contents: neutral.map((f) => `export * from './ts/src/vfs/${f.replace(/\.ts$/, '.js')}';`).join('\n'), resolveDir: REPO, loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/from\s*["'](node:|fs|path|zlib|events)["']/);
    expect(code).toContain('openArchiveFrom');
  });

  it('the Node-only files do import Node built-ins (so they must stay out of the browser entry)', async () => {
    await expect(
      build({ stdin: { contents: "export * from './ts/src/vfs/node.js';", resolveDir: REPO, loader: 'ts' }, bundle: true, platform: 'browser', write: false, logLevel: 'silent' }),
    ).rejects.toThrow();
  });
});
