/**
 * A small MDC written from scratch (the layout of formats/mdc/layout.ts, in the order ET's tools write it: frames, tag
 * names, tags, then each surface's triangles, shaders, st, base frames, compressed frames and the two frame tables),
 * for the hostile-input tests to mutate. Nothing of the corpus is copied.
 */
export interface MdcBuild {
  frames: number;
  tags?: string[];
  /** One surface of `verts` vertices (two triangles when there are 3 or more), `baseFrames` stored whole. */
  verts: number;
  baseFrames: number[];
  /** The frame tables: per frame, its base frame and its compressed frame (-1: stored whole). */
  frameBase?: number[];
  frameComp?: number[];
  compFrames?: number;
}

export const HEADER = 112, SURFACE = 124;

export function buildMdc(b: MdcBuild): { bytes: Uint8Array; surface: number; fields: Record<string, number> } {
  const F = b.frames, T = b.tags?.length ?? 0, V = b.verts, NB = b.baseFrames.length, NC = b.compFrames ?? 0;
  const tris = V >= 3 ? [0, 1, 2] : [];
  const ofsFrames = HEADER, ofsTagNames = ofsFrames + 56 * F, ofsTags = ofsTagNames + 64 * T, ofsSurfaces = ofsTags + 12 * T * F;
  const rel = { tri: SURFACE, sh: 0, st: 0, xyz: 0, comp: 0, fb: 0, fc: 0, end: 0 };
  rel.sh = rel.tri + 12 * (tris.length / 3);
  rel.st = rel.sh + 68;
  rel.xyz = rel.st + 8 * V;
  rel.comp = rel.xyz + 8 * V * NB;
  rel.fb = rel.comp + 4 * V * NC;
  rel.fc = rel.fb + 2 * F;
  rel.end = rel.fc + 2 * F;
  const size = ofsSurfaces + rel.end;
  const bytes = new Uint8Array(size);
  const v = new DataView(bytes.buffer);
  bytes.set([0x49, 0x44, 0x50, 0x43]);
  v.setInt32(4, 2, true);
  bytes.set(new TextEncoder().encode('built.md3'), 8);
  [F, T, 1, 0, ofsFrames, ofsTagNames, ofsTags, ofsSurfaces, size].forEach((x, i) => v.setInt32(76 + 4 * i, x, true));
  b.tags?.forEach((n, k) => bytes.set(new TextEncoder().encode(n), ofsTagNames + 64 * k));
  for (let i = 0; i < T * F; i++) v.setInt16(ofsTags + 12 * i, 64 * (i + 1), true); // origin x = i + 1
  const s = ofsSurfaces;
  v.setInt32(s, 7, true);
  bytes.set(new TextEncoder().encode('surf'), s + 4);
  [0, NC, NB, 1, V, tris.length / 3, rel.tri, rel.sh, rel.st, rel.xyz, rel.comp, rel.fb, rel.fc, rel.end].forEach((x, i) => v.setInt32(s + 68 + 4 * i, x, true));
  tris.forEach((x, i) => v.setInt32(s + rel.tri + 4 * i, x, true));
  bytes.set(new TextEncoder().encode('textures/x'), s + rel.sh);
  for (let k = 0; k < NB; k++) {
    for (let i = 0; i < V; i++) {
      const at = s + rel.xyz + 8 * (k * V + i);
      v.setInt16(at, b.baseFrames[k] + i * 64, true);
      v.setInt16(at + 2, 0, true);
      v.setInt16(at + 4, 0, true);
    }
  }
  // every compressed offset +1 step on x (byte 128), 0 on y and z (127), normal 0 ((1, 0, 0))
  for (let i = 0; i < V * NC; i++) v.setUint32(s + rel.comp + 4 * i, 128 | (127 << 8) | (127 << 16), true);
  for (let f = 0; f < F; f++) {
    v.setInt16(s + rel.fb + 2 * f, b.frameBase?.[f] ?? Math.min(f, NB - 1), true);
    v.setInt16(s + rel.fc + 2 * f, b.frameComp?.[f] ?? -1, true);
  }
  return { bytes, surface: s, fields: { frameBaseFrames: s + rel.fb, frameCompFrames: s + rel.fc, xyz: s + rel.xyz, comp: s + rel.comp } };
}
