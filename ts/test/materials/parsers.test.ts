/**
 * The script parsers on the corpus's real files (what MANIFEST.tsv says each holds) and on small hand-written
 * inputs for the engine rules they copy: CommaParse quirks of .skin, the file check and stage keywords of
 * .shader, Doom 3 declarations and image programs of .mtr, the two lexer dialects.
 */
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import {
  declKey,
  md3SurfaceKey,
  md5MeshNamesFromText,
  parseCubeModelConfig,
  parseMtr,
  parseShaderScript,
  parseSkin,
  quake3ImageCandidates,
  shaderKey,
} from '../../src/materials/index.js';
import { ScriptLexer } from '../../src/text/script-lexer.js';
import { manifest, read } from '../helpers/models.js';

const rows = (format: string) => manifest().filter((r) => r.format === format);

/** MANIFEST notes list a script's definitions as `N shaders: a,b,c ...+K` (the first names, then how many more). */
function documentedNames(notes: string): { count: number; first: string[] } {
  const m = /(\d+) shaders: ([^;]*)/.exec(notes);
  if (!m) throw new Error(`MANIFEST notes give no shader list: ${notes}`);
  return { count: Number(m[1]), first: m[2].replace(/ \.\.\.\+\d+$/, '').split(',') };
}

function thrown(f: () => unknown): ModelParseError {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw e;
  }
  throw new Error('expected a ModelParseError');
}

describe('shader scripts of the corpus', () => {
  for (const row of rows('shader')) {
    test(`${row.path}: the shaders MANIFEST lists, in order`, () => {
      const { shaders } = parseShaderScript(read(row.absPath));
      const doc = documentedNames(row.notes);
      expect(shaders.length).toBe(doc.count);
      expect(shaders.slice(0, doc.first.length).map((s) => s.name)).toEqual(doc.first);
    });
  }

  test('portals.shader: animMap keeps its rate and all four frames; blendfunc add; cull disable', () => {
    const row = rows('shader').find((r) => r.path.endsWith('portals.shader'))!;
    const red = parseShaderScript(read(row.absPath)).shaders.find((s) => s.name === 'gfx/portalgun/red')!;
    expect(red.stages[0].animMap).toMatchObject({ fps: 24, frames: ['gfx/portalgun/red_1.jpg', 'gfx/portalgun/red_2.jpg', 'gfx/portalgun/red_3.jpg', 'gfx/portalgun/red_4.jpg'] });
    expect(red.stages[0].map).toBe('gfx/portalgun/red_1.jpg');
    expect(red.stages[0].blend).toEqual({ src: 'GL_ONE', dst: 'GL_ONE' });
    expect(red.sides).toBe('both');
  });

  test('firebomb.shader: a 25-frame animMap, surfaceparm trans, Daemon diffuseMap/normalMap/specularMap in one stage', () => {
    const row = rows('shader').find((r) => r.path.endsWith('firebomb.shader'))!;
    const [bomb, fire] = parseShaderScript(read(row.absPath)).shaders;
    expect(bomb.stages).toHaveLength(1);
    expect(bomb.stages[0]).toMatchObject({ map: 'models/weapons/firebomb/firebomb', normalMap: { name: 'models/weapons/firebomb/firebomb_n' }, specularMap: { name: 'models/weapons/firebomb/firebomb_s' } });
    expect(fire.stages[0].animMap?.frames).toHaveLength(25);
    expect(fire.stages[0].animMap?.fps).toBe(20);
    expect(fire).toMatchObject({ translucent: true, polygonOffset: true, sort: 'nearest', sides: 'both' });
  });

  test('nexus6.shader: $lightmap and the dotted stage name are kept as written, GL_DST_COLOR GL_ZERO parsed', () => {
    const row = rows('shader').find((r) => r.path.endsWith('nexus6.shader'))!;
    const computer = parseShaderScript(read(row.absPath)).shaders.find((s) => s.key === 'models/mapobjects/nexus6/computer')!;
    expect(computer.stages.map((s) => s.map)).toEqual(['$lightmap', 'models/mapobjects/nexus6/computer', 'models/mapobjects/nexus6/computer.blend']);
    expect(computer.stages.map((s) => s.blend)).toEqual([null, { src: 'GL_DST_COLOR', dst: 'GL_ZERO' }, { src: 'GL_ONE', dst: 'GL_ONE' }]);
  });
});

