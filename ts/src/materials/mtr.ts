/**
 * Doom 3 material declarations (`materials/*.mtr`), with the XreaL-style stages (`stage diffuseMap`,
 * `stage normalParallaxMap`, Quake 3 `blendFunc`/`alphaFunc`) that Tremulous-era packs ship beside their shaders.
 *
 * File structure as idDeclManagerLocal::LoadFile reads it (framework/DeclManager.cpp): an optional declaration
 * type (`material`, `table`, `skin` …; anything else is the file's default type, material), the name, a `{`, a
 * braced section. Only materials are kept. A declaration without `{` after its name is skipped with a warning (as
 * Doom 3 does); a section that never closes, or a string that reaches its line's end, is a ModelParseError with
 * line:column (the library then skips the file with a warning).
 *
 * Bodies as idMaterial::ParseMaterial / ParseStage read them (renderer/Material.cpp), keeping: the `diffusemap`,
 * `bumpmap` (and XreaL `normalmap`), `specularmap` shortcuts; stages with `blend` (`blend`, `add`, `filter`,
 * `modulate`, `none`, `diffusemap`, `bumpmap`, `specularmap`, or `GL_x, GL_y`), `map` (an image program, see
 * image-program.ts), `alphaTest <expression>`, `clamp`; the material's `translucent`, `twoSided`, `backSided`,
 * `clamp`, `polygonOffset`. Anything else is skipped with its line (Doom 3 would mark the material defaulted).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { latin1, ScriptLexer, type ScriptToken } from '../text/script-lexer.js';
import { parseImageProgram, type ImageProgram } from './image-program.js';
import { declKey } from './names.js';
import { parseBlendFunc } from './shader-script.js';
import type { Blend, Sides } from './types.js';

/** The lighting role of a stage: Doom 3's `blend diffusemap|bumpmap|specularmap` or XreaL's `stage …`. */
export type MtrStageRole = 'ambient' | 'diffuse' | 'bump' | 'specular' | 'other';

export interface MtrStage {
  line: number;
  column: number;
  role: MtrStageRole;
  map: ImageProgram | null;
  /** A cube map stage (`cubeMap`, `cameraCubeMap`): not a 2D image. */
  cube: boolean;
  blend: Blend;
  /** `alphaTest` expression as written (tokens joined), or a Quake 3 `alphaFunc` name. */
  alphaTest: string | null;
  clamp: boolean;
}

export interface MtrMaterial {
  name: string;
  /** Canonical (declKey): lower case, '/' separators, no extension. */
  key: string;
  offset: number;
  line: number;
  column: number;
  stages: MtrStage[];
  translucent: boolean;
  sides: Sides;
  clamp: boolean;
  polygonOffset: boolean;
  /** `surfaceparm` / Doom 3 surface parameter names seen (lower-cased), e.g. `nodraw`. */
  surfaceParms: string[];
}

export interface MtrFile {
  materials: MtrMaterial[];
  warnings: ParseWarning[];
}

/** Declaration types Doom 3 registers (DeclManager.cpp `declManagerLocal.RegisterDeclType` calls). */
const DECL_TYPES = new Set(['table', 'material', 'skin', 'sound', 'entitydef', 'mapdef', 'fx', 'particle', 'articulatedfigure', 'pda', 'video', 'audio', 'email', 'modelexport']);

/** Doom 3 ParseBlend's shorthands (Material.cpp). */
const BLEND_WORDS: Record<string, Blend | MtrStageRole> = {
  blend: { src: 'GL_SRC_ALPHA', dst: 'GL_ONE_MINUS_SRC_ALPHA' },
  add: { src: 'GL_ONE', dst: 'GL_ONE' },
  filter: { src: 'GL_DST_COLOR', dst: 'GL_ZERO' },
  modulate: { src: 'GL_DST_COLOR', dst: 'GL_ZERO' },
  none: { src: 'GL_ZERO', dst: 'GL_ONE' },
  bumpmap: 'bump',
  diffusemap: 'diffuse',
  specularmap: 'specular',
};

/** XreaL `stage` kinds. */
const STAGE_KINDS: Record<string, MtrStageRole> = {
  diffusemap: 'diffuse',
  colormap: 'ambient',
  bumpmap: 'bump',
  normalmap: 'bump',
  normalparallaxmap: 'bump',
  specularmap: 'specular',
};

export function parseMtr(input: Uint8Array | string): MtrFile {
  const text = typeof input === 'string' ? input : latin1(input);
  const lex = new ScriptLexer(text, 'doom3');
  const materials: MtrMaterial[] = [];
  const warnings: ParseWarning[] = [];
  const warn = (t: { offset: number; line: number; column: number }, code: string, message: string) =>
    warnings.push({ code, message, offset: t.offset, line: t.line, column: t.column });

  for (let t = lex.next(); t; t = lex.next()) {
    let type = 'material';
    if (!t.quoted && DECL_TYPES.has(t.text.toLowerCase())) {
      type = t.text.toLowerCase();
      const n = lex.next();
      if (!n) break;
      t = n;
    }
    if (t.text === '{') {
      warn(t, 'MTR_SYNTAX', 'a declaration without a name is skipped');
      closeSection(lex, t);
      continue;
    }
    const name = t;
    const open = lex.peek();
    if (!open || open.text !== '{') {
      warn(open ?? name, 'MTR_SYNTAX', `expected '{' after '${shortName(name.text)}', found ${open ? `'${shortName(open.text)}'` : 'the end of the file'}`);
      continue;
    }
    lex.next();
    if (type !== 'material') {
      closeSection(lex, name);
      continue;
    }
    materials.push(parseMaterialBody(lex, name, warnings));
  }
  return { materials, warnings };
}

