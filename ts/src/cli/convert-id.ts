/**
 * `convert IN.glb|IN.gltf -o OUT.md3|OUT.md2|OUT.md5mesh [--fps N] [--scale S] [--split] [--validate]
 * [--texture-path GAMEPATH]`: glTF in, an id format out — `import/gltf-md3.ts` then `write/md3.ts`;
 * `import/gltf-md2.ts` then `write/md2.ts` (one mesh, so no `--split`); `import/gltf-md5.ts` then `write/md5-*.ts`,
 * each animation beside the mesh as `OUT_<animation>.md5anim` (the first as `OUT.md5anim` with `--assimp-anim`,
 * the one name assimp's MD5 loader looks for). `--split` cuts MD3 surfaces to ioquake3's limits
 * (`write/md3-split.ts`), `--validate` refuses to write past the target engine's limits (`write/engine-limits.ts`).
 * A `.gltf`'s buffers and images named by relative `uri` are read from beside it.
 *
 * `convert IN.glb --player -o OUTDIR`: a Quake 3 player's parts and animation.cfg (`import/gltf-player.ts`) into
 * OUTDIR (made if missing), each part through the same --split / --validate.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Md3Model } from '../base/model.js';
import { importGltf } from '../import/gltf-md3.js';
import { gltfToPlayer } from '../import/gltf-player.js';
import { gltfToMd5, type GltfToMd5Options } from '../import/gltf-md5.js';
import type { TextureFile } from '../import/gltf-textures.js';
import { md2EngineLimits, md3EngineLimits, md5AnimEngineLimits, md5MeshEngineLimits } from '../write/engine-limits.js';
import { writeMd2 } from '../write/md2.js';
import { md2GlCommands } from '../write/md2-glcmds.js';
import { writeMd3 } from '../write/md3.js';
import { writeMd5Anim } from '../write/md5-anim.js';
import { writeMd5Mesh } from '../write/md5-mesh.js';
import { splitMd3Surfaces } from '../write/md3-split.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { badInput, load } from './input.js';
import { count, summaryLine, writeOutputs } from './output.js';
import { exportWarnings, groupText, parseWarnings, warningLines } from './warnings.js';

export const ID_OUTPUT = 'id output from glTF input (.md3, .md2, .md5mesh)';
/** Output extensions `convert` turns glTF into. */
export const ID_EXTENSIONS = ['.md3', '.md2', '.md5mesh'];
/** Options of other groups that id output takes too. */
export const ID_SHARED_OPTIONS = new Set(['--fps']);

export const ID_OPTIONS: OptionSpec[] = [
  { name: '--scale', value: 'S', group: ID_OUTPUT, help: 'Multiply positions and tag origins by S (MD3 holds ±512 units in 1/64 steps; MD2 quantises each frame to its own bounds in 255 steps). Default 1.' },
  {
    name: '--validate',
    group: ID_OUTPUT,
    help: "Check the target engine's limits (ioquake3 for .md3, Quake 2 for .md2) on what would be written: name each limit past and where, and write nothing (exit 1) when there is one. Without it they are warnings and the file is written.",
  },
  {
    name: '--player',
    group: ID_OUTPUT,
    help: "IN holds a Quake 3 player (nodes lower, upper, head, as convert writes one): write OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg, -o naming OUTDIR. Animations named as Quake 3's (LEGS_WALK, TORSO_STAND, BOTH_DEATH1…) fill their slots; others take the free slots in order. Without --fps each is sampled at its own key rate.",
  },
  {
    name: '--texture-path',
    value: 'GAMEPATH',
    group: ID_OUTPUT,
    help: "Name each material's base colour image GAMEPATH/<image>.png|.jpg in the shaders (MD5: without the extension) and write the images beside OUT, so the game finds them when OUT's folder is GAMEPATH. Without it, shaders are the materials' names.",
  },
  {
    name: '--assimp-anim',
    group: ID_OUTPUT,
    help: "With .md5mesh output: write the first animation as OUT.md5anim instead of OUT_<animation>.md5anim. assimp's MD5 loader reads only the md5anim named after its mesh (X.md5anim beside X.md5mesh) and no other; further animations keep OUT_<animation>.md5anim.",
  },
  {
    name: '--split',
    group: ID_OUTPUT,
    help: "Cut MD3 surfaces past ioquake3's tessellator limits (999 vertices, 1999 triangles) into pieces that fit, each with the surface's name and shader.",
  },
];

function positive(a: ParsedArgs, name: string, fallback: number): number {
  const text = optionValue(a, name);
  const v = text === undefined ? fallback : Number(text);
  if (!(v > 0) || !Number.isFinite(v)) throw new UsageError(`${name} must be a number > 0, not ${text}`, 'convert');
  return v;
}

