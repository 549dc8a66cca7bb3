/**
 * `convert` refuses to write over a file it read (OUTPUT_IS_INPUT, exit 2, nothing written) unless --force: the
 * model itself under another spelling or a hard link, a player written back into its own folder, an md5anim given
 * with --anim that the md5mesh writer would write (--assimp-anim names it OUT.md5anim).
 */
import { cpSync, linkSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliTemp, runCli, shared } from '../helpers/cli.js';

const tmp = cliTemp('overwrite');
const PLAYER = shared('res-players_src.dpkdir/models/players/human_bsuit');
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n)).toString('base64')]));

describe('convert never writes over what it read unless --force', () => {
  it('an .md3 to itself (another spelling, a hard link): OUTPUT_IS_INPUT, exit 2, the file unchanged; --force writes it', async () => {
    const dir = join(tmp, 'self');
    cpSync(join(PLAYER, 'upper.md3'), join(dir, 'upper.md3'), { recursive: true });
    linkSync(join(dir, 'upper.md3'), join(dir, 'linked.md3'));
    const before = readFileSync(join(dir, 'upper.md3'));
    for (const out of [join(dir, '.', 'upper.md3'), join(dir, 'linked.md3')]) {
      const r = await runCli('convert', join(dir, 'upper.md3'), '--no-textures', '-o', out);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${out}: OUTPUT_IS_INPUT: a file this conversion reads`);
      expect(r.stderr).toContain('--force');
    }
    expect(Buffer.compare(readFileSync(join(dir, 'upper.md3')), before)).toBe(0);
    const forced = await runCli('convert', join(dir, 'upper.md3'), '--no-textures', '--force', '-o', join(dir, 'upper.md3'));
    expect(forced.status, forced.stderr).toBe(0);
    expect(Buffer.compare(readFileSync(join(dir, 'upper.md3')), before)).not.toBe(0);
  });

  it('a player written back into its own folder: refused before any of its files (parts, skins, animation.cfg) is touched', async () => {
    const dir = join(tmp, 'player', 'human_bsuit');
    cpSync(PLAYER, dir, { recursive: true });
    const before = snapshot(dir);
    const r = await runCli('convert', dir, '--player', '-o', dir);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/human_bsuit\/\w+\.(md3|skin|cfg): OUTPUT_IS_INPUT/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('an --anim the md5mesh writer would write (OUT.md5anim with --assimp-anim): refused, the md5anim unchanged', async () => {
    const dir = join(tmp, 'md5');
    cpSync(shared('actors/drone/mesh.md5mesh'), join(dir, 'mesh.md5mesh'));
    cpSync(shared('actors/drone/idle.md5anim'), join(dir, 'idle.md5anim'));
    const mtime = statSync(join(dir, 'idle.md5anim')).mtimeMs;
    const r = await runCli('convert', join(dir, 'mesh.md5mesh'), '--anim', join(dir, 'idle.md5anim'), '--assimp-anim', '--no-textures', '-o', join(dir, 'idle.md5mesh'));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'idle.md5anim')}: OUTPUT_IS_INPUT`);
    expect(readdirSync(dir).sort()).toEqual(['idle.md5anim', 'mesh.md5mesh']);
    expect(statSync(join(dir, 'idle.md5anim')).mtimeMs).toBe(mtime);
  });
});
