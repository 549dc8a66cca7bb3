/**
 * The formats this package reads, each registered once. Consumers take a list (this one by default), so a tool can
 * add a format of its own or leave some out — loaders.gl's way: no global registration, and an app that imports one
 * parser carries that parser only (importing this list carries them all).
 *
 * The order is the order messages list them in and first bytes are tried in (MD5's sniffing looks for whole
 * keywords of its text, which no binary header holds).
 */
import { ownerAmong, type FormatEntry } from '../formats/entry.js';
import { iqmEntry } from '../formats/iqm/entry.js';
import { md2Entry } from '../formats/md2/entry.js';
import { buildableEntry, md3Entry, nonsegEntry, playerEntry } from '../formats/md3/entry.js';
import { md5AnimEntry, md5CameraEntry, md5MeshEntry } from '../formats/md5/entry.js';
import { mdlEntry } from '../formats/mdl/entry.js';
import { goldsrcEntry } from '../formats/goldsrc/entry.js';
import { mdcEntry } from '../formats/mdc/entry.js';
import { mdsEntry } from '../formats/mds/entry.js';
import { mdmEntry, mdxEntry } from '../formats/mdm/entry.js';

export const DEFAULT_FORMATS: readonly FormatEntry[] = [md5MeshEntry, md5AnimEntry, md2Entry, md3Entry, playerEntry, nonsegEntry, buildableEntry, mdlEntry, iqmEntry, goldsrcEntry, mdcEntry, mdsEntry, mdmEntry, mdxEntry, md5CameraEntry];

/** The entry with format id `id` among `formats`. */
export function entryFor(id: string, formats: readonly FormatEntry[] = DEFAULT_FORMATS): FormatEntry | undefined {
  return formats.find((f) => f.id === id);
}

/** The entry whose data `data` is (a parsed model), among `formats`; a TypeError naming what it got otherwise. */
export function entryOwning(data: unknown, formats: readonly FormatEntry[] = DEFAULT_FORMATS): FormatEntry {
  return ownerAmong(data, formats);
}

/** The formats that read files (not refused), for messages: `.md2, .md3, .md5mesh, .md5anim`. */
export function readableExtensions(formats: readonly FormatEntry[] = DEFAULT_FORMATS): string {
  return formats.filter((f) => f.role !== 'refused').flatMap((f) => f.extensions).join(', ');
}
