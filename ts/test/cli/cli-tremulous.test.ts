/**
 * Tremulous' non-segmented player and buildables on the command line (the bundled CLI): `inspect` says which form it
 * read, `convert` writes the cfg's clips as named glTF animations — opened from the folder, from one of its MD3s,
 * loose (in a .dpkdir) or inside a .pk3. The game is assembled at test time (helpers/tremulous-game.ts); a Quake 3
 * segmented player from the corpus (res-players human_bsuit) for the third form.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MD3_BUILDABLE_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { expectClean, validate } from '../export/validate.js';
import { readGlb } from '../export/gltf-eval.js';
import { cliTemp, runCli as run } from '../helpers/cli.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { tremulousGame } from '../helpers/tremulous-game.js';
import { makeZip } from '../helpers/zip-writer.js';

const tmp = cliTemp('tremulous');
const game = tremulousGame();
const DIR = join(tmp, 'res-trem_src.dpkdir');
for (const [p, bytes] of game) {
  mkdirSync(dirname(join(DIR, p)), { recursive: true });
  writeFileSync(join(DIR, p), bytes);
}
const BSUIT = 'res-players_src.dpkdir/models/players/human_bsuit';
const PK3 = join(tmp, 'trem.pk3');
writeFileSync(PK3, makeZip([
  ...[...game].map(([name, data]) => ({ name, data })),
  ...['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg'].map((n) => ({ name: `models/players/human_bsuit/${n}`, data: new Uint8Array(readFileSync(join(SHARED_MODELS, BSUIT, n))) })),
]));
const NONSEG = parseAnimationCfg(game.get('models/players/spitfire/animation.cfg')!);
const results: string[] = [];

async function inspect(target: string): Promise<Record<string, unknown>> {
  const r = await run('inspect', target, '--json', '--no-textures');
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('inspect says which form it read', () => {
  it('nonseg.md3 (loose, and in a .pk3): a Tremulous non-segmented player, with its cfg lines', async () => {
    for (const target of [join(DIR, 'models/players/spitfire/nonseg.md3'), `${PK3}:models/players/spitfire/nonseg.md3`, `${PK3}:models/players/spitfire`]) {
      const s = await inspect(target);
      expect(s.format, target).toBe('nonseg');
      expect(s.form).toMatch(/^Tremulous non-segmented player/);
      expect(s.clips).toEqual(NONSEG.animations.map((a) => `${a.name} ${a.firstFrame} ${a.reversed ? -a.numFrames : a.numFrames} ${a.loopFrames} ${a.fps}`));
    }
  });

  it('a buildable\'s MD3: a Tremulous buildable, its models from the config, 1 and 2 on model 0\'s tag_turret', async () => {
    const s = await inspect(join(DIR, 'models/buildables/mgturret/turret_barrel.md3'));
    expect(s.format).toBe('buildable');
    expect(s.form).toBe('Tremulous buildable (models from configs/buildables/mgturret.cfg)');
    expect((s.models as string[]).map((m) => m.split(':')[0])).toEqual(['model0 models/buildables/mgturret/turret_base.md3', 'model1 models/buildables/mgturret/turret_barrel.md3', 'model2 models/buildables/mgturret/turret_top.md3']);
    expect((s.models as string[]).slice(1).every((m) => m.endsWith("on model0's tag_turret"))).toBe(true);
    expect([s.modelScale, s.zOffset]).toEqual([1.5, 8]);
    expect((s.clips as string[]).map((c) => c.split(' ')[0])).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
  });

  it('a Quake 3 player folder in a .pk3: a segmented player', async () => {
    const s = await inspect(`${PK3}:models/players/human_bsuit`);
    expect(s.format).toBe('player');
    expect(s.form).toMatch(/^Quake 3 segmented player \(lower\.md3, upper\.md3, head\.md3; animation\.cfg, Unvanquished's list\)$/);
  });
});

describe('convert writes the cfg clips as named animations', () => {
  for (const [target, names] of [
    [join(DIR, 'models/players/spitfire'), [...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']],
    [`${PK3}:models/players/spitfire/nonseg.md3`, [...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']],
    [join(DIR, 'models/buildables/slime_zunge/slime_zunge.md3'), [...MD3_BUILDABLE_ANIMATIONS]],
    [`${PK3}:models/buildables/mgturret`, [...MD3_BUILDABLE_ANIMATIONS]],
  ] as const) {
    it(target.slice(tmp.length + 1), async () => {
      const out = join(tmp, `${target.replace(/[^a-z0-9]+/gi, '_')}.glb`);
      const r = await run('convert', target, '-o', out, '--no-textures');
      expect(r.status, r.stderr).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      expect(readGlb(bytes).json.animations.map((a: { name: string }) => a.name)).toEqual(names);
      expectClean(results, target, await validate(bytes));
    });
  }
});
