/**
 * A registration's view (`FormatEntry.view`: what the three.js builders take, by kind) as plain data that crosses
 * from the page's worker to the page by structured clone, its arrays transferred, and back into a view on the other
 * side. The view's few functions run where the view was made (the worker, on its backend): a morph view's frames
 * are each decoded once there (`poser.pose(f, f, 0)`, the calls the morph-target builder makes) and its tags placed
 * at every frame; a skinned view's four influences are chosen there. The page gets a view whose poser hands those
 * frames back and whose tags are read from the table: everything the builders' default modes (morph targets, GPU
 * skinning) ask of a view, and no parse or pose on the page's thread. No format is named here.
 */
import type { ModelView, MorphModelView, SkinnedModelView, TaggedModelView } from 'idtech-models/three';

/** Floats of a placed tag: origin, then three axes. */
const TAG_FLOATS = 12;

export interface MorphData extends Omit<MorphModelView, 'poser' | 'tags'> {
  /** Every frame decoded: frame f's positions (and normals) at [f · V · 3, (f + 1) · V · 3). */
  positions: Float32Array;
  normals: Float32Array;
  /** Tags: names, and each tag k at frame f (orthonormal) at [(k · F + f) · 12, …+ 12). */
  tags?: { names: readonly string[]; placed: Float32Array };
}

export interface SkinnedData extends Omit<SkinnedModelView, 'influences' | 'exact' | 'dispose'> {
  influences: ReturnType<SkinnedModelView['influences']>;
}

export interface TaggedData extends Omit<TaggedModelView, 'parts'> {
  parts: (Omit<TaggedModelView['parts'][number], 'view'> & { view: MorphData })[];
}

export type ViewData = MorphData | SkinnedData | TaggedData;

/** `a` in a buffer of its own (views of WASM memory or of a larger buffer cannot be transferred alone). */
function own<T extends Float32Array | Uint16Array | Uint32Array>(a: T): T {
  return a.slice() as T;
}

function morphData(view: MorphModelView, transfer: Transferable[]): MorphData {
  const { poser, tags, ...rest } = view;
  const n = view.vertexCount * 3;
  const positions = new Float32Array(view.frameCount * n), normals = new Float32Array(view.frameCount * n);
  let placed: Float32Array | null = null;
  try {
    for (let f = 0; f < view.frameCount; f++) {
      const frame = poser.pose(f, f, 0);
      positions.set(frame.positions.subarray(0, n), f * n);
      normals.set(frame.normals.subarray(0, n), f * n);
    }
    if (tags) {
      placed = new Float32Array(tags.names.length * view.frameCount * TAG_FLOATS);
      for (let k = 0; k < tags.names.length; k++) {
        for (let f = 0; f < view.frameCount; f++) tags.place(k, f, f, 0, placed.subarray((k * view.frameCount + f) * TAG_FLOATS, (k * view.frameCount + f + 1) * TAG_FLOATS), true);
      }
    }
  } finally {
    poser.dispose();
  }
  const data: MorphData = { ...rest, triangles: own(view.triangles), st: own(view.st), positions, normals, ...(tags && placed ? { tags: { names: [...tags.names], placed } } : {}) };
  transfer.push(data.triangles.buffer, data.st.buffer, positions.buffer, normals.buffer, ...(placed ? [placed.buffer] : []));
  return data;
}

function skinnedData(view: SkinnedModelView, transfer: Transferable[]): SkinnedData {
  const { influences, exact: _exact, dispose, ...rest } = view;
  try {
    const inf = influences.call(view);
    const clips = view.clips.map((c) => ({ ...c, times: own(c.times), joints: c.joints.map((j) => ({ translation: own(j.translation), rotation: own(j.rotation), ...(j.scale ? { scale: own(j.scale) } : {}), ...(j.scaleStep ? { scaleStep: true } : {}) })) }));
    const data: SkinnedData = { ...rest, positions: own(view.positions), normals: own(view.normals), st: own(view.st), triangles: own(view.triangles), clips, influences: { ...inf, joints: own(inf.joints), weights: own(inf.weights) } };
    transfer.push(data.positions.buffer, data.normals.buffer, data.st.buffer, data.triangles.buffer, data.influences.joints.buffer, data.influences.weights.buffer);
    for (const clip of clips) {
      transfer.push(clip.times.buffer);
      for (const j of clip.joints) for (const a of [j.translation, j.rotation, j.scale]) if (a) transfer.push(a.buffer);
    }
    return data;
  } finally {
    dispose.call(view);
  }
}

/** `view` as data (its posers run and released here); `transfer` collects the buffers to move with it. */
export function viewToData(view: ModelView, transfer: Transferable[]): ViewData {
  if (view.kind === 'morph') return morphData(view, transfer);
  if (view.kind === 'skinned') return skinnedData(view, transfer);
  return { ...view, parts: view.parts.map((p) => ({ ...p, view: morphData(p.view, transfer) })) };
}

function morphView(data: MorphData): MorphModelView {
  const { positions, normals, tags, ...rest } = data;
  const n = data.vertexCount * 3;
  const blend = { positions: new Float32Array(n), normals: new Float32Array(n) };
  const frame = (f: number) => ({ positions: positions.subarray(f * n, (f + 1) * n), normals: normals.subarray(f * n, (f + 1) * n) });
  return {
    ...rest,
    // Frames as decoded in the worker; a blend of two (asked for only by the poser mode, which the page does not use) is their lerp.
    poser: {
      pose(frame1, frame2, t) {
        if (t === 0 || frame1 === frame2) return frame(frame1);
        const a = frame(frame1), b = frame(frame2);
        for (let i = 0; i < n; i++) {
          blend.positions[i] = a.positions[i] + (b.positions[i] - a.positions[i]) * t;
          blend.normals[i] = a.normals[i] + (b.normals[i] - a.normals[i]) * t;
        }
        return blend;
      },
      dispose() {},
    },
    ...(tags
      ? {
          tags: {
            names: tags.names,
            place(k, frame1, frame2, t, out) {
              const at = (f: number) => (k * data.frameCount + f) * TAG_FLOATS;
              for (let c = 0; c < TAG_FLOATS; c++) out[c] = tags.placed[at(frame1) + c] + (tags.placed[at(frame2) + c] - tags.placed[at(frame1) + c]) * t;
              return out;
            },
          },
        }
      : {}),
  };
}

/** The view `data` holds (made by `viewToData`), as the three.js builders take it. */
export function viewFromData(data: ViewData): ModelView {
  if (data.kind === 'morph') return morphView(data);
  if (data.kind === 'skinned') {
    const inf = data.influences;
    return { ...data, influences: () => inf, dispose() {} };
  }
  return { ...data, parts: data.parts.map((p) => ({ ...p, view: morphView(p.view) })) };
}
