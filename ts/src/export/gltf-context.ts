/**
 * What every format exporter writes into — the document, the axis change, the material table, the warnings — and the
 * backend whose posers decode the frames (the same kernels as playback, so exports equal what the posers show).
 */
import type { ParseWarning } from '../base/errors.js';
import type { PoseBackend } from '../kernels/backend.js';
import type { Axes } from './gltf-axes.js';
import type { GltfBuilder } from './gltf-builder.js';
import type { MaterialTable } from './gltf-material.js';

export interface ExportContext {
  builder: GltfBuilder;
  axes: Axes;
  materials: MaterialTable;
  warnings: ParseWarning[];
  backend: PoseBackend;
  /** KHR_mesh_quantization for vertex-animated models (gltf-quantize.ts); false keeps float32. */
  quantize: boolean;
}
