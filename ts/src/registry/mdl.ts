/**
 * Quake's MDL registered: frames kept quantised and blended by MD2's kernels (`MdlPoser`: the model's one scale and
 * origin given to each pose, frame groups at their intervals), clips from frame names, skins decoded from the game's
 * palette (`gfx/palette.lmp` when the game folder has one) with the renderers' replacement skins taking precedence
 * (materials/mdl.ts), a morph view for three.js, glTF/OBJ export and a writer from glTF. docs/mdl.md.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { MdlModel } from '../base/model.js';
import { addMdl } from '../export/gltf-mdl.js';
import { mdlToObj } from '../export/obj-mdl.js';
import { mdlFormat } from '../formats/mdl/format.js';
import { readMdlHeader } from '../formats/mdl/header.js';
import { MDL_FLAG_NAMES, MDL_HEADER_BYTES, RAPO_HEADER_BYTES } from '../formats/mdl/limits.js';
import { parseMdlStream } from '../formats/mdl/stream.js';
import { mdlSkinNames, resolveMdlMaterials } from '../materials/mdl.js';
import type { MaterialResolver, MaterialSet } from '../materials/resolver.js';
import { mdlPlayable } from '../playable/mdl-playable.js';
import { MdlPoser } from '../pose/mdl-poser.js';
import { fileHead } from '../vfs/file-system.js';
import type { FormatEntry, Summary } from './entry.js';
import { plainWarnings } from './md2.js';

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
    flags: MDL_FLAG_NAMES.filter(([bit]) => (m.flags & bit) !== 0).map(([, name]) => name),
    clips: m.clips.map((c) => `${c.name} ${c.firstFrame}+${c.frameCount}`),
    ...(m.trailing ? { trailing: `${m.trailing.bytes} bytes at ${m.trailing.offset}${m.trailing.tag ? ` (${m.trailing.tag})` : ''}` } : {}),
    warnings: plainWarnings(m.warnings),
  };
}

const fileName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

/**
 * The skin a drawing shows: record `skinN` of the file (the names the view's `extras.skins` offers; `--skin skin1`),
 * record 0 when none is asked for — as the engine draws `self.skin`, 0 unless QuakeC sets it. Its material comes
 * at index 0, the view's one group; the glTF exporter's `mdlSkin` picks among the carried skins when no textures are
 * handed in.
 */
async function shownSkin(fs: MaterialResolver['fs'], model: MdlModel, path: string, skin: string | undefined): Promise<MaterialSet> {
  const set = await resolveMdlMaterials(fs, model, path);
  const names = mdlSkinNames(model);
  let record = skin === undefined ? 0 : names.indexOf(skin);
  if (record < 0) {
    set.warnings.push({ code: 'SKIN_NOT_FOUND', message: `skin ${skin}: the model carries ${names.length ? names.join(', ') : 'no skin'}; showing ${names[0] ?? 'none'}`, path });
    record = 0;
  }
  const shown = set.materials.filter((m) => m.index === record).map((m) => ({ ...m, index: 0 }));
  const used = new Set(shown.flatMap((m) => [m.diffuse?.path, m.emissive?.path]));
  const pixels = new Map([...set.pixels].filter(([key]) => used.has(key)));
  return { materials: shown, warnings: set.warnings, pixels };
}

export const mdlEntry: FormatEntry<MdlModel> = {
  ...mdlFormat,
  owns: (data): data is MdlModel => (data as MdlModel | null)?.format === 'mdl',
  // An MDL is bounded by its counts (a few MB at most): parsed whole, still streamed.
  async inspect(source, options) {
    const model = await parseMdlStream(source, options);
    return { summary: mdlSummary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const b = await fileHead(file, RAPO_HEADER_BYTES);
    if (b.length < MDL_HEADER_BYTES) throw new ModelParseError(ErrorCode.Truncated, `input ended inside the ${MDL_HEADER_BYTES}-byte header`, { offset: b.length });
    // numframes counts frame records (a group is one); its poses are known only from the frames themselves.
    return readMdlHeader(new DataView(b.buffer, b.byteOffset, b.length)).frameCount;
  },
  materials: (resolver, model, path, options) => shownSkin(resolver.fs, model, path, options.skin),
  playable: async (set) => mdlPlayable(set.data, fileName(set.path)),
  view: async (set, backend) => (await import('./views.js')).mdlView(set.data, backend),
  gltf: {
    uses: ['clips', 'fps', 'step', 'frameNodes', 'quantize'],
    add: (ctx, model, name, options) => addMdl(ctx, model, name, options).rootNodes,
  },
  obj: {
    // Numbered over the stored poses (a frame group's poses one by one), as `--frame N` says in the CLI.
    frames: (set) => ({ count: set.data.poseCount, of: set.path }),
    async write(set, o) {
      const frame = o.frame ?? 0;
      const poser = new MdlPoser(o.backend, set.data).poseFrame(frame);
      try {
        const text = mdlToObj(set.data, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${set.path} pose ${frame}`), materials: o.materials });
        return { text, facts: ['1 mesh', `${set.data.vertexCount} ${set.data.vertexCount === 1 ? 'vertex' : 'vertices'}`, `pose ${frame}`] };
      } finally {
        poser.dispose();
      }
    },
  },
  writer: {
    extensions: ['.mdl'],
    // Quake's frame rate: a monster's think is 0.1 s a frame
    defaultFps: 10,
    refuses: { '--split': '--split cuts MD3 surfaces; an MDL has one mesh and cannot be split' },
    fromGltf: async (gltf, options) => (await import('./writers.js')).mdlFromGltf(gltf, options),
  },
};
