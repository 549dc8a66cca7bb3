/**
 * Shared helpers of the MD3 tests (not a test file itself): the real MD3s of the shared corpus, a raw header reader
 * written from GROUND-TRUTH.md independently of the parser, and a builder of hand-made MD3 files whose every field
 * offset is known, so a test can break one field and expect an error at exactly that byte.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ModelParseError, type ErrorCode } from '../../src/base/errors.js';
import { manifest, read, SHARED_MODELS, type ManifestRow } from '../helpers/models.js';

if (!existsSync(join(SHARED_MODELS, 'MANIFEST.tsv'))) {
  // Real data is part of the test suite: a missing corpus fails loudly rather than skipping tests.
  throw new Error(`real models not found at ${SHARED_MODELS}`);
}

/** Every MD3 the MANIFEST lists; each must exist. */
export function realMd3s(): (ManifestRow & { bytes: Uint8Array })[] {
  const rows = manifest().filter((r) => r.format === 'md3');
  if (rows.length === 0) throw new Error('MANIFEST lists no md3');
  return rows.map((r) => {
    if (!existsSync(r.absPath)) throw new Error(`missing ${r.absPath}`);
    return { ...r, bytes: read(r.absPath) };
  });
}

const HUMAN = 'res-tremulous_src.dpkdir/models/tremulous/players/human_base';
export const HUMAN_BASE = {
  lower: join(SHARED_MODELS, HUMAN, 'lower.md3'),
  upper: join(SHARED_MODELS, HUMAN, 'upper.md3'),
  head: join(SHARED_MODELS, HUMAN, 'head.md3'),
  rifle: join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/weapons/rifle/rifle.md3'),
  overmind: join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3'),
  grenade: join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/weapons/grenade/grenade.md3'),
};

export const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** The header and surface headers read straight from the bytes (GROUND-TRUTH.md layout), for count checks. */
export function rawHeader(b: Uint8Array) {
  const dv = view(b);
  const i = (o: number) => dv.getInt32(o, true);
  const h = {
    ident: String.fromCharCode(...b.subarray(0, 4)),
    version: i(4),
    numFrames: i(76),
    numTags: i(80),
    numSurfaces: i(84),
    ofsFrames: i(92),
    ofsTags: i(96),
    ofsSurfaces: i(100),
    ofsEnd: i(104),
    surfaces: [] as { start: number; numFrames: number; numShaders: number; numVerts: number; numTriangles: number; ofsTriangles: number; ofsShaders: number; ofsSt: number; ofsXyz: number; ofsEnd: number }[],
  };
  let s = h.ofsSurfaces;
  for (let k = 0; k < h.numSurfaces; k++) {
    const surf = {
      start: s, numFrames: i(s + 72), numShaders: i(s + 76), numVerts: i(s + 80), numTriangles: i(s + 84),
      ofsTriangles: i(s + 88), ofsShaders: i(s + 92), ofsSt: i(s + 96), ofsXyz: i(s + 100), ofsEnd: i(s + 104),
    };
    h.surfaces.push(surf);
    s += surf.ofsEnd;
  }
  return h;
}

/**
 * The model with every typed array replaced by its type, length and SHA-256: `toEqual` on two digests compares
 * models exactly, without vitest's element-by-element walk over hundreds of thousands of values.
 */
export function digest(x: unknown): unknown {
  if (ArrayBuffer.isView(x)) {
    const bytes = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    return `${x.constructor.name}(${x.byteLength}):${createHash('sha256').update(bytes).digest('hex')}`;
  }
  if (Array.isArray(x)) return x.map(digest);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, digest(v)]));
  return x;
}

/** Run `fn`, expect a ModelParseError with `code` (and `offset` when given), return it. */
export function expectMd3Error(fn: () => unknown, code: ErrorCode, offset?: number): ModelParseError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  if (!(err instanceof ModelParseError)) throw new Error(`expected ModelParseError ${code}, got ${String(err)}`);
  if (err.code !== code || (offset !== undefined && err.offset !== offset)) {
    throw new Error(`expected ${code} at byte ${offset}, got ${err.message}`);
  }
  return err;
}

// ——— hand-made files ————————————————————————————————————————————————————————————————

export interface BuildSurface {
  name: string;
  vertexCount: number;
  triangles: number[];
  shaders?: string[];
  /** Per frame per vertex: x, y, z as int16 (file units, ×1/64 to decode) and the packed normal. */
  xyzNormal?: (frame: number, vertex: number) => [number, number, number, number];
}

export interface BuildSpec {
  frames: number;
  tags?: string[];
  surfaces: BuildSurface[];
  /** Write the surfaces first and the frames and tags after them (offsets pointing backwards). */
  surfacesFirst?: boolean;
  /** Bytes appended after ofsEnd. */
  trailing?: number;
}

/** Where each field of a built file is. */
export interface Built {
  bytes: Uint8Array;
  ofsFrames: number;
  ofsTags: number;
  surfaces: { start: number; triangles: number; shaders: number; st: number; xyz: number; end: number }[];
  ofsEnd: number;
}

function putName(b: Uint8Array, at: number, name: string): void {
  for (let i = 0; i < name.length; i++) b[at + i] = name.charCodeAt(i);
}

