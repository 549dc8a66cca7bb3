/**
 * From a definition to its look: which image names play diffuse / normal / specular, and the render states of
 * types.ts. Pure functions over parsed definitions; the resolver then finds the files.
 *
 * Quake 3 shaders: the surface meets the framebuffer through its first stage, so blend and alpha test are stage
 * 0's (tr_shader.c FinishShader sorts by stage 0's blend the same way). The diffuse image is the first colour
 * stage's image that is a file (Daemon's `diffuseMap` first): `map $lightmap` then `map x` with
 * `blendFunc GL_DST_COLOR GL_ZERO` is x drawn opaque, since a model has no lightmap and ioquake3 draws `$lightmap`
 * as white for it (ParseStage: `shader.lightmapIndex < 0` → tr.whiteImage).
 *
 * Doom 3 materials: diffuse / bump / specular are the interaction stages (`blend diffusemap` …, the `diffusemap`
 * shortcuts, XreaL `stage`). Coverage as idMaterial::Parse decides it: `translucent` is translucent; a material
 * with interaction stages is opaque (perforated with an alpha test); otherwise stage 0 decides — blended with the
 * destination is translucent, else opaque.
 *
 * Implicit (no definition, the name is an image): Quake 3's R_FindShader makes one opaque, lit stage; Doom 3's
 * idMaterial::SetDefaultText makes `{ blend blend; colored; map <name>; clamp }`, an alpha-blended clamped stage.
 */
import { builtinImage } from './names.js';
import type { MtrMaterial, MtrStage } from './mtr.js';
import type { ShaderDefinition } from './shader-script.js';
import type { AlphaTest, Blend, BlendMode, ImageRole, Sides } from './types.js';

export interface ImageName {
  name: string;
  role: ImageRole;
  program: string | null;
  /**
   * An engine's precompressed file to try before the name itself: Tesseract's `<dds>` (names.ts `tesseractDdsName`)
   * or Doom 3's `dds/` tree (`doom3DdsName`).
   */
  precompressed?: 'tesseract' | 'doom3';
  /** Position in the definition's file (absent for implicit names). */
  line?: number;
  column?: number;
}

export interface Look {
  diffuse: ImageName | null;
  normal: ImageName | null;
  specular: ImageName | null;
  animation: { fps: number; frames: ImageName[] } | null;
  others: ImageName[];
  blend: Blend;
  blendMode: BlendMode;
  alphaTest: AlphaTest | null;
  sides: Sides;
  nodraw: boolean;
  translucent: boolean;
  clamp: boolean;
}

export function blendModeOf(blend: Blend): BlendMode {
  if (!blend) return 'opaque';
  const { src, dst } = blend;
  if (src === 'GL_SRC_ALPHA' && dst === 'GL_ONE_MINUS_SRC_ALPHA') return 'alpha';
  if ((src === 'GL_ONE' || src === 'GL_SRC_ALPHA') && dst === 'GL_ONE') return 'additive';
  if ((src === 'GL_DST_COLOR' && dst === 'GL_ZERO') || (src === 'GL_ZERO' && dst === 'GL_SRC_COLOR')) return 'multiply';
  return 'custom';
}

/** Quake 3 alphaFunc names (tr_shade.c GL_State: GLS_ATEST_GT_0, LT_80, GE_80 — 0x80 is 128/255 ≈ 0.5). */
export function alphaFuncTest(name: string): AlphaTest | null {
  switch (name.toUpperCase()) {
    case 'GT0':
      return { op: '>', cutoff: 0, written: name };
    case 'LT128':
      return { op: '<', cutoff: 0.5, written: name };
    case 'GE128':
      return { op: '>=', cutoff: 0.5, written: name };
    default:
      return null;
  }
}

const isFileImage = (name: string | null): name is string => !!name && builtinImage(name) === null;

