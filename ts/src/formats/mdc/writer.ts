/**
 * glTF → MDC (the registration's `writer.fromGltf`, loaded on first use: it pulls in glTF Transform): the glTF
 * sampled into an MD3 as `convert … -o x.md3` does (formats/md3/writer.ts), then written as MDC by the engine's
 * encoder rules (`write.ts`). An id model converted to `.mdc` goes the same way (exported to glTF in memory first,
 * every frame kept). The engine's limits it goes past are read back off the written bytes by our own parser.
 */
import { parseMd3 } from '../md3/parser.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';
import { parseMdc } from './parser.js';
import { writeMdc } from './write.js';

export async function mdcFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { md3FromGltf } = await import('../md3/writer.js');
  const md3 = await md3FromGltf(gltf, o);
  const [main, ...beside] = md3.files;
  const mdc = writeMdc(parseMd3(main.bytes as Uint8Array));
  const written = parseMdc(mdc);
  const bases = written.surfaces[0]?.numBaseFrames ?? written.frameCount;
  return {
    files: [{ path: main.path, bytes: mdc }, ...beside],
    engine: [{ file: main.path, warnings: written.warnings.filter((w) => w.code === 'ENGINE_LIMIT') }],
    warnings: md3.warnings,
    facts: [...md3.facts, `${bases} base + ${written.frameCount - bases} compressed frames`],
    refusal: 'Enemy Territory 2.60 will not load it (--validate; --split cuts surfaces to fit)',
  };
}
