/**
 * Every model of the mounted folder or archive as a .glb, in one .zip: what `convert ARCHIVE_OR_DIR --all -o OUTDIR`
 * writes, in the page. Each model is opened as the page opens it (`openSet`: its registration's set with the
 * animations the catalog found; its skin `default`, else its first), its images embedded as the single export embeds
 * them (`resolveModelTextures`), and written at its own path with `.glb` (a folder format's folder: `<folder>.glb`).
 * One at a time, so the worker holds one model's set and glb besides the zip's entries. A model that fails to open
 * or export is named with its error in the warnings, and the others are written.
 */
import { toGlb, type FileSystem, type FormatEntry, type ParseWarning } from 'idtech-models';
import { entryFor } from 'idtech-models/files';
import { resolveModelTextures } from 'idtech-models/textures';
import { zipSync } from 'fflate';
import type { Exported, ModelEntry } from '../protocol.js';
import { openSet } from './open.js';

const glbPath = (m: ModelEntry) => `${m.path.replace(/\/+$/, '').replace(/\.[^./]*$/, '')}.glb`;

export async function exportAll(fs: FileSystem, models: readonly ModelEntry[], name: string, formats: readonly FormatEntry[], signal: AbortSignal, progress: (done: number, what: string) => void): Promise<Exported> {
  if (models.length === 0) throw new Error(`${name}: no model to export`);
  const files: Record<string, Uint8Array> = {};
  const warnings: string[] = [];
  let failed = 0;
  for (const [i, model] of models.entries()) {
    signal.throwIfAborted();
    progress(i / models.length, `exporting ${model.path} (${i + 1} of ${models.length})`);
    try {
      const entry = entryFor(model.kind, formats);
      if (!entry) throw new Error(`no registered format ${model.kind}`);
      const set = await openSet(fs, model, entry, formats, signal);
      const skin = model.skins.includes('default') ? 'default' : model.skins[0];
      const textures = await resolveModelTextures(fs, set, set.path, { skin, signal, formats });
      const gltfWarnings: ParseWarning[] = [];
      files[glbPath(model)] = await toGlb(set, { name: glbPath(model).replace(/^.*\//, '').replace(/\.glb$/, ''), textures, warnings: gltfWarnings });
      for (const w of [...set.warnings.flatMap((f) => f.warnings), ...gltfWarnings]) warnings.push(`${model.path}: ${w.code}: ${w.message}`);
    } catch (e) {
      if (signal.aborted) throw e;
      failed++;
      const code = (e as { code?: string }).code;
      warnings.push(`${model.path}: not exported: ${code ? `${code}: ` : ''}${(e as Error).message}`);
    }
  }
  progress(0.95, 'packing');
  const written = Object.keys(files).length;
  // glb is deflated already where it counts (embedded PNG/JPEG); level 1 keeps the page responsive on big folders
  const zip = zipSync(files, { level: 1 });
  const base = name.replace(/\/+$/, '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || 'models';
  return { name: `${base}-glb.zip`, bytes: zip, mimeType: 'application/zip', facts: [`${written} of ${models.length} models as .glb`, ...(failed ? [`${failed} failed`] : [])], warnings };
}
