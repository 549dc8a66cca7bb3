/**
 * `inspect ARCHIVE_OR_DIR [--json]`: the models an archive (.pk3 .pk4 .dpk), a folder of them or a game folder holds
 * (the catalog) — each model's path, format, frame count (read from its header alone by its registration's
 * `headerFrames`: never the whole model), the files that play on it with their frames, each folder format (a Quake
 * 3 player folder) with its parts' frames, and the skins offered. A model whose header is bad is listed with its
 * error code, not fatal: one broken member must not hide the rest.
 */
import { ModelParseError } from '../../base/errors.js';
import { selectFormat } from '../../formats/format.js';
import { catalogModels, type CatalogEntry } from '../../registry/catalog.js';
import { type FormatEntry } from '../../registry/entry.js';
import { type FileSystem } from '../../vfs/file-system.js';
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
  const format = selectFormat(path, null, formats);
  if (!format?.headerFrames) return null;
  return format.headerFrames((await fs.file(path))!);
}

async function describe(fs: FileSystem, e: CatalogEntry, formats: readonly FormatEntry[]): Promise<Listed> {
  const out: Listed = { path: e.path, format: e.kind, skins: e.skins.map((s) => s.name), bytes: e.size };
  const format = formats.find((f) => f.id === e.kind);
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

function table(input: string, models: readonly Listed[], notes: readonly string[], folderFormats: ReadonlySet<string>): string {
  const lines = [`${input}: ${models.length} models, ${models.filter((m) => folderFormats.has(m.format)).length} players`];
  const w = Math.min(60, Math.max(4, ...models.map((m) => m.path.length)));
  lines.push(`${'path'.padEnd(w)}  ${'format'.padEnd(7)}  ${'frames / anims'.padEnd(24)}  skins`);
  for (const m of models) {
    let frames = '';
    if (m.error) frames = `error ${m.error}`;
    else if (typeof m.frames === 'number') frames = String(m.frames);
    else if (m.frames) frames = Object.entries(m.frames).map(([k, v]) => `${k} ${v}`).join(', ');
    else if (m.anims) frames = m.anims.length ? m.anims.map((a) => `${a.path.slice(a.path.lastIndexOf('/') + 1)} (${a.frames ?? a.error})`).join(', ') : 'no anims';
    lines.push(`${m.path.padEnd(w)}  ${m.format.padEnd(7)}  ${frames.padEnd(24)}  ${m.skins.join(' ') || '-'}`);
  }
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
