/**
 * Taking the open model away, in the worker: a `.glb` (the set itself through `toGlb`: the registration that read
 * it makes its clips or anims its animations, as the CLI's export does — IQM's iqm.cfg cuts and rates; its
 * surfaces' images embedded as the CLI embeds them: `resolveModelTextures` with the skin on screen), or another id format through a registration's writer (`writer.fromGltf`: the glTF import
 * and the id writer, which load glTF Transform on first use — a lazily loaded chunk of this worker, so the page
 * fetches it only when asked). A writer making several files (an md5mesh and its md5anims) gives a .zip of them.
 */
import { toGlb, type FormatEntry, type ParseWarning } from 'idtech-models';
import { resolveModelTextures } from 'idtech-models/textures';
import { zipSync } from 'fflate';
import type { Exported } from '../protocol.js';
import type { OpenModel } from './open.js';

export async function exportModel(open: OpenModel, target: string, formats: readonly FormatEntry[], signal: AbortSignal, progress: (done: number, what: string) => void): Promise<Exported> {
  const { set, name } = open;
  progress(0.05, 'reading textures');
  const textures = await resolveModelTextures(open.fs, set, set.path, { skin: open.skin, signal, formats });
  const warnings: string[] = [];
  const gltfWarnings: ParseWarning[] = [];
  if (target === 'glb') {
    progress(0.4, 'writing the .glb');
    // the set itself: its registration (the one that read it) makes its companions its animations — IQM's iqm.cfg cuts and rates
    const bytes = await toGlb(set, { name, textures, warnings: gltfWarnings });
    return { name: `${name}.glb`, bytes, mimeType: 'model/gltf-binary', facts: [], warnings: gltfWarnings.map((w) => `${w.code}: ${w.message}`) };
  }
  const to = formats.find((f) => f.id === target);
  const writer = to?.writer;
  if (!to || !writer || writer.extensions.length === 0) throw new Error(`no writer for ${target}`);
  progress(0.25, 'exporting to glTF');
  // as `convert IN -o OUT.<id>` does: the model through glTF in memory, float32 (the writers re-quantise)
  const glb = await toGlb(set, { name, textures, quantize: false, warnings: gltfWarnings });
  progress(0.5, `loading the ${to.title} writer`);
  const out = `${name}${writer.extensions[0]}`;
  const result = await writer.fromGltf({ bytes: glb, resources: {} }, { fps: writer.defaultFps, scale: 1, split: false, out });
  progress(0.9, 'packing');
  for (const w of [...gltfWarnings, ...result.warnings]) warnings.push(`${w.code}: ${w.message}`);
  for (const e of result.engine) for (const w of e.warnings) warnings.push(`${e.file}: ${w.code}: ${w.message} (${result.refusal})`);
  const bytesOf = (b: Uint8Array | string) => (typeof b === 'string' ? new TextEncoder().encode(b) : b);
  if (result.files.length === 1) return { name: result.files[0].path.replace(/^.*\//, ''), bytes: bytesOf(result.files[0].bytes), mimeType: 'application/octet-stream', facts: result.facts, warnings };
  const zip = zipSync(Object.fromEntries(result.files.map((f) => [f.path, bytesOf(f.bytes)])));
  return { name: `${name}-${to.id}.zip`, bytes: zip, mimeType: 'application/zip', facts: result.facts, warnings };
}
