/**
 * glTF in, by target format: `importGltf` builds the data model of MD3, MD2 or MD5 for its writer, through the target's
 * registration (`writer.model`: each format's import sits in its room, MD5's — shared with IQM — in `import/`); the
 * overloads' shapes are `import/gltf-targets.ts`'s.
 */
import type { FormatEntry } from '../formats/entry.js';
import type { GltfInput } from '../import/gltf.js';
import type { GltfMd5, GltfToMd5Options } from '../import/gltf-md5.js';
import type { GltfToMd2Options, GltfToMd3Options, ImportedMd2, ImportedMd3 } from '../import/gltf-targets.js';
import { DEFAULT_FORMATS } from './formats.js';

/** Target formats `importGltf` builds: 'md3' → Md3Model, 'md2' → Md2Model, 'md5' → md5mesh + md5anims (gltf-md5.ts). */
export type GltfImportFormat = 'md3' | 'md2' | 'md5';

/** The registration whose writer builds `format`'s data model: by id, else by name (`md5`: the md5mesh's). */
const importing = (format: string, formats: readonly FormatEntry[]) =>
  formats.find((f) => f.writer?.model && f.id === format) ?? formats.find((f) => f.writer?.model && f.name?.toLowerCase() === format);

/** glTF/GLB → the data model of `format`, ready for its writer (`writeMd3`; `writeMd2`; `writeMd5Mesh` + `writeMd5Anim`). */
export function importGltf(input: GltfInput, options: GltfToMd3Options & { format: 'md3' }): Promise<ImportedMd3>;
export function importGltf(input: GltfInput, options: GltfToMd2Options & { format: 'md2' }): Promise<ImportedMd2>;
export function importGltf(input: GltfInput, options: GltfToMd5Options & { format: 'md5' }): Promise<GltfMd5>;
export function importGltf(input: GltfInput, options: (GltfToMd3Options | GltfToMd2Options | GltfToMd5Options) & { format: GltfImportFormat }): Promise<ImportedMd3 | ImportedMd2 | GltfMd5> {
  const entry = (['md3', 'md2', 'md5'] as const).includes(options.format) ? importing(options.format, DEFAULT_FORMATS) : undefined;
  if (!entry?.writer?.model) throw new RangeError(`importGltf: format ${JSON.stringify(options.format)} is not supported (md3, md2, md5)`);
  return entry.writer.model(input, options) as Promise<ImportedMd3 | ImportedMd2 | GltfMd5>;
}
