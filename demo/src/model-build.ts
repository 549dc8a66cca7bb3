/**
 * The worker's answer (`Opened`: a registration's view as data, the resolved materials, the images' bytes) made into
 * three.js objects by the adapter itself: `IdTechLoader` with one format of the page's own (`setFormats`), whose
 * "parse" hands over what the worker read, whose `view` is the worker's view (`view-data.ts`) and whose `materials`
 * are the worker's — so the loader's builders by kind, materials and textures do what they do for any registered
 * format, and nothing is parsed or posed on this thread. The images are the loader's file system (in memory): TGA,
 * PCX, BMP and DDS are decoded by the image floor as the adapter decodes them, PNG and JPEG by the browser.
 */
import type { FormatEntry } from 'idtech-models';
import { memoryFileSystem } from 'idtech-models/files';
import { IdTechLoader, type IdTechModel } from 'idtech-models/three';
import type { Opened } from './protocol.js';
import { viewFromData } from './view-data.js';

/** Extension of the page's one format: the name the worker's model is handed to the loader under. */
const HANDED = '.opened';

export function buildModel(o: Opened): Promise<IdTechModel> {
  const warnings = o.warnings.flatMap((w) => w.warnings);
  const handed: FormatEntry<Opened> = {
    id: o.format,
    title: o.title,
    extensions: [HANDED],
    role: 'model',
    animation: 'static',
    parseStream: async () => o,
    warnings: () => warnings,
    owns: (d): d is Opened => d === o,
    materials: async () => o.materials,
    view: async () => viewFromData(o.view),
  };
  const images = memoryFileSystem(o.images.map((i) => ({ path: i.path, bytes: i.bytes })));
  // The 'ts' backend: the view poses nothing here, and no WASM module need be compiled on this thread.
  return new IdTechLoader().setFormats([handed]).setFileSystem(images).setBackend('ts').parseAsync([{ name: `${o.name}${HANDED}`, source: new Uint8Array(0) }], { path: o.path });
}
