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
      { kind: 'stretch', args: [0.9, 0.1, 0, 0.2] },
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
