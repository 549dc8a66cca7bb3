/**
 * What the glTF exports of Quake's byte-grid formats share (MD2: `formats/md2/gltf.ts`, MDL: `formats/mdl/gltf.ts`):
 * a frame decoded by the byte-grid poser and un-welded, and the position grid a quantised export snaps to.
 */
import type { Md2Poser } from '../pose/md2-poser.js';
import type { Axes } from './gltf-axes.js';
import type { MorphFrame } from './gltf-morph.js';
import { fitGrid, MD2_GRID_STEPS, md2SourceGrid, type PositionGrid } from './gltf-quantize.js';

/** Frame f of the model, un-welded (vertex i takes file vertex sourceVertex[i]), decoded by an `Md2Poser` (or an `MdlPoser`). */
export function frameGetter(poser: Md2Poser, sourceVertex: Uint16Array): (f: number) => MorphFrame {
  return (f) => {
    poser.poseFrame(f);
    const all = { positions: poser.positions, normals: poser.normals };
    const n = sourceVertex.length;
    const positions = new Float32Array(n * 3), normals = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const s = sourceVertex[i] * 3;
      for (let k = 0; k < 3; k++) {
        positions[i * 3 + k] = all.positions[s + k];
        normals[i * 3 + k] = all.normals[s + k];
      }
    }
    return { positions, normals };
  };
}

/**
 * The grid of a quantised MD2 or MDL export (glTF axes): 'box' = MD2_GRID_STEPS steps over the longest side of the
 * box every frame fits in; 'source' = as fine as `md2SourceGrid` asks from the file's own scales (gltf-quantize.ts),
 * undefined (float positions) when SHORT cannot hold it.
 */
export function md2Grid(axes: Axes, frameCount: number, frame: (f: number) => MorphFrame, kind: 'source' | 'box', scales: ArrayLike<number>): PositionGrid | undefined {
  // The box in the file's axes, then turned: the axis map only permutes and negates, so the turned corners' per-axis
  // extremes are exactly the box of the turned frames, without turning every frame here.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let f = 0; f < frameCount; f++) {
    const p = frame(f).positions;
    for (let i = 0; i < p.length; i++) {
      const k = i % 3;
      if (p[i] < lo[k]) lo[k] = p[i];
      if (p[i] > hi[k]) hi[k] = p[i];
    }
  }
  const a = [0, 0, 0], b = [0, 0, 0];
  axes.vec(lo[0], lo[1], lo[2], a, 0);
  axes.vec(hi[0], hi[1], hi[2], b, 0);
  const min = a.map((x, k) => Math.min(x, b[k])), max = a.map((x, k) => Math.max(x, b[k]));
  return kind === 'box' ? fitGrid(min, max, MD2_GRID_STEPS) : md2SourceGrid(min, max, scales);
}
