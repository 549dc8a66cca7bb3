/**
 * Multi-stage Quake 3 shaders: which stage is the surface's diffuse (the one the engine lights), and what the other
 * stages become — on shaders written here in the forms Tremulous ships for its aliens (`level2adv`: a scrolling
 * effect layer, `rgbGen identity`, under the blended body, `rgbGen lightingDiffuse`; `wings`: the same without any
 * rgbGen on the body) and in the forms Daemon collapses (colour + lightmap + additive glow). The corpus has no alien
 * model or shader (../shared/models README), so the game folders here are made up around a real MD3.
 */
import { describe, expect, test } from 'vitest';
import type { Md3Model } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { encodePng } from '../../src/images/png-encode.js';
import type { ParseWarning } from '../../src/base/errors.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { MaterialResolver } from '../../src/materials/index.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { expectClean, validate } from '../export/validate.js';
import { sharedBytes } from '../helpers/shared-fs.js';
import { readGlb } from '../helpers/textured.js';

const enc = (s: string) => new TextEncoder().encode(s);
/** A w×h image of one colour (RGBA). */
const png = (w: number, h: number, rgba: [number, number, number, number]) => {
  const px = new Uint8Array(w * h * 4);
  for (let i = 0; i < px.length; i += 4) px.set(rgba, i);
  return encodePng(px, w, h);
};

const EFFECT = png(64, 64, [40, 90, 255, 255]); // the blue 64×64 tile the issue saw on the whole creature
const BODY = png(128, 128, [150, 110, 60, 200]);
const GLOW = png(32, 32, [255, 200, 0, 255]);

/** The Tremulous alien shader's form (level2adv / spitfire_mat): effect layer first, lit body blended over it. */
const ALIEN = `models/players/level2/level2adv
{
	{
		map models/players/level2/lvl2_fx
		blendFunc GL_ONE GL_ZERO
		tcmod scale 7 7
		tcMod scroll 5 -5
		tcmod rotate 360
		rgbGen identity
	}
	{
		map models/players/level2/adv
		blendFunc GL_SRC_ALPHA GL_ONE_MINUS_SRC_ALPHA
		rgbGen lightingDiffuse
	}
}
`;

/** rifle.md3 (one surface, `rifle`) with its surface's own shader named `shader`. */
function modelNamed(shader: string): Md3Model {
  const m = parseMd3(sharedBytes('res-tremulous_src.dpkdir/models/tremulous/weapons/rifle/rifle.md3'));
  return { ...m, surfaces: m.surfaces.map((s) => ({ ...s, shaders: [{ name: shader, index: 0 }] })) };
}

function game(script: string, extra: Record<string, Uint8Array> = {}) {
  return memoryFileSystem(
    Object.entries({
      'scripts/level2.shader': enc(script),
      'models/players/level2/lvl2_fx.png': EFFECT,
      'models/players/level2/adv.png': BODY,
      'models/players/level2/glow.png': GLOW,
      'models/players/level2/level2_default.skin': enc('rifle,models/players/level2/level2adv\n'),
      ...extra,
    }).map(([path, bytes]) => ({ path, bytes })),
  );
}

const resolve = async (script: string, shader = 'models/players/level2/level2adv') =>
  (await new MaterialResolver(game(script)).md3(modelNamed(shader), 'models/players/level2/level2.md3')).materials[0];

