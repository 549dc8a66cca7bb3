/** What `inspect` prints of an MDC: every header field, one row per surface (its base and compressed frames), the tags. */
import { shortName } from '../../base/message-name.js';
import { plainWarnings, type Summary } from '../entry.js';
import { MDC_TAG_ANGLE_SCALE, XYZ_SCALE } from './layout.js';
import type { MdcModel } from './model.js';

const r = (v: number) => +v.toFixed(4);

export function mdcSummary(m: MdcModel): Summary {
  let vertices = 0, triangles = 0;
  for (const s of m.surfaces) {
    vertices += s.vertexCount;
    triangles += s.triangleCount;
  }
  const o = m.offsets;
  return {
    format: 'mdc',
    version: m.version,
    name: shortName(m.name),
    flags: m.flags,
    frames: m.frameCount,
    surfaces: m.surfaces.length,
    vertices,
    triangles,
    skins: m.numSkins,
    offsets: `frames ${o.frames} tagNames ${o.tagNames} tags ${o.tags} surfaces ${o.surfaces} end ${o.end}`,
    // frame 0's place of each tag, as the engine decodes it (R_LerpTag): origin and pitch yaw roll in degrees
    tags: m.tagNames.map((n, k) => {
      const x = m.tagXyz, a = m.tagAngles;
      return `${k} ${shortName(n)} at ${r(x[k * 3] * XYZ_SCALE)} ${r(x[k * 3 + 1] * XYZ_SCALE)} ${r(x[k * 3 + 2] * XYZ_SCALE)} angles ${r(a[k * 3] * MDC_TAG_ANGLE_SCALE)} ${r(a[k * 3 + 1] * MDC_TAG_ANGLE_SCALE)} ${r(a[k * 3 + 2] * MDC_TAG_ANGLE_SCALE)}`;
    }),
    frameNames: [...new Set(m.frameNames)].slice(0, 16),
    shaders: m.surfaces.flatMap((s) => s.shaders.map((sh) => sh.name)),
    perSurface: m.surfaces.map((s) => ({
      name: s.name,
      vertices: s.vertexCount,
      triangles: s.triangleCount,
      shader: s.shaders[0]?.name ?? '',
      frames: `${s.numBaseFrames} base + ${s.numCompFrames} compressed frames`,
    })),
    warnings: plainWarnings(m.warnings),
  };
}
