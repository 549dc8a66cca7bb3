/**
 * The glcmd block: the triangle strips and fans qdata precomputed for GL. Each command is an int32 count (> 0 a
 * strip, < 0 a fan of −count vertices, 0 the end), then count × {float s, float t, int32 xyz index}.
 *
 * The block is optional data — everything it says is also in the triangle list — so a bad block never fails the
 * model: {@link decodeGlCommands} returns a reason instead, and the parser turns it into a GLCMDS_INVALID warning.
 * Bad means: a command running past the block, fewer than 3 vertices, an xyz index out of range, a non-finite
 * s or t, or no terminating 0 (the engine would read past the block).
 */
import { Md2GlKind, type Md2GlCommands } from '../../base/model.js';
import { MD2_GLCMD_VERTEX_BYTES } from './limits.js';
import { hostOrder } from '../../base/binary.js';

/** Words per glcmd vertex: s, t, xyz index. */
const GLCMD_VERTEX_WORDS = MD2_GLCMD_VERTEX_BYTES / 4;

export type GlCommandsResult = { ok: true; commands: Md2GlCommands } | { ok: false; reason: string; offset: number };

/**
 * Decodes `words` int32 words at `offset` of `bytes` in one pass over the block as typed arrays, into arrays
 * sized for the most the block can hold (a command takes at least 1 + 3·3 words) and returned as views of their
 * used part: one backing buffer, no larger than the block itself.
 */
export function decodeGlCommands(bytes: Uint8Array, offset: number, words: number, vertexCount: number): GlCommandsResult {
  const w = hostOrder(bytes, offset, words, Int32Array);
  const f = new Float32Array(w.buffer, w.byteOffset, words);
  const byteAt = (word: number) => offset + 4 * word;
  const maxCommands = Math.floor(words / (1 + 3 * GLCMD_VERTEX_WORDS));
  const maxVertices = Math.floor(words / GLCMD_VERTEX_WORDS);
  // Float32 st first, then the Uint32 starts, the Uint16 vertices and the Uint8 kinds: each section aligned.
  const store = new ArrayBuffer(8 * maxVertices + 4 * (maxCommands + 1) + 2 * maxVertices + maxCommands);
  const st = new Float32Array(store, 0, 2 * maxVertices);
  const firstVertex = new Uint32Array(store, st.byteLength, maxCommands + 1);
  const vertices = new Uint16Array(store, st.byteLength + firstVertex.byteLength, maxVertices);
  const kinds = new Uint8Array(store, st.byteLength + firstVertex.byteLength + vertices.byteLength, maxCommands);
  let commandCount = 0;
  let out = 0;
  let at = 0;
  for (;;) {
    if (at >= words) return { ok: false, reason: 'no terminating 0 inside the block', offset: byteAt(words) };
    const n = w[at];
    if (n === 0) break;
    const k = Math.abs(n);
    if (k < 3) return { ok: false, reason: `a command of ${k} vertices (a strip or fan needs 3)`, offset: byteAt(at) };
    if (at + 1 + k * GLCMD_VERTEX_WORDS > words) {
      return { ok: false, reason: `a command of ${k} vertices runs past the end of the block at ${byteAt(words)}`, offset: byteAt(at) };
    }
    kinds[commandCount] = n > 0 ? Md2GlKind.Strip : Md2GlKind.Fan;
    firstVertex[commandCount++] = out;
    for (let v = at + 1, vEnd = v + k * GLCMD_VERTEX_WORDS; v < vEnd; v += GLCMD_VERTEX_WORDS, out++) {
      const s = f[v];
      const t = f[v + 1];
      // x − x is 0 for every finite x and NaN for NaN and ±Infinity: one test for both.
      if (s - s !== 0 || t - t !== 0) return { ok: false, reason: 'an s or t that is NaN or infinite', offset: byteAt(v) };
      const xyz = w[v + 2];
      if (xyz < 0 || xyz >= vertexCount) return { ok: false, reason: `vertex index ${xyz} is not below num_xyz ${vertexCount}`, offset: byteAt(v + 2) };
      st[2 * out] = s;
      st[2 * out + 1] = t;
      vertices[out] = xyz;
    }
    at += 1 + k * GLCMD_VERTEX_WORDS;
  }
  firstVertex[commandCount] = out;
  return {
    ok: true,
    commands: {
      commandCount,
      kinds: kinds.subarray(0, commandCount),
      firstVertex: firstVertex.subarray(0, commandCount + 1),
      vertices: vertices.subarray(0, out),
      st: st.subarray(0, 2 * out),
    },
  };
}

/** One command as views into the flat arrays (no copies). */
export interface Md2GlCommand {
  kind: 'strip' | 'fan';
  /** xyz index per vertex. */
  vertices: Uint16Array;
  /** s, t per vertex. */
  st: Float32Array;
}

/** The commands one by one, for code that wants objects; the arrays are views into `gl`. */
export function md2GlCommandList(gl: Md2GlCommands): Md2GlCommand[] {
  const out: Md2GlCommand[] = [];
  for (let c = 0; c < gl.commandCount; c++) {
    const a = gl.firstVertex[c];
    const b = gl.firstVertex[c + 1];
    out.push({
      kind: gl.kinds[c] === Md2GlKind.Strip ? 'strip' : 'fan',
      vertices: gl.vertices.subarray(a, b),
      st: gl.st.subarray(2 * a, 2 * b),
    });
  }
  return out;
}

/**
 * The strips and fans as a triangle list: 3 glcmd-vertex indices per triangle (indices into `gl.vertices` and
 * pairs of `gl.st`), wound as GL draws them — a strip's odd triangles swap their first two vertices, a fan's
 * triangles all start at its first vertex. So a triangle keeps the winding of the file's triangle list.
 */
export function md2GlCommandTriangles(gl: Md2GlCommands): Uint32Array {
  let total = 0;
  for (let c = 0; c < gl.commandCount; c++) total += gl.firstVertex[c + 1] - gl.firstVertex[c] - 2;
  const tris = new Uint32Array(total * 3);
  let o = 0;
  for (let c = 0; c < gl.commandCount; c++) {
    const a = gl.firstVertex[c];
    const n = gl.firstVertex[c + 1] - a;
    const strip = gl.kinds[c] === Md2GlKind.Strip;
    for (let i = 0; i + 2 < n; i++) {
      if (strip) {
        const odd = i & 1;
        tris[o++] = a + i + odd;
        tris[o++] = a + i + 1 - odd;
      } else {
        tris[o++] = a;
        tris[o++] = a + i + 1;
      }
      tris[o++] = a + i + 2;
    }
  }
  return tris;
}
