/**
 * `inspect ARCHIVE_OR_DIR [--json]`: the models an archive (.pk3 .pk4 .dpk), a folder of them or a game folder holds
 * (load/catalog.ts) — each model's path, format, frame count (read from its header alone: the first 108 bytes of
 * the member, never the whole model), an .md5mesh's md5anims with their frames, each Quake 3 player folder with
 * its parts' frames and animation.cfg, and the skins offered (`listSkins`). A model whose header is bad is listed
 * with its error code, not fatal: one broken member must not hide the rest.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { readMd2Header } from '../formats/md2/header.js';
import { MD2_HEADER_BYTES } from '../formats/md2/limits.js';
import { readMd3Header } from '../formats/md3/header.js';
import { openMd5AnimFrames } from '../formats/md5/frame-stream.js';
import { catalogModels, type CatalogEntry } from '../load/catalog.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';
import { openContainer } from './archive-input.js';

const MD3_HEADER_BYTES = 108;

/** The first `n` bytes of a file (fewer when it is shorter); the rest of the member is never inflated. */
async function head(f: VfsFile, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let have = 0;
  for await (const chunk of f.stream()) {
    const take = Math.min(chunk.length, n - have);
    out.set(chunk.subarray(0, take), have);
    have += take;
    if (have === n) break;
  }
  return out.subarray(0, have);
}

/** Frames of one model file, from its header. */
async function framesOf(fs: FileSystem, path: string): Promise<number> {
  const f = (await fs.file(path))!;
  if (/\.md5anim$/i.test(path)) {
    const anim = await openMd5AnimFrames(f.stream());
    await anim.close();
    return anim.header.frameCount;
  }
  if (/\.md2$/i.test(path)) {
    const b = await head(f, MD2_HEADER_BYTES);
    if (b.length < MD2_HEADER_BYTES) throw new ModelParseError(ErrorCode.Truncated, `input ended inside the ${MD2_HEADER_BYTES}-byte header`, { offset: b.length });
    return readMd2Header(new DataView(b.buffer, b.byteOffset, b.length)).frameCount;
  }
  const b = await head(f, MD3_HEADER_BYTES);
  return readMd3Header(b, b.length).numFrames;
}

interface Listed {
  path: string;
  format: string;
  /** md2/md3: frames; player: per part. */
  frames?: number | Record<string, number>;
  anims?: { path: string; frames: number | null; error?: string }[];
  files?: string[];
  skins: string[];
  bytes: number;
  error?: string;
}

const codeOf = (e: unknown) => (e instanceof ModelParseError ? `${e.code}: ${e.detail}` : String(e));

async function describe(fs: FileSystem, e: CatalogEntry): Promise<Listed> {
  const out: Listed = { path: e.path, format: e.kind, skins: e.skins.map((s) => s.name), bytes: e.size };
  try {
    if (e.kind === 'player') {
      out.files = e.files;
      const frames: Record<string, number> = {};
      for (const f of e.files.filter((p) => /\.md3$/i.test(p))) frames[f.slice(f.lastIndexOf('/') + 1, -4).toLowerCase()] = await framesOf(fs, f);
      out.frames = frames;
    } else if (e.kind === 'md5mesh') {
      out.anims = [];
      for (const path of e.anims) {
        try {
          out.anims.push({ path, frames: await framesOf(fs, path) });
        } catch (err) {
          out.anims.push({ path, frames: null, error: codeOf(err) });
        }
      }
    } else out.frames = await framesOf(fs, e.path);
  } catch (err) {
    out.error = codeOf(err);
  }
  return out;
}

function table(input: string, models: readonly Listed[], notes: readonly string[]): string {
  const lines = [`${input}: ${models.length} models, ${models.filter((m) => m.format === 'player').length} players`];
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

export async function inspectContainer(input: string, json: boolean): Promise<void> {
  const fs = await openContainer(input);
  try {
    const models: Listed[] = [];
    for (const e of await catalogModels(fs)) models.push(await describe(fs, e));
    const notes = (fs.warnings ?? []).map((w) => `${w.code}: ${w.message}`);
    if (json) process.stdout.write(JSON.stringify({ input, models, players: models.filter((m) => m.format === 'player').map((m) => m.path), warnings: notes }) + '\n');
    else process.stdout.write(table(input, models, notes));
  } finally {
    await fs.close();
  }
}
