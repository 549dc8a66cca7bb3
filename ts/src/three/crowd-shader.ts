/**
 * The vertex shader pieces of a crowd (`crowd.ts`), patched into any three.js material with `onBeforeCompile`, so a
 * crowd keeps the model's own materials (maps, alpha, sides) and three's lighting, and adds only how a vertex is posed:
 *
 * - skinned: four joints per vertex (`crowdJoint`, `crowdWeight`) read from the palette texture — instance i's joint
 *   j at texel `(i · joints + j) · 3`, three texels (the rows of a row-major 3×4, `kernels/layout.ts`
 *   `CROWD_PALETTE_STRIDE`) — the rows blended by weight, then position (w 1) and normal (w 0) dotted with them;
 * - morph: two frames of the frame texture (texel `(frame · vertices + vertex) · 2`: position, then normal) blended by
 *   the instance's `crowdFrame` (frame a, frame b, weight of b).
 *
 * Both run in the model's own axes before three's instancing (`instanceMatrix`) and projection.
 */
import type { IUniform, Material, Texture, WebGLProgramParametersWithUniforms } from 'three';

export type CrowdShaderKind = 'skinned' | 'morph';

/** The uniforms a crowd's shader reads. */
export interface CrowdUniforms {
  crowdData: IUniform<Texture | null>;
  crowdWidth: IUniform<number>;
  /** Joints per instance (skinned), vertices per frame (morph). */
  crowdStride: IUniform<number>;
}

const SKINNED_PARS = /* glsl */ `
uniform highp sampler2D crowdData;
uniform int crowdWidth;
uniform int crowdStride;
vec4 crowdTexel(int t) { return texelFetch(crowdData, ivec2(t % crowdWidth, t / crowdWidth), 0); }
attribute vec4 crowdJoint;
attribute vec4 crowdWeight;
void crowdRows(out vec4 r0, out vec4 r1, out vec4 r2) {
  r0 = vec4(0.0); r1 = vec4(0.0); r2 = vec4(0.0);
  for (int k = 0; k < 4; k++) {
    float w = crowdWeight[k];
    if (w == 0.0) continue;
    int t = (gl_InstanceID * crowdStride + int(crowdJoint[k])) * 3;
    r0 += w * crowdTexel(t); r1 += w * crowdTexel(t + 1); r2 += w * crowdTexel(t + 2);
  }
}
`;

const MORPH_PARS = /* glsl */ `
uniform highp sampler2D crowdData;
uniform int crowdWidth;
uniform int crowdStride;
vec4 crowdTexel(int t) { return texelFetch(crowdData, ivec2(t % crowdWidth, t / crowdWidth), 0); }
attribute float crowdVertex;
attribute vec3 crowdFrame;
vec4 crowdMorph(int slot) {
  int v = int(crowdVertex);
  vec4 a = crowdTexel((int(crowdFrame.x) * crowdStride + v) * 2 + slot);
  vec4 b = crowdTexel((int(crowdFrame.y) * crowdStride + v) * 2 + slot);
  return mix(a, b, crowdFrame.z);
}
`;

const SKINNED_NORMAL = /* glsl */ `#include <beginnormal_vertex>
{ vec4 r0, r1, r2; crowdRows(r0, r1, r2); vec4 n = vec4(objectNormal, 0.0); objectNormal = normalize(vec3(dot(r0, n), dot(r1, n), dot(r2, n))); }
`;
const SKINNED_POSITION = /* glsl */ `#include <begin_vertex>
{ vec4 r0, r1, r2; crowdRows(r0, r1, r2); vec4 p = vec4(transformed, 1.0); transformed = vec3(dot(r0, p), dot(r1, p), dot(r2, p)); }
`;
const MORPH_NORMAL = /* glsl */ `#include <beginnormal_vertex>
objectNormal = normalize(crowdMorph(1).xyz);
`;
const MORPH_POSITION = /* glsl */ `#include <begin_vertex>
transformed = crowdMorph(0).xyz;
`;

/** `material` (a clone: the model's own stays as it is) posing its vertices as a crowd of `kind` does, from `uniforms`. */
export function crowdMaterial<M extends Material>(material: M, kind: CrowdShaderKind, uniforms: CrowdUniforms): M {
  const m = material.clone() as M;
  const previous = m.onBeforeCompile.bind(m);
  m.onBeforeCompile = (shader: WebGLProgramParametersWithUniforms, renderer) => {
    previous(shader, renderer);
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>\n${kind === 'skinned' ? SKINNED_PARS : MORPH_PARS}`)
      .replace('#include <beginnormal_vertex>', kind === 'skinned' ? SKINNED_NORMAL : MORPH_NORMAL)
      .replace('#include <begin_vertex>', kind === 'skinned' ? SKINNED_POSITION : MORPH_POSITION);
  };
  // one program per kind, whatever else the material shares with the model's own
  m.customProgramCacheKey = () => `idtech-crowd-${kind}`;
  return m;
}