describe('shader script rules (ioquake3 tr_shader.c)', () => {
  test('a name not followed by a lone { makes the engine ignore the file: UNEXPECTED_TOKEN at the token', () => {
    const e = thrown(() => parseShaderScript('a\n{\n}\nb {x\n}\n'));
    expect(e.code).toBe('UNEXPECTED_TOKEN');
    expect([e.line, e.column]).toEqual([4, 3]);
  });

  test('a section never closed: TRUNCATED at the end of the text', () => {
    const text = 'a\n{\n\t{\n\t\tmap x\n\t}\n';
    const e = thrown(() => parseShaderScript(text));
    expect(e.code).toBe('TRUNCATED');
    expect(e.offset).toBe(text.length);
  });

  test('blendFunc: add, filter, blend, GL_ pairs; GL_ONE GL_ZERO is no blend; an unknown factor is GL_ONE with a warning', () => {
    const { shaders, warnings } = parseShaderScript(
      's {\n{ map a\nblendfunc ADD }\n{ map b\nblendFunc filter }\n{ map c\nblendFunc blend }\n{ map d\nblendFunc GL_ONE GL_ZERO }\n{ map e\nblendFunc gl_src_alpha GL_ONE }\n{ map f\nblendFunc GL_BOGUS GL_ONE }\n}',
    );
    expect(shaders[0].stages.map((s) => s.blend)).toEqual([
      { src: 'GL_ONE', dst: 'GL_ONE' },
      { src: 'GL_DST_COLOR', dst: 'GL_ZERO' },
      { src: 'GL_SRC_ALPHA', dst: 'GL_ONE_MINUS_SRC_ALPHA' },
      null,
      { src: 'GL_SRC_ALPHA', dst: 'GL_ONE' },
      { src: 'GL_ONE', dst: 'GL_ONE' },
    ]);
    expect(warnings.map((w) => [w.code, w.line])).toEqual([['SHADER_SYNTAX', 13]]);
  });

  test('cull none|disable|twosided → both, back|backsided → back, front → front; alphaFunc names', () => {
    const sides = ['none', 'disable', 'twosided', 'back', 'backsided', 'front'].map((c) => parseShaderScript(`s {\ncull ${c}\n{ map x\n}\n}`).shaders[0].sides);
    expect(sides).toEqual(['both', 'both', 'both', 'back', 'back', 'front']);
    const funcs = ['GT0', 'lt128', 'GE128'].map((f) => parseShaderScript(`s {\n{ map x\nalphaFunc ${f}\n}\n}`).shaders[0].stages[0].alphaFunc);
    expect(funcs).toEqual(['GT0', 'LT128', 'GE128']);
  });

  test('arguments are read on the keyword line only: `map` alone on its line has no image', () => {
    const { shaders, warnings } = parseShaderScript('s {\n{\nmap\nx\n}\n}');
    expect(shaders[0].stages[0].map).toBeNull();
    expect(warnings[0].message).toContain("missing parameter for 'map'");
  });

  test('unknown keywords, nested blocks and surfaceparms are skipped without disturbing the structure', () => {
    const text = 's {\nqer_editorimage x\nq3map_foo { a { b } }\nsurfaceparm nodraw\nsurfaceparm TRANS\nfancy 1 2 3\n{\nmap y\nrgbGen wave sin 0 1 0 1\n{ nested }\ndepthFade 30\n}\n}\nt\n{\n{\nmap z\n}\n}';
    const { shaders } = parseShaderScript(text);
    expect(shaders.map((s) => s.name)).toEqual(['s', 't']);
    expect(shaders[0]).toMatchObject({ nodraw: true, translucent: true, surfaceParms: ['nodraw', 'trans'] });
    expect(shaders[0].stages.map((s) => s.map)).toEqual(['y']);
    expect(shaders[1].stages.map((s) => s.map)).toEqual(['z']);
  });

  test('a lone brace is never taken as an argument (`cull }` still closes the shader)', () => {
    const { shaders } = parseShaderScript('s {\ncull }\nt {\n}');
    expect(shaders.map((s) => s.name)).toEqual(['s', 't']);
  });
});

