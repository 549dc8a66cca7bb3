/**
 * The words the command line says about formats, made from the registrations it reads (never typed: a format
 * registered, or left out, changes every help text and message that lists formats): their names, extensions, what
 * plays on each, their one-line descriptions, the archives read in place. `--help`, the commands' option help and
 * their usage errors take them from here; the README's CLI block is `--help`'s text (scripts/cli-help.mjs).
 */
import type { FormatEntry } from '../node.js';
import { ARCHIVE_EXTENSIONS, ARCHIVE_FILE_EXTENSIONS } from '../files.js';

/** `a`, `a or b`, `a, b or c` (`and` with `last`). */
export function listed(words: readonly string[], last = 'or'): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** The formats that read files: those not only recognised to be refused. */
const read = (formats: readonly FormatEntry[]) => formats.filter((f) => f.role !== 'refused');

/** The formats' names as people say them, each once, in the list's order: `MD5, MD2, MD3, Quake MDL, IQM`. */
export function formatNames(formats: readonly FormatEntry[]): string[] {
  return [...new Set(read(formats).map((f) => f.name ?? f.id))];
}

/** Model formats (those that open on their own) whose registration `has` says yes to, by name, each once: `MD2/MD3`. */
export function namesWhere(formats: readonly FormatEntry[], has: (f: FormatEntry) => boolean): string {
  return [...new Set(formats.filter((f) => f.role === 'model' && has(f)).map((f) => f.name ?? f.id))].join('/');
}

/** The extensions of what plays on a model of `f`: its animation formats' (`.md5anim`), or its own (an IQM's animation files). */
export function companionExtensions(f: FormatEntry, formats: readonly FormatEntry[]): string[] {
  const animations = formats.filter((a) => a.role === 'animation' && a.playsOn === f.id).flatMap((a) => a.extensions);
  return animations.length ? animations : f.acceptsCompanion ? [...f.extensions] : [];
}

/** `.pk3/.pk4/.dpk/.pak`: the archives a model is read from in place (`ARCHIVE:INNER`, `--all`, `inspect ARCHIVE`). */
export const ARCHIVES = ARCHIVE_FILE_EXTENSIONS.join('/');
/** `.pk3/.pk4/.dpk`: the archives a game folder is mounted with (Quake's .pak is opened on its own). */
export const GAME_ARCHIVES = ARCHIVE_EXTENSIONS.join('/');

/** One entry per model format for `--help`: its name and files (`MD5 (.md5mesh + .md5anim)`), and its description. */
export function formatEntries(formats: readonly FormatEntry[]): { head: string; text: string }[] {
  return formats
    .filter((f) => f.role === 'model')
    .map((f) => {
      const plays = companionExtensions(f, formats);
      const own = plays.length > 0 && plays.every((x) => f.extensions.includes(x));
      const files = f.folder ? `a ${f.folder.noun}` : f.extensions.join(' ') + (own ? ' and its animation files' : plays.length ? ` + ${plays.join(' ')}` : '');
      return { head: `${f.name ?? f.id} (${files})`, text: f.description ?? f.title };
    });
}

/** What a model file INPUT may be, for messages: `.md5mesh, .md2, .md3, .mdl, .iqm`. */
export function modelExtensions(formats: readonly FormatEntry[]): string {
  return formats.filter((f) => f.role === 'model').flatMap((f) => f.extensions).join(', ');
}

/** The folder formats, for messages: `a Quake 3 player folder`. */
export function folderNouns(formats: readonly FormatEntry[]): string[] {
  return formats.flatMap((f) => (f.folder ? [`a ${f.folder.noun}`] : []));
}

/** The id formats written (`.md5mesh`, `.md2` …), from their registrations' writers. */
export function writerExtensions(formats: readonly FormatEntry[]): string[] {
  return formats.flatMap((f) => f.writer?.extensions ?? []);
}
