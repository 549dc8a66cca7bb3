/** What every format exporter writes into: the document, the axis change, the material table, the warnings. */
import type { ParseWarning } from '../base/errors.js';
import type { Axes } from './gltf-axes.js';
import type { GltfBuilder } from './gltf-builder.js';
import type { MaterialTable } from './gltf-material.js';

export interface ExportContext {
  builder: GltfBuilder;
  axes: Axes;
  materials: MaterialTable;
  warnings: ParseWarning[];
}