function closeSection(lex: ScriptLexer, owner: ScriptToken): void {
  if (!lex.skipBraced(1)) unclosed(lex, owner);
}

function unclosed(lex: ScriptLexer, owner: ScriptToken): never {
  throw new ModelParseError(ErrorCode.Truncated, `declaration '${shortName(owner.text)}' (line ${owner.line}) has no closing '}'`, lex.here());
}

/** Tokens up to the end of the line (a `{` on it opens a section skipped whole; a `}` is left alone). */
function lineTokens(lex: ScriptLexer, owner: ScriptToken): ScriptToken[] {
  const out: ScriptToken[] = [];
  for (let t = lex.peek(); t && !t.lineBreak && t.text !== '}'; t = lex.peek()) {
    lex.next();
    if (t.text === '{') closeSection(lex, owner);
    else out.push(t);
  }
  return out;
}

/** A program on the keyword's line, or null (with nothing consumed) when the line ends there. */
function programOnLine(lex: ScriptLexer): ImageProgram | null {
  const p = lex.peek();
  if (!p || p.lineBreak) return null;
  return parseImageProgram(lex);
}

function parseMaterialBody(lex: ScriptLexer, name: ScriptToken, warnings: ParseWarning[]): MtrMaterial {
  const m: MtrMaterial = {
    name: name.text,
    key: declKey(name.text),
    offset: name.offset,
    line: name.line,
    column: name.column,
    stages: [],
    translucent: false,
    sides: 'front',
    clamp: false,
    polygonOffset: false,
    surfaceParms: [],
  };
  const shortcut = (t: ScriptToken, role: MtrStageRole) => {
    const map = programOnLine(lex);
    if (!map) warnings.push({ code: 'MTR_SYNTAX', message: `material '${shortName(name.text)}': ${shortName(t.text)} without an image`, offset: t.offset, line: t.line, column: t.column });
    m.stages.push({ line: t.line, column: t.column, role, map, cube: false, blend: null, alphaTest: null, clamp: m.clamp });
  };
  for (;;) {
    const t = lex.next();
    if (!t) unclosed(lex, name);
    if (t.text === '}') return m;
    if (t.text === '{') {
      m.stages.push(parseStage(lex, t, name, m.clamp, warnings));
      continue;
    }
    const kw = t.text.toLowerCase();
    if (kw === 'diffusemap') shortcut(t, 'diffuse');
    else if (kw === 'bumpmap' || kw === 'normalmap') shortcut(t, 'bump');
    else if (kw === 'specularmap') shortcut(t, 'specular');
    else if (kw === 'translucent') m.translucent = true;
    else if (kw === 'twosided') m.sides = 'both';
    else if (kw === 'backsided') m.sides = 'back';
    else if (kw === 'clamp' || kw === 'zeroclamp' || kw === 'alphazeroclamp') m.clamp = true;
    else if (kw === 'polygonoffset') {
      m.polygonOffset = true;
      lineTokens(lex, name);
    } else if (kw === 'surfaceparm') {
      const a = lineTokens(lex, name)[0];
      if (a) m.surfaceParms.push(a.text.toLowerCase());
    } else if (kw === 'nodraw' || kw === 'nonsolid' || kw === 'noshadows') {
      m.surfaceParms.push(kw);
    } else if (kw === 'cull') {
      // XreaL spells Quake 3's cull.
      const v = lineTokens(lex, name)[0]?.text.toLowerCase();
      if (v === 'none' || v === 'twosided' || v === 'disable') m.sides = 'both';
      else if (v === 'back' || v === 'backsided') m.sides = 'back';
    } else lineTokens(lex, name);
  }
}

function parseStage(lex: ScriptLexer, open: ScriptToken, name: ScriptToken, clamp: boolean, warnings: ParseWarning[]): MtrStage {
  const st: MtrStage = { line: open.line, column: open.column, role: 'ambient', map: null, cube: false, blend: null, alphaTest: null, clamp };
  const warnAt = (t: ScriptToken) => (message: string) =>
    warnings.push({ code: 'MTR_SYNTAX', message: `material '${shortName(name.text)}': ${message}`, offset: t.offset, line: t.line, column: t.column });
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
    if (kw === 'blend') {
      const words = lineTokens(lex, name).filter((x) => x.text !== ',');
      const w = words[0]?.text.toLowerCase() ?? '';
      const known = BLEND_WORDS[w];
      if (typeof known === 'string') st.role = known;
      else if (known !== undefined) st.blend = known;
      else if (words.length >= 2) st.blend = parseBlendFunc([words[0].text, words[1].text], warnAt(t));
      else warnAt(t)(`blend without a mode`);
    } else if (kw === 'blendfunc') {
      st.blend = parseBlendFunc(lineTokens(lex, name).map((x) => x.text), warnAt(t));
    } else if (kw === 'stage') {
      const k = lineTokens(lex, name)[0]?.text.toLowerCase() ?? '';
      st.role = STAGE_KINDS[k] ?? 'other';
    } else if (kw === 'map' || kw === 'cubemap' || kw === 'cameracubemap') {
      st.map = programOnLine(lex);
      st.cube = kw !== 'map';
      if (!st.map) warnAt(t)(`${shortName(t.text)} without an image`);
    } else if (kw === 'alphatest' || kw === 'alphafunc') {
      const expr = lineTokens(lex, name).map((x) => x.text).join(' ');
      st.alphaTest = expr || null;
    } else if (kw === 'clamp' || kw === 'zeroclamp' || kw === 'alphazeroclamp') {
      st.clamp = true;
    } else if (kw === 'noclamp') {
      st.clamp = false;
    } else lineTokens(lex, name);
  }
}
