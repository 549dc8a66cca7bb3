/**
 * idtech-models/md5 — Doom 3's MD5 (id Tech 4): what an app that reads MD5 needs. Parse (one buffer, any stream, or
 * element by element), pose on a backend (`createBackend` from `idtech-models`), and the format's registrations to
 * hand to the neutral door (`openModelSet(fs, path, { formats: [md5MeshEntry, md5AnimEntry] })`; `toGlb(mesh,
 * { format: md5MeshModel, anims })`: the `…Model` objects are the part of a registration that exports, lighter).
 *
 *   const mesh = await parseMd5MeshStream(bytesOrStream);
 *   const poser = new Md5Poser(await createBackend('auto'), mesh).setAnim(parseMd5Anim(animBytes));
 *   poser.poseTime(0.5); // poser.positions, poser.normals
 */
export { parseMd5Anim, parseMd5Mesh, type Md5AnimHeader, type Md5MeshHeader } from './index.js';
export { parseMd5AnimStream, parseMd5MeshStream } from './stream.js';
export { openMd5Meshes, type Md5MeshReader } from './mesh-stream.js';
export type { Md5AnimFrame, Md5AnimFrameReader } from './frame-stream.js';
export { openMd5AnimFrames, type PosedFrameStreamOptions } from './composed-frames.js';
export { Md5Poser, type Md5PoserOptions } from '../../pose/md5-poser.js';
export { toObj as md5ToObj, type ObjOptions as Md5ObjOptions } from '../../export/obj.js';
export { md5AnimEntry, md5CameraEntry, md5MeshEntry } from './entry.js';
export { md5AnimModel, md5CameraModel, md5MeshModel } from './model-entry.js';
export type { Md5Anim, Md5Joints, Md5Mesh, Md5MeshPart } from '../../base/model.js';
