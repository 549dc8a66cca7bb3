/**
 * `inspect ARCHIVE_OR_DIR [--json]`: the models an archive (.pk3 .pk4 .dpk), a folder of them or a game folder holds
 * (the catalog) — each model's path, format, frame count (read from its header alone by its registration's
 * `headerFrames`: never the whole model), the files that play on it with their frames, each folder format (a Quake
 * 3 player folder) with its parts' frames, and the skins offered. A model whose header is bad is listed with its
 * error code, not fatal: one broken member must not hide the rest.
 */
import { ModelParseError, catalogModels, type CatalogEntry, type FormatEntry, type FileSystem } from '../../node.js';
import { detectFile } from '../../files.js';
import { openContainer } from '../inputs.js';

interface Listed {
  path: string;
  format: string;
  /** A model file: its frames; a folder format: per part. */
  frames?: number | Record<string, number>;
  anims?: { path: string; frames: number | null; error?: string }[];
  files?: string[];
  skins: string[];
  bytes: number;
  error?: string;
}

const codeOf = (e: unknown) => (e instanceof ModelParseError ? `${e.code}: ${e.detail}` : String(e));

/** Frames of one file, from its header, by its format's registration; null when its format has no header count. */
async function framesOf(fs: FileSystem, path: string, formats: readonly FormatEntry[]): Promise<number | null> {
  const file = (await fs.file(path))!;
  // a name several formats claim (`.mdl`) is told apart by the file's first bytes
  const format = (await detectFile(file, formats)) as FormatEntry | null;
  if (!format?.headerFrames) return null;
  return format.headerFrames(file);
}

async function describe(fs: FileSystem, e: CatalogEntry, formats: readonly FormatEntry[]): Promise<Listed> {
  const out: Listed = { path: e.path, format: e.kind, skins: e.skins.map((s) => s.name), bytes: e.size };
  const format = formats.find((f) => f.id === e.kind);
  if (e.error) out.error = codeOf(e.error); // what plays on it could not be found (its config refused)
  try {
    if (format?.folder) {
      out.files = e.files;
      const frames: Record<string, number> = {};
      for (const f of e.files) {
        const n = await framesOf(fs, f, formats);
        if (n !== null) frames[f.slice(f.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '').toLowerCase()] = n;
      }
      out.frames = frames;
    } else if (format?.companionsBeside) {
      out.anims = [];
      for (const path of e.anims) {
        try {
          out.anims.push({ path, frames: await framesOf(fs, path, formats) });
        } catch (err) {
          out.anims.push({ path, frames: null, error: codeOf(err) });
        }
      }
    } else {
      const n = await framesOf(fs, e.path, formats);
      if (n !== null) out.frames = n;
    }
  } catch (err) {
    out.error = codeOf(err);
  }
  return out;
}

/** Widest a path column gets: a longer path keeps its start and its file name, the middle cut to an ellipsis. */
export const PATH_COLUMN_MAX = 80;

/** `text` cut to `width` characters in the middle (`models/…/tris.md3`), whole when it fits. */
export function middleEllipsis(text: string, width: number): string {
  if (text.length <= width) return text;
  const tail = Math.ceil((width - 1) / 2);
  return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/** What the frames column says of a model. */
function framesText(m: Listed): string {
  if (m.error) return `error ${m.error}`;
  if (typeof m.frames === 'number') return String(m.frames);
  if (m.frames) return Object.entries(m.frames).map(([k, v]) => `${k} ${v}`).join(', ');
  if (m.anims) return m.anims.length ? m.anims.map((a) => `${a.path.slice(a.path.lastIndexOf('/') + 1)} (${a.frames ?? a.error})`).join(', ') : 'no anims';
  return '';
}

/**
 * The listing as columns sized to their content: path (a model at the input's own root, a player folder given
 * itself, is named as the input was given), format, skins, and last the frames and anims, whose length varies most.
 */
function table(input: string, models: readonly Listed[], notes: readonly string[], folderFormats: ReadonlySet<string>): string {
  const lines = [`${input}: ${models.length} models, ${models.filter((m) => folderFormats.has(m.format)).length} players`];
  const rows = models.map((m) => [middleEllipsis(m.path || input, PATH_COLUMN_MAX), m.format, m.skins.join(' ') || '-', framesText(m)]);
  const head = ['path', 'format', 'skins', 'frames / anims'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  lines.push(line(head));
  for (const r of rows) lines.push(line(r));
  for (const n of notes) lines.push(`warning ${n}`);
  return lines.join('\n') + '\n';
}

export async function inspectContainer(input: string, json: boolean, formats: readonly FormatEntry[]): Promise<void> {
  const fs = await openContainer(input);
  try {
    const models: Listed[] = [];
    for (const e of await catalogModels(fs, formats)) models.push(await describe(fs, e, formats));
    const notes = (fs.warnings ?? []).map((w) => `${w.code}: ${w.message}`);
    const folderFormats = new Set(formats.filter((f) => f.folder).map((f) => f.id));
    if (json) process.stdout.write(JSON.stringify({ input, models, players: models.filter((m) => folderFormats.has(m.format)).map((m) => m.path), warnings: notes }) + '\n');
    else process.stdout.write(table(input, models, notes, folderFormats));
  } finally {
    await fs.close();
  }
}
