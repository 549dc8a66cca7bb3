/**
 * Quake 3 shader scripts (`scripts/*.shader`), with the Daemon / XreaL stage keywords found in Unvanquished and
 * Tremulous data (`diffuseMap`, `normalMap`, `specularMap`, `stage …`).
 *
 * The file is checked as ioquake3's ScanAndLoadShaderFiles checks it (renderergl1/tr_shader.c): a name, a `{`
 * standing alone, a braced section closed before the end (ioquake3 `SkipBracedSection`: only tokens that are
 * exactly `{` or `}` count). A file that fails is one the engine ignores whole: here a ModelParseError
 * (UNEXPECTED_TOKEN for a missing `{`, TRUNCATED for a section never closed) with line:column, which the library
 * turns into a warning and skips the file, as the engine does.
 *
 * Bodies are read as ParseShader / ParseStage read them — tokens by COM_ParseExt, a keyword's arguments on its own
 * line — keeping what a renderer or exporter needs: each stage's image (`map`, `clampMap`, `animMap` with all its
 * frames and its rate; `$whiteimage`, `$lightmap` kept as written), `blendFunc` (add, blend, filter, or two GL_
 * factors), `alphaFunc`, `depthWrite`, `tcGen`, `rgbGen`, the kinds of its `tcMod`s; and the shader's `cull`, `surfaceparm`s, `sort`, `polygonOffset`.
 * Where ioquake3 gives up on a whole shader (an unknown keyword, more than 8 stages, a stage image it cannot load)
 * we skip only the unknown line, and say so in docs/materials.md: Daemon and XreaL keywords ioquake3 does not know
 * are common in real data. A keyword's argument never swallows a lone brace, so block structure is always the one
 * the file check saw.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { latin1, ScriptLexer, type ScriptToken } from '../text/script-lexer.js';
import type { Blend, BlendFactor, Sides } from './types.js';

export type AlphaFunc = 'GT0' | 'LT128' | 'GE128';

export interface ShaderStage {
  /** Position of the stage's `{`. */
  offset: number;
  line: number;
  column: number;
  /** XreaL/Daemon `stage <kind>` (lower-cased: `diffusemap`, `normalmap` …); 'color' for a plain Quake 3 stage. */
  kind: string;
  /** The colour image: `map`, `clampMap`, Daemon `diffuseMap`/`colorMap`, or an `animMap`'s first frame; as written. */
  map: string | null;
  /** Where `map` was written. */
  mapAt: { line: number; column: number } | null;
  /** `clampMap`. */
  clamp: boolean;
  animMap: { fps: number; frames: string[]; line: number; column: number } | null;
  /** Daemon stage-level `normalMap` / `specularMap` / `glowMap`, as written. */
  normalMap: { name: string; line: number; column: number } | null;
  specularMap: { name: string; line: number; column: number } | null;
  glowMap: { name: string; line: number; column: number } | null;
  blend: Blend;
  alphaFunc: AlphaFunc | null;
  /** An explicit `depthWrite`. */
  depthWrite: boolean;
  /** `tcGen` argument, lower-cased (`environment`, `lightmap` …), or null. */
  tcGen: string | null;
  /** `rgbGen` argument, lower-cased (`identity`, `lightingdiffuse`, `vertex`, `wave` …), or null when not given. */
  rgbGen: string | null;
  /** `tcMod` lines, their kinds lower-cased in order (`scroll`, `scale`, `rotate` …). */
  tcMods: string[];
  /**
   * The same lines with their numbers, in order (`tcMod scroll 0.5 0` → `{ kind: 'scroll', args: [0.5, 0] }`), read
   * as ioquake3's ParseTexMod reads them: each token of the line by `atof` (a word is 0; a wave's function name is
   * kept out, its numbers in). `wave`: a `stretch` line's function (`sin`, `triangle`, `square`, `sawtooth`,
   * `inversesawtooth`, `noise`; lower-cased), which ParseWaveForm reads before the numbers.
   */
  texMods: { kind: string; args: number[]; wave?: string }[];
}

