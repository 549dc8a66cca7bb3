/**
 * What the glTF imports of Quake's vertex-frame formats share (MD2: `formats/md2/from-gltf.ts`, MDL:
 * `formats/mdl/from-gltf.ts`): frames quantised to 4 bytes a vertex (three position bytes and an index into the 162
 * anorms), vertices equal in every frame merged, frame names that group into one clip per animation.
 */
import type { ParseWarning } from '../base/errors.js';
import { MD2_NORMAL_COUNT, MD2_NORMALS } from '../kernels/quake-normals.js';
import { checkImportBytes, sampleFrames, unwritable, type ImportBounds, type TrianglePrimitive } from './gltf-scene.js';

/** A frame name's field: `char name[16]` in MD2's daliasframe_t and in MDL's. */
const FRAME_NAME_BYTES = 16;

/** The index of the anorm nearest to (x, y, z) (largest dot product; 0 for a zero vector). */
export function nearestMd2Normal(x: number, y: number, z: number): number {
  let best = 0, bestDot = -Infinity;
  for (let i = 0; i < MD2_NORMAL_COUNT; i++) {
    const d = MD2_NORMALS[3 * i] * x + MD2_NORMALS[3 * i + 1] * y + MD2_NORMALS[3 * i + 2] * z;
    if (d > bestDot) (bestDot = d), (best = i);
  }
  return best;
}

/** k ≥ 1 as b, c, … z, ba, bb, … (base 26 in letters; never a digit, so clip detection leaves it on the name). */
const letters = (k: number): string => (k >= 26 ? letters(Math.floor(k / 26)) : '') + String.fromCharCode(97 + (k % 26));

/**
 * Frame names `<animation><NN>`, each animation's name made safe so `groupClips` reads one clip per animation. An
 * animation whose name does not fit the 16-byte field beside its frame numbers is FRAME_NAME_CUT in `warnings`,
 * naming what its frames are called instead (the clip comes back under the cut name).
 */
export function md2FrameNames(frames: { animation: number; name: string }[], warnings?: ParseWarning[]): string[] {
  const runs: { name: string; count: number }[] = [];
  frames.forEach((f, i) => {
    if (i > 0 && frames[i - 1].animation === f.animation) runs[runs.length - 1].count++;
    else runs.push({ name: f.name, count: 1 });
  });
  const seen = new Set<string>();
  return runs.flatMap(({ name, count }) => {
    const digits = Math.max(2, String(count).length);
    const room = FRAME_NAME_BYTES - digits;
    const fit = (s: string) => {
      const cut = s.slice(0, room);
      return /[0-9]$/.test(cut) ? cut.slice(0, room - 1) + '_' : cut;
    };
    const safe = fit(name.replace(/[^A-Za-z0-9_-]/g, '_') || 'frame');
    let base = safe;
    for (let k = 1; seen.has(base); k++) {
      const suffix = '_' + letters(k);
      base = safe.slice(0, room - suffix.length) + suffix;
    }
    seen.add(base);
    if (name.replace(/[^A-Za-z0-9_-]/g, '_').length > room) {
      warnings?.push({ code: 'FRAME_NAME_CUT', message: `animation "${name}": a frame name holds ${FRAME_NAME_BYTES} bytes, ${digits} of them the frame number: its ${count} frames are named ${base}${'1'.padStart(digits, '0')}…, and read back as the clip "${base}"`, offset: 0 });
    }
    return Array.from({ length: count }, (_, f) => base + String(f + 1).padStart(digits, '0'));
  });
}

/** Area-weighted vertex normals of a primitive's posed triangles (glTF axes; `triangles` in id winding). */
export function faceNormals(positions: Float32Array, triangles: Uint32Array): Float32Array {
  const out = new Float32Array(positions.length);
  for (let t = 0; t < triangles.length; t += 3) {
    // id winding (a, c, b) is glTF's (a, b, c): n = (b − a) × (c − a)
    const a = 3 * triangles[t], b = 3 * triangles[t + 2], c = 3 * triangles[t + 1];
    const u = [0, 1, 2].map((k) => positions[b + k] - positions[a + k]);
    const v = [0, 1, 2].map((k) => positions[c + k] - positions[a + k]);
    const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    for (const o of [a, b, c]) for (let k = 0; k < 3; k++) out[o + k] += n[k];
  }
  return out;
}

/**
 * Vertices equal in every frame (all 4 bytes) merged: `all` holds `V` vertices per frame, frame-major. Per vertex its
 * merged index, and per merged vertex the first vertex it came from. With `tags` (2 per vertex: MDL's st, which a
 * vertex has only one of), vertices merge only where their tags agree too.
 */
export function mergeVertices(all: Uint8Array, V: number, F: number, tags?: Int32Array): { xyzOf: Uint32Array; kept: number[] } {
  const xyzOf = new Uint32Array(V);
  const kept: number[] = [];
  const buckets = new Map<number, number[]>();
  const same = (a: number, b: number) => {
    if (tags && (tags[2 * a] !== tags[2 * b] || tags[2 * a + 1] !== tags[2 * b + 1])) return false;
    for (let f = 0; f < F; f++) for (let k = 0, oa = 4 * (V * f + a), ob = 4 * (V * f + b); k < 4; k++) if (all[oa + k] !== all[ob + k]) return false;
    return true;
  };
  for (let v = 0; v < V; v++) {
    let h = 0x811c9dc5; // FNV-1a over the vertex's bytes in every frame (and its tags)
    if (tags) h = Math.imul(Math.imul(h ^ tags[2 * v], 0x01000193) ^ tags[2 * v + 1], 0x01000193);
    for (let f = 0; f < F; f++) for (let k = 0, o = 4 * (V * f + v); k < 4; k++) h = Math.imul(h ^ all[o + k], 0x01000193);
    const bucket = buckets.get(h) ?? [];
    const match = bucket.find((w) => same(kept[w], v));
    if (match !== undefined) {
      xyzOf[v] = match;
      continue;
    }
    xyzOf[v] = kept.length;
    bucket.push(kept.length);
    buckets.set(h, bucket);
    kept.push(v);
  }
  return { xyzOf, kept };
}

/**
 * The frames to sample and where each primitive's vertices start in the merged list (primitive i at first[i] of
 * `vertexCount`): UNWRITABLE naming `maxImportFrames` or `maxImportBytes` before anything is sampled, when the
 * frames are too many or `vertexBytes` × vertices × frames too large (MD2 quantises to 4 bytes a vertex; MDL holds
 * every frame's posed positions and normals too, 52). @internal
 */
export function frameLayout(doc: Parameters<typeof sampleFrames>[0], prims: readonly TrianglePrimitive[], fps: Parameters<typeof sampleFrames>[1], bounds: Pick<ImportBounds, 'maxFrames' | 'maxBytes'>, what: string, vertexBytes = 4) {
  const first: number[] = [];
  let vertexCount = 0;
  for (const p of prims) first.push(vertexCount), (vertexCount += p.vertexCount);
  const frames = sampleFrames(doc, fps, bounds.maxFrames);
  checkImportBytes(`${frames.length} frames of ${vertexCount} vertices (${vertexBytes} bytes each) of ${what}`, vertexBytes * vertexCount * frames.length, bounds.maxBytes);
  return { first, vertexCount, frames };
}
