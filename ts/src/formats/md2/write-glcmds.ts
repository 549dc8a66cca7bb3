/**
 * MD2 glcmds built from the triangle list: triangle strips and fans grown greedily, the way Quake 2's qdata
 * stripped its models (written here from the algorithm, not from qdata's code). For each triangle not yet used,
 * in file order: a strip and a fan are tried starting from each of its three edges, the one covering the most
 * triangles is kept and its triangles are marked used. A strip or fan only walks across an edge whose two glcmd
 * vertices — (xyz index, st index) pairs, what a glcmd vertex stores — are the same in both triangles, and only onto
 * a triangle wound the same way, so every triangle is drawn exactly once, in its own winding (odd triangles of a
 * strip are drawn with their first two vertices swapped, as GL does: `md2GlCommandTriangles` decodes them).
 */
import { Md2GlKind, type Md2GlCommands, type Md2Model } from '../../base/model.js';
import { md2Unwelded } from './geometry.js';

/** s, t of st entry `i` as a glcmd stores them: qdata's (pixel + 0.5) / skin size. */
export function glcmdSt(model: Md2Model, i: number, out: Float32Array, at: number): void {
  out[at] = (model.st[2 * i] + 0.5) / Math.max(1, model.skinWidth);
  out[at + 1] = (model.st[2 * i + 1] + 0.5) / Math.max(1, model.skinHeight);
}

/** A strip or fan: its kind, its glcmd vertices (corner ids) and the triangles it draws. */
interface Run {
  kind: number;
  corners: number[];
  triangles: number[];
}

/** Strips and fans covering every triangle of `model` once (see the file comment). */
export function md2GlCommands(model: Md2Model): Md2GlCommands {
  const T = model.triangleCount;
  const un = md2Unwelded(model);
  const corner = un.indices;
  const N = un.sourceVertex.length;
  // directed edge corner[3t + k] → corner[3t + (k + 1) % 3] → the (3t + k) that have it, in file order
  const edges = new Map<number, number[]>();
  const at = (t: number, k: number) => corner[3 * t + (k % 3)];
  for (let t = 0; t < T; t++) {
    for (let k = 0; k < 3; k++) {
      const key = at(t, k) * N + at(t, k + 1);
      const list = edges.get(key);
      if (list) list.push(3 * t + k);
      else edges.set(key, [3 * t + k]);
    }
  }
  const used = new Uint8Array(T);
  // the build a triangle was last taken into (a strip or fan never takes a triangle twice)
  const taken = new Int32Array(T).fill(-1);
  let build = 0;

  /** The first free triangle with the directed edge a → b: its index and the corner after the edge. */
  const across = (a: number, b: number): [number, number] | null => {
    for (const e of edges.get(a * N + b) ?? []) {
      const t = Math.floor(e / 3);
      if (!used[t] && taken[t] !== build) return [t, at(t, (e % 3) + 2)];
    }
    return null;
  };

  const grow = (t: number, k: number, kind: number): Run => {
    build++;
    const corners = [at(t, k), at(t, k + 1), at(t, k + 2)];
    const triangles = [t];
    taken[t] = build;
    for (;;) {
      const n = corners.length;
      // triangle j = n − 2 is drawn (s[j], s[j+1], s[j+2]), a strip's odd j as (s[j+1], s[j], s[j+2]); a fan's
      // as (s[0], s[j+1], s[j+2]): the edge it shares with what is drawn already, in its own winding
      const next = kind === Md2GlKind.Fan ? across(corners[0], corners[n - 1]) : (n & 1) === 1 ? across(corners[n - 1], corners[n - 2]) : across(corners[n - 2], corners[n - 1]);
      if (!next) return { kind, corners, triangles };
      taken[next[0]] = build;
      triangles.push(next[0]);
      corners.push(next[1]);
    }
  };

  const runs: Run[] = [];
  let vertexTotal = 0;
  for (let t = 0; t < T; t++) {
    if (used[t]) continue;
    let best: Run | null = null;
    for (let k = 0; k < 3; k++) {
      for (const kind of [Md2GlKind.Strip, Md2GlKind.Fan]) {
        const run = grow(t, k, kind);
        if (!best || run.triangles.length > best.triangles.length) best = run;
      }
    }
    for (const u of best!.triangles) used[u] = 1;
    runs.push(best!);
    vertexTotal += best!.corners.length;
  }

  const kinds = new Uint8Array(runs.length);
  const firstVertex = new Uint32Array(runs.length + 1);
  const vertices = new Uint16Array(vertexTotal);
  const st = new Float32Array(2 * vertexTotal);
  let v = 0;
  runs.forEach((run, c) => {
    kinds[c] = run.kind;
    firstVertex[c] = v;
    for (const id of run.corners) {
      vertices[v] = un.sourceVertex[id];
      glcmdSt(model, un.sourceSt[id], st, 2 * v);
      v++;
    }
  });
  firstVertex[runs.length] = v;
  return { commandCount: runs.length, kinds, firstVertex, vertices, st };
}
