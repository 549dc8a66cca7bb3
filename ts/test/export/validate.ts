/**
 * The Khronos glTF-Validator (npm `gltf-validator`, the official validator compiled to JS) as the tests use
 * it, and the validator findings this project accepts (docs/gltf.md justifies each).
 */
import { validateBytes } from 'gltf-validator';
import { expect } from 'vitest';

export interface ValidatorSummary {
  errors: number;
  warnings: number;
  infos: number;
  /** Distinct issue codes by severity (0 error, 1 warning, 2 info, 3 hint). */
  codes: { errors: string[]; warnings: string[]; infos: string[] };
  /** The first few messages, for failure output. */
  sample: string[];
}

/**
 * Warnings we accept, each justified in docs/gltf.md ("Validator findings"). The tests assert that every
 * warning the validator raises is in this list, and that each entry is raised by at least one real model.
 */
export const ACCEPTED_WARNINGS: readonly string[] = [
  // (MESH_PRIMITIVE_GENERATED_TANGENT_SPACE was here: a normal map without TANGENT. The exporters write tangents
  // now, export/gltf-tangents.ts, and a primitive without them is a failure.)
];

/**
 * Infos we accept: `UNUSED_OBJECT` (TEXCOORD_0 with no texture to read it, when no texture folder is
 * given — the coordinates are still wanted by whoever adds the texture), `URI_GLB` (a GLB whose images are
 * external files: the texture-folder option, by design), `NODE_EMPTY` (an MD3 tag with nothing attached: tags
 * are attachment points, kept so users can hang a weapon or a head on them), `IMAGE_NPOT_DIMENSIONS` (a skin whose
 * sides are not powers of two, as the artist drew it: glTF allows them, the engines resample on upload).
 */
export const ACCEPTED_INFOS: readonly string[] = ['UNUSED_OBJECT', 'URI_GLB', 'NODE_EMPTY', 'IMAGE_NPOT_DIMENSIONS'];

export async function validate(bytes: Uint8Array, options: Record<string, unknown> = {}): Promise<ValidatorSummary> {
  const report = await validateBytes(bytes, { maxIssues: 0, ...options });
  const msgs = report.issues.messages;
  const codes = (sev: number) => [...new Set(msgs.filter((m) => m.severity === sev).map((m) => m.code))].sort();
  return {
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    infos: report.issues.numInfos,
    codes: { errors: codes(0), warnings: codes(1), infos: codes(2) },
    sample: msgs.slice(0, 8).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`),
  };
}

export const summaryLine = (name: string, s: ValidatorSummary) =>
  `${name}: ${s.errors} errors, ${s.warnings} warnings${s.codes.warnings.length ? ` (${s.codes.warnings.join(', ')})` : ''}, ${s.infos} infos${s.codes.infos.length ? ` (${s.codes.infos.join(', ')})` : ''}`;

/** 0 errors, and only accepted warnings and infos; the summary line goes to `results` for the report. */
export function expectClean(results: string[], name: string, s: ValidatorSummary): void {
  results.push(summaryLine(name, s));
  expect(s.errors, s.sample.join('\n')).toBe(0);
  for (const code of s.codes.warnings) expect(ACCEPTED_WARNINGS, `${name}: warning ${code}`).toContain(code);
  for (const code of s.codes.infos) expect(ACCEPTED_INFOS, `${name}: info ${code}`).toContain(code);
}
