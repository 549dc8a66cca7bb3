/**
 * What the material resolver hands out: per surface (MD3), mesh (MD5) or skin record (MD2), the images found and
 * the few render states every consumer needs — a glb exporter (image bytes, alpha mode, doubleSided, normal map)
 * and a WebGL/three.js renderer alike. Plain data only (strings, numbers, arrays): it crosses a worker boundary by
 * structured clone, and image bytes are read on demand with `fs.file(image.path)`.
 */

/** OpenGL blend factors as the scripts name them (upper case). */
export type BlendFactor =
  | 'GL_ONE'
  | 'GL_ZERO'
  | 'GL_DST_COLOR'
  | 'GL_ONE_MINUS_DST_COLOR'
  | 'GL_SRC_ALPHA'
  | 'GL_ONE_MINUS_SRC_ALPHA'
  | 'GL_DST_ALPHA'
  | 'GL_ONE_MINUS_DST_ALPHA'
  | 'GL_SRC_ALPHA_SATURATE'
  | 'GL_SRC_COLOR'
  | 'GL_ONE_MINUS_SRC_COLOR';

/** A stage's blend: `null` where the stage does not blend (none given, or GL_ONE GL_ZERO, which ioquake3 treats as none). */
export type Blend = { src: BlendFactor; dst: BlendFactor } | null;

/**
 * The blend named by what it does to the framebuffer: `alpha` = SRC_ALPHA, ONE_MINUS_SRC_ALPHA (glTF BLEND);
 * `additive` = ONE, ONE or SRC_ALPHA, ONE (glows, fire: glTF has no additive mode, an exporter may use emissive);
 * `multiply` = DST_COLOR, ZERO or ZERO, SRC_COLOR (`blendFunc filter`); `custom` = any other pair.
 */
export type BlendMode = 'opaque' | 'alpha' | 'additive' | 'multiply' | 'custom';

/**
 * An alpha test: a fragment is kept when `alpha op cutoff` (alpha in 0..1). Quake 3 `alphaFunc GT0` is `> 0`,
 * `LT128` is `< 0.5`, `GE128` is `>= 0.5` (tr_shade.c / GL_State); Doom 3 `alphaTest x` is `> x`
 * (draw_common.cpp: `qglAlphaFunc( GL_GREATER, … )`).
 */
export interface AlphaTest {
  op: '>' | '<' | '>=';
  cutoff: number;
  /** As written: `GE128`, or Doom 3's expression text (`0.5`). */
  written: string;
}

/** Which faces are drawn: `front` is the engines' default (back faces culled), `both` is `cull none` / `twoSided`. */
export type Sides = 'front' | 'back' | 'both';

/** Where a name was written. */
export interface WrittenAt {
  /** The file's path in the file system. */
  path: string;
  line: number;
  column: number;
}

export type ImageRole = 'diffuse' | 'normal' | 'specular' | 'emissive' | 'mask' | 'frame' | 'stage';

export interface ResolvedImage {
  role: ImageRole;
  /** The name as written (a shader stage's `map`, a skin line, the model's own shader field). */
  name: string;
  /** The file found, as the file system stores its path; null when none exists (a warning says so). */
  path: string | null;
  /** The found file's `origin` (archive member, disk path, URL), for messages. */
  origin: string | null;
  /** An engine built-in (`$whiteimage`, `$lightmap`, `*white`, Doom 3 `_flat` …): no file is looked for. */
  builtin: string | null;
  /** Doom 3 image program around the name (`addnormals(a_local, heightmap(a_h, 4))`), else null. */
  program: string | null;
  /** Where the name was written; null when it comes from the model file itself. */
  writtenAt: WrittenAt | null;
  /** Paths looked up, in order (the engine's extension fallback and our documented extras). */
  tried: string[];
  /**
   * An image held in the model file itself (an MDL's skin, decoded through the palette): `path` is then a key of
   * the decoded pixels handed out with the materials (formats/mdl/materials.ts), not a file of the file system.
   */
  embedded?: boolean;
}

