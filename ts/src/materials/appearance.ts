/**
 * From a definition to its look: which image names play diffuse / normal / specular / emissive, and the render
 * states of types.ts. Pure functions over parsed definitions; the resolver then finds the files.
 *
 * Quake 3 shaders draw every stage, one over the other; a glTF material has one base colour. The diffuse is the
 * stage the engine lights as the surface (`diffuseStageOf`, docs/materials.md "The look"):
 * 1. Daemon / XreaL `diffuseMap` (shader-level or `stage diffuseMap`): Daemon lights that stage (tr_shader.cpp
 *    FinishShader marks ST_DIFFUSEMAP stages `interactLight`);
 * 2. else the first stage with `rgbGen lightingDiffuse` whose image is a file: the stage lit by the entity's light
 *    (ioquake3 renderergl2 CollapseStagesToGLSL turns it into the light-vector lit pass; R_FindShader's implicit
 *    model shader is exactly one such stage). A Tremulous alien's scrolling effect layer (`rgbGen identity`,
 *    `tcMod scroll`) under its blended body (`rgbGen lightingDiffuse`) gives the body;
 * 3. else the stage ioquake3 keeps when it must draw one pass (tr_shader.c VertexLightingCollapse's rank: −100 for a
 *    lightmap, −5 for a `tcGen`, −5 for any `tcMod`, −3 for an `rgbGen` other than identity / identityLighting;
 *    the first best wins), among the stages whose image is a file (`$lightmap`, `$whiteimage` are not surfaces:
 *    a model has no lightmap and ioquake3 draws `$lightmap` white for it).
 *
 * How the surface meets the framebuffer: blend and alpha test are the first stage's (FinishShader sorts by stage
 * 0's blend the same way). When the diffuse is a later stage, an opaque first stage covers the framebuffer and the
 * surface is opaque; a first stage that blends lets the diffuse stage's own blend show (its `blendFunc blend`
 * becomes the surface's alpha). A later additive stage over the model's own texture coordinates (`blendFunc add`,
 * `rgbGen` identity, no `tcGen`, no `tcMod`: Daemon's CollapseStages merges exactly such a stage into the diffuse
 * as its glow map) or a Daemon `glowMap` is the `emissive` image. Every other stage is in `others`.
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
import type { ShaderDefinition, ShaderStage } from './shader-script.js';
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
  /** A glow: a Daemon `glowMap`, or a later additive stage over the model's texture coordinates. */
  emissive: ImageName | null;
  animation: { fps: number; frames: ImageName[] } | null;
  /** The diffuse stage's `tcMod`s with their numbers (absent when it has none). */
  texMods?: { kind: string; args: number[]; wave?: string }[];
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

const isColourStage = (s: ShaderStage) => s.kind === 'color' || s.kind === 'diffusemap' || s.kind === 'colormap';

/** ioquake3 VertexLightingCollapse's rank of a stage for a single pass (higher is better; see the file comment). */
function singlePassRank(s: ShaderStage): number {
  let rank = 0;
  if (s.tcGen !== null && s.tcGen !== 'base' && s.tcGen !== 'texture') rank -= 5;
  if (s.tcMods.length > 0) rank -= 5;
  if (s.rgbGen !== null && s.rgbGen !== 'identity' && s.rgbGen !== 'identitylighting') rank -= 3;
  return rank;
}

/**
 * The stage a shader's surface is drawn with in a one-image material (see the file comment), or undefined when no
 * stage has an image (a shader of built-ins only falls back to its first stage's map in `shaderLook`).
 */
export function diffuseStageOf(def: ShaderDefinition): ShaderStage | undefined {
  const candidates = def.stages.filter((s) => isColourStage(s) && isFileImage(s.map));
  const daemon = candidates.find((s) => s.kind === 'diffusemap');
  if (daemon) return daemon;
  const lit = candidates.find((s) => s.rgbGen === 'lightingdiffuse');
  if (lit) return lit;
  let best: ShaderStage | undefined;
  let bestRank = -Infinity;
  for (const s of candidates) {
    const rank = singlePassRank(s);
    if (rank > bestRank) {
      best = s;
      bestRank = rank;
    }
  }
  return best;
}

/** A stage that maps onto glTF's emissive: additive, unlit, over the model's own texture coordinates, unmoving. */
function isGlowStage(s: ShaderStage): boolean {
  const additive = !!s.blend && s.blend.dst === 'GL_ONE' && (s.blend.src === 'GL_ONE' || s.blend.src === 'GL_SRC_ALPHA');
  const identity = s.rgbGen === null || s.rgbGen === 'identity' || s.rgbGen === 'identitylighting';
  return additive && identity && isColourStage(s) && isFileImage(s.map) && !s.animMap && (s.tcGen === null || s.tcGen === 'base' || s.tcGen === 'texture') && s.tcMods.length === 0;
}

export function shaderLook(def: ShaderDefinition): Look {
  const stages = def.stages;
  const byKind = (...kinds: string[]) => stages.find((s) => kinds.includes(s.kind) && s.map);
  const first = stages[0];

  let diffuse: ImageName | null = null;
  let animation: Look['animation'] = null;
  let texMods: Look['texMods'];
  let clamp = false;
  const diffuseStage = diffuseStageOf(def) ?? (first?.map ? first : undefined);
  if (def.diffuseMap) diffuse = { name: def.diffuseMap.name, role: 'diffuse', program: null, line: def.diffuseMap.line, column: def.diffuseMap.column };
  else if (diffuseStage?.map) {
    diffuse = { name: diffuseStage.map, role: 'diffuse', program: null, line: diffuseStage.mapAt?.line, column: diffuseStage.mapAt?.column };
    clamp = diffuseStage.clamp;
    const a = diffuseStage.animMap;
    if (a) animation = { fps: a.fps, frames: a.frames.map((name) => ({ name, role: 'frame' as const, program: null, line: a.line, column: a.column })) };
    if (diffuseStage.texMods.length) texMods = diffuseStage.texMods.map((m) => ({ kind: m.kind, args: [...m.args], ...(m.wave ? { wave: m.wave } : {}) }));
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

  const glowMap = diffuseStage?.glowMap ?? stages.find((s) => s.glowMap)?.glowMap;
  const glowStage = glowMap ? undefined : stages.find((s, i) => i > stages.indexOf(diffuseStage!) && isGlowStage(s));
  const emissive: ImageName | null = glowMap
    ? { name: glowMap.name, role: 'emissive', program: null, line: glowMap.line, column: glowMap.column }
    : glowStage?.map
      ? { name: glowStage.map, role: 'emissive', program: null, line: glowStage.mapAt?.line, column: glowStage.mapAt?.column }
      : null;

  const used = new Set([diffuse?.name, normal?.name, specular?.name, emissive?.name]);
  const others: ImageName[] = [];
  for (const s of stages) {
    if (s.map && !used.has(s.map) && !s.animMap) others.push({ name: s.map, role: 'stage', program: null, line: s.mapAt?.line, column: s.mapAt?.column });
    if (s.glowMap && s.glowMap !== glowMap) others.push({ name: s.glowMap.name, role: 'stage', program: null, line: s.glowMap.line, column: s.glowMap.column });
    if (s.map) used.add(s.map);
  }

  // An opaque first stage covers the framebuffer; a blending one lets the diffuse stage's own blend through.
  const blend = !first || first === diffuseStage || !first.blend ? (first?.blend ?? null) : (diffuseStage?.blend ?? null);
  return {
    diffuse,
    normal,
    specular,
    emissive,
    animation,
    ...(texMods ? { texMods } : {}),
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
    emissive: null,
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
    emissive: null,
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
