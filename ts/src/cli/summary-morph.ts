/** `inspect` summaries of the vertex-animated formats (MD2, MD3): counts, clips, skins/shaders, tags, warnings. */
import type { ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model } from '../base/model.js';

/** Every warning as plain data (`inspect` groups them for the table; `--json` keeps them all). */
const plain = (warnings: readonly ParseWarning[]) => warnings.map((w) => ({ code: w.code, message: w.message, offset: w.offset }));

export function md2Summary(path: string, m: Md2Model) {
  return {
    file: path,
    format: 'md2',
    version: m.version,
    skinSize: `${m.skinWidth}×${m.skinHeight}`,
    skins: m.skins.map((s) => s.name),
    vertices: m.vertexCount,
    texcoords: m.stCount,
    triangles: m.triangleCount,
    frames: m.frameCount,
    glCommands: m.glCommands ? m.glCommands.commandCount : 'none',
    clips: m.clips.map((c) => `${c.name} ${c.firstFrame}+${c.frameCount}`),
    warnings: plain(m.warnings),
  };
}

export function md3Summary(path: string, m: Md3Model) {
  let vertices = 0, triangles = 0;
  for (const s of m.surfaces) {
    vertices += s.vertexCount;
    triangles += s.triangleCount;
  }
  return {
    file: path,
    format: 'md3',
    version: m.version,
    name: m.name,
    frames: m.frameCount,
    surfaces: m.surfaces.length,
    vertices,
    triangles,
    tags: m.tagNames,
    frameNames: [...new Set(m.frameNames)].slice(0, 16),
    shaders: m.surfaces.flatMap((s) => s.shaders.map((sh) => sh.name)),
    perSurface: m.surfaces.map((s) => ({ name: s.name, vertices: s.vertexCount, triangles: s.triangleCount, shader: s.shaders[0]?.name ?? '' })),
    warnings: plain(m.warnings),
  };
}
