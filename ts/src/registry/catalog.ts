/** What models a file system holds (`load/catalog.ts`), among the formats this package reads unless told others. */
import { catalogModels as catalogOf, type CatalogEntry } from '../load/catalog.js';
import type { FileSystem } from '../vfs/file-system.js';
import type { FormatEntry } from '../formats/entry.js';
import { DEFAULT_FORMATS } from './formats.js';

export type { CatalogEntry };

/** Every model `fs` holds, sorted by path (folder formats — Quake 3 player folders — by folder). */
export function catalogModels(fs: FileSystem, formats: readonly FormatEntry[] = DEFAULT_FORMATS): Promise<CatalogEntry[]> {
  return catalogOf(fs, formats);
}
