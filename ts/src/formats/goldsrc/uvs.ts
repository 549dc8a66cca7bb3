/** Each draw vertex's texture coordinates: its texels over the size of the texture its mesh shows (v down the image). */
import type { GoldsrcDraw } from './geometry.js';
import type { GoldsrcModel } from './model.js';
import { textureOf } from './textures.js';

export function drawUvs(draw: GoldsrcDraw, shown: GoldsrcModel): Float32Array {
  const uvs = new Float32Array(draw.vertexCount * 2);
  for (const mesh of draw.meshes) {
    const t = textureOf(shown, mesh.skinRef);
    const tex = t >= 0 ? shown.textures[t] : null;
    for (let i = mesh.firstIndex; i < mesh.firstIndex + mesh.indexCount; i++) {
      const v = draw.indices[i];
      uvs[v * 2] = tex && tex.width ? draw.texels[v * 2] / tex.width : 0;
      uvs[v * 2 + 1] = tex && tex.height ? draw.texels[v * 2 + 1] / tex.height : 0;
    }
  }
  return uvs;
}
