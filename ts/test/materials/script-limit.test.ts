/**
 * Scripts are read whole, so their size is bounded (`maxScriptBytes`, default 8 MiB; vfs/bounded-read.ts): a shader
 * script, .mtr or .skin over it is not read — a SCRIPT_TOO_LARGE warning naming the file and the limit, the model
 * still resolved — and an animation.cfg over it is RESOURCE_LIMIT. The size is checked from what the file system
 * declares before a byte is read, and again as bytes arrive. Real corpus files at their own size.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { openModelSet } from '../../src/load/model-set.js';
import { md3PlayerFormat } from '../../src/formats/md3/player-format.js';
import type { Md3PlayerData } from '../../src/formats/md3/player-parts.js';
import { MaterialResolver } from '../../src/materials/index.js';
import { readScriptFile } from '../../src/vfs/bounded-read.js';
import type { VfsFile } from '../../src/vfs/file-system.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { shared } from '../helpers/cli.js';
import { failure } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());


const AAA = shared('aaa-assets');
const portals = () => parseMd3(new Uint8Array(readFileSync(join(AAA, 'models/fx/portal/portals.md3'))));

describe('maxScriptBytes', () => {
  it('a shader script over the limit is not read: SCRIPT_TOO_LARGE names it and the limit; at its exact size it is read', async () => {
    const size = readFileSync(join(AAA, 'scripts/portals.shader')).length;
    const under = await new MaterialResolver(folderFileSystem(AAA), { maxScriptBytes: size - 1 }).md3(portals(), 'models/fx/portal/portals.md3', { skin: 'blue' });
    const w = under.warnings.find((x) => x.code === 'SCRIPT_TOO_LARGE' && x.path === 'scripts/portals.shader');
    expect(w?.message).toBe(`scripts/portals.shader is not read: ${join(AAA, 'scripts/portals.shader')} is ${size} bytes: over the limit maxScriptBytes = ${size - 1} (raise it with --limit maxScriptBytes=N, or the maxScriptBytes option)`);
    const at = await new MaterialResolver(folderFileSystem(AAA), { maxScriptBytes: size }).md3(portals(), 'models/fx/portal/portals.md3', { skin: 'blue' });
    expect(at.warnings.filter((x) => x.path === 'scripts/portals.shader' && x.code === 'SCRIPT_TOO_LARGE')).toEqual([]);
    // the script defines the skin's shader: read, its image is found; not read, the shader name is taken as an image name
    expect(at.materials.map((m) => m.definition.kind)).toContain('shader');
    expect(under.materials.map((m) => m.definition.kind)).not.toContain('shader');
  });

  it('a .skin over the limit (process-wide, as --limit sets it) is not read, said once', async () => {
    setResourceLimits({ maxScriptBytes: 10 });
    const r = await new MaterialResolver(folderFileSystem(AAA)).md3(portals(), 'models/fx/portal/portals.md3', { skin: 'blue' });
    expect(r.warnings.filter((w) => w.code === 'SCRIPT_TOO_LARGE').map((w) => w.path).sort()).toEqual(['models/fx/portal/portals_blue.skin', 'scripts/grenade_launcher.mtr', 'scripts/grenade_launcher.shader', 'scripts/portals.shader']);
  });

  it('an animation.cfg over the limit is RESOURCE_LIMIT naming it (the player is not loaded with half a config)', async () => {
    const dir = shared('res-players_src.dpkdir/models/players/human_bsuit');
    const fs = memoryFileSystem(['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg'].map((n) => ({ path: `p/${n}`, bytes: new Uint8Array(readFileSync(join(dir, n))) })), 'game');
    const cfg = readFileSync(join(dir, 'animation.cfg')).length;
    const loadPlayerFrom = async (folder: string) => (await openModelSet(fs, folder, { formats: [md3PlayerFormat] })).data as Md3PlayerData;
    expect((await loadPlayerFrom('p')).animations?.animations.length).toBeGreaterThan(0);
    setResourceLimits({ maxScriptBytes: cfg - 1 });
    const e = await failure(loadPlayerFrom('p'));
    expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', `game:p/animation.cfg is ${cfg} bytes: over the limit maxScriptBytes = ${cfg - 1} (raise it with --limit maxScriptBytes=N, or the maxScriptBytes option)`]);
  });

  it('a file declaring more than the limit is refused before a byte of it is read', async () => {
    const big: VfsFile = {
      path: 'scripts/big.shader',
      size: 300 << 20,
      origin: 'pak0.pk3:scripts/big.shader',
      stream: () => {
        throw new Error('read');
      },
      bytes: async () => {
        throw new Error('read');
      },
    };
    const e = await failure(readScriptFile(big));
    expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', 'pak0.pk3:scripts/big.shader is 314572800 bytes: over the limit maxScriptBytes = 8388608 (raise it with --limit maxScriptBytes=N, or the maxScriptBytes option)']);
  });

  it('a file that holds more than it declared stops at the limit + the chunk that crossed it', async () => {
    let streamed = 0;
    const liar: VfsFile = {
      path: 'scripts/liar.shader',
      size: 10,
      origin: 'liar',
      async *stream() {
        for (let i = 0; i < 1000; i++) {
          streamed += 4096;
          yield new Uint8Array(4096).fill(0x20);
        }
      },
      bytes: async () => new Uint8Array(0),
    };
    const e = await failure(readScriptFile(liar, { maxBytes: 10_000 }));
    expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', 'liar is 12288 bytes: over the limit maxScriptBytes = 10000 (raise it with --limit maxScriptBytes=N, or the maxScriptBytes option)']);
    expect(streamed).toBe(12288);
  });
});
