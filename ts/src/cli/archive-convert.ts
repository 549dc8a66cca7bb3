/**
 * `convert ARCHIVE:INNER -o OUT.glb|OUT.gltf`: a model file or a Quake 3 player folder inside a .pk3/.pk4/.dpk,
 * read straight from the archive (members streamed, never extracted) and exported exactly as the same file on disk
 * would be — same options, same bytes out. `--anim` names md5anims inside the same archive. The model is read
 * from a FileSystem (the opened archive), and its textures are resolved in that same FileSystem (the archive is the
 * game folder: its paths start at the game root) with `resolveModelTextures`; `--skin` and `--no-textures` apply.
 */
import { gltfFiles, type GltfOptions } from '../export/gltf.js';
import { UsageError, given, optionValue, type ParsedArgs } from './args.js';
import { resolveModelTextures } from '../load/textures.js';
import { materialWarnings, textureReport, wantsTextures } from './textures.js';
import type { ArchivePath } from './archive-input.js';
import { openContainer } from './archive-input.js';
import { ACTS_ON, options } from './convert-gltf.js';
import { loadFsModel, requestFor } from './fs-model.js';
import { gltfCounts, gltfJson } from './gltf-counts.js';
import { load } from './input.js';
import { baseName } from './md5-inputs.js';
import { count, summaryLine, writeOutputs } from './output.js';
import { exportWarnings, warningLines, type FileWarning } from './warnings.js';

export async function convertArchiveMember(a: ParsedArgs, where: ArchivePath, out: string): Promise<void> {
  const label = `${where.archive}:${where.inner}`;
  const fs = await openContainer(where.archive);
  try {
    const req = await requestFor(fs, where.inner, label);
    const anims = a.options.get('--anim') ?? [];
    if (req.kind !== 'md5mesh' && anims.length) throw new UsageError(`--anim is for .md5mesh files; ${req.kind === 'player' ? "a player's clips come from its animation.cfg" : `${req.kind} frames are in the file`}`, 'convert');
    for (const [option, acts] of Object.entries(ACTS_ON)) {
      if (given(a, option) && !acts.inputs.includes(req.kind)) throw new UsageError(`${option} acts on ${acts.says}`, 'convert');
    }
    const exportWarningList: NonNullable<GltfOptions['warnings']> = [];
    const opts = options(a, baseName(req.path), exportWarningList);
    const m = await loadFsModel(fs, { ...req, anims }, 'fail');
    opts.anims = m.anims;
    const report: string[] = [];
    const textureWarnings: FileWarning[] = [];
    if (wantsTextures(a, 'convert')) {
      if (given(a, '--game-dir')) throw new UsageError('--game-dir: a model inside an archive resolves its textures in that archive', 'convert');
      const t = await load(label, () => resolveModelTextures(fs, m.model, req.path, { skin: optionValue(a, '--skin') }));
      opts.textures = t;
      report.push(`textures from ${where.archive}:`, ...textureReport({ ...t, place: { gameDir: where.archive, path: req.path, archive: where.archive, how: 'found' } }).slice(1));
      textureWarnings.push(...materialWarnings(m.origin, t));
    }
    const files = await load(label, async () => gltfFiles(m.model, out, opts));
    const bytes = await writeOutputs(files);
    for (const line of [...report, ...warningLines([...m.warnings, ...textureWarnings, ...exportWarnings(m.origin, exportWarningList)])]) process.stderr.write(line + '\n');
    const c = gltfCounts(gltfJson(files[0].bytes));
    process.stderr.write(summaryLine(files, [count(c.meshes, 'mesh', 'meshes'), count(c.vertices, 'vertex', 'vertices'), count(c.animations, 'clip')], bytes) + '\n');
  } finally {
    await fs.close();
  }
}
