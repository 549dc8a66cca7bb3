/** What `inspect` prints of an MDM or an MDX: the header, then every table, one fact per row. */
import { shortName } from '../../base/message-name.js';
import { plainWarnings, type Summary } from '../entry.js';
import type { MdmModel, MdxModel } from './model.js';

const v3 = (v: ArrayLike<number>) => `${+v[0].toFixed(4)} ${+v[1].toFixed(4)} ${+v[2].toFixed(4)}`;
const q = (s: string) => JSON.stringify(shortName(s));

export function mdmSummary(m: MdmModel, mdx: MdxModel | null = null): Summary {
  return {
    format: 'mdm',
    version: m.version,
    name: shortName(m.name),
    lodScale: m.lodScale,
    lodBias: m.lodBias,
    skeleton: mdx ? `${shortName(mdx.name)}: ${mdx.bones.length} bones, ${mdx.frames.length} frames` : `none read (bones 0..${m.bonesNamed - 1} named)`,
    surfaces: m.surfaces.map((s, i) => {
      let most = 0;
      for (let v = 0; v < s.vertexCount; v++) most = Math.max(most, s.weightStart[v + 1] - s.weightStart[v]);
      return `${i} ${q(s.name)} shader ${q(s.shader)} ${s.vertexCount} vertices ${s.triangles.length / 3} triangles ${s.weightStart[s.vertexCount]} weights (up to ${most} a vertex) minLod ${s.minLod} ${s.boneRefs.length} bone refs`;
    }),
    vertices: m.surfaces.reduce((n, s) => n + s.vertexCount, 0),
    triangles: m.surfaces.reduce((n, s) => n + s.triangles.length / 3, 0),
    tags: m.tags.map((t, i) => `${i} ${q(t.name)} bone ${t.boneIndex} offset ${v3(t.offset)}`),
    warnings: plainWarnings(m.warnings),
  };
}

export function mdxSummary(m: MdxModel): Summary {
  const b = m.frames.bounds;
  return {
    format: 'mdx',
    version: m.version,
    name: shortName(m.name),
    frames: m.frames.length,
    bounds: `${v3(b)} .. ${v3(b.subarray(3))} (frame 0)`,
    torsoParent: m.torsoParent,
    bones: m.bones.map((b, i) => `${i} ${q(b.name)} parent ${b.parent} dist ${+b.parentDist.toFixed(4)} torso ${+b.torsoWeight.toFixed(3)}${b.flags & 1 ? ' tag' : ''}`),
    warnings: plainWarnings(m.warnings),
  };
}
