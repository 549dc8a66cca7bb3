/**
 * id → id conversion keeps the source's frames unless --fps asks for others: an MD2's 198 frames (clips at Quake 2's
 * 10 fps) become 198 MD3 frames, not 284 sampled at MD3's 15; an MDL's become as many MD2 frames. A player written
 * back from its own .glb (`--player`) keeps its animation.cfg: every line's frame count, loop frames and rate (the
 * loop frames of a torso clip and the rate of a one-frame clip were lost), and its headoffset.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';

const tmp = cliTemp('id-frames');
const FAERIE = shared('assimp/test/models/MD2/faerie.md2'); // 198 frames, 16 clips
const OGRE = shared('LibreQuake/lq1/progs/ogre.mdl');
const PLAYER = shared('res-players_src.dpkdir/models/players/human_bsuit');
const md3Frames = (path: string) => parseMd3(new Uint8Array(readFileSync(path))).frameCount;

describe("id → id keeps the source's frames", () => {
  it('faerie.md2 → .md3: its 198 frames; with --fps 15 resampled (284), as asked', async () => {
    const kept = join(tmp, 'faerie.md3');
    const r = await runCli('convert', FAERIE, '--no-textures', '-o', kept);
    expect(r.status, r.stderr).toBe(0);
    expect(md3Frames(kept)).toBe(parseMd2(new Uint8Array(readFileSync(FAERIE))).frameCount);
    expect(md3Frames(kept)).toBe(198);
    const resampled = join(tmp, 'faerie15.md3');
    expect((await runCli('convert', FAERIE, '--no-textures', '--fps', '15', '-o', resampled)).status).toBe(0);
    expect(md3Frames(resampled)).toBe(284);
  });

  it('ogre.mdl → .md2: as many frames as the MDL', async () => {
    const out = join(tmp, 'ogre.md2');
    const r = await runCli('convert', OGRE, '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(parseMd2(new Uint8Array(readFileSync(out))).frameCount).toBe(parseMdl(new Uint8Array(readFileSync(OGRE))).frameCount);
  });
});

describe('a player → .glb → --player keeps its animation.cfg', () => {
  /** The player folder → .glb → a player folder; both animation.cfgs parsed. */
  async function roundTrip(folder: string, name: string) {
    const glb = join(tmp, `${name}.glb`);
    expect((await runCli('convert', folder, '--no-textures', '-o', glb)).status).toBe(0);
    const out = join(tmp, `${name}-back`);
    const r = await runCli('convert', glb, '--player', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    return { before: parseAnimationCfg(readFileSync(join(folder, 'animation.cfg'))), after: parseAnimationCfg(readFileSync(join(out, 'animation.cfg'))) };
  }
  const lines = (cfg: ReturnType<typeof parseAnimationCfg>, names: readonly string[]) => names.map((n) => { const a = cfg.animations.find((x) => x.name === n)!; return [n, a.numFrames, a.loopFrames, a.fps]; });

  it("human_bsuit: every line's frame count, loop frames and rate, one-frame clips' 25 fps included", async () => {
    const { before, after } = await roundTrip(PLAYER, 'bsuit');
    const names = before.animations.filter((a) => a.numFrames > 0 && !/^(FLAG_|LEGS_BACKCR|LEGS_BACKWALK)/.test(a.name) && before.byName[a.name as never]).map((a) => a.name);
    expect(names.length).toBeGreaterThan(30);
    expect(lines(after, names)).toEqual(lines(before, names));
    expect(after.byName.BOTH_DEAD1!.fps).toBe(25); // one frame: was written at 15
    expect([after.sex, after.footsteps]).toEqual([before.sex, before.footsteps]);
  });

  it('a made-up cfg: a torso clip with loop frames, a one-frame clip at 25 fps and a headoffset come back', async () => {
    const folder = join(tmp, 'edited');
    cpSync(PLAYER, folder, { recursive: true });
    const cfg = readFileSync(join(folder, 'animation.cfg'), 'latin1')
      .replace(/^90\t40\t0\t20(\t+\/\/ TORSO_RALLY)/m, '90\t40\t12\t20$1')
      .replace(/^152\t1\t0\t15(\t+\/\/ TORSO_STAND2)/m, '152\t1\t0\t25$1')
      .replace(/^footsteps custom/m, 'footsteps custom\nheadoffset 1 -2 3.5');
    writeFileSync(join(folder, 'animation.cfg'), cfg, 'latin1');
    const { before, after } = await roundTrip(folder, 'edited');
    expect(before.byName.TORSO_RALLY!.loopFrames).toBe(12);
    expect(lines(after, ['TORSO_RALLY', 'TORSO_STAND_BLASTER'])).toEqual([['TORSO_RALLY', 40, 12, 20], ['TORSO_STAND_BLASTER', 1, 0, 25]]);
    expect(after.headOffset).toEqual([1, -2, 3.5]);
  });
});
