/**
 * IQM as a playable model: the file's meshes as parts (its triangles as stored, which name the file's vertices), and
 * as clips the file's own anims, then each animation file's anims (Red Eclipse's animation-only IQMs, paired as
 * Tesseract pairs them), or — given a DarkPlaces `.framegroups` file — its groups over the model's frames instead of
 * the model's anims, as DarkPlaces replaces them. A clip plays its frames at its rate and wraps from the last frame
 * to the first. Without any: the bind pose.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { IqmModel } from '../base/model.js';
import { parseStream } from '../base/source.js';
import { iqmAcceptsCompanion } from '../formats/iqm/pairing.js';
import { boundFrameGroups, parseFrameGroups } from '../formats/iqm/framegroups.js';
import { IqmParser } from '../formats/iqm/parser.js';
import type { PoseBackend } from '../kernels/backend.js';
import { IQM_DEFAULT_FPS } from '../formats/iqm/pairing.js';
import { IqmPoser } from '../pose/iqm-poser.js';
import { poserPlayer, type Clip, type ModelFile, type ModelPlayer, type PlayableModel } from './playable.js';

/**
 * What `openIqm` returns: a `PlayableModel` whose format is `iqm` and whose model is the IQM. (FileKind and
 * PlayableModel's model union do not name IQM yet: the registry that registers this opener widens them.)
 */
export type IqmPlayable = Omit<PlayableModel, 'format' | 'model'> & { format: 'iqm'; readonly model: IqmModel };

/** A clip and where its frames are: which file, from which stored frame. */
interface IqmClipSource {
  clip: Clip;
  file: IqmModel;
  firstFrame: number;
}

/** A small text file's characters (a `.framegroups` is ASCII), read chunk by chunk. */
async function readText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder('latin1');
  let text = '';
  for await (const c of chunks) text += decoder.decode(c, { stream: true });
  return text + decoder.decode();
}

/** Opens an IQM (the first file) with its animation files and/or a `.framegroups` file (`FormatOpener`'s shape). */
export async function openIqm([meshFile, ...others]: ModelFile[], stream: (file: ModelFile) => AsyncIterable<Uint8Array>): Promise<IqmPlayable> {
  const model = await parseStream(new IqmParser(), stream(meshFile));
  const sources: IqmClipSource[] = [];
  const own = (file: IqmModel, prefix: string) => {
    for (const a of file.anims) {
      const first = Math.min(a.firstFrame, Math.max(0, file.frameCount - 1));
      const count = Math.max(1, Math.min(a.frameCount, file.frameCount - first));
      sources.push({ clip: { name: prefix ? `${prefix}${file.anims.length > 1 ? `/${a.name}` : ''}` : a.name, frameCount: count, frameRate: a.framerate > 0 ? a.framerate : IQM_DEFAULT_FPS, closesOnLastFrame: false }, file, firstFrame: first });
    }
  };
  const groupsFile = others.find((f) => f.name.toLowerCase().endsWith('.framegroups'));
  if (groupsFile && model.frameCount > 0) {
    const { groups } = parseFrameGroups(await readText(stream(groupsFile)));
    for (const g of boundFrameGroups(groups, model.frameCount)) {
      sources.push({ clip: { name: g.name === `groupified_${sources.length}_anim` && g.comment ? g.comment : g.name, frameCount: g.frameCount, frameRate: g.fps, closesOnLastFrame: false }, file: model, firstFrame: g.firstFrame });
    }
  } else if (model.frameCount > 0 && model.poses.count === model.joints.count) own(model, '');
  for (const f of others) {
    if (f === groupsFile) continue;
    const anim = await parseStream(new IqmParser(), stream(f));
    const why = iqmAcceptsCompanion(model, anim, 'iqm', []);
    if (why) throw new ModelParseError(ErrorCode.AnimMeshMismatch, `${f.name}: ${why}`, { offset: 0 });
    own(anim, f.name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, ''));
  }
  const clips = sources.length ? sources.map((s) => s.clip) : [{ name: 'bind pose', frameCount: 1, frameRate: 0, closesOnLastFrame: false }];
  const V = model.positions ? model.positions.length / 3 : 0;
  return {
    format: 'iqm',
    vertexCount: V,
    indices: Uint32Array.from(model.triangles),
    parts: model.meshes.map((m, i) => ({ name: m.name || m.material || `mesh ${i}`, firstIndex: m.firstTriangle * 3, indexCount: m.triangleCount * 3 })),
    clips,
    summary: `IQM: ${model.joints.count} joints, ${model.meshes.length} meshes, ${V} vertices, ${model.triangleCount} triangles, ${sources.length} clips`,
    uvs: model.texcoords ? model.texcoords.slice() : new Float32Array(V * 2),
    materials: [],
    textureWarnings: [],
    model,
    createPlayer(backend: PoseBackend): ModelPlayer {
      const poser = new IqmPoser(backend, model);
      let clip = -1;
      const player = poserPlayer(poser, {
        setClip(index: number) {
          if (index === clip) return;
          const s = sources[index];
          if (s && s.file !== poser.animation) poser.setAnimation(s.file);
          clip = index;
        },
        poseBlend(frame1: number, frame2: number, t: number) {
          const s = sources[clip];
          if (!s || !poser.animation) {
            poser.bindPose();
            return;
          }
          const last = s.clip.frameCount - 1;
          poser.poseBlend(s.firstFrame + Math.min(frame1, last), s.firstFrame + Math.min(frame2, last), t);
        },
      });
      player.setClip(0);
      return player;
    },
  };
}
