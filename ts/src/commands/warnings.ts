/**
 * Warnings as a user reads them: one line per kind, not per occurrence. Warnings of one file and code whose
 * messages differ only in numbers and quoted names (`mesh 3 ("mesh3") has no vertices`, thirteen times over) are
 * one group; the line shows the first and counts the rest: `(×13)` when all are identical, `(and 12 more like
 * it)` when they differ in those details. `inspect --json` keeps every warning, ungrouped.
 */
import type { ParseWarning } from '../base/errors.js';

export interface FileWarning {
  /** The file it belongs to. */
  file: string;
  warning: ParseWarning;
  /** Whether `warning.offset` / `line` point into the file (parser warnings) or mean nothing (export warnings). */
  positioned: boolean;
}

export interface WarningGroup {
  first: FileWarning;
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
    const key = `${w.file}\0${w.warning.code}\0${shape(w.warning.message)}`;
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { first: w, count: 1, identical: true });
      continue;
    }
    g.count++;
    if (w.warning.message !== g.first.warning.message || where(w) !== where(g.first)) g.identical = false;
  }
  return [...groups.values()];
}

/** `CODE at byte N: message (×3)` — the part after the file name. */
export function groupText(g: WarningGroup): string {
  const at = where(g.first);
  const tail = g.count === 1 ? '' : g.identical ? ` (×${g.count})` : ` (and ${g.count - 1} more like it)`;
  return `${g.first.warning.code}${at ? ` at ${at}` : ''}: ${g.first.warning.message}${tail}`;
}

/** One stderr line per group: `file: warning CODE at byte N: message (×3)`. */
export function warningLines(list: readonly FileWarning[]): string[] {
  return groupWarnings(list).map((g) => `${g.first.file}: warning ${groupText(g)}`);
}

/** A model's own parse warnings (positions in the file) as FileWarnings. */
export const parseWarnings = (file: string, warnings: readonly ParseWarning[]): FileWarning[] => warnings.map((warning) => ({ file, warning, positioned: true }));

/** Warnings from building an output (no position in any file), attributed to the input. */
export const exportWarnings = (file: string, warnings: readonly ParseWarning[]): FileWarning[] => warnings.map((warning) => ({ file, warning, positioned: false }));