export interface ShaderDefinition {
  /** As written. */
  name: string;
  /** Lower-cased: what R_FindShader compares (see names.ts `shaderKey`). */
  key: string;
  offset: number;
  line: number;
  column: number;
  sides: Sides;
  /** `surfaceparm` names, lower-cased. */
  surfaceParms: string[];
  nodraw: boolean;
  /** `surfaceparm trans`. */
  translucent: boolean;
  /** `sort` argument as written, or null. */
  sort: string | null;
  polygonOffset: boolean;
  /** Has `skyParms`. */
  sky: boolean;
  /** XreaL/Daemon shader-level `diffuseMap` / `normalMap` / `specularMap`. */
  diffuseMap: { name: string; line: number; column: number } | null;
  normalMap: { name: string; line: number; column: number } | null;
  specularMap: { name: string; line: number; column: number } | null;
  stages: ShaderStage[];
}

export interface ShaderScript {
  shaders: ShaderDefinition[];
  warnings: ParseWarning[];
}

const SRC_FACTORS: readonly BlendFactor[] = ['GL_ONE', 'GL_ZERO', 'GL_DST_COLOR', 'GL_ONE_MINUS_DST_COLOR', 'GL_SRC_ALPHA', 'GL_ONE_MINUS_SRC_ALPHA', 'GL_DST_ALPHA', 'GL_ONE_MINUS_DST_ALPHA', 'GL_SRC_ALPHA_SATURATE'];
const DST_FACTORS: readonly BlendFactor[] = ['GL_ONE', 'GL_ZERO', 'GL_SRC_ALPHA', 'GL_ONE_MINUS_SRC_ALPHA', 'GL_DST_ALPHA', 'GL_ONE_MINUS_DST_ALPHA', 'GL_SRC_COLOR', 'GL_ONE_MINUS_SRC_COLOR'];

/**
 * A blend factor by name (NameToSrcBlendMode / NameToDstBlendMode, case-insensitive); an unknown name is GL_ONE,
 * as the engine substitutes it (with a warning).
 */
function factor(name: string, allowed: readonly BlendFactor[], warn: (msg: string) => void): BlendFactor {
  const up = name.toUpperCase() as BlendFactor;
  if (allowed.includes(up)) return up;
  warn(`unknown blend factor '${name}', taken as GL_ONE as the engine does`);
  return 'GL_ONE';
}

/**
 * The blend of `blendFunc` arguments: `add`, `filter`, `blend`, or a GL_ pair (ParseStage); GL_ONE GL_ZERO is no
 * blend ("implicitly assume that a GL_ONE GL_ZERO blend mask disables blending").
 */
export function parseBlendFunc(args: readonly string[], warn: (msg: string) => void): Blend {
  if (args.length === 0) {
    warn('blendFunc without arguments');
    return null;
  }
  const a = args[0].toLowerCase();
  let b: Blend;
  if (a === 'add') b = { src: 'GL_ONE', dst: 'GL_ONE' };
  else if (a === 'filter') b = { src: 'GL_DST_COLOR', dst: 'GL_ZERO' };
  else if (a === 'blend') b = { src: 'GL_SRC_ALPHA', dst: 'GL_ONE_MINUS_SRC_ALPHA' };
  else {
    if (args.length < 2) {
      warn(`blendFunc ${args[0]} has no destination factor`);
      return null;
    }
    b = { src: factor(args[0], SRC_FACTORS, warn), dst: factor(args[1], DST_FACTORS, warn) };
  }
  return b.src === 'GL_ONE' && b.dst === 'GL_ZERO' ? null : b;
}

/** Parse a shader script file (bytes are read as Latin-1). Throws ModelParseError for a file the engine ignores. */
export function parseShaderScript(input: Uint8Array | string): ShaderScript {
  const text = typeof input === 'string' ? input : latin1(input);
  const lex = new ScriptLexer(text, 'quake3');
  const shaders: ShaderDefinition[] = [];
  const warnings: ParseWarning[] = [];

  for (let name = lex.next(); name; name = lex.next()) {
    const open = lex.next();
    if (!open || open.text !== '{') {
      const at = open ?? { ...lex.here() };
      throw new ModelParseError(
        ErrorCode.UnexpectedToken,
        `shader '${shortName(name.text)}' (line ${name.line}) is not followed by '{' but by ${open ? `'${shortName(open.text)}'` : 'the end of the file'}; the engine ignores this whole file`,
        { offset: at.offset, line: at.line, column: at.column },
      );
    }
    shaders.push(parseBody(lex, name, warnings));
  }
  return { shaders, warnings };
}

/** An argument on the keyword's line that is not a lone brace (a brace is left for the block structure). */
function arg(lex: ScriptLexer): ScriptToken | null {
  const t = lex.peek();
  if (!t || t.lineBreak || t.text === '{' || t.text === '}') return null;
  return lex.next();
}

