/**
 * Where an IQM goes past what one engine loads: an ENGINE_LIMIT warning naming the engine, the function and what it
 * does with such a file. The model still parses (another engine loads it: Tesseract / Red Eclipse ships players
 * ioquake3 would refuse). Sources: ioquake3 `code/renderergl2/tr_model_iqm.c` R_LoadIQM, DarkPlaces
 * `model_alias.c` Mod_INTERQUAKEMODEL_Load; docs/iqm.md has the table.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { IqmHeader } from './header.js';
import { H } from './layout.js';
import { IQM_LIMITS as L } from './limits.js';

export const engineLimit = (offset: number, message: string): ParseWarning => ({ code: 'ENGINE_LIMIT', message, offset });

/** The header's counts against ioquake3's refusals. */
export function iqmHeaderEngineWarnings(h: IqmHeader): ParseWarning[] {
  const out: ParseWarning[] = [];
  if (h.filesize > L.ioq3MaxFileBytes) {
    out.push(engineLimit(H.filesize, `filesize ${h.filesize} is over 16 MiB: ioquake3 refuses the model (R_LoadIQM: filesize > 16 << 20)`));
  }
  if (h.numJoints > L.ioq3MaxJoints) {
    out.push(engineLimit(H.numJoints, `num_joints ${h.numJoints} is over IQM_MAX_JOINTS ${L.ioq3MaxJoints}: ioquake3 refuses the model (R_LoadIQM)`));
  }
  if (h.numPoses !== h.numJoints && h.numPoses !== 0) {
    out.push(engineLimit(H.numPoses, `num_poses ${h.numPoses} with num_joints ${h.numJoints}: ioquake3 refuses the model (R_LoadIQM: "must have the same number or 0 poses"); Tesseract plays such an animation-only file on a mesh whose skeleton has ${h.numPoses} joints`));
  }
  return out;
}

/** One mesh's counts against ioquake3's tessellator limits. */
export function iqmMeshEngineWarnings(what: string, at: number, vertexCount: number, triangleCount: number): ParseWarning[] {
  const out: ParseWarning[] = [];
  if (vertexCount >= L.ioq3ShaderMaxVertexes) {
    out.push(engineLimit(at, `${what} num_vertexes ${vertexCount}: ioquake3 refuses the model (R_LoadIQM: num_vertexes >= SHADER_MAX_VERTEXES ${L.ioq3ShaderMaxVertexes})`));
  }
  if (triangleCount * 3 >= L.ioq3ShaderMaxIndexes) {
    out.push(engineLimit(at, `${what} num_triangles ${triangleCount}: ioquake3 refuses the model (R_LoadIQM: num_triangles * 3 >= SHADER_MAX_INDEXES ${L.ioq3ShaderMaxIndexes})`));
  }
  return out;
}
