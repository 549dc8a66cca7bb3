/**
 * What the page can open, as the worker's mount sources (`protocol.ts` MountSource): picked or dropped files, a
 * picked folder (its files under their paths below it), a dropped folder (walked here: a folder entry cannot cross
 * to a worker, its files can), an archive or folder URL, model URLs.
 */
import type { MountSource } from './protocol.js';

interface Entry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void };
}

async function walk(entry: Entry, prefix: string, out: { path: string; blob: Blob }[]): Promise<void> {
  if (entry.isFile && entry.file) {
    out.push({ path: prefix + entry.name, blob: await new Promise<File>((ok, fail) => entry.file!(ok, fail)) });
    return;
  }
  if (!entry.isDirectory || !entry.createReader) return;
  const reader = entry.createReader();
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) return;
    for (const e of batch) await walk(e, `${prefix}${entry.name}/`, out);
  }
}

/** Picked files (with a picked folder's `webkitRelativePath`, the folder's own name dropped so it is the root). */
export function pickedSource(files: File[]): MountSource {
  const list = files.map((f) => ({ path: (f.webkitRelativePath || f.name).replace(/\\/g, '/'), blob: f as Blob }));
  const first = list[0]?.path.split('/')[0] ?? '';
  const folder = list.length > 0 && list.every((x) => x.path.includes('/') && x.path.split('/')[0] === first);
  if (folder) for (const x of list) x.path = x.path.slice(first.length + 1);
  return { kind: 'files', name: folder ? first : list.length === 1 ? list[0].path : `${list.length} files`, origin: folder ? first : 'picked', files: list };
}

/** A drop: one folder is the game folder (its files below it); anything else, the files and folders as dropped. */
export async function droppedSource(data: DataTransfer): Promise<MountSource | null> {
  const entries = [...data.items].map((i) => i.webkitGetAsEntry?.() as Entry | null).filter((e): e is Entry => !!e);
  if (entries.length === 0) return data.files.length ? pickedSource([...data.files]) : null;
  const files: { path: string; blob: Blob }[] = [];
  for (const e of entries) await walk(e, '', files);
  if (entries.length === 1 && entries[0].isDirectory) {
    const cut = entries[0].name.length + 1;
    return { kind: 'files', name: entries[0].name, origin: entries[0].name, files: files.map((f) => ({ path: f.path.slice(cut), blob: f.blob })) };
  }
  return { kind: 'files', name: entries.length === 1 ? entries[0].name : `${entries.length} items`, origin: 'dropped', files };
}

/** A typed URL: model files (by their extensions, comma-separated), else an archive or a folder. */
export function urlSource(text: string, modelExtensions: readonly string[]): MountSource {
  const urls = text.split(',').map((u) => u.trim()).filter(Boolean);
  const isModel = (u: string) => modelExtensions.some((x) => new URL(u, location.href).pathname.toLowerCase().endsWith(x));
  if (urls.length > 1 || urls.every(isModel)) return { kind: 'urls', urls };
  return { kind: 'url', url: urls[0] };
}