export function shaderLook(def: ShaderDefinition): Look {
  const stages = def.stages;
  const colour = stages.filter((s) => s.kind === 'color' || s.kind === 'diffusemap' || s.kind === 'colormap');
  const byKind = (...kinds: string[]) => stages.find((s) => kinds.includes(s.kind) && s.map);
  const first = stages[0];

  let diffuse: ImageName | null = null;
  let animation: Look['animation'] = null;
  let clamp = false;
  const diffuseStage = colour.find((s) => isFileImage(s.map)) ?? (first?.map ? first : undefined);
  if (def.diffuseMap) diffuse = { name: def.diffuseMap.name, role: 'diffuse', program: null, line: def.diffuseMap.line, column: def.diffuseMap.column };
  else if (diffuseStage?.map) {
    diffuse = { name: diffuseStage.map, role: 'diffuse', program: null, line: diffuseStage.mapAt?.line, column: diffuseStage.mapAt?.column };
    clamp = diffuseStage.clamp;
    const a = diffuseStage.animMap;
    if (a) animation = { fps: a.fps, frames: a.frames.map((name) => ({ name, role: 'frame' as const, program: null, line: a.line, column: a.column })) };
  }

  const stageMap = (kinds: string[], field: 'normalMap' | 'specularMap'): ImageName | null => {
    const top = field === 'normalMap' ? def.normalMap : def.specularMap;
    if (top) return { name: top.name, role: field === 'normalMap' ? 'normal' : 'specular', program: null, line: top.line, column: top.column };
    const inStage = stages.find((s) => s[field])?.[field];
    if (inStage) return { name: inStage.name, role: field === 'normalMap' ? 'normal' : 'specular', program: null, line: inStage.line, column: inStage.column };
    const st = byKind(...kinds);
    return st?.map ? { name: st.map, role: field === 'normalMap' ? 'normal' : 'specular', program: null, line: st.mapAt?.line, column: st.mapAt?.column } : null;
  };
  const normal = stageMap(['normalmap', 'bumpmap', 'normalparallaxmap'], 'normalMap');
  const specular = stageMap(['specularmap'], 'specularMap');

  const used = new Set([diffuse?.name, normal?.name, specular?.name]);
  const others: ImageName[] = [];
  for (const s of stages) {
    if (s.map && !used.has(s.map) && !s.animMap) others.push({ name: s.map, role: 'stage', program: null, line: s.mapAt?.line, column: s.mapAt?.column });
    if (s.glowMap) others.push({ name: s.glowMap.name, role: 'stage', program: null, line: s.glowMap.line, column: s.glowMap.column });
    if (s.map) used.add(s.map);
  }

  const blend = first?.blend ?? null;
  return {
    diffuse,
    normal,
    specular,
    animation,
    others,
    blend,
    blendMode: blendModeOf(blend),
    alphaTest: first?.alphaFunc ? alphaFuncTest(first.alphaFunc) : null,
    sides: def.sides,
    nodraw: def.nodraw,
    translucent: def.translucent,
    clamp,
  };
}

function mtrAlphaTest(written: string): AlphaTest {
  const q3 = alphaFuncTest(written);
  if (q3) return q3;
  // A constant expression is its value; anything else (parm-driven) gets Doom 3's usual 0.5.
  const v = Number(written);
  return { op: '>', cutoff: Number.isFinite(v) ? v : 0.5, written };
}

export function mtrLook(def: MtrMaterial): Look {
  const stages = def.stages.filter((s) => !s.cube);
  const image = (st: MtrStage | undefined, role: ImageRole): ImageName | null => {
    const first = st?.map?.images[0];
    return first ? { name: first.name, role, program: st!.map!.outer ? st!.map!.text : null, line: first.line, column: first.column } : null;
  };
  const interaction = stages.filter((s) => s.role === 'diffuse' || s.role === 'bump' || s.role === 'specular');
  const ambient = stages.filter((s) => s.role === 'ambient' || s.role === 'other');
  const diffuseStage = stages.find((s) => s.role === 'diffuse' && s.map) ?? ambient.find((s) => s.map?.images.some((i) => builtinImage(i.name) === null));
  const normalStage = stages.find((s) => s.role === 'bump' && s.map);
  const specularStage = stages.find((s) => s.role === 'specular' && s.map);

  const blend = interaction.length > 0 ? null : (stages[0]?.blend ?? null);
  const blendsWithDestination =
    !!blend && (blend.dst !== 'GL_ZERO' || blend.src === 'GL_DST_COLOR' || blend.src === 'GL_ONE_MINUS_DST_COLOR' || blend.src === 'GL_DST_ALPHA' || blend.src === 'GL_ONE_MINUS_DST_ALPHA');
  const tested = stages.find((s) => s.alphaTest);

  const used = new Set([diffuseStage, normalStage, specularStage]);
  const others = stages.filter((s) => !used.has(s)).map((s) => image(s, 'stage')).filter((x): x is ImageName => !!x);
  return {
    diffuse: image(diffuseStage, 'diffuse'),
    normal: image(normalStage, 'normal'),
    specular: image(specularStage, 'specular'),
    animation: null,
    others,
    blend,
    blendMode: blendModeOf(blend),
    alphaTest: tested?.alphaTest ? mtrAlphaTest(tested.alphaTest) : null,
    sides: def.sides,
    nodraw: def.surfaceParms.includes('nodraw'),
    translucent: def.translucent || (interaction.length === 0 && (stages.length === 0 || blendsWithDestination)),
    clamp: diffuseStage?.clamp ?? def.clamp,
  };
}

/** The look of a name with no definition: the engine draws the image of that name (see the file comment). */
export function implicitLook(name: string, flavour: 'quake3' | 'doom3'): Look {
  const doom3 = flavour === 'doom3';
  const blend: Blend = doom3 ? { src: 'GL_SRC_ALPHA', dst: 'GL_ONE_MINUS_SRC_ALPHA' } : null;
  return {
    diffuse: { name, role: 'diffuse', program: null },
    normal: null,
    specular: null,
    animation: null,
    others: [],
    blend,
    blendMode: blendModeOf(blend),
    alphaTest: null,
    sides: 'front',
    nodraw: false,
    translucent: doom3,
    clamp: doom3,
  };
}
