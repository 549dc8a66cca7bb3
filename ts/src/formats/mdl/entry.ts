/**
 * Quake's MDL registered: frames kept quantised and blended by MD2's kernels (`MdlPoser`: the model's one scale and
 * origin given to each pose, frame groups at their intervals), clips from frame names, skins decoded from the game's
 * palette (`gfx/palette.lmp` when the game folder has one) with the renderers' replacement skins taking precedence
 * (formats/mdl/materials.ts), a morph view for three.js, glTF/OBJ export and a writer from glTF. docs/mdl.md. The format's
 * room is imported when a file is first read, as for MD3 (formats/md3/entry.ts).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { MdlModel } from '../../base/model.js';
import { mdlFormat } from './format.js';
import { mdlEffects } from './limits.js';
import { fileHead } from '../../vfs/file-system.js';
import { formatEntry, plainWarnings, type Summary } from '../entry.js';
import { mdlModel } from './model-entry.js';

const SYNC_TYPES = ['sync', 'rand'];

/** What `inspect` prints for an MDL. */
export function mdlSummary(m: MdlModel): Summary {
  return {
    format: 'mdl',
    variant: m.variant,
    version: m.version,
    skinSize: `${m.skinWidth}×${m.skinHeight}`,
    skins: m.skins.map((s, i) => (s.type === 0 ? `skin ${i}` : `skin ${i}: group of ${s.pictureCount}`)),
    vertices: m.vertexCount,
    texcoords: m.stCount,
    onseam: m.onseam.reduce((n, x) => n + (x ? 1 : 0), 0),
    triangles: m.triangleCount,
    frames: m.frameCount,
    poses: m.poseCount,
    frameGroups: m.frames.filter((f) => f.type !== 0).map((f) => `${m.poseNames[f.firstPose]} (${f.poseCount} poses)`),
    synctype: SYNC_TYPES[m.synctype] ?? String(m.synctype),
    flags: mdlEffects(m.flags),
    clips: m.clips.map((c) => `${c.name} ${c.firstFrame}+${c.frameCount}`),
    ...(m.trailing ? { trailing: `${m.trailing.bytes} bytes at ${m.trailing.offset}${m.trailing.tag ? ` (${m.trailing.tag})` : ''}` } : {}),
    warnings: plainWarnings(m.warnings),
  };
}

const fileName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

export const mdlEntry = /* @__PURE__ */ formatEntry(mdlFormat, mdlModel, {
  // An MDL is bounded by its counts (a few MB at most): parsed whole, still streamed.
  async inspect(source, options) {
    const { parseMdlStream } = await import('./index.js');
    const model = await parseMdlStream(source, options);
    return { summary: mdlSummary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const { checkMdlIdentity, readMdlHeader, MDL_HEADER_BYTES, RAPO_HEADER_BYTES } = await import('./index.js');
    const b = await fileHead(file, RAPO_HEADER_BYTES);
    // The ident before the length, as the parser checks them: a short file that is no MDL (a Half-Life sequence group,
    // `IDSQ`, 76 bytes) is BAD_MAGIC, not a truncated MDL; and a RAPO header is longer than Quake's.
    const headerBytes = checkMdlIdentity(new DataView(b.buffer, b.byteOffset, b.length), b.length) || MDL_HEADER_BYTES;
    if (b.length < headerBytes) throw new ModelParseError(ErrorCode.Truncated, `input ended inside the ${headerBytes}-byte header`, { offset: b.length });
    // numframes counts frame records (a group is one); its poses are known only from the frames themselves.
    return readMdlHeader(new DataView(b.buffer, b.byteOffset, b.length)).frameCount;
  },
  playable: async (set) => (await import('./playable.js')).mdlPlayable(set.data, fileName(set.path)),
  view: async (set, backend) => (await import('./view.js')).mdlView(set.data, backend),
  obj: {
    // Numbered over the stored poses (a frame group's poses one by one), as `--frame N` says in the CLI.
    frames: (set) => ({ count: set.data.poseCount, of: set.path }),
    write: async (set, o) => (await import('./obj-frame.js')).writeObjFrame(set, o),
  },
  writer: {
    extensions: ['.mdl'],
    // Quake's frame rate: a monster's think is 0.1 s a frame
    defaultFps: 10,
    refuses: { '--split': '--split cuts MD3 surfaces; an MDL has one mesh and cannot be split' },
    fromGltf: async (gltf, options) => (await import('./writer.js')).mdlFromGltf(gltf, options),
  },
});
