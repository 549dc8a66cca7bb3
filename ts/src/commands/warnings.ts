/**
 * Warnings as a user reads them: one line per kind, not per occurrence. Warnings of one file and code whose
 * messages differ only in numbers and quoted names (`mesh 3 ("mesh3") has no vertices`, thirteen times over) are
 * one group; the line shows the first and counts the rest: `(×13)` when all are identical, `(and 12 more like
 * it)` when they differ in those details. Missing shaders and images (warnings that carry `missing`) are one group
 * per file and code: a head line, then one line per missing name with what uses it, the extensions looked for said
 * once when every name was looked for with the same ones. `inspect --json` keeps every warning, ungrouped.
 */
import type { ParseWarning, MaterialWarning } from '../node.js';

export interface FileWarning {
  /** The file it belongs to. */
  file: string;
  warning: ParseWarning;
  /** Whether `warning.offset` / `line` point into the file (parser warnings) or mean nothing (export warnings). */
  positioned: boolean;
  /** A missing shader or image: its name, the paths looked for, what uses it. */
  missing?: MaterialWarning['missing'];
}

export interface WarningGroup {
  first: FileWarning;
  /** Every member, in order (the first included). */
  members: FileWarning[];
  count: number;
  /** Every member has the first's message and position. */
  identical: boolean;
}

/** The message with what varies between occurrences of one kind blanked: numbers and "quoted names". */
const shape = (message: string) => message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\d+(?:\.\d+)?/g, '#');

const where = (w: FileWarning) => (!w.positioned ? '' : w.warning.line !== undefined ? `${w.warning.line}:${w.warning.column ?? 0}` : `byte ${w.warning.offset}`);

/** Groups in order of first appearance. */
export function groupWarnings(list: readonly FileWarning[]): WarningGroup[] {
  const groups = new Map<string, WarningGroup>();
  for (const w of list) {
    const key = `${w.file}\0${w.warning.code}\0${w.missing ? '\0missing' : shape(w.warning.message)}`;
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { first: w, members: [w], count: 1, identical: true });
      continue;
    }
    g.count++;
    g.members.push(w);
    if (w.warning.message !== g.first.warning.message || where(w) !== where(g.first)) g.identical = false;
  }
  return [...groups.values()];
}

/** What a group of missing names lacks, in the head line. */
const MISSING_NOUN: Record<string, string> = { SHADER_NOT_FOUND: 'names with no shader, material or image', IMAGE_NOT_FOUND: 'images not found' };

/** `.tga, .jpg, .png` */
const extensionList = (extensions: readonly string[]) => extensions.map((e) => `.${e}`).join(', ');

/** The lines of a group of missing names: a head, then one line per name (see the file comment). */
function missingLines(g: WarningGroup): string[] {
  const first = g.first;
  const usedBy = (w: FileWarning) => w.missing!.usedBy.join(', ');
  if (g.count === 1) {
    const users = first.warning.code === 'SHADER_NOT_FOUND' || first.missing!.usedBy.length > 1 ? `; used by ${usedBy(first)}` : '';
    return [`${oneLine(g)}${users}`];
  }
  const patterns = g.members.map((w) => w.missing!.pattern);
  const shared = patterns.every((p) => p && p.extensions.join() === patterns[0]!.extensions.join()) ? patterns[0]!.extensions : null;
  const head = `${first.warning.code}: ${g.count} ${MISSING_NOUN[first.warning.code] ?? 'names not found'}${shared ? `, each looked for with ${extensionList(shared)}` : ''}:`;
  return [
    head,
    ...g.members.map((w, i) => {
      const p = patterns[i];
      const at = where(w);
      const looked = shared ? '' : `; looked for ${p ? `${p.stem} with ${extensionList(p.extensions)}` : w.missing!.tried.join(', ')}`;
      return `  ${p?.stem ?? w.missing!.name}${at ? ` at ${at}` : ''} (${usedBy(w)}${looked})`;
    }),
  ];
}

/** `CODE at byte N: message (×3)` — a group as one line, after the file name. */
function oneLine(g: WarningGroup): string {
  const at = where(g.first);
  const tail = g.count === 1 ? '' : g.identical ? ` (×${g.count})` : ` (and ${g.count - 1} more like it)`;
  return `${g.first.warning.code}${at ? ` at ${at}` : ''}: ${g.first.warning.message}${tail}`;
}

/** A group as the lines after the file name: one (`CODE at byte N: message (×3)`), or a missing-names head and its names, indented. */
export function groupLines(g: WarningGroup): string[] {
  return g.first.missing ? missingLines(g) : [oneLine(g)];
}

/** One stderr line per group (`file: warning CODE at byte N: message (×3)`), a missing-names group's names indented under it. */
export function warningLines(list: readonly FileWarning[]): string[] {
  return groupWarnings(list).flatMap((g) => groupLines(g).map((line, i) => (i === 0 ? `${g.first.file}: warning ${line}` : line)));
}

/** A model's own parse warnings (positions in the file) as FileWarnings. */
export const parseWarnings = (file: string, warnings: readonly ParseWarning[]): FileWarning[] => warnings.map((warning) => ({ file, warning, positioned: true }));

/** Warnings from building an output (no position in any file), attributed to the input. */
export const exportWarnings = (file: string, warnings: readonly ParseWarning[]): FileWarning[] => warnings.map((warning) => ({ file, warning, positioned: false }));