describe('Doom 3 / XreaL materials', () => {
  test('grenade_launcher.mtr: the materials MANIFEST lists; XreaL stages give diffuse, bump and specular roles', () => {
    const row = rows('mtr')[0];
    const { materials } = parseMtr(read(row.absPath));
    const doc = documentedNames(row.notes);
    expect(materials.map((m) => m.name)).toEqual(doc.first);
    expect(materials[0].stages.map((s) => [s.role, s.map?.text])).toEqual([
      ['ambient', 'models/weapons/grenade_launcher/launcher_d.jpg'],
      ['bump', 'models/weapons/grenade_launcher/launcher_n.tga'],
      ['specular', 'models/weapons/grenade_launcher/launcher_s.tga'],
    ]);
  });

  test('shortcuts, image programs (first image), blend roles, translucent, twoSided, alphaTest', () => {
    const text = `
      table sinTable { { 0, 1 } }
      material textures/a.tga
      {
        qer_editorimage textures/a_ed
        diffusemap textures/a_d
        bumpmap addnormals(textures/a_local, heightmap(textures/a_h, 4))
        specularmap textures/a_s
        translucent
        twoSided
        { blend diffusemap
          map "textures/with-hyphen"
          alphaTest 0.5 }
        { blend GL_ONE, GL_ONE
          map _white }
      }
      textures/b { { blend add
        map textures/b } }`;
    const { materials, warnings } = parseMtr(text);
    expect(warnings).toEqual([]);
    expect(materials.map((m) => m.key)).toEqual(['textures/a', 'textures/b']);
    const a = materials[0];
    expect(a).toMatchObject({ translucent: true, sides: 'both' });
    expect(a.stages.map((s) => s.role)).toEqual(['diffuse', 'bump', 'specular', 'diffuse', 'ambient']);
    expect(a.stages[1].map).toMatchObject({ text: 'addnormals(textures/a_local, heightmap(textures/a_h, 4))', outer: 'addnormals', images: [{ name: 'textures/a_local' }, { name: 'textures/a_h' }] });
    expect(a.stages[3]).toMatchObject({ map: { text: 'textures/with-hyphen' }, alphaTest: '0.5' });
    expect(a.stages[4].blend).toEqual({ src: 'GL_ONE', dst: 'GL_ONE' });
    expect(materials[1].stages[0].blend).toEqual({ src: 'GL_ONE', dst: 'GL_ONE' });
  });

  test('a declaration never closed is TRUNCATED, a string reaching its line end UNTERMINATED_STRING, both with line:column', () => {
    const t = thrown(() => parseMtr('m {\n  diffusemap x\n'));
    expect([t.code, t.line]).toEqual(['TRUNCATED', 3]);
    const u = thrown(() => parseMtr('m {\n  diffusemap "x\n}'));
    expect([u.code, u.line, u.column]).toEqual(['UNTERMINATED_STRING', 2, 14]);
  });

  test('a name without { is skipped with a warning, as Doom 3 does, and the next declaration still loads', () => {
    const { materials, warnings } = parseMtr('orphan\nm { diffusemap x }');
    expect(materials.map((m) => m.name)).toEqual(['m']);
    expect(warnings.map((w) => w.code)).toEqual(['MTR_SYNTAX']);
  });
});

describe('.skin files (ioquake3 RE_RegisterSkin / CommaParse)', () => {
  for (const row of rows('skin')) {
    test(`${row.path}: the lines MANIFEST describes`, () => {
      const skin = parseSkin(read(row.absPath));
      // Notes: "N lines: a,b | c,d" (portal skins) or the tag/surface story (player skins).
      const m = /lines: (.*?)(;|$)/.exec(row.notes);
      if (m) {
        const pairs = m[1].split(' | ').map((p) => p.trim().split(','));
        const surfaces = pairs.filter(([s]) => !s.includes('tag_'));
        expect(skin.entries.map((e) => [e.surface, e.shader])).toEqual(surfaces.map(([s, v]) => [s.toLowerCase(), v ?? '']));
      }
      expect(skin.entries.length).toBeGreaterThan(0);
      expect(skin.warnings).toEqual([]);
    });
  }

  test('tag lines read no value; surface names are lower-cased; comments and quotes; no trailing newline needed', () => {
    const s = parseSkin('tag_head,\r\n// comment\nU_Torso,"models/x y.tga"\n/* a\nb */ h_head,models/h.jpg');
    expect(s.tags).toEqual(['tag_head']);
    expect(s.entries.map((e) => [e.surface, e.shader, e.line])).toEqual([
      ['u_torso', 'models/x y.tga', 3],
      ['h_head', 'models/h.jpg', 5],
    ]);
  });

  test('a space before the comma breaks the pair, as in CommaParse (the comma starts the next token)', () => {
    const s = parseSkin('h_head , models/h.jpg');
    expect(s.entries.map((e) => [e.surface, e.shader])).toEqual([['h_head', ','], ['models/h.jpg', '']]);
  });

  test('an empty value takes the next line\'s first token, as the engine does, with a warning', () => {
    const s = parseSkin('l_legs,\nu_torso,models/u.jpg');
    expect(s.entries[0]).toMatchObject({ surface: 'l_legs', shader: 'u_torso' });
    expect(s.warnings.map((w) => [w.code, w.line])).toEqual([['SKIN_VALUE_ON_NEXT_LINE', 1]]);
  });

  test('MD3 surface names match skins lower-cased with a trailing _N cut (R_LoadMD3)', () => {
    expect(['H_Head', 'u_torso_1', 'l_legs_2', 'ab', 'x_b', '_b'].map(md3SurfaceKey)).toEqual(['h_head', 'u_torso', 'l_legs', 'ab', 'x', '_b']);
  });
});