/** A valid MD3 laid out as the spec says. Frame f's bounds are ±(f + 1); tag k of frame f sits at (f, k, 1). */
export function buildMd3(spec: BuildSpec): Built {
  const F = spec.frames;
  const tags = spec.tags ?? [];
  const T = tags.length;
  const framesBytes = F * 56;
  const tagsBytes = F * T * 112;
  const surfaceSizes = spec.surfaces.map((s) => {
    const sh = (s.shaders ?? ['shader']).length;
    return 108 + sh * 68 + s.triangles.length * 4 + s.vertexCount * 8 + s.vertexCount * F * 8;
  });
  const surfacesBytes = surfaceSizes.reduce((a, b) => a + b, 0);
  const ofsEnd = 108 + framesBytes + tagsBytes + surfacesBytes;
  const bytes = new Uint8Array(ofsEnd + (spec.trailing ?? 0));
  const dv = view(bytes);
  const ofsSurfaces = spec.surfacesFirst ? 108 : 108 + framesBytes + tagsBytes;
  const ofsFrames = spec.surfacesFirst ? 108 + surfacesBytes : 108;
  const ofsTags = ofsFrames + framesBytes;
  putName(bytes, 0, 'IDP3');
  dv.setInt32(4, 15, true);
  putName(bytes, 8, 'handmade.md3');
  dv.setInt32(76, F, true);
  dv.setInt32(80, T, true);
  dv.setInt32(84, spec.surfaces.length, true);
  dv.setInt32(92, ofsFrames, true);
  dv.setInt32(96, ofsTags, true);
  dv.setInt32(100, ofsSurfaces, true);
  dv.setInt32(104, ofsEnd, true);
  for (let f = 0; f < F; f++) {
    const at = ofsFrames + f * 56;
    for (let c = 0; c < 3; c++) {
      dv.setFloat32(at + c * 4, -(f + 1), true);
      dv.setFloat32(at + 12 + c * 4, f + 1, true);
    }
    dv.setFloat32(at + 36, (f + 1) * Math.sqrt(3), true);
    putName(bytes, at + 40, `frame${f}`);
    for (let k = 0; k < T; k++) {
      const t = ofsTags + (f * T + k) * 112;
      putName(bytes, t, tags[k]);
      dv.setFloat32(t + 64, f, true);
      dv.setFloat32(t + 68, k, true);
      dv.setFloat32(t + 72, 1, true);
      for (let a = 0; a < 3; a++) dv.setFloat32(t + 76 + a * 16, 1, true); // identity axes
    }
  }
  const surfaces: Built['surfaces'] = [];
  let s = ofsSurfaces;
  spec.surfaces.forEach((surf, i) => {
    const shaders = surf.shaders ?? ['shader'];
    const V = surf.vertexCount;
    const triangles = s + 108;
    const sh = triangles + surf.triangles.length * 4;
    const st = sh + shaders.length * 68;
    const xyz = st + V * 8;
    const end = s + surfaceSizes[i];
    putName(bytes, s, 'IDP3');
    putName(bytes, s + 4, surf.name);
    dv.setInt32(s + 72, F, true);
    dv.setInt32(s + 76, shaders.length, true);
    dv.setInt32(s + 80, V, true);
    dv.setInt32(s + 84, surf.triangles.length / 3, true);
    dv.setInt32(s + 88, triangles - s, true);
    dv.setInt32(s + 92, sh - s, true);
    dv.setInt32(s + 96, st - s, true);
    dv.setInt32(s + 100, xyz - s, true);
    dv.setInt32(s + 104, end - s, true);
    surf.triangles.forEach((v, k) => dv.setInt32(triangles + k * 4, v, true));
    shaders.forEach((name, k) => {
      putName(bytes, sh + k * 68, name);
      dv.setInt32(sh + k * 68 + 64, k, true);
    });
    for (let v = 0; v < V; v++) {
      dv.setFloat32(st + v * 8, v / Math.max(1, V), true);
      dv.setFloat32(st + v * 8 + 4, 1 - v / Math.max(1, V), true);
    }
    const xn = surf.xyzNormal ?? ((f: number, v: number) => [64 * v, 64 * f, -64 * v, (v * 37 + f * 11) & 0xffff]);
    for (let f = 0; f < F; f++) {
      for (let v = 0; v < V; v++) {
        const q = xn(f, v);
        for (let c = 0; c < 4; c++) dv.setInt16(xyz + (f * V + v) * 8 + c * 2, q[c] << 16 >> 16, true);
      }
    }
    surfaces.push({ start: s, triangles, shaders: sh, st, xyz, end });
    s = end;
  });
  for (let i = ofsEnd; i < bytes.length; i++) bytes[i] = 0xab;
  return { bytes, ofsFrames, ofsTags, surfaces, ofsEnd };
}

/** A small valid file with 2 frames, 2 tags and 2 surfaces. */
export function smallMd3(options: Partial<BuildSpec> = {}): Built {
  return buildMd3({
    frames: 2,
    tags: ['tag_a', 'tag_b'],
    surfaces: [
      { name: 'quad', vertexCount: 4, triangles: [0, 1, 2, 2, 3, 0], shaders: ['models/a.tga', 'models/b.tga'] },
      { name: 'tri', vertexCount: 3, triangles: [0, 1, 2] },
    ],
    ...options,
  });
}
