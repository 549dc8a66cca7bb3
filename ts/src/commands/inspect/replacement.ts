/**
 * What `inspect` says about a model a source port draws something else in place of (`ModelFormat.replacedBy`: the
 * re-releases' MD5 models beside an MD2 or MDL): which files replace it, who loads them so, the images it is skinned
 * with, and what went wrong — read through the model set, as every other door reads it (docs/md5-replacements.md).
 */
import type { FormatEntry, Summary } from '../../node.js';
import { readModel, type ModelInput } from '../inputs.js';

export async function replacementSummary(input: ModelInput, format: FormatEntry, formats: readonly FormatEntry[]): Promise<Summary> {
  // the paths first: a model with nothing beside it is not read again (inspect streams it; a set parses it whole)
  const paths = format.replacedBy?.(input.path);
  if (!paths || !(await input.fs.file(paths.model))) return {};
  let set;
  try {
    set = await readModel(input, format, [], formats);
  } catch {
    return {}; // what inspect read streaming stands; the whole model's own refusal is convert's to tell
  }
  const r = set.replacement;
  const failed = set.warnings.flatMap((w) => w.warnings.filter((x) => x.code === 'REPLACEMENT_FAILED').map((x) => ({ file: w.file, ...x })));
  if (!r) return failed.length ? { replacement: { failed } } : {};
  return {
    replacement: {
      by: r.by,
      replaces: r.replaces,
      model: r.set.origin,
      anims: [...new Set(r.set.companions.map((c) => c.origin))],
      sideFiles: r.set.sideFiles.map((s) => s.origin),
      skins: r.skins ?? [],
      warnings: r.set.warnings.flatMap((w) => w.warnings.map((x) => ({ file: w.file, ...x }))),
    },
  };
}

/** The table's rows for it: `replaced by` and what it reads. */
export function replacementLines(summary: Summary): [string, string][] {
  const r = summary.replacement as undefined | { by?: string; model?: string; anims?: string[]; sideFiles?: string[]; skins?: string[]; warnings?: { file: string; code: string; message: string }[]; failed?: { file: string; code: string; message: string }[] };
  if (!r) return [];
  if (r.failed) return r.failed.map((f) => ['replacement', `not loaded: ${f.file}: ${f.message}`]);
  const out: [string, string][] = [['replaced by', `${r.model} ${r.anims!.length ? `with ${r.anims!.join(', ')}` : 'with no md5anim (its bind pose)'} (${r.by})`]];
  for (const s of r.sideFiles!) out.push(['replacement reads', s]);
  if (r.skins!.length) out.push(['replacement skins', r.skins!.join(', ')]);
  for (const w of r.warnings!) out.push(['replacement warning', `${w.file}: ${w.code}: ${w.message}`]);
  return out;
}
