/**
 * `convert IN.glb|IN.gltf -o OUT.md3 [--fps N] [--scale S] [--split] [--validate]`: glTF in, an id format out
 * (`import/gltf-md3.ts`, then `write/md3.ts`); `--split` cuts surfaces to ioquake3's limits (`write/md3-split.ts`),
 * `--validate` refuses to write past them (`write/engine-limits.ts`). A `.gltf`'s buffers and images named by relative `uri` are read from beside it. MD2 and MD5
 * outputs are not done yet (docs/writers.md).
 *
 * `convert IN.glb --player -o OUTDIR`: a Quake 3 player's parts and animation.cfg (`import/gltf-player.ts`) into
 * OUTDIR (made if missing), each part through the same --split / --validate.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { importGltf } from '../import/gltf-md3.js';
import { gltfToPlayer } from '../import/gltf-player.js';
import type { Md3Model } from '../base/model.js';
import { md3EngineLimits } from '../write/engine-limits.js';
import { writeMd3 } from '../write/md3.js';
import { splitMd3Surfaces } from '../write/md3-split.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { badInput, load } from './input.js';
import { count, summaryLine, writeOutputs } from './output.js';
import { exportWarnings, groupText, parseWarnings, warningLines } from './warnings.js';

export const ID_OUTPUT = 'id output from glTF input (.md3)';
/** Output extensions `convert` turns glTF into. */
export const ID_EXTENSIONS = ['.md3'];
/** Options of other groups that id output takes too. */
export const ID_SHARED_OPTIONS = new Set(['--fps']);

export const ID_OPTIONS: OptionSpec[] = [
  {
    name: '--player',
    group: ID_OUTPUT,
    help: "IN holds a Quake 3 player (nodes lower, upper, head, as convert writes one): write OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg, -o naming OUTDIR. Animations named as Quake 3's (LEGS_WALK, TORSO_STAND, BOTH_DEATH1…) fill their slots; others take the free slots in order. Without --fps each is sampled at its own key rate.",
  },
  { name: '--scale', value: 'S', group: ID_OUTPUT, help: 'Multiply positions and tag origins by S (MD3 holds ±512 units in 1/64 steps). Default 1.' },
  {
    name: '--validate',
    group: ID_OUTPUT,
    help: "Check the target engine's limits (ioquake3 for .md3) on what would be written: name each limit past and where, and write nothing (exit 1) when there is one. Without it they are warnings and the file is written.",
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

/** One MD3 as it will be written: split if asked, its engine findings; null and exit 1 under --validate with findings. */
function prepareMd3(a: ParsedArgs, out: string, imported: Md3Model) {
  const model = given(a, '--split') ? splitMd3Surfaces(imported) : imported;
  const md3 = writeMd3(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which ioquake3 limit it goes past.
  const engine = parseWarnings(out, md3EngineLimits(md3));
  return { model, md3, engine };
}

function refuse(out: string, engine: ReturnType<typeof parseWarnings>): void {
  // every finding on its own line (not grouped as warnings are): which limit, and where
  for (const w of engine) process.stderr.write(`${out}: error ${groupText({ first: w, count: 1, identical: true })}\n`);
  process.stderr.write(`idtech-models: ${out}: not written: ioquake3 will not load it (--validate; --split cuts surfaces to fit)\n`);
}

async function readGltfInput(input: string): Promise<{ bytes: Uint8Array; resources: Record<string, Uint8Array> }> {
  if (!/\.(glb|gltf)$/i.test(input)) throw new UsageError(`${input}: .md3 output is made from glTF input (.glb, .gltf)`, 'convert');
  const bytes = new Uint8Array(await load(input, () => readFile(input)));
  const resources = input.toLowerCase().endsWith('.gltf') ? await gltfResources(input, bytes) : {};
  return { bytes, resources };
}

/** `--player`: OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg. */
async function convertPlayer(a: ParsedArgs, dir: string): Promise<number> {
  const input = a.positionals[0];
  const fpsText = optionValue(a, '--fps');
  const fps = fpsText === undefined ? undefined : positive(a, '--fps', 15);
  const scale = positive(a, '--scale', 1);
  const gltf = await readGltfInput(input);
  const player = await load(input, () => gltfToPlayer(gltf, { fps, scale }));
  const parts = await load(input, async () => (['lower', 'upper', 'head'] as const).map((p) => ({ p, out: join(dir, `${p}.md3`), ...prepareMd3(a, join(dir, `${p}.md3`), player[p]) })));
  const engine = parts.flatMap((x) => x.engine);
  if (given(a, '--validate') && engine.length > 0) {
    for (const x of parts) if (x.engine.length) refuse(x.out, x.engine);
    return 1;
  }
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
  if (given(a, '--player')) return convertPlayer(a, out);
  const input = a.positionals[0];
  const fps = positive(a, '--fps', 15);
  const scale = positive(a, '--scale', 1);
  const { bytes, resources } = await readGltfInput(input);
  const imported = await load(input, () => importGltf({ bytes, resources }, { format: 'md3', fps, scale }));
  if (imported.surfaces.length === 0) throw badInput(input, 'no triangle mesh to convert');
  const { model, md3, engine } = await load(input, async () => prepareMd3(a, out, imported));
  if (given(a, '--validate') && engine.length > 0) {
    refuse(out, engine);
    return 1;
  }
  const files = [{ path: out, bytes: md3 }];
  const written = await writeOutputs(files);
  for (const line of warningLines([...exportWarnings(input, model.warnings), ...engine])) process.stderr.write(line + '\n');
  const vertices = model.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  process.stderr.write(summaryLine(files, [count(model.surfaces.length, 'surface'), count(vertices, 'vertex', 'vertices'), count(model.frameCount, 'frame'), count(model.tagCount, 'tag')], written) + '\n');
  return 0;
}