/** Decoded pixels of an embedded image: RGBA8, top row first. */
export interface EmbeddedPixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** How the name a surface draws with was chosen. */
export type NameSource =
  | { kind: 'model' } // the MD3 surface's / MD5 mesh's own shader field, the MD2 skin record
  | { kind: 'skin'; at: WrittenAt } // a `.skin` line
  | { kind: 'cube-cfg'; at: WrittenAt } // an md5.cfg `md5skin` line
  | { kind: 'beside-model' } // MD2: an image found next to the model, not where its skin name points
  | { kind: 'none' };

/** What defined the look. */
export type DefinitionSource =
  | { kind: 'shader'; name: string; at: WrittenAt } // a Quake 3 / Daemon shader script
  | { kind: 'mtr'; name: string; at: WrittenAt } // a Doom 3 / XreaL material declaration
  | { kind: 'implicit' } // no definition: the name is an image (ioquake3 R_FindShader's fallback, Doom 3's implicit material)
  | { kind: 'cube-cfg'; at: WrittenAt }
  | { kind: 'none' };

export interface ResolvedMaterial {
  /** Surface (MD3), mesh (MD5) or skin record (MD2) index. */
  index: number;
  /** Surface or mesh name as the engine matches it ('' where none). */
  surface: string;
  /**
   * The part of a model set this surface belongs to: a Quake 3 player's (`lower`, `upper`, `head`; its weapon, by its
   * own shaders), a Tremulous buildable's (`model0`…, formats/md3/tremulous-parts.ts).
   */
  part?: string;
  /** The shader / material name in effect after skins ('' when there is none). */
  shaderName: string;
  nameSource: NameSource;
  definition: DefinitionSource;
  diffuse: ResolvedImage | null;
  normal: ResolvedImage | null;
  specular: ResolvedImage | null;
  /**
   * A glow drawn over the surface: a Daemon `glowMap`, or a later additive stage over the model's texture
   * coordinates (docs/materials.md "The look"); glTF `emissiveTexture`.
   */
  emissive: ResolvedImage | null;
  /** An `animMap` stage's frames (the diffuse is its first frame) and rate. */
  animation: { fps: number; frames: ResolvedImage[] } | null;
  /**
   * The diffuse stage's `tcMod`s in order, with their numbers as written (`scroll` s t per second, `rotate` degrees
   * per second, `scale`, `transform`, `stretch` / `turb` waves; `wave`: stretch's function name): for renderers that
   * play them. Absent when none.
   */
  texMods?: { kind: string; args: number[]; wave?: string }[];
  /**
   * Every other image the definition names (stages other than the diffuse — effect layers, environment maps —,
   * Cube masks), for renderers that draw more.
   */
  others: ResolvedImage[];
  /**
   * How the surface meets the framebuffer: the blend of its first stage (of the diffuse stage when that is drawn
   * over a first stage that blends).
   */
  blend: Blend;
  blendMode: BlendMode;
  alphaTest: AlphaTest | null;
  sides: Sides;
  /** `sides === 'both'` (glTF doubleSided). */
  doubleSided: boolean;
  /** `surfaceparm nodraw`: the engine never draws it. */
  nodraw: boolean;
  /** `surfaceparm trans` / Doom 3 `translucent`. */
  translucent: boolean;
  /** Texture coordinates clamp (`clampMap`, Doom 3 `clamp`) instead of repeating. */
  clamp: boolean;
}

/** A recoverable problem while resolving; never thrown. */
export interface MaterialWarning {
  code: string;
  message: string;
  /** The file it concerns, when there is one. */
  path?: string;
  /** That file's origin in the file system it was resolved in (`pak0.pk3:models/x.skin`, a path on disk), when it exists. */
  origin?: string;
  line?: number;
  column?: number;
  /**
   * SHADER_NOT_FOUND / IMAGE_NOT_FOUND: the name, the paths looked for, and what uses it (`surface turret_base`,
   * `diffuse of models/x/shader`). One warning per missing name: a later user is added here, not warned again.
   */
  missing?: {
    name: string;
    tried: string[];
    /** `tried` as one name with its extensions in the order tried, when it is one (`names.ts` triedPattern). */
    pattern: { stem: string; extensions: string[] } | null;
    usedBy: string[];
  };
}
