/**
 * A studio model as a playable model: the meshes of the submodels body 0 shows as parts (each its own material
 * slot), one clip per sequence that plays (looping sequences close on their last frame, which studiomdl makes the
 * first again; the others are clamped by the player's frames), played by `GoldsrcPoser` on the caller's backend.
 * Without sequences: the bones' default pose.
 */
import type { ModelSet } from '../../load/model-set.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { playableMaterials } from '../../playable/materials.js';
import { poserPlayer, type Clip, type ModelPlayer, type PlayableModel, type PoseControls } from '../../playable/playable.js';
import { sequenceSources, type SequenceSource } from './anim.js';
import { goldsrcParts } from './companions.js';
import { goldsrcDraw } from './geometry.js';
import { GOLDSRC_DEFAULT_FPS } from './gltf-constants.js';
import { STUDIO_LOOPING } from './limits.js';
import type { GoldsrcModel } from './model.js';
import { GoldsrcPoser } from './poser.js';
import { goldsrcMaterials, textureSource } from './textures.js';
import { drawUvs } from './uvs.js';

/** The sequences that play, as clips. */
export function goldsrcClips(set: ModelSet<GoldsrcModel>): { clips: Clip[]; sources: SequenceSource[] } {
  const parts = goldsrcParts(set.data, set.companions, set.path);
  const sources = sequenceSources(set.data, parts.groups, set.path).sources.filter((s) => s !== null);
  const clips = sources.map((s) => ({
    name: s.sequence.label,
    frameCount: s.sequence.frameCount,
    frameRate: s.sequence.fps > 0 && Number.isFinite(s.sequence.fps) ? s.sequence.fps : GOLDSRC_DEFAULT_FPS,
    closesOnLastFrame: (s.sequence.flags & STUDIO_LOOPING) !== 0,
  }));
  return { clips, sources };
}

export function goldsrcPlayable(set: ModelSet<GoldsrcModel>): PlayableModel {
  const model = set.data;
  const draw = goldsrcDraw(model);
  const shown = textureSource(model, goldsrcParts(model, set.companions, set.path).textures);
  const { clips, sources } = goldsrcClips(set);
  const parts = draw.meshes.map((m, i) => ({ name: m.name, firstIndex: m.firstIndex, indexCount: m.indexCount, slot: { surface: i } }));
  // the textures it carries (or its texture file does), decoded, so a model dropped without a game folder is textured
  const carried = playableMaterials({ ...goldsrcMaterials(model, shown, set.path), images: new Map(), warnings: [] }, parts);
  return {
    format: set.format,
    vertexCount: draw.vertexCount,
    indices: draw.indices.slice(),
    parts,
    clips: clips.length ? clips : [{ name: 'default pose', frameCount: 1, frameRate: 0, closesOnLastFrame: false }],
    summary: `Half-Life MDL: ${model.bones.length} bones, ${draw.meshes.length} meshes, ${draw.vertexCount} vertices, ${draw.indices.length / 3} triangles, ${clips.length} sequences`,
    uvs: drawUvs(draw, shown),
    materials: carried.materials,
    textureWarnings: carried.warnings,
    model: model as unknown as PlayableModel['model'],
    createPlayer(backend: PoseBackend): ModelPlayer {
      const poser = new GoldsrcPoser(backend, model, draw);
      let clip = -1;
      const player = poserPlayer(poser, {
        setClip(index: number) {
          clip = index;
        },
        poseBlend(frame1: number, frame2: number, t: number) {
          const s = sources[clip];
          if (!s) poser.bindPose();
          else poser.poseFrames(s, frame1, frame2, t);
        },
      });
      player.setClip(0);
      // the entity's bone controllers and blending (controls.ts), kept for the poses after
      return Object.assign(player, { setControls: (c: PoseControls) => void poser.setControls(c) });
    },
  };
}
