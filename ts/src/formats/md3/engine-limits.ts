/**
 * Where an MD3 goes past a limit of ioquake3 that we do not enforce: one ENGINE_LIMIT warning per field, naming the
 * limit, where the engine has it and what it does with such a file. The model still parses. Source of every
 * condition: ioquake3 `code/qcommon/qfiles.h` and R_LoadMD3 in `code/renderergl1/tr_model.c` (renderergl2 checks
 * the same); docs/limits.md has the table.
 */
import type { ParseWarning } from '../../base/errors.js';
import { H, S } from './layout.js';
import type { Md3Header } from './header.js';
import { MD3_LIMITS as L } from './limits.js';

const warning = (offset: number, message: string): ParseWarning => ({ code: 'ENGINE_LIMIT', message, offset });

/** qfiles.h limits on the header's counts, none of which R_LoadMD3 checks. */
export function md3HeaderEngineWarnings(h: Md3Header): ParseWarning[] {
  const out: ParseWarning[] = [];
  const unchecked = (field: number, name: string, value: number, limit: number, constant: string) => {
    if (value > limit) out.push(warning(field, `${name} ${value} is over ${constant} ${limit} (qcommon/qfiles.h); ioquake3's R_LoadMD3 does not check it`));
  };
  unchecked(H.numFrames, 'numFrames', h.numFrames, L.maxFrames, 'MD3_MAX_FRAMES');
  unchecked(H.numTags, 'numTags', h.numTags, L.maxTags, 'MD3_MAX_TAGS');
  unchecked(H.numSurfaces, 'numSurfaces', h.numSurfaces, L.maxSurfaces, 'MD3_MAX_SURFACES');
  return out;
}

/** One surface's counts: MD3_MAX_SHADERS (unchecked), and the tessellator limits R_LoadMD3 refuses a surface past. */
export function md3SurfaceEngineWarnings(what: string, start: number, numShaders: number, numVerts: number, numTriangles: number): ParseWarning[] {
  const out: ParseWarning[] = [];
  if (numShaders > L.maxShadersPerSurface) {
    out.push(warning(start + S.numShaders, `${what} numShaders ${numShaders} is over MD3_MAX_SHADERS ${L.maxShadersPerSurface} (qcommon/qfiles.h); ioquake3's R_LoadMD3 does not check it`));
  }
  if (numVerts >= L.shaderMaxVertexes) {
    out.push(warning(start + S.numVerts, `${what} numVerts ${numVerts}: ioquake3 refuses the model (R_LoadMD3: numVerts >= SHADER_MAX_VERTEXES ${L.shaderMaxVertexes})`));
  }
  if (numTriangles * 3 >= L.shaderMaxIndexes) {
    out.push(warning(start + S.numTriangles, `${what} numTriangles ${numTriangles}: ioquake3 refuses the model (R_LoadMD3: numTriangles * 3 >= SHADER_MAX_INDEXES ${L.shaderMaxIndexes})`));
  }
  return out;
}
