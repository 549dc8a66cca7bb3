/**
 * glTF → id formats, as the registrations' `writer.fromGltf` capabilities: the import (`import/`), the writer
 * (`write/`), and the target engine's refusals of what would be written (`write/engine-limits.ts`, read back by our
 * parsers). Loaded on first use only: it pulls in glTF Transform. Paths are made with '/' or the output's own
 * separator, so this runs in browsers too.
 */
import type { ParseWarning } from '../base/errors.js';
import type { Md3Model } from '../base/model.js';
import type { GltfInput } from '../import/gltf.js';
import { importGltf } from '../formats/md3/from-gltf.js';
import { gltfToMd5 } from '../import/gltf-md5.js';
import { gltfToIqm } from '../formats/iqm/from-gltf.js';
import { gltfToMdl } from '../formats/mdl/from-gltf.js';
import { gltfToPlayer } from '../formats/md3/player-from-gltf.js';
import type { TextureFile } from '../import/gltf-textures.js';
import { md2EngineLimits, md3EngineLimits, md5AnimEngineLimits, md5MeshEngineLimits } from '../write/engine-limits.js';
import { parseIqm } from '../formats/iqm/parser.js';
import { writeIqm } from '../formats/iqm/write.js';
import { writeMd2 } from '../formats/md2/write.js';
import { mdlEngineLimits, writeMdl } from '../formats/mdl/write.js';
import { md2GlCommands } from '../formats/md2/write-glcmds.js';
import { writeMd3 } from '../formats/md3/write.js';
import { splitMd3Surfaces } from '../formats/md3/write-split.js';
import { writeMd5Anim } from '../formats/md5/write-anim.js';
import { writeMd5Mesh } from '../formats/md5/write-mesh.js';
import type { WriterOptions, WriterResult, WrittenFile } from '../formats/entry.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sepOf = (p: string) => (p.includes('\\') && !p.includes('/') ? '\\' : '/');
/** `dir` + `name` with the output's separator. */
const join = (dir: string, name: string) => (dir ? `${dir.replace(/[\\/]+$/, '')}${sepOf(dir)}${name}` : name);
const folderOf = (p: string) => p.slice(0, Math.max(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'))));
const baseOf = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** The images the shaders name, as files beside OUT (their game path's last part). */
const besideOut = (out: string, textures: readonly TextureFile[] = []): WrittenFile[] => textures.map((t) => ({ path: join(folderOf(out), baseOf(t.path)), bytes: t.bytes }));

/** No triangles: nothing an id format could show. */
const noMesh = () => new Error('no triangle mesh to convert');

/** One MD3 as it will be written: split if asked, and the ioquake3 limits it goes past (our parser's audit of the bytes). */
function prepareMd3(imported: Md3Model, split: boolean) {
  const model = split ? splitMd3Surfaces(imported) : imported;
  const md3 = writeMd3(model);
  return { model, md3, engine: md3EngineLimits(md3) };
}

export async function md3FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const imported = await importGltf(gltf, { format: 'md3', fps: o.fps ?? 15, scale: o.scale, texturePath: o.texturePath });
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

export async function md2FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const imported = await importGltf(gltf, { format: 'md2', fps: o.fps ?? 10, scale: o.scale, texturePath: o.texturePath });
  const gl = md2GlCommands(imported);
  const model = { ...imported, glCommands: gl };
  const bytes = writeMd2(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which Quake 2 limit it goes past.
  return {
    files: [{ path: o.out, bytes }, ...besideOut(o.out, imported.textures)],
    engine: [{ file: o.out, warnings: md2EngineLimits(bytes) }],
    warnings: model.warnings,
    facts: [count(model.vertexCount, 'vertex', 'vertices'), count(model.triangleCount, 'triangle'), count(model.frameCount, 'frame'), count(gl.commandCount, 'glcmd strip/fan', 'glcmd strips/fans')],
    refusal: 'Quake 2 will not load it (--validate)',
  };
}

/**
 * OUT.md5mesh and, beside it, OUT_<animation>.md5anim for each animation — the first as OUT.md5anim with
 * `assimpNames`: assimp's MD5 loader reads only the md5anim named after its mesh (MD5Loader::LoadMD5AnimFile);
 * Doom 3 names anims in a .def, so any name works there.
 */
export async function md5FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { mesh, anims, warnings, textures } = await gltfToMd5(gltf, { fps: o.fps, scale: o.scale, texturePath: o.texturePath });
  if (mesh.meshes.length === 0) throw noMesh();
  const stem = o.out.slice(0, -'.md5mesh'.length);
  const files: WrittenFile[] = [{ path: o.out, bytes: new TextEncoder().encode(writeMd5Mesh(mesh)) }, ...besideOut(o.out, textures)];
  const engine: WriterResult['engine'] = [{ file: o.out, warnings: md5MeshEngineLimits(mesh) }];
  for (const [i, { name, anim }] of anims.entries()) {
    const path = o.assimpNames && i === 0 ? `${stem}.md5anim` : `${stem}_${name}.md5anim`;
    files.push({ path, bytes: new TextEncoder().encode(writeMd5Anim(anim)) });
    engine.push({ file: path, warnings: md5AnimEngineLimits(anim, mesh, path) });
  }
  const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
  const frames = anims.reduce((n, x) => n + x.anim.frameCount, 0);
  return {
    files,
    engine,
    warnings,
    facts: [count(mesh.meshes.length, 'mesh', 'meshes'), count(vertices, 'vertex', 'vertices'), count(mesh.joints.count, 'joint'), count(anims.length, 'anim'), count(frames, 'frame')],
    refusal: 'Doom 3 will not load it (--validate)',
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

/** OUT.iqm: skinned and animated (glTF → the MD5 import → IQM, weights quantised as the IQM SDK's exporter does). */
export async function iqmFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { model, warnings } = await gltfToIqm(gltf, { ...(o.fps ? { fps: o.fps } : {}), scale: o.scale, texturePath: o.texturePath });
  if (model.meshes.length === 0) throw noMesh();
  const bytes = writeIqm(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which engine's limit it goes past.
  const engine = parseIqm(bytes).warnings.filter((w) => w.code === 'ENGINE_LIMIT');
  return {
    files: [{ path: o.out, bytes }],
    engine: [{ file: o.out, warnings: engine }],
    warnings,
    facts: [count(model.meshes.length, 'mesh', 'meshes'), count(model.vertexCount, 'vertex', 'vertices'), count(model.joints.count, 'joint'), count(model.anims.length, 'anim'), count(model.frameCount, 'frame')],
    refusal: 'an engine will not load it (--validate)',
  };
}

/** One MDL: its skin quantised to Quake's palette and carried in the file (an MDL names no image files). */
export async function mdlFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const model = await gltfToMdl(gltf, { fps: o.fps ?? 10, scale: o.scale });
  if (model.triangleCount === 0) throw noMesh();
  const bytes = writeMdl(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings name the engines that refuse it.
  return {
    files: [{ path: o.out, bytes }],
    engine: [{ file: o.out, warnings: mdlEngineLimits(bytes) }],
    warnings: model.warnings,
    facts: [count(model.vertexCount, 'vertex', 'vertices'), count(model.triangleCount, 'triangle'), count(model.poseCount, 'frame'), `skin ${model.skinWidth}×${model.skinHeight}`],
    refusal: 'a Quake engine will not load it (--validate)',
  };
}