function args(lex: ScriptLexer): ScriptToken[] {
  const out: ScriptToken[] = [];
  for (let t = arg(lex); t; t = arg(lex)) out.push(t);
  return out;
}

/** Skip the rest of a line; a `{` on it opens a section that is skipped whole (so unknown blocks vanish safely). */
function skipLine(lex: ScriptLexer, owner: ScriptToken): void {
  for (let t = lex.peek(); t && !t.lineBreak && t.text !== '}'; t = lex.peek()) {
    lex.next();
    if (t.text === '{') closeSection(lex, owner);
  }
}

/** Consume up to the `}` closing the section just opened; the end of the text instead is the engine's file error. */
function closeSection(lex: ScriptLexer, owner: ScriptToken): void {
  if (lex.skipBraced(1)) return;
  unclosed(lex, owner);
}

function unclosed(lex: ScriptLexer, owner: ScriptToken): never {
  throw new ModelParseError(ErrorCode.Truncated, `shader '${shortName(owner.text)}' (line ${owner.line}) has no closing '}'; the engine ignores this whole file`, lex.here());
}

const at = (t: ScriptToken) => ({ name: t.text, line: t.line, column: t.column });

function parseBody(lex: ScriptLexer, name: ScriptToken, warnings: ParseWarning[]): ShaderDefinition {
  const def: ShaderDefinition = {
    name: name.text,
    key: name.text.toLowerCase(),
    offset: name.offset,
    line: name.line,
    column: name.column,
    sides: 'front',
    surfaceParms: [],
    nodraw: false,
    translucent: false,
    sort: null,
    polygonOffset: false,
    sky: false,
    diffuseMap: null,
    normalMap: null,
    specularMap: null,
    stages: [],
  };
  const warnAt = (t: ScriptToken) => (message: string) =>
    warnings.push({ code: 'SHADER_SYNTAX', message: `shader '${shortName(name.text)}': ${message}`, offset: t.offset, line: t.line, column: t.column });

  for (;;) {
    const t = lex.next();
    if (!t) unclosed(lex, name);
    if (t.text === '}') return def;
    if (t.text === '{') {
      def.stages.push(parseStage(lex, t, name, warnAt));
      continue;
    }
    const kw = t.text.toLowerCase();
    if (kw === 'cull') {
      const a = arg(lex);
      const v = a?.text.toLowerCase();
      if (v === 'none' || v === 'twosided' || v === 'disable') def.sides = 'both';
      else if (v === 'back' || v === 'backside' || v === 'backsided') def.sides = 'back';
      else if (v === 'front' || v === 'frontside' || v === 'frontsided') def.sides = 'front';
      else warnAt(a ?? t)(a ? `invalid cull parameter '${shortName(a.text)}'` : 'cull without a parameter');
    } else if (kw === 'twosided') {
      def.sides = 'both'; // XreaL
    } else if (kw === 'surfaceparm') {
      const a = arg(lex);
      if (a) {
        const p = a.text.toLowerCase();
        def.surfaceParms.push(p);
        if (p === 'nodraw') def.nodraw = true;
        if (p === 'trans') def.translucent = true;
      }
    } else if (kw === 'sort') {
      def.sort = arg(lex)?.text ?? null;
    } else if (kw === 'polygonoffset') {
      def.polygonOffset = true;
    } else if (kw === 'skyparms') {
      def.sky = true;
      args(lex);
    } else if (kw === 'diffusemap' || kw === 'normalmap' || kw === 'specularmap') {
      const a = arg(lex);
      if (!a) warnAt(t)(`${shortName(t.text)} without an image`);
      else if (kw === 'diffusemap') def.diffuseMap = at(a);
      else if (kw === 'normalmap') def.normalMap = at(a);
      else def.specularMap = at(a);
      skipLine(lex, name);
    } else {
      // qer_*, q3map_*, deformVertexes, nopicmip, fogParms, Daemon's imageMinDimension … : the line is theirs.
      skipLine(lex, name);
    }
  }
}

