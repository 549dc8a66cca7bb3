/**
 * `tcMod` with its numbers (issue 41: the viewer plays shader animation): the shader parser keeps each stage's tcMod
 * lines as ioquake3's ParseTexMod reads them — the kind, then every number of the line (atof; a wave's function name
 * left out) — and a resolved material carries its diffuse stage's, on real shader scripts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { MaterialResolver } from '../../src/materials/index.js';
import { parseShaderScript } from '../../src/materials/shader-script.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const stageMods = (script: string, shader: string) =>
  parseShaderScript(read(join(SHARED_MODELS, script))).shaders.find((s) => s.name === shader)!.stages.map((s) => s.texMods);

describe('tcMod numbers', () => {
  it('are read per stage as written: scroll, rotate, scale, turb (a wave with no function name)', () => {
    expect(stageMods('aaa-assets/scripts/portals.shader', 'models/fx/portal/bluering')).toEqual([[{ kind: 'scroll', args: [-0.2, 0] }]]);
    expect(stageMods('aaa-assets/scripts/portals.shader', 'models/fx/portal/bluecenter')).toEqual([[{ kind: 'rotate', args: [-5] }]]);
    const grenade = parseShaderScript(read(join(SHARED_MODELS, 'res-weapons_src.dpkdir/scripts/grenade.shader'))).shaders.flatMap((s) => s.stages.flatMap((st) => st.texMods));
    expect(grenade).toContainEqual({ kind: 'turb', args: [0, 0.05, 0, 0.5] });
    expect(grenade).toContainEqual({ kind: 'scroll', args: [-0.5, 0] });
  });

  it('a wave function name is not a number; a word where a number goes is 0 (atof)', () => {
    const s = parseShaderScript('x\n{\n {\n  map a.tga\n  tcMod stretch sin 0.9 0.1 0 0.2\n  tcMod scroll fast 1\n }\n}\n');
    expect(s.shaders[0].stages[0].texMods).toEqual([
      { kind: 'stretch', args: [0.9, 0.1, 0, 0.2], wave: 'sin' },
      { kind: 'scroll', args: [1] },
    ]);
  });

  it("come with a resolved material: portals.md3's surfaces, skinned blue, scroll and rotate", async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'aaa-assets'));
    const path = 'models/fx/portal/portals.md3';
    const md3 = parseMd3(read(join(SHARED_MODELS, 'aaa-assets', path)));
    const set = await new MaterialResolver(fs).md3(md3, path, { skin: 'blue' });
    const by = Object.fromEntries(set.materials.map((m) => [m.shaderName, m.texMods]));
    expect(by['models/fx/portal/bluering']).toEqual([{ kind: 'scroll', args: [-0.2, 0] }]);
    expect(by['models/fx/portal/bluecenter']).toEqual([{ kind: 'rotate', args: [-5] }]);
  });
});

describe('tcMod stretch as the viewer plays it (demo/src/shader-anim.ts, ioquake3 RB_CalcStretchTexCoords)', () => {
  it('scales about the middle by 1 / the wave, read from ioquake3\'s tables at ⌊(phase + time · freq) · 1024⌋', async () => {
    const { texModMatrix, waveValue } = await import('../../../demo/src/shader-anim.js');
    const [mod] = parseShaderScript('x\n{\n {\n  map a.tga\n  tcMod stretch square 1 0.5 0 1\n }\n}\n').shaders[0].stages[0].texMods;
    expect(mod).toEqual({ kind: 'stretch', args: [1, 0.5, 0, 1], wave: 'square' });
    // square is +1 over the first half period, −1 over the second: the wave is 1.5 then 0.5, p = 2/3 then 2
    expect([waveValue('square', mod.args, 0.25), waveValue('square', mod.args, 0.75)]).toEqual([1.5, 0.5]);
    const at = (time: number, s: number, t: number) => {
      const e = texModMatrix([mod], time).elements; // column-major
      return [e[0] * s + e[3] * t + e[6], e[1] * s + e[4] * t + e[7]];
    };
    const p = 2 / 3;
    [[0, 0], [1, 1]].forEach(([s, t], k) => at(0.25, s, t).forEach((x, c) => expect(x).toBeCloseTo(k === 0 ? 0.5 - 0.5 * p : 0.5 + 0.5 * p, 9)));
    expect(at(0.75, 0, 0)).toEqual([-0.5, -0.5]);
    expect(at(0.75, 1, 1)).toEqual([1.5, 1.5]);
    // sin's table: entry 256 of 1024 is sin(256 · 360° / 1023); triangle peaks at a quarter; sawtooth rises over the period
    expect(waveValue('sin', [0, 1, 0, 1], 0.25)).toBeCloseTo(Math.sin((256 * 360 * Math.PI) / (1023 * 180)), 12);
    expect([waveValue('triangle', [0, 1, 0, 1], 0.25), waveValue('triangle', [0, 1, 0, 1], 0.75)]).toEqual([1, -1]);
    expect(waveValue('sawtooth', [0, 1, 0, 1], 0.5)).toBe(0.5);
    // noise has no table (the engine errors): not played
    expect(waveValue('noise', mod.args, 0.25)).toBeNull();
    expect(texModMatrix([{ ...mod, wave: 'noise' }], 0.25).elements).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});
