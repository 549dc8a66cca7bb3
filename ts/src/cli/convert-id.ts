/**
 * `convert IN.glb|IN.gltf -o OUT.md3|OUT.md5mesh [--fps N] [--scale S] [--split] [--validate]`: glTF in, an id
 * format out (`import/gltf-md3.ts` then `write/md3.ts`; `import/gltf-md5.ts` then `write/md5-*.ts`, each animation
 * beside the mesh as `OUT_<animation>.md5anim`); `--split` cuts MD3 surfaces to ioquake3's limits
 * (`write/md3-split.ts`), `--validate` refuses to write past the target engine's limits (`write/engine-limits.ts`).
 * A `.gltf`'s buffers and images named by relative `uri` are read from beside it.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { importGltf } from '../import/gltf-md3.js';
import { gltfToMd5, type GltfToMd5Options } from '../import/gltf-md5.js';
import type { TextureFile } from '../import/gltf-textures.js';
import { md3EngineLimits, md5AnimEngineLimits, md5MeshEngineLimits } from '../write/engine-limits.js';
import { writeMd3 } from '../write/md3.js';
import { writeMd5Anim } from '../write/md5-anim.js';
import { writeMd5Mesh } from '../write/md5-mesh.js';
import { splitMd3Surfaces } from '../write/md3-split.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { badInput, load } from './input.js';
import { count, summaryLine, writeOutputs } from './output.js';
import { exportWarnings, groupText, parseWarnings, warningLines } from './warnings.js';

export const ID_OUTPUT = 'id output from glTF input (.md3, .md5mesh)';
/** Output extensions `convert` turns glTF into. */
export const ID_EXTENSIONS = ['.md3', '.md5mesh'];
/** Options of other groups that id output takes too. */
export const ID_SHARED_OPTIONS = new Set(['--fps']);

export const ID_OPTIONS: OptionSpec[] = [
  { name: '--scale', value: 'S', group: ID_OUTPUT, help: 'Multiply positions and tag origins by S (MD3 holds ±512 units in 1/64 steps). Default 1.' },
  {
    name: '--validate',
    group: ID_OUTPUT,
    help: "Check the target engine's limits (ioquake3 for .md3) on what would be written: name each limit past and where, and write nothing (exit 1) when there is one. Without it they are warnings and the file is written.",
  },
  {
    name: '--texture-path',
    value: 'GAMEPATH',
    group: ID_OUTPUT,
    help: "Name each material's base colour image GAMEPATH/<image>.png|.jpg in the shaders (MD5: without the extension) and write the images beside OUT, so the game finds them when OUT's folder is GAMEPATH. Without it, shaders are the materials' names.",
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

/** `--validate` found limits: each on its own line (not grouped as warnings are), then why nothing was written. */
function refuse(out: string, findings: ReturnType<typeof parseWarnings>, engine: string, hint = ''): number {
  for (const w of findings) process.stderr.write(`${w.file}: error ${groupText({ first: w, count: 1, identical: true })}\n`);
  process.stderr.write(`idtech-models: ${out}: not written: ${engine} will not load it (--validate${hint})\n`);
  return 1;
}

export async function convertId(a: ParsedArgs, out: string): Promise<number> {
  const input = a.positionals[0];
  const ext = out.slice(out.lastIndexOf('.')).toLowerCase();
  if (!/\.(glb|gltf)$/i.test(input)) throw new UsageError(`${input}: ${ext} output is made from glTF input (.glb, .gltf)`, 'convert');
  // MD3 clips play at 15 fps in our exporter; Doom 3 anims are usually 24 (and frameRate must be a whole number).
  const fps = positive(a, '--fps', ext === '.md5mesh' ? 24 : 15);
  const scale = positive(a, '--scale', 1);
  const bytes = new Uint8Array(await load(input, () => readFile(input)));
  const resources = input.toLowerCase().endsWith('.gltf') ? await gltfResources(input, bytes) : {};
  const texturePath = optionValue(a, '--texture-path');
  if (ext === '.md5mesh') return convertMd5(a, input, out, { bytes, resources }, { fps, scale, texturePath });
  const imported = await load(input, () => importGltf({ bytes, resources }, { format: 'md3', fps, scale, texturePath }));
  if (imported.surfaces.length === 0) throw badInput(input, 'no triangle mesh to convert');
  const model = given(a, '--split') ? splitMd3Surfaces(imported) : imported;
  const md3 = await load(input, async () => writeMd3(model));
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which ioquake3 limit it goes past.
  const engine = parseWarnings(out, md3EngineLimits(md3));
  if (given(a, '--validate') && engine.length > 0) return refuse(out, engine, 'ioquake3', '; --split cuts surfaces to fit');
  const files = [{ path: out, bytes: md3 }, ...besideOut(out, imported.textures)];
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, model.warnings), ...engine])) process.stderr.write(line + '\n');
  const vertices = model.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  process.stderr.write(summaryLine(files, [count(model.surfaces.length, 'surface'), count(vertices, 'vertex', 'vertices'), count(model.frameCount, 'frame'), count(model.tagCount, 'tag')], written) + '\n');
  return 0;
}

/**
 * glTF → OUT.md5mesh and, beside it, OUT_<animation>.md5anim for each animation (import/gltf-md5.ts). Doom 3's
 * refusals (write/engine-limits.ts) are warnings, or with --validate errors and nothing written.
 */
/** The images the shaders name, as files beside OUT (their game path's last part). */
const besideOut = (out: string, textures: readonly TextureFile[]) => textures.map((t) => ({ path: join(dirname(out), basename(t.path)), bytes: t.bytes }));

async function convertMd5(a: ParsedArgs, input: string, out: string, gltf: { bytes: Uint8Array; resources: Record<string, Uint8Array> }, options: GltfToMd5Options & { fps: number }): Promise<number> {
  const { fps } = options;
  if (given(a, '--split')) throw new UsageError('--split cuts MD3 surfaces; Doom 3 has no per-mesh limit to cut an md5mesh to', 'convert');
  if (!Number.isInteger(fps)) throw new UsageError(`--fps ${fps}: an md5anim's frameRate is a whole number (Doom 3 reads it with ParseInt)`, 'convert');
  const { mesh, anims, warnings, textures } = await load(input, () => gltfToMd5(gltf, options));
  if (mesh.meshes.length === 0) throw badInput(input, 'no triangle mesh to convert');
  const stem = out.slice(0, -'.md5mesh'.length);
  const files = [{ path: out, bytes: new TextEncoder().encode(writeMd5Mesh(mesh)) }, ...besideOut(out, textures)];
  const engine = parseWarnings(out, md5MeshEngineLimits(mesh));
  for (const { name, anim } of anims) {
    const path = `${stem}_${name}.md5anim`;
    files.push({ path, bytes: new TextEncoder().encode(writeMd5Anim(anim)) });
    engine.push(...parseWarnings(path, md5AnimEngineLimits(anim, mesh, path)));
  }
  if (given(a, '--validate') && engine.length > 0) return refuse(out, engine, 'Doom 3');
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, warnings), ...engine])) process.stderr.write(line + '\n');
  const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
  const frames = anims.reduce((n, x) => n + x.anim.frameCount, 0);
  process.stderr.write(summaryLine(files, [count(mesh.meshes.length, 'mesh', 'meshes'), count(vertices, 'vertex', 'vertices'), count(mesh.joints.count, 'joint'), count(anims.length, 'anim'), count(frames, 'frame')], written) + '\n');
  return 0;
}
