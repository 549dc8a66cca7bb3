/**
 * IQM's registration: a skeletal model skinned by the linear blend skinning kernel (`IqmPoser`: frame channels
 * decoded and composed as ioquake3's ComputePoseMats, then four joint matrices per vertex), with the animation files
 * its `iqm.cfg` names (Tesseract / Red Eclipse) and a DarkPlaces `.framegroups` beside it read as its clips. The
 * format's room is imported when a file is first read, as for MD3 (formats/md3/entry.ts).
 */
import type { IqmModel } from '../../base/model.js';
import type { GltfOptions } from '../../export/gltf.js';
import type { NamedIqmAnimation } from './gltf.js';
import { iqmClips } from './clips.js';
import { iqmFormat } from './format.js';
import { fileHead } from '../../vfs/file-system.js';
import { formatEntry, plainWarnings, type Summary } from '../entry.js';
import { iqmModel } from './model-entry.js';
import { shortName } from '../../base/message-name.js';

const ARRAY_TYPES = ['position', 'texcoord', 'normal', 'tangent', 'blendindexes', 'blendweights', 'color'];
const ARRAY_FORMATS = ['byte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'half', 'float', 'double'];

/** What `inspect` prints of a model: names quoted at most 64 characters long (a file's names may run to its text's end). */
function iqmSummary(m: IqmModel): Summary {
  return {
    format: 'iqm',
    version: m.version,
    meshes: m.meshes.length,
    vertices: m.vertexCount,
    triangles: m.triangleCount,
    joints: m.joints.count,
    poses: m.poses.count,
    frames: m.frameCount,
    anims: m.anims.map((a) => `${shortName(a.name)} ${a.firstFrame}+${a.frameCount} ${a.framerate} fps${a.loop ? ' loop' : ''}`),
    jointNames: m.joints.names.map(shortName),
    materials: m.meshes.map((x) => shortName(x.material)),
    vertexArrays: m.vertexArrays.map((a) => `${a.type >= 0x10 ? `custom ${JSON.stringify(shortName(a.name))}` : ARRAY_TYPES[a.type] ?? `type ${a.type}`} ${ARRAY_FORMATS[a.format] ?? `format ${a.format}`}×${a.size}`),
    // Red Eclipse's animation files: what they hold, and that they play on a mesh (Tesseract iqm.h loadiqmanims)
    ...(m.meshes.length === 0 && m.poses.count > 0
      ? { animationOnly: `${m.anims.length} anim(s), ${m.frameCount} frames of ${m.poses.count} poses; no meshes or joints: Tesseract plays it on a mesh whose skeleton has ${m.poses.count} joints` }
      : {}),
    ...(m.comment ? { comment: m.comment.slice(0, 200) } : {}),
    extensions: m.extensions.map((e) => shortName(e.name)),
    perMesh: m.meshes.map((x) => ({ name: shortName(x.name), shader: shortName(x.material), vertices: x.vertexCount, triangles: x.triangleCount, weights: 0 })),
    warnings: plainWarnings(m.warnings),
  };
}


export const iqmEntry = /* @__PURE__ */ formatEntry(iqmFormat, iqmModel, {
  // An IQM is bounded by its header's counts, each checked against the file before anything is allocated.
  async inspect(source, options) {
    const { parseIqmStream } = await import('./index.js');
    const model = await parseIqmStream(source, options);
    return { summary: iqmSummary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const { readIqmHeader, IQM_HEADER_BYTES } = await import('./index.js');
    const b = await fileHead(file, IQM_HEADER_BYTES);
    return readIqmHeader(b, b.length).numFrames;
  },
  playable: async (set) => (await import('./playable.js')).iqmPlayable(set),
  // one glTF animation per clip, as the playable and the view have them (an iqm.cfg's names, cuts and rates)
  gltfOptions(set, options) {
    const clips = iqmClips(set);
    if (!clips.length) return options;
    const anims: NamedIqmAnimation[] = clips.map((c) => ({ name: c.name, anim: c.file, clip: { firstFrame: c.firstFrame, frameCount: c.frameCount, fps: c.fps, loop: c.loop } }));
    return { ...options, anims: anims as unknown as GltfOptions['anims'] };
  },
  obj: {
    // frames numbered over the stored frames of the file posed: an animation file given, else the model's own
    frames: (set) => {
      const file = (set.companions[0]?.data as IqmModel | undefined) ?? set.data;
      return file.frameCount > 0 ? { count: file.frameCount, of: set.companions[0]?.path ?? set.path } : null;
    },
    write: async (set, o) => (await import('./obj-frame.js')).writeObjFrame(set, o),
  },
  writer: {
    extensions: ['.iqm'],
    fromGltf: async (gltf, options) => (await import('./writer.js')).iqmFromGltf(gltf, options),
  },
  view: async (set, backend) => (await import('./view.js')).iqmView(set, backend),
});
