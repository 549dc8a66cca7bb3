/**
 * A Tremulous buildable's `configs/buildables/<name>.cfg`, read as bg_misc.c BG_ParseBuildableFile reads it (Tremulous
 * 1.2 / GPP): COM_Parse tokens, keywords in any case — `model N PATH` (N clamped to 0..3), `modelScale F` (a
 * negative one is 0), `mins X Y Z`, `maxs X Y Z`, `zOffset F`. The game stops at an unknown token with an error,
 * keeping what it read, and says which of the five keywords is missing: both are warnings here, as is a missing
 * `modelScale` (the game would draw the buildable at scale 0: it is drawn at 1 here). A malformed number is
 * BAD_NUMBER with line:column (the game's atof reads it as 0).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import { cfgTokens, type CfgToken } from './animation-cfg.js';
import type { BuildableConfig } from './tremulous-parts.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const KEYS = ['model', 'modelscale', 'mins', 'maxs', 'zoffset'] as const;

/** Parses a buildable config (text, or bytes read as Latin-1 so offsets are byte offsets). */
export function parseBuildableConfig(input: string | Uint8Array): BuildableConfig {
  const text = typeof input === 'string' ? input : new TextDecoder('latin1').decode(input);
  const warnings: ParseWarning[] = [];
  const out: BuildableConfig = { models: ['', '', '', ''], modelScale: 1, zOffset: 0, mins: [0, 0, 0], maxs: [0, 0, 0], warnings };
  const it = cfgTokens(text);
  const at = (t: CfgToken) => ({ offset: t.offset, line: t.line, column: t.column });
  const end = { offset: text.length };
  const next = (): CfgToken | undefined => {
    const r = it.next();
    return r.done ? undefined : r.value;
  };
  const number = (what: string): number | undefined => {
    const t = next();
    if (!t) return undefined;
    const v = Number(t.text);
    if (!NUMBER.test(t.text) || !Number.isFinite(v)) throw new ModelParseError(ErrorCode.BadNumber, `${what} must be a number, got ${JSON.stringify(t.text)}`, at(t));
    return v;
  };
  const defined = new Set<string>();
  for (let t = next(); t; t = next()) {
    const k = t.text.toLowerCase();
    if (k === 'model') {
      const index = number('model index');
      const path = next();
      if (index === undefined || !path) break;
      out.models[Math.min(3, Math.max(0, Math.trunc(index)))] = path.text;
    } else if (k === 'modelscale') {
      const v = number('modelScale');
      if (v === undefined) break;
      out.modelScale = Math.max(0, v);
    } else if (k === 'mins' || k === 'maxs') {
      const box = k === 'mins' ? out.mins : out.maxs;
      for (let i = 0; i < 3; i++) box[i] = number(k) ?? box[i];
    } else if (k === 'zoffset') {
      const v = number('zOffset');
      if (v === undefined) break;
      out.zOffset = v;
    } else {
      warnings.push({ code: 'UNKNOWN_KEYWORD', message: `unknown token ${JSON.stringify(t.text)}: the game stops reading the file here (what came before is kept)`, ...at(t) });
      break;
    }
    defined.add(k);
  }
  const missing = KEYS.filter((k) => !defined.has(k));
  if (missing.length) {
    const scale = missing.includes('modelscale') ? ' (without modelScale the game draws it at scale 0: drawn at 1 here)' : '';
    warnings.push({ code: 'MISSING_KEYWORD', message: `no ${missing.map((k) => (k === 'modelscale' ? 'modelScale' : k === 'zoffset' ? 'zOffset' : k)).join(', ')}: the game reports the file${scale}`, ...end });
  }
  return out;
}
