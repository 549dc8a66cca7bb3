/**
 * The MD2 quantisation grid step docs/gltf.md states, computed here from Md2Poser's frames (glTF axes) and the file's
 * frame scales, independently of the exporter: by default (`md2Grid: 'source'`) the finest frame scale / 5, no coarser
 * than 255 steps over the longest side of the box every frame fits in; `'box'`: those 255 steps. A position on the
 * grid is off by at most half a step per component (√3/2 · step as a distance; lerps of two frames too).
 */
import type { Md2Model } from '../../src/base/model.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { yUp } from './gltf-eval.js';

export function md2GridStep(model: Md2Model, kind: 'source' | 'box' = 'source'): number {
  const poser = new Md2Poser(createTsBackend(), model);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let f = 0; f < model.frameCount; f++) {
    yUp(poser.poseFrame(f).positions).forEach((v, i) => {
      min[i % 3] = Math.min(min[i % 3], v);
      max[i % 3] = Math.max(max[i % 3], v);
    });
  }
  poser.dispose();
  const box = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 255;
  if (kind === 'box') return box;
  const finest = Math.min(...Array.from(model.frameScales).filter((s) => s > 0));
  return Math.min(box, finest / 5);
}
