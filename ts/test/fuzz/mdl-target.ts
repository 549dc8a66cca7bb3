/**
 * Quake's MDL under fuzz: seeded by LibreQuake's 82 models and made-up files for what they lack (skin and frame
 * groups, onseam vertices, MD16, RAPO: ts/test/mdl/_build.ts); the structure scan walks the records as the format
 * lays them out (no offsets in MDL: the skin, st, triangle and frame blocks follow one another), so truncation and
 * count inflation hit the type words and group counts; an accepted model is re-checked independently, then drawn
 * (onseam vertices), posed, exported to glTF and written back.
 */
import { toGlbNow } from '../helpers/glb-now.js';
import type { MdlModel } from '../../src/base/model.js';
import { mdlDrawVertices, parseMdl } from '../../src/formats/mdl/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { MdlPoser } from '../../src/formats/mdl/poser.js';
import { writeMdl } from '../../src/formats/mdl/write.js';
import { buildMdl, richSpec } from '../mdl/_build.js';
import { i32, type Field, type Structure } from './structure.js';


const lengthIs = (name: string, a: { length: number }, n: number) => (a.length === n ? '' : `${name}.length ${a.length}, want ${n}`);

/** An accepted MDL, re-checked from its counts: every array's length, every index, frames covering the poses. */
export function checkMdl(model: unknown): string {
  const m = model as MdlModel;
  const V = m.vertexCount, P = m.poseCount, T = m.triangleCount;
  const first =
    lengthIs('skins', m.skins, m.skins.length) ||
    lengthIs('skinPixels', m.skinPixels, m.pictureCount * m.skinWidth * m.skinHeight) ||
    lengthIs('onseam', m.onseam, m.stCount) ||
    lengthIs('st', m.st, 2 * m.stCount) ||
    lengthIs('facesFront', m.facesFront, T) ||
    lengthIs('triangleVertexIndices', m.triangleVertexIndices, 3 * T) ||
    lengthIs('triangleStIndices', m.triangleStIndices, 3 * T) ||
    lengthIs('frames', m.frames, m.frameCount) ||
    lengthIs('poseNames', m.poseNames, P) ||
    lengthIs('frameVertices', m.frameVertices, 4 * V * P) ||
    lengthIs('poseBoundsMin', m.poseBoundsMin, 4 * P);
  if (first) return first;
  if (V < 1 || m.frameCount < 1) return `${V} vertices, ${m.frameCount} frames accepted`;
  for (let i = 0; i < 3 * T; i++) {
    if (m.triangleVertexIndices[i] >= V) return `corner ${i} vertex ${m.triangleVertexIndices[i]} ≥ ${V}`;
    if (m.triangleStIndices[i] >= m.stCount) return `corner ${i} st ${m.triangleStIndices[i]} ≥ ${m.stCount}`;
  }
  for (let i = 3; i < m.frameVertices.length; i += 4) if (m.frameVertices[i] >= 162) return `vertex record ${i >> 2} normal index ${m.frameVertices[i]}`;
  let pose = 0, picture = 0;
  for (const [k, f] of m.frames.entries()) {
    if (f.firstPose !== pose || f.poseCount < 1) return `frame ${k} poses ${f.firstPose}+${f.poseCount}, expected from ${pose}`;
    pose += f.poseCount;
  }
  for (const [k, s] of m.skins.entries()) {
    if (s.firstPicture !== picture) return `skin ${k} first picture ${s.firstPicture}, expected ${picture}`;
    picture += s.pictureCount;
  }
  if (pose !== P || picture !== m.pictureCount) return `frames hold ${pose} poses of ${P}, skins ${picture} pictures of ${m.pictureCount}`;
  return '';
}

const backend = createTsBackend();

/** Draw, pose (the last pose), export and write back an accepted model; anything but a typed error is a bug. */
export function useMdl(model: unknown): void {
  const m = model as MdlModel;
  mdlDrawVertices(m);
  const poser = new MdlPoser(backend, m);
  poser.poseFrame(m.poseCount - 1);
  if (m.frames.length > 0) poser.poseFrameTime(m.frames.length - 1, 0.35);
  poser.dispose();
  // The glTF export decodes every pose and skin: only for models of reasonable size (the budget is better spent on inputs).
  if (m.vertexCount * m.poseCount < 1 << 14 && m.skinPixels.length < 1 << 18) toGlbNow(m);
  const again = parseMdl(writeMdl(m));
  if (again.poseCount !== m.poseCount || again.vertexCount !== m.vertexCount) throw new Error('writeMdl did not read back the same counts');
}

/** Where the records start (header fields, skin and frame type words, group counts, the st and triangle blocks). */
export function mdlStructure(b: Uint8Array): Structure {
  const f = (at: number): Field => ({ at, len: 4 });
  const counts: Field[] = [48, 52, 56, 60, 64, 68].map(f);
  const rapo = i32(b, 0) === 0x4f504152;
  if (rapo) counts.push(f(84));
  const boundaries = [0, 4, 8, 48, 72, rapo ? 88 : 84];
  const [skins, w, h, verts, tris, frames] = [48, 52, 56, 60, 64, 68].map((at) => i32(b, at));
  const picture = Math.max(0, w) * Math.max(0, h);
  const pose = 24 + 4 * Math.max(0, verts) * (i32(b, 0) === 0x3631444d ? 2 : 1);
  // A skin or frame block: type 0 is one record of `unit` bytes, else a group of n intervals and n records.
  const blocks = (at: number, count: number, unit: number, groupHead: number, typeBoundary: boolean): number => {
    for (let k = 0; k < count && at + 4 <= b.length; k++) {
      boundaries.push(at);
      if (typeBoundary) boundaries.push(at + 4);
      const n = i32(b, at) === 0 ? -1 : Math.max(0, i32(b, at + 4));
      if (n < 0) at += 4 + unit;
      else {
        counts.push(f(at + 4));
        at += groupHead + 4 * n + n * unit;
      }
    }
    return at;
  };
  let at = blocks(rapo ? 88 : 84, Math.min(skins, 256), picture, 8, false);
  boundaries.push(at);
  at += 12 * Math.max(0, rapo ? i32(b, 84) : verts);
  boundaries.push(at);
  at += 16 * Math.max(0, tris);
  at = blocks(at, Math.min(frames, 4096), pose, 16, true);
  boundaries.push(at);
  const size = b.length;
  return {
    boundaries: Int32Array.from([...new Set(boundaries.filter((x) => x >= 0 && x <= size))].sort((x, y) => x - y)),
    counts: counts.filter((c) => c.at + 4 <= size),
    offsets: [],
    numbers: new Int32Array(0),
    lines: new Int32Array(0),
  };
}

/** Made-up files for what LibreQuake lacks. */
export function mdlExtraSeeds(): { name: string; bytes: Uint8Array }[] {
  const rapo = richSpec({ ident: 'RAPO' });
  rapo.st = [...rapo.st, { onseam: 0, s: 7, t: 3 }];
  rapo.tris = rapo.tris.map((t, i) => ({ ...t, st: i === 3 ? [6, 4, 5] : t.v }));
  return [
    { name: 'made-up:groups-onseam.mdl', bytes: buildMdl(richSpec()) },
    { name: 'made-up:md16.mdl', bytes: buildMdl(richSpec({ ident: 'MD16' })) },
    { name: 'made-up:rapo.mdl', bytes: buildMdl(rapo) },
    { name: 'made-up:qmex.mdl', bytes: buildMdl(richSpec({ trailing: Uint8Array.from([81, 77, 69, 88, 4, 0, 0, 0]) })) },
  ];
}