function parseStage(lex: ScriptLexer, open: ScriptToken, name: ScriptToken, warnAt: (t: ScriptToken) => (m: string) => void): ShaderStage {
  const st: ShaderStage = {
    offset: open.offset,
    line: open.line,
    column: open.column,
    kind: 'color',
    map: null,
    mapAt: null,
    clamp: false,
    animMap: null,
    normalMap: null,
    specularMap: null,
    glowMap: null,
    blend: null,
    alphaFunc: null,
    depthWrite: false,
    tcGen: null,
    rgbGen: null,
    tcMods: [],
    texMods: [],
  };
  const setMap = (a: ScriptToken | null, t: ScriptToken, clamp: boolean) => {
    if (!a) return warnAt(t)(`missing parameter for '${shortName(t.text)}'`);
    st.map = a.text;
    st.mapAt = { line: a.line, column: a.column };
    st.clamp = clamp;
  };
  for (;;) {
    const t = lex.next();
    if (!t) unclosed(lex, name);
    if (t.text === '}') return st;
    if (t.text === '{') {
      warnAt(t)('a block inside a stage is skipped');
      closeSection(lex, name);
      continue;
    }
    const kw = t.text.toLowerCase();
    if (kw === 'map' || kw === 'diffusemap' || kw === 'colormap') setMap(arg(lex), t, false);
    else if (kw === 'clampmap') setMap(arg(lex), t, true);
    else if (kw === 'animmap') {
      const a = args(lex);
      const fps = a.length ? Number.parseFloat(a[0].text) : NaN;
      if (a.length < 2) warnAt(t)('animMap needs a rate and at least one image');
      else {
        st.animMap = { fps: Number.isFinite(fps) ? fps : 0, frames: a.slice(1).map((x) => x.text), line: a[1].line, column: a[1].column };
        st.map = a[1].text;
        st.mapAt = { line: a[1].line, column: a[1].column };
      }
    } else if (kw === 'normalmap' || kw === 'bumpmap' || kw === 'specularmap' || kw === 'glowmap') {
      const a = arg(lex);
      if (!a) warnAt(t)(`missing parameter for '${shortName(t.text)}'`);
      else if (kw === 'specularmap') st.specularMap = at(a);
      else if (kw === 'glowmap') st.glowMap = at(a);
      else st.normalMap = at(a);
    } else if (kw === 'stage') {
      const a = arg(lex);
      if (a) st.kind = a.text.toLowerCase();
    } else if (kw === 'blendfunc') {
      st.blend = parseBlendFunc(args(lex).map((x) => x.text), warnAt(t));
    } else if (kw === 'alphafunc') {
      const a = arg(lex);
      const v = a?.text.toUpperCase();
      if (v === 'GT0' || v === 'LT128' || v === 'GE128') st.alphaFunc = v;
      else warnAt(a ?? t)(a ? `invalid alphaFunc '${shortName(a.text)}'` : 'alphaFunc without a parameter');
    } else if (kw === 'depthwrite') {
      st.depthWrite = true;
    } else if (kw === 'tcgen' || kw === 'texgen') {
      st.tcGen = arg(lex)?.text.toLowerCase() ?? null;
      skipLine(lex, name);
    } else if (kw === 'rgbgen') {
      const a = arg(lex);
      if (a) st.rgbGen = a.text.toLowerCase();
      else warnAt(t)('missing parameters for rgbGen');
      skipLine(lex, name);
    } else if (kw === 'tcmod') {
      const a = arg(lex);
      if (a) {
        st.tcMods.push(a.text.toLowerCase());
        // atof: the longest number at the start of the token, else 0; a wave's function name (sin, triangle …) is not a number
        const tokens = args(lex);
        const numbers = tokens.filter((x) => !/^[a-z_]/i.test(x.text)).map((x) => Number.parseFloat(x.text) || 0);
        const kind = a.text.toLowerCase();
        // stretch's wave: ParseWaveForm takes the first token as the function's name
        const wave = kind === 'stretch' && tokens[0] && /^[a-z_]/i.test(tokens[0].text) ? tokens[0].text.toLowerCase() : undefined;
        // a number past float range (1e400) is atof's HUGE_VAL: the engine's texture coordinates become NaN; not played here
        if (numbers.every(Number.isFinite)) st.texMods.push({ kind, args: numbers, ...(wave ? { wave } : {}) });
        else warnAt(t)(`tcMod ${a.text} has a number out of range: not played`);
      } else warnAt(t)('missing parameters for tcMod');
      skipLine(lex, name);
    } else {
      // alphaGen, depthFunc, detail, videoMap, Daemon's depthFade … : the line is theirs.
      skipLine(lex, name);
    }
  }
}