/** The files a `.gltf` names by relative uri (data: and absolute URLs are left to glTF Transform). */
async function gltfResources(path: string, bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  let json: { buffers?: { uri?: string }[]; images?: { uri?: string }[] };
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return {};
  }
  const out: Record<string, Uint8Array> = {};
  for (const { uri } of [...(json.buffers ?? []), ...(json.images ?? [])]) {
    if (!uri || /^[a-z][a-z0-9+.-]*:/i.test(uri)) continue;
    out[uri] = new Uint8Array(await load(path, () => readFile(join(dirname(path), decodeURIComponent(uri)))));
  }
  return out;
}

/** The glTF input's bytes and, for a `.gltf`, the files it names. */
async function gltfInput(input: string): Promise<{ bytes: Uint8Array; resources: Record<string, Uint8Array> }> {
  const bytes = new Uint8Array(await load(input, () => readFile(input)));
  return { bytes, resources: input.toLowerCase().endsWith('.gltf') ? await gltfResources(input, bytes) : {} };
}

/** Findings of `--validate` (or warnings without it): false when they stop the write. */
function engineFindings(a: ParsedArgs, out: string, engine: ReturnType<typeof parseWarnings>, refusal: string): boolean {
  if (!given(a, '--validate') || engine.length === 0) return true;
  // every finding on its own line (not grouped as warnings are): which limit, in which file, and where
  for (const w of engine) process.stderr.write(`${w.file}: error ${groupText({ first: w, count: 1, identical: true })}\n`);
  process.stderr.write(`idtech-models: ${out}: not written: ${refusal}\n`);
  return false;
}

/** One MD3 as it will be written: split if asked, and the ioquake3 limits it goes past (our parser's audit of the bytes). */
function prepareMd3(a: ParsedArgs, out: string, imported: Md3Model) {
  const model = given(a, '--split') ? splitMd3Surfaces(imported) : imported;
  const md3 = writeMd3(model);
  return { model, md3, engine: parseWarnings(out, md3EngineLimits(md3)) };
}

/** `--player`: OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg. */
async function convertPlayer(a: ParsedArgs, dir: string): Promise<number> {
  const input = a.positionals[0];
  const fps = optionValue(a, '--fps') === undefined ? undefined : positive(a, '--fps', 15);
  const scale = positive(a, '--scale', 1);
  const gltf = await gltfInput(input);
  const player = await load(input, () => gltfToPlayer(gltf, { fps, scale }));
  const parts = await load(input, async () => (['lower', 'upper', 'head'] as const).map((p) => ({ p, out: join(dir, `${p}.md3`), ...prepareMd3(a, join(dir, `${p}.md3`), player[p]) })));
  const engine = parts.flatMap((x) => x.engine);
  if (!engineFindings(a, dir, engine, 'ioquake3 will not load it (--validate; --split cuts surfaces to fit)')) return 1;
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  const files = [...parts.map((x) => ({ path: x.out, bytes: x.md3 })), { path: join(dir, 'animation.cfg'), bytes: player.animationCfg }];
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, player.warnings), ...engine])) process.stderr.write(line + '\n');
  const frames = parts.map((x) => `${x.p} ${x.model.frameCount}`).join(', ');
  const vertices = parts.reduce((n, x) => n + x.model.surfaces.reduce((m, s) => m + s.vertexCount, 0), 0);
  const clips = player.lines.filter((l) => l.from).length;
  process.stderr.write(summaryLine(files, [count(parts.reduce((n, x) => n + x.model.surfaces.length, 0), 'surface'), count(vertices, 'vertex', 'vertices'), `frames ${frames}`, count(clips, 'animation')], written) + '\n');
  return 0;
}

export async function convertId(a: ParsedArgs, out: string): Promise<number> {
  const input = a.positionals[0];
  const ext = given(a, '--player') ? 'player' : out.slice(out.lastIndexOf('.')).toLowerCase();
  if (!/\.(glb|gltf)$/i.test(input)) throw new UsageError(`${input}: ${ext} output is made from glTF input (.glb, .gltf)`, 'convert');
  if (given(a, '--assimp-anim') && ext !== '.md5mesh') throw new UsageError('--assimp-anim names the md5anim written beside an .md5mesh', 'convert');
  if (given(a, '--player')) return convertPlayer(a, out);
  if (ext === '.md2') return convertMd2(a, input, out);
  if (ext === '.md5mesh') return convertMd5(a, input, out);
  const fps = positive(a, '--fps', 15);
  const scale = positive(a, '--scale', 1);
  const gltf = await gltfInput(input);
  const imported = await load(input, () => importGltf(gltf, { format: 'md3', fps, scale, texturePath: optionValue(a, '--texture-path') }));
  if (imported.surfaces.length === 0) throw badInput(input, 'no triangle mesh to convert');
  const { model, md3, engine } = await load(input, async () => prepareMd3(a, out, imported));
  if (!engineFindings(a, out, engine, 'ioquake3 will not load it (--validate; --split cuts surfaces to fit)')) return 1;
  const files = [{ path: out, bytes: md3 }, ...besideOut(out, imported.textures)];
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, model.warnings), ...engine])) process.stderr.write(line + '\n');
  const vertices = model.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  process.stderr.write(summaryLine(files, [count(model.surfaces.length, 'surface'), count(vertices, 'vertex', 'vertices'), count(model.frameCount, 'frame'), count(model.tagCount, 'tag')], written) + '\n');
  return 0;
}

