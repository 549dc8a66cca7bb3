/**
 * Quake's MDL as a playable model: one part drawn from the engine's GL vertices (formats/mdl/geometry.ts, the onseam
 * rule applied), its clips from pose names at Quake's 10 fps — a clip that is one frame group at the group's own
 * rate (1 / its first interval, as QuakeSpasm plays a group) — and its first skin decoded through LibreQuake's
 * palette as the part's material (fullbright texels as `glow`): MDL carries its skins, so a viewer given no game
 * folder still draws it textured. With a game folder, `resolveMdlMaterials` (formats/mdl/materials.ts) finds the palette and
 * replacement skins, and `playableMaterials` turns them into the parts' materials.
 */
import { clipGroupIntervals } from './clips.js';
import { mdlDrawVertices } from './geometry.js';
import { mdlEmbeddedMaterials } from './materials.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { MdlPoser } from './poser.js';
import { MDL_DEFAULT_FPS } from '../../pose/timing.js';
import type { MdlModel } from '../../base/model.js';
import type { PlayableMaterial } from '../../playable/materials.js';
import { morphPlayer, unweldedPlayer, type RangeClip } from '../../playable/morph-playable.js';
import type { PlayableModel, PlayablePart } from '../../playable/playable.js';

/** A clip's rate: a frame group's own when the clip is exactly one group (1 / its first interval), else Quake's 10 fps. */
function clipRate(model: MdlModel, firstPose: number, poses: number): number {
  const iv = clipGroupIntervals(model.frames, firstPose, poses);
  return iv ? 1 / iv[0] : MDL_DEFAULT_FPS;
}

/** The embedded skin record 0 (its first picture) as the part's material. */
function embeddedMaterial(model: MdlModel, name: string): PlayableMaterial[] {
  const { materials, pixels } = mdlEmbeddedMaterials(model, name);
  const m = materials[0];
  if (!m?.diffuse?.path) return [];
  const base = pixels.get(m.diffuse.path)!;
  const glow = m.emissive?.path ? pixels.get(m.emissive.path) : undefined;
  return [{
    name: m.shaderName,
    path: m.diffuse.path,
    image: { width: base.width, height: base.height, rgba: base.rgba },
    alphaMode: m.alphaTest ? 'MASK' : 'OPAQUE',
    alphaCutoff: m.alphaTest?.cutoff ?? 0.5,
    additive: false,
    invisible: false,
    doubleSided: false,
    glow: glow ? { width: glow.width, height: glow.height, rgba: glow.rgba } : null,
  }];
}

/** An MDL with its pose-name clips and its embedded first skin; `name` names its one part (the file's name). */
export function mdlPlayable(model: MdlModel, name: string): PlayableModel {
  const clips: RangeClip[] = model.clips.map((c) => ({
    name: c.name || `poses ${c.firstFrame}–${c.firstFrame + c.frameCount - 1}`,
    firstFrame: c.firstFrame,
    frameCount: c.frameCount,
    frameRate: clipRate(model, c.firstFrame, c.frameCount),
    closesOnLastFrame: false,
  }));
  const drawn = mdlDrawVertices(model);
  const indices = Uint32Array.from(drawn.indices);
  const parts: PlayablePart[] = [{ name, firstIndex: 0, indexCount: indices.length }];
  return {
    format: 'mdl',
    vertexCount: drawn.sourceVertex.length,
    indices,
    parts,
    clips,
    summary: `MDL: ${model.poseCount} poses in ${model.frameCount} frames, ${model.vertexCount} vertices, ${model.triangleCount} triangles, ${model.skins.length} skins, ${clips.length} clips`,
    uvs: drawn.uvs,
    materials: embeddedMaterial(model, name),
    textureWarnings: [],
    model,
    createPlayer: (backend: PoseBackend) => unweldedPlayer(morphPlayer(new MdlPoser(backend, model), clips), drawn.sourceVertex),
  };
}
