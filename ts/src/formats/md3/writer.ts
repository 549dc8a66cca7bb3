/**
 * glTF → MD3, and glTF → a Quake 3 player (lower/upper/head.md3 + animation.cfg): the registrations' `writer.fromGltf`,
 * loaded on first use (it pulls in glTF Transform).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import { besideOut, count, join, noMesh } from '../../write/files.js';
import { md3EngineLimits } from './write-limits.js';
import { gltfToMd3 } from './from-gltf.js';
import { gltfToPlayer } from './player-from-gltf.js';
import { writeMd3 } from './write.js';
import { splitMd3Surfaces } from './write-split.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';

/** One MD3 as it will be written: split if asked, and the ioquake3 limits it goes past (our parser's audit of the bytes). */
function prepareMd3(imported: Md3Model, split: boolean) {
  const model = split ? splitMd3Surfaces(imported) : imported;
  const md3 = writeMd3(model);
  return { model, md3, engine: md3EngineLimits(md3) };
}

/** glTF → the MD3 the writer writes (the registration's `writer.model`, `importGltf(input, { format: 'md3' })`): glTF Transform is this module's. */
export const md3ModelFromGltf = gltfToMd3;

export async function md3FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const imported = await gltfToMd3(gltf, { fps: o.fps, keyRate: o.keyRate, scale: o.scale, texturePath: o.texturePath });
  if (imported.surfaces.length === 0) throw noMesh();
  const { model, md3, engine } = prepareMd3(imported, o.split);
  const vertices = model.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  return {
    files: [{ path: o.out, bytes: md3 }, ...besideOut(o.out, imported.textures)],
    engine: [{ file: o.out, warnings: engine }],
    warnings: model.warnings,
    facts: [count(model.surfaces.length, 'surface'), count(vertices, 'vertex', 'vertices'), count(model.frameCount, 'frame'), count(model.tagCount, 'tag')],
    refusal: 'ioquake3 will not load it (--validate; --split cuts surfaces to fit)',
  };
}

/** OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg. */
export async function playerFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const dir = o.out;
  const player = await gltfToPlayer(gltf, { fps: o.fps, scale: o.scale });
  const parts = (['lower', 'upper', 'head'] as const).map((p) => ({ p, out: join(dir, `${p}.md3`), ...prepareMd3(player[p], o.split) }));
  const vertices = parts.reduce((n, x) => n + x.model.surfaces.reduce((m, s) => m + s.vertexCount, 0), 0);
  const clips = player.lines.filter((l) => l.from).length;
  const warnings: ParseWarning[] = player.warnings;
  return {
    files: [...parts.map((x) => ({ path: x.out, bytes: x.md3 })), { path: join(dir, 'animation.cfg'), bytes: player.animationCfg }],
    engine: parts.map((x) => ({ file: x.out, warnings: x.engine })),
    warnings,
    facts: [count(parts.reduce((n, x) => n + x.model.surfaces.length, 0), 'surface'), count(vertices, 'vertex', 'vertices'), `frames ${parts.map((x) => `${x.p} ${x.model.frameCount}`).join(', ')}`, count(clips, 'animation')],
    refusal: 'ioquake3 will not load it (--validate; --split cuts surfaces to fit)',
  };
}
