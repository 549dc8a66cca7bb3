/**
 * MD5's registrations: the md5mesh (skinned by `Md5Poser`'s compose and skin kernels; its md5anims play on it, one
 * clip each, named after their files), the md5anim (inspected on its own, played on its mesh) and the md5camera
 * (refused by name). The format's room is imported when a file is first read, as for MD3 (formats/md3/entry.ts).
 */
import type { Md5Anim, Md5Mesh, Md5MeshPart } from '../../base/model.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import type { NamedMd5Anim } from './gltf.js';
import type { Md5AnimHeader } from './anim.js';
import { md5AnimFormat, md5CameraFormat, md5MeshFormat } from './format.js';
import type { Md5MeshHeader } from './mesh.js';
import type { ModelSet } from '../../load/model-set.js';
import { formatEntry, type Summary } from '../entry.js';
import { md5AnimModel, md5CameraModel, md5MeshModel } from './model-entry.js';
import { md5SetAnims } from './set-anims.js';

type MeshCounts = Pick<Md5MeshPart, 'name' | 'shader' | 'vertexCount' | 'triangleCount' | 'weightTotal'>;

function meshSummary(mesh: Md5MeshHeader, parts: readonly MeshCounts[]): Summary {
  let vertices = 0, triangles = 0, weights = 0;
  for (const m of parts) {
    vertices += m.vertexCount;
    triangles += m.triangleCount;
    weights += m.weightTotal;
  }
  return {
    format: 'md5mesh',
    version: mesh.version,
    commandline: mesh.commandline,
    joints: mesh.joints.count,
    meshes: parts.length,
    vertices,
    triangles,
    weights,
    jointNames: mesh.joints.names,
    shaders: parts.map((m) => m.shader),
    perMesh: parts.map((m) => ({ name: m.name, shader: m.shader, vertices: m.vertexCount, triangles: m.triangleCount, weights: m.weightTotal })),
  };
}

function animSummary(anim: Md5AnimHeader): Summary {
  return {
    format: 'md5anim',
    version: anim.version,
    commandline: anim.commandline,
    joints: anim.jointCount,
    frames: anim.frameCount,
    frameRate: anim.frameRate,
    animatedComponents: anim.componentCount,
    durationSeconds: anim.frameCount > 1 ? (anim.frameCount - 1) / anim.frameRate : 0,
    jointNames: anim.names,
  };
}

/** The md5anims of a set, named after their files (the clips' names), with a `.md5scale`'s scales (set-anims.ts). */
const anims = (set: ModelSet<Md5Mesh>): NamedMd5Anim[] => md5SetAnims(set);

export const md5MeshEntry = /* @__PURE__ */ formatEntry(md5MeshFormat, md5MeshModel, {
  // Mesh by mesh: only each mesh's counts are kept, its arrays dropped as the next is read (a 50 MB md5mesh
  // inspects in a few MB); the material resolver needs only each mesh's name and shader, which are kept.
  async inspect(source: ByteSource, options: ReadOptions) {
    const { openMd5Meshes } = await import('./index.js');
    const model = await openMd5Meshes(source, options);
    const meshes: MeshCounts[] = [];
    for await (const m of model) meshes.push({ name: m.name, shader: m.shader, vertexCount: m.vertexCount, triangleCount: m.triangleCount, weightTotal: m.weightTotal });
    const summary = { ...meshSummary(model.header, meshes), warnings: model.header.warnings ?? [] };
    const materialsOf = { format: 'md5mesh', meshes: meshes.map(({ name, shader }) => ({ name, shader })) } as unknown as Md5Mesh;
    return { summary, materialsOf };
  },
  playable: async (set) => (await import('./playable.js')).md5Playable(set.data, anims(set)),
  // the anims with a `.md5scale`'s scales where the set read one (the Quake II re-release: set-anims.ts)
  gltfOptions: (set, options) => (set.companions.length ? { ...options, anims: anims(set) } : options),
  view: async (set, backend) => (await import('./view.js')).md5View(set, backend),
  obj: {
    frames: (set) => (set.companions[0] ? { count: (set.companions[0].data as Md5Anim).frameCount, of: set.companions[0].path } : null),
    write: async (set, o) => (await import('./obj.js')).writeObjFrame(set, o),
  },
  writer: {
    extensions: ['.md5mesh'],
    // no defaultFps: each animation keeps its own key rate (else 24, Doom 3's usual: import/gltf-md5.ts); frameRate
    // is read as a whole number
    refuses: { '--split': '--split cuts MD3 surfaces; Doom 3 has no per-mesh limit to cut an md5mesh to' },
    checkFps: (fps) => (Number.isInteger(fps) ? null : `--fps ${fps}: an md5anim's frameRate is a whole number (Doom 3 reads it with ParseInt)`),
    fromGltf: async (gltf, options) => (await import('./writer.js')).md5FromGltf(gltf, options),
    model: async (gltf, options) => (await import('./writer.js')).md5ModelFromGltf(gltf, options),
  },
});

export const md5AnimEntry = /* @__PURE__ */ formatEntry(md5AnimFormat, md5AnimModel, {
  // Frame mode, pushed: every frame is read and checked, its values and bounds checked but not kept (nor the values
  // converted: inspect reports none), so memory stays constant; no pause per frame (openMd5AnimFrames' pull costs
  // ~5% of the parse here).
  async inspect(source: ByteSource, options: ReadOptions) {
    let frames = 0;
    const { Md5AnimParser } = await import('./index.js');
    const parser = new Md5AnimParser({ keepBounds: false, keepValues: false, onFrame: (index) => void (frames = index + 1) });
    const anim = await parseStream(parser, source, options);
    if (frames !== anim.frameCount) throw new Error(`internal: streamed ${frames} of ${anim.frameCount} frames`);
    return { summary: animSummary(anim) };
  },
  async headerFrames(file) {
    const { openMd5AnimFrames } = await import('./index.js');
    const anim = await openMd5AnimFrames(file.stream());
    await anim.close();
    return anim.header.frameCount;
  },
});

export const md5CameraEntry = /* @__PURE__ */ formatEntry(md5CameraFormat, md5CameraModel);
