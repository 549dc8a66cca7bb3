/**
 * Archives built from ../shared/models into a temporary folder (never into the repository): every MANIFEST file
 * under its MANIFEST path, deflated, stored, and deflated with zip64 records forced; plus the same files zipped by
 * Info-ZIP's `zip` (another writer: `-9`, and `-fz` for zip64). Built once per test process, without holding the
 * event loop (the deflating is zlib's thread pool's, `zip` a child process awaited: helpers/loop-turn.ts).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execChild } from './child.js';
import { manifest, read, SHARED_MODELS, type ManifestRow } from './models.js';
import { makeZip, packedEntries } from './zip-writer.js';

export interface CorpusArchives {
  dir: string;
  /** The MANIFEST rows archived (every file that exists). */
  rows: ManifestRow[];
  /** name → absolute path. */
  archives: Record<'deflate' | 'stored' | 'zip64' | 'infozip' | 'infozip64', string>;
}

let built: Promise<CorpusArchives> | undefined;

export function corpusArchives(): Promise<CorpusArchives> {
  built ??= build();
  return built;
}

async function build(): Promise<CorpusArchives> {
  if (!existsSync(join(SHARED_MODELS, 'MANIFEST.tsv'))) throw new Error(`real models not found at ${SHARED_MODELS}`);
  const dir = mkdtempSync(join(tmpdir(), 'idtech-archives-'));
  const rows = manifest().filter((r) => existsSync(r.absPath));
  const entries = await packedEntries(rows.map((r) => ({ name: r.path, data: read(r.absPath) })));
  const archives = {
    deflate: join(dir, 'deflate.pk3'),
    stored: join(dir, 'stored.pk3'),
    zip64: join(dir, 'zip64.pk4'),
    infozip: join(dir, 'infozip.pk3'),
    infozip64: join(dir, 'infozip64.dpk'),
  };
  writeFileSync(archives.deflate, makeZip(entries));
  writeFileSync(archives.stored, makeZip(entries.map(({ raw: _, ...e }) => ({ ...e, method: 0 }))));
  writeFileSync(archives.zip64, makeZip(entries, { zip64: true }));
  // Info-ZIP reads the list of names from stdin (-@), relative to the models folder.
  const names = rows.map((r) => r.path).join('\n');
  await execChild('zip', ['-q', '-X', '-9', archives.infozip, '-@'], { cwd: SHARED_MODELS, input: names });
  await execChild('zip', ['-q', '-X', '-fz', archives.infozip64, '-@'], { cwd: SHARED_MODELS, input: names });
  return { dir, rows, archives };
}