describe('names and lexers', () => {
  test('R_LoadImage order: the own extension first, then the others; unknown or no extension gets each appended', () => {
    expect(quake3ImageCandidates('a/b.tga')).toEqual(['a/b.tga', 'a/b.jpg', 'a/b.jpeg', 'a/b.png', 'a/b.pcx', 'a/b.bmp']);
    expect(quake3ImageCandidates('a/b.JPG')).toEqual(['a/b.JPG', 'a/b.tga', 'a/b.jpeg', 'a/b.png', 'a/b.pcx', 'a/b.bmp']);
    expect(quake3ImageCandidates('a/computer.blend').slice(0, 2)).toEqual(['a/computer.blend.tga', 'a/computer.blend.jpg']);
    expect(quake3ImageCandidates('a.d/b')[0]).toBe('a.d/b.tga');
  });

  test('shader keys strip the extension and fold case; Doom 3 keys cut at the last dot anywhere', () => {
    expect(shaderKey('Models/A/Computer.JPG')).toBe('models/a/computer');
    expect(shaderKey('models/a.b/c')).toBe('models/a.b/c');
    expect(declKey('Models\\A.b/c')).toBe('models/a');
  });

  test('quake3 dialect: words run to whitespace, strings to the next quote across lines, line breaks flagged', () => {
    const lex = new ScriptLexer('a{b "x\ny" /* c\nd */ e\n// f\ng', 'quake3');
    const toks = [];
    for (let t = lex.next(); t; t = lex.next()) toks.push([t.text, t.line, t.column, t.lineBreak]);
    // A line feed inside a block comment does not count as a line break (COM_ParseExt).
    expect(toks).toEqual([['a{b', 1, 1, false], ['x\ny', 1, 5, false], ['e', 3, 6, false], ['g', 5, 1, true]]);
  });

  test('doom3 dialect: path names, numbers, one-byte punctuation, - splits a name', () => {
    const lex = new ScriptLexer('heightmap(models/a_h.tga, 4.5) tech-light .5', 'doom3');
    const toks = [];
    for (let t = lex.next(); t; t = lex.next()) toks.push(t.text);
    expect(toks).toEqual(['heightmap', '(', 'models/a_h.tga', ',', '4.5', ')', 'tech', '-', 'light', '.5']);
  });

  test('md5.cfg: md5skin / md5bumpmap with <dds> prefixes; mesh names from `// meshes:` comments', () => {
    const cfg = parseCubeModelConfig('md5load mesh.md5mesh\nmd5skin Body "<dds>skin.jpg" "<dds>mask.jpg" 0.9 0.2\nmd5bumpmap * <dds>n.png\n');
    expect(cfg.skins).toMatchObject([{ mesh: 'Body', diffuse: 'skin.jpg', masks: 'mask.jpg', diffuseDds: true, masksDds: true, line: 2 }]);
    expect(cfg.bumpmaps).toMatchObject([{ mesh: '*', normal: 'n.png', normalDds: true, line: 3 }]);
    expect(parseCubeModelConfig('md5skin * skin.jpg').skins[0]).toMatchObject({ diffuseDds: false, masksDds: false });
    const drone = manifest().find((r) => r.path === 'actors/drone/mesh.md5mesh')!;
    expect(md5MeshNamesFromText(read(drone.absPath))).toEqual(['HumanMale.001', 'HumanMale.002']);
  });
});
