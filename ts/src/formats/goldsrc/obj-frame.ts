/**
 * A studio model as OBJ: one pose (`convert x.mdl [--anim SEQUENCE] [--frame N] -o x.obj`) — the bones at their
 * default values, or sequence SEQUENCE (its label, else its number; the first sequence when only --frame is given)
 * at frame N, with `--controller N=V` and `--blend X[,Y]` as the entity's controllers and blending (controls.ts) —
 * posed and skinned by the kernels on the chosen backend, in the file's coordinates. The draw vertices
 * of the submodels body 0 shows (geometry.ts), one group per studio mesh using its texture's material; UVs as the
 * glTF's with v flipped (OBJ's rows go up).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { objFace, objHeader, objUseMaterial, objVector } from '../../export/obj.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { sequenceSources } from './anim.js';
import { goldsrcParts } from './companions.js';
import { goldsrcDraw } from './geometry.js';
import type { GoldsrcModel } from './model.js';
import { GoldsrcPoser } from './poser.js';
import { textureOf, textureSource } from './textures.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const fmt = (x: number) => String(+x.toFixed(6));

/** The sequence `anim` names (label, then any case, then a number); the first when none is named. */
export function namedSequence(model: GoldsrcModel, anim: string | undefined): number {
  if (anim === undefined) return model.sequences.length ? 0 : -1;
  let i = model.sequences.findIndex((s) => s.label === anim);
  if (i < 0) i = model.sequences.findIndex((s) => s.label.toLowerCase() === anim.toLowerCase());
  if (i < 0 && /^\d+$/.test(anim) && Number(anim) < model.sequences.length) i = Number(anim);
  if (i < 0) {
    const names = model.sequences.slice(0, 12).map((s) => JSON.stringify(s.label)).join(', ');
    throw new ModelParseError(ErrorCode.IndexOutOfRange, `no sequence ${JSON.stringify(anim)} (sequences: ${names}${model.sequences.length > 12 ? ' …' : ''})`, { offset: 0 });
  }
  return i;
}

export async function writeGoldsrcObj(set: ModelSet<GoldsrcModel>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const model = set.data;
  const parts = goldsrcParts(model, set.companions, set.path);
  const draw = goldsrcDraw(model);
  const shown = textureSource(model, parts.textures);
  const poser = new GoldsrcPoser(o.backend, model, draw);
  try {
    let what = `${set.path} at its bones' default values`;
    let fact = 'default pose';
    // controllers and blending act on a sequence (the engine always plays one): given alone, the first sequence's
    if (o.anim !== undefined || o.frame !== undefined || o.controllers || o.blend) {
      const i = namedSequence(model, o.anim);
      const source = i >= 0 ? sequenceSources(model, parts.groups, set.path).sources[i] : null;
      if (!source) throw new ModelParseError(ErrorCode.MissingBlock, i < 0 ? 'the model has no sequences' : `sequence ${JSON.stringify(model.sequences[i].label)} cannot play (its group file was not read, or it has no frames)`, { offset: 0 });
      const frame = o.frame ?? 0;
      poser.setControls({ ...(o.controllers ? { controllers: o.controllers } : {}), ...(o.blend ? { blend: o.blend } : {}) }).poseSequence(source, frame);
      const given = [...(o.controllers ?? [])].map(([i, v]) => `controller ${i}=${v}`).concat(o.blend ? [`blend ${o.blend.join(',')}`] : []);
      what = `${set.path} sequence ${JSON.stringify(source.sequence.label)} frame ${frame}${given.length ? ` (${given.join(', ')})` : ''}`;
      fact = `sequence ${source.sequence.label} frame ${frame}${given.length ? ` ${given.join(' ')}` : ''}`;
    } else poser.bindPose();
    const out = objHeader({ comment: o.comment(what), materials: o.materials });
    const V = draw.vertexCount;
    const p = poser.positions, n = poser.normals;
    for (let v = 0; v < V; v++) out.push(objVector('v', p, v * 3, o.yUp));
    const uv = new Float32Array(V * 2);
    const textureOfMesh = draw.meshes.map((m) => textureOf(shown, m.skinRef));
    draw.meshes.forEach((m, k) => {
      const tex = textureOfMesh[k] >= 0 ? shown.textures[textureOfMesh[k]] : null;
      for (let i = m.firstIndex; i < m.firstIndex + m.indexCount; i++) {
        const v = draw.indices[i];
        uv[v * 2] = tex && tex.width ? draw.texels[v * 2] / tex.width : 0;
        uv[v * 2 + 1] = tex && tex.height ? 1 - draw.texels[v * 2 + 1] / tex.height : 0;
      }
    });
    for (let v = 0; v < V; v++) out.push(`vt ${fmt(uv[v * 2])} ${fmt(uv[v * 2 + 1])}`);
    for (let v = 0; v < V; v++) out.push(objVector('vn', n, v * 3, o.yUp));
    draw.meshes.forEach((m, k) => {
      out.push(`g ${m.name.replace(/\s+/g, '_')}`);
      objUseMaterial(out, o, k);
      for (let i = m.firstIndex; i < m.firstIndex + m.indexCount; i += 3) out.push(objFace(draw.indices[i] + 1, draw.indices[i + 1] + 1, draw.indices[i + 2] + 1, true));
    });
    return { text: `${out.join('\n')}\n`, facts: [count(draw.meshes.length, 'mesh', 'meshes'), count(V, 'vertex', 'vertices'), count(draw.indices.length / 3, 'triangle'), fact] };
  } finally {
    poser.dispose();
  }
}