describe('the diffuse is the stage the engine lights', () => {
  test('an alien shader: the rgbGen lightingDiffuse body, not the scrolling effect layer before it; opaque (the first stage covers)', async () => {
    const m = await resolve(ALIEN);
    expect(m.diffuse?.path).toBe('models/players/level2/adv.png');
    expect(m.diffuse?.writtenAt?.line).toBe(12);
    expect(m.others.map((o) => o.path)).toEqual(['models/players/level2/lvl2_fx.png']);
    expect([m.blendMode, m.alphaTest, m.emissive]).toEqual(['opaque', null, null]);
  });

  test('the same through the model\'s default skin (the path the issue took with --skin)', async () => {
    const set = await new MaterialResolver(game(ALIEN)).md3(modelNamed('models/players/level2/other'), 'models/players/level2/level2.md3', { skin: 'default' });
    expect(set.materials[0]).toMatchObject({ shaderName: 'models/players/level2/level2adv', nameSource: { kind: 'skin' }, diffuse: { path: 'models/players/level2/adv.png' } });
  });

  test('no lit stage (Tremulous `wings`): ioquake3\'s single-pass rank skips the tcMod layer for the unmoving body', async () => {
    const wings = ALIEN.replace('\t\trgbGen lightingDiffuse\n', '');
    expect((await resolve(wings)).diffuse?.path).toBe('models/players/level2/adv.png');
  });

  test('the rank: an environment map (tcGen) loses to a plain stage, a non-identity rgbGen to an identity one, ties go to the first', async () => {
    const env = 'x\n{\n{\nmap models/players/level2/lvl2_fx\ntcGen environment\n}\n{\nmap models/players/level2/adv\nblendfunc filter\n}\n}\n';
    expect((await resolve(env, 'x')).diffuse?.path).toBe('models/players/level2/adv.png');
    const wave = 'x\n{\n{\nmap models/players/level2/lvl2_fx\nrgbGen wave sin 0 1 0 1\n}\n{\nmap models/players/level2/adv\nrgbGen identityLighting\n}\n}\n';
    expect((await resolve(wave, 'x')).diffuse?.path).toBe('models/players/level2/adv.png');
    const tie = 'x\n{\n{\nmap models/players/level2/lvl2_fx\nrgbGen vertex\n}\n{\nmap models/players/level2/adv\nrgbGen vertex\n}\n}\n';
    expect((await resolve(tie, 'x')).diffuse?.path).toBe('models/players/level2/lvl2_fx.png');
  });

  test('a Daemon diffuseMap stage wins over a lit Quake 3 stage', async () => {
    const s = 'x\n{\n{\nmap models/players/level2/lvl2_fx\nrgbGen lightingDiffuse\n}\n{\nstage diffuseMap\nmap models/players/level2/adv\n}\n}\n';
    expect((await resolve(s, 'x')).diffuse?.path).toBe('models/players/level2/adv.png');
  });
});

describe('the other stages where glTF has a form', () => {
  test('an additive effect layer first, the blended body over it: the body\'s blend is the surface\'s (alpha)', async () => {
    const s = ALIEN.replace('blendFunc GL_ONE GL_ZERO', 'blendFunc add');
    expect((await resolve(s)).blendMode).toBe('alpha');
  });

  test('a later unlit additive stage over the model\'s coordinates is the emissive image (Daemon CollapseStages\' glow); a scrolling one is not', async () => {
    const glow = ALIEN.replace(/\n}\n$/, '\n\t{\n\t\tmap models/players/level2/glow\n\t\tblendfunc add\n\t}\n}\n');
    const m = await resolve(glow);
    expect([m.diffuse?.path, m.emissive?.path]).toEqual(['models/players/level2/adv.png', 'models/players/level2/glow.png']);
    const scrolling = glow.replace('blendfunc add\n', 'blendfunc add\n\t\ttcMod scroll 1 0\n');
    const n = await resolve(scrolling);
    expect(n.emissive).toBeNull();
    expect(n.others.map((o) => o.path)).toEqual(['models/players/level2/lvl2_fx.png', 'models/players/level2/glow.png']);
  });

  test('a Daemon glowMap keyword is the emissive image', async () => {
    const s = 'x\n{\n{\nstage diffuseMap\nmap models/players/level2/adv\nglowMap models/players/level2/glow\n}\n}\n';
    const m = await resolve(s, 'x');
    expect([m.diffuse?.path, m.emissive?.path, m.others]).toEqual(['models/players/level2/adv.png', 'models/players/level2/glow.png', []]);
  });
});

describe('the glb', () => {
  test('the alien shader: the body is the base colour, the effect layer is left out with STAGE_DROPPED; the glow is emissive', async () => {
    const glow = ALIEN.replace(/\n}\n$/, '\n\t{\n\t\tmap models/players/level2/glow\n\t\tblendfunc add\n\t}\n}\n');
    const fs = game(glow);
    const model = modelNamed('models/players/level2/level2adv');
    const textures = await resolveModelTextures(fs, model, 'models/players/level2/level2.md3');
    const warnings: ParseWarning[] = [];
    const glb = await toGlb(model, { textures, warnings });
    expectClean([], 'alien', await validate(glb));
    const { json, bin } = readGlb(glb);
    const bytesOf = (texture: number) => {
      const view = json.bufferViews[json.images[json.textures[texture].source].bufferView];
      return bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
    };
    const mat = json.materials[0];
    expect(Buffer.compare(bytesOf(mat.pbrMetallicRoughness.baseColorTexture.index), BODY)).toBe(0);
    expect(Buffer.compare(bytesOf(mat.emissiveTexture.index), GLOW)).toBe(0);
    expect(mat.alphaMode).toBeUndefined();
    expect(json.images).toHaveLength(2);
    expect(warnings).toEqual([{ code: 'STAGE_DROPPED', message: 'models/players/level2/level2adv: the stage drawing models/players/level2/lvl2_fx has no glTF form: exported with its diffuse stage models/players/level2/adv', offset: 0 }]);
  });
});
