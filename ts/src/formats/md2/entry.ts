/**
 * MD2's registration: frames kept quantised and blended by the MD2 kernels (`Md2Poser`), clips from frame names. The
 * format's room is imported when a file is first read, as for MD3 (formats/md3/entry.ts).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import type { Md2Model } from '../../base/model.js';
import { md2Format } from './format.js';
import { fileHead } from '../../vfs/file-system.js';
import { formatEntry, plainWarnings, type Summary } from '../entry.js';
import { md2Model } from './model-entry.js';


/** What `inspect` prints for an MD2. */
export function md2Summary(m: Md2Model): Summary {
  return {
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
    warnings: plainWarnings(m.warnings),
  };
}

const fileName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

export const md2Entry = /* @__PURE__ */ formatEntry(md2Format, md2Model, {
  // An MD2 is bounded by its limits (a few MB at most): parsed whole, still streamed.
  async inspect(source, options) {
    const { parseMd2Stream } = await import('./index.js');
    const model = await parseMd2Stream(source, options);
    return { summary: md2Summary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const { readMd2Header, MD2_HEADER_BYTES } = await import('./index.js');
    const b = await fileHead(file, MD2_HEADER_BYTES);
    if (b.length < MD2_HEADER_BYTES) throw new ModelParseError(ErrorCode.Truncated, `input ended inside the ${MD2_HEADER_BYTES}-byte header`, { offset: b.length });
    return readMd2Header(new DataView(b.buffer, b.byteOffset, b.length)).frameCount;
  },
  playable: async (set) => (await import('./playable.js')).md2Playable(set.data, fileName(set.path)),
  view: async (set, backend) => (await import('./view.js')).md2View(set.data, backend),
  obj: {
    frames: (set) => ({ count: set.data.frameCount, of: set.path }),
    write: async (set, o) => (await import('./obj.js')).writeObjFrame(set, o),
  },
  writer: {
    extensions: ['.md2'],
    // Quake 2's server rate
    defaultFps: 10,
    refuses: { '--split': '--split cuts MD3 surfaces; an MD2 has one mesh and cannot be split' },
    fromGltf: async (gltf, options) => (await import('./writer.js')).md2FromGltf(gltf, options),
    model: async (gltf, options) => (await import('./writer.js')).md2ModelFromGltf(gltf, options),
  },
});