/** glTF → MD2: one mesh, frames sampled at --fps (default 10, Quake 2's rate), Quake 2's limits with --validate. */
async function convertMd2(a: ParsedArgs, input: string, out: string): Promise<number> {
  if (given(a, '--split')) throw new UsageError('--split cuts MD3 surfaces; an MD2 has one mesh and cannot be split', 'convert');
  const fps = positive(a, '--fps', 10);
  const scale = positive(a, '--scale', 1);
  const gltf = await gltfInput(input);
  const imported = await load(input, () => importGltf(gltf, { format: 'md2', fps, scale, texturePath: optionValue(a, '--texture-path') }));
  const gl = md2GlCommands(imported);
  const model = { ...imported, glCommands: gl };
  const bytes = await load(input, async () => writeMd2(model));
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which Quake 2 limit it goes past.
  const engine = parseWarnings(out, md2EngineLimits(bytes));
  if (!engineFindings(a, out, engine, 'Quake 2 will not load it (--validate)')) return 1;
  const files = [{ path: out, bytes }, ...besideOut(out, imported.textures)];
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, model.warnings), ...engine])) process.stderr.write(line + '\n');
  process.stderr.write(summaryLine(files, [count(model.vertexCount, 'vertex', 'vertices'), count(model.triangleCount, 'triangle'), count(model.frameCount, 'frame'), count(gl.commandCount, 'glcmd strip/fan', 'glcmd strips/fans')], written) + '\n');
  return 0;
}

/** The images the shaders name, as files beside OUT (their game path's last part). */
const besideOut = (out: string, textures: readonly TextureFile[] = []) => textures.map((t) => ({ path: join(dirname(out), basename(t.path)), bytes: t.bytes }));

/**
 * glTF → OUT.md5mesh and, beside it, OUT_<animation>.md5anim for each animation (import/gltf-md5.ts). Doom 3's
 * refusals (write/engine-limits.ts) are warnings, or with --validate errors and nothing written.
 */
async function convertMd5(a: ParsedArgs, input: string, out: string): Promise<number> {
  if (given(a, '--split')) throw new UsageError('--split cuts MD3 surfaces; Doom 3 has no per-mesh limit to cut an md5mesh to', 'convert');
  // frameRate is read as a whole number; without --fps each animation keeps its own key rate (else 24: gltf-md5.ts)
  const fps = optionValue(a, '--fps') === undefined ? undefined : positive(a, '--fps', 24);
  if (fps !== undefined && !Number.isInteger(fps)) throw new UsageError(`--fps ${fps}: an md5anim's frameRate is a whole number (Doom 3 reads it with ParseInt)`, 'convert');
  const options: GltfToMd5Options = { fps, scale: positive(a, '--scale', 1), texturePath: optionValue(a, '--texture-path') };
  const gltf = await gltfInput(input);
  const { mesh, anims, warnings, textures } = await load(input, () => gltfToMd5(gltf, options));
  if (mesh.meshes.length === 0) throw badInput(input, 'no triangle mesh to convert');
  const stem = out.slice(0, -'.md5mesh'.length);
  const files = [{ path: out, bytes: new TextEncoder().encode(writeMd5Mesh(mesh)) }, ...besideOut(out, textures)];
  const engine = parseWarnings(out, md5MeshEngineLimits(mesh));
  const assimpName = given(a, '--assimp-anim');
  for (const [i, { name, anim }] of anims.entries()) {
    // assimp loads only <mesh>.md5anim (MD5Loader::LoadMD5AnimFile); Doom 3 names anims in a .def, any name works
    const path = assimpName && i === 0 ? `${stem}.md5anim` : `${stem}_${name}.md5anim`;
    files.push({ path, bytes: new TextEncoder().encode(writeMd5Anim(anim)) });
    engine.push(...parseWarnings(path, md5AnimEngineLimits(anim, mesh, path)));
  }
  if (!engineFindings(a, out, engine, 'Doom 3 will not load it (--validate)')) return 1;
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, warnings), ...engine])) process.stderr.write(line + '\n');
  const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
  const frames = anims.reduce((n, x) => n + x.anim.frameCount, 0);
  process.stderr.write(summaryLine(files, [count(mesh.meshes.length, 'mesh', 'meshes'), count(vertices, 'vertex', 'vertices'), count(mesh.joints.count, 'joint'), count(anims.length, 'anim'), count(frames, 'frame')], written) + '\n');
  return 0;
}
