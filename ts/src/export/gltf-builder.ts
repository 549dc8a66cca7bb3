/**
 * A small glTF 2.0 document builder: the JSON tree plus one binary buffer, written as GLB (one file) or as
 * `.gltf` JSON + `.bin`. It knows the layout rules the Khronos validator checks — every bufferView starts on
 * a 4-byte boundary, accessors carry exact min/max where the spec requires them (POSITION, animation input),
 * empty top-level arrays are left out — so the format exporters only say *what* to store.
 * No Node built-ins: runs in browsers as is.
 */

/** The subset of the glTF 2.0 JSON schema the exporters write (see https://registry.khronos.org/glTF/). */
export interface GltfJson {
  asset: { version: '2.0'; generator: string; copyright?: string };
  scene?: number;
  scenes: { name?: string; nodes?: number[] }[];
  nodes: GltfNode[];
  meshes: GltfMesh[];
  materials: GltfMaterial[];
  textures: { source: number; sampler?: number; name?: string }[];
  images: GltfImage[];
  samplers: { wrapS?: number; wrapT?: number; magFilter?: number; minFilter?: number }[];
  skins: { name?: string; joints: number[]; inverseBindMatrices?: number; skeleton?: number }[];
  animations: GltfAnimation[];
  accessors: GltfAccessor[];
  bufferViews: { buffer: number; byteOffset: number; byteLength: number; byteStride?: number; target?: number }[];
  buffers: { byteLength: number; uri?: string }[];
  extensionsUsed: string[];
  extensionsRequired: string[];
}

export interface GltfNode {
  name?: string;
  children?: number[];
  mesh?: number;
  skin?: number;
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  weights?: number[];
  extras?: Record<string, unknown>;
}

export interface GltfPrimitive {
  attributes: Record<string, number>;
  indices?: number;
  material?: number;
  mode?: number;
  targets?: Record<string, number>[];
}

export interface GltfMesh {
  name?: string;
  primitives: GltfPrimitive[];
  weights?: number[];
  extras?: Record<string, unknown>;
}

/** An image: a file beside the glTF (`uri`) or bytes in the binary buffer (`bufferView` + `mimeType`). */
export type GltfImage = { uri: string; name?: string } | { bufferView: number; mimeType: 'image/png' | 'image/jpeg'; name?: string };

export interface GltfMaterial {
  name?: string;
  pbrMetallicRoughness?: { baseColorTexture?: { index: number }; baseColorFactor?: number[]; metallicFactor?: number; roughnessFactor?: number };
  normalTexture?: { index: number };
  emissiveTexture?: { index: number };
  emissiveFactor?: number[];
  alphaMode?: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff?: number;
  doubleSided?: boolean;
  extras?: Record<string, unknown>;
}

export interface GltfAnimation {
  name?: string;
  channels: { sampler: number; target: { node: number; path: 'translation' | 'rotation' | 'scale' | 'weights' } }[];
  samplers: { input: number; output: number; interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE' }[];
  extras?: Record<string, unknown>;
}

/**
 * Writes the unit quaternion `q` as key `k` of `keys` (4 floats per key), negated when that keeps it in the
 * previous key's hemisphere: q and −q are the same rotation, and so the slerp between neighbours takes the short
 * way, as the engines' does.
 */
export function setRotationKey(keys: Float32Array, k: number, q: ArrayLike<number>): void {
  const o = k * 4;
  const sign = k > 0 && q[0] * keys[o - 4] + q[1] * keys[o - 3] + q[2] * keys[o - 2] + q[3] * keys[o - 1] < 0 ? -1 : 1;
  for (let i = 0; i < 4; i++) keys[o + i] = sign * q[i];
}

/** Appends to `anim` a translation and then a rotation channel on `node`, keyed at the times in accessor `input`. */
export function addTrsChannels(
  b: GltfBuilder, anim: GltfAnimation, node: number, input: number,
  translations: Float32Array, rotations: Float32Array, interpolation: 'LINEAR' | 'STEP',
): void {
  for (const [path, data, type] of [['translation', translations, 'VEC3'], ['rotation', rotations, 'VEC4']] as const) {
    anim.channels.push({ sampler: anim.samplers.length, target: { node, path } });
    anim.samplers.push({ input, output: b.accessor(data, type), interpolation });
  }
}

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4';

export interface GltfAccessor {
  bufferView: number;
  byteOffset?: number;
  componentType: number;
  normalized?: boolean;
  count: number;
  type: AccessorType;
  min?: number[];
  max?: number[];
}

export const ComponentType = { Byte: 5120, UnsignedByte: 5121, Short: 5122, UnsignedShort: 5123, UnsignedInt: 5125, Float: 5126 } as const;
export const BufferTarget = { ArrayBuffer: 34962, ElementArrayBuffer: 34963 } as const;

const COMPONENTS: Record<AccessorType, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };
/** Bytes of one component of each `componentType`. */
export const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };

/** Bytes of one element of `a` (without the padding of a strided view). */
export const elementBytes = (a: GltfAccessor) => COMPONENT_BYTES[a.componentType] * COMPONENTS[a.type];

type AccessorData = Float32Array | Uint32Array | Uint16Array | Int16Array | Uint8Array | Int8Array;

function componentTypeOf(data: AccessorData): number {
  if (data instanceof Float32Array) return ComponentType.Float;
  if (data instanceof Uint32Array) return ComponentType.UnsignedInt;
  if (data instanceof Uint16Array) return ComponentType.UnsignedShort;
  if (data instanceof Int16Array) return ComponentType.Short;
  if (data instanceof Int8Array) return ComponentType.Byte;
  return ComponentType.UnsignedByte;
}

/**
 * Vertex-attribute elements padded to a multiple of 4 bytes, as glTF requires of vertex attributes (glTF 2.0
 * §3.6.2.4: each element aligned to 4 bytes): a VEC3 of bytes takes 4, of shorts 8. `stride` is 0 when the data is
 * already aligned (4-byte components, or element sizes that are multiples of 4) and nothing was padded.
 */
export function padElements(data: Exclude<AccessorData, Float32Array | Uint32Array>, n: number): { bytes: Uint8Array; stride: number } {
  const size = data.BYTES_PER_ELEMENT * n;
  const stride = pad4(size);
  const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (stride === size) return { bytes: src, stride: 0 };
  const count = data.length / n;
  const out = new Uint8Array(count * stride);
  // Byte by byte: an element is 2–6 bytes, where a `subarray` per element (a view object each) cost more than the copy.
  for (let e = 0, s = 0, d = 0; e < count; e++, d += stride) for (let b = 0; b < size; b++) out[d + b] = src[s++];
  return { bytes: out, stride };
}

export const pad4 = (n: number) => Math.ceil(n / 4) * 4; // not `(n + 3) & ~3`: past 2 GiB that is negative

export class GltfBuilder {
  readonly json: GltfJson;
  private readonly chunks: Uint8Array[] = [];
  private byteLength = 0;

  constructor(generator = 'idtech-models') {
    this.json = {
      asset: { version: '2.0', generator },
      scenes: [],
      nodes: [],
      meshes: [],
      materials: [],
      textures: [],
      images: [],
      samplers: [],
      skins: [],
      animations: [],
      accessors: [],
      bufferViews: [],
      buffers: [],
      extensionsUsed: [],
      extensionsRequired: [],
    };
  }

  /** Declares extension `name` as used and, when `required`, as required to load the file (each once). */
  useExtension(name: string, required: boolean): void {
    if (!this.json.extensionsUsed.includes(name)) this.json.extensionsUsed.push(name);
    if (required && !this.json.extensionsRequired.includes(name)) this.json.extensionsRequired.push(name);
  }

  /** Appends `item` to the top-level array `key` and returns its index. */
  add<K extends keyof GltfJson>(key: K, item: GltfJson[K] extends (infer T)[] ? T : never): number {
    const list = this.json[key] as unknown[];
    list.push(item);
    return list.length - 1;
  }

  /** The bytes of a typed array as a new bufferView (4-byte aligned); `byteStride` for padded vertex elements. */
  view(data: ArrayBufferView, target?: number, byteStride?: number): number {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const byteOffset = this.byteLength;
    this.chunks.push(bytes.slice());
    const padded = pad4(bytes.byteLength);
    if (padded > bytes.byteLength) this.chunks.push(new Uint8Array(padded - bytes.byteLength));
    this.byteLength += padded;
    return this.add('bufferViews', { buffer: 0, byteOffset, byteLength: bytes.byteLength, ...(byteStride ? { byteStride } : {}), ...(target ? { target } : {}) });
  }

  /**
   * A tightly packed accessor over its own bufferView. `bounds` adds min/max (required for POSITION and
   * animation inputs), computed on the stored values so they match exactly what the validator reads back.
   */
  accessor(data: AccessorData, type: AccessorType, options: { target?: number; bounds?: boolean; normalized?: boolean } = {}, view?: number): number {
    const n = COMPONENTS[type];
    if (data.length === 0 || data.length % n !== 0) throw new RangeError(`accessor of ${data.length} values is not a whole number of ${type}`);
    const vertexAttribute = options.target === BufferTarget.ArrayBuffer && !(data instanceof Float32Array || data instanceof Uint32Array);
    const padded = view === undefined && vertexAttribute ? padElements(data as Exclude<AccessorData, Float32Array | Uint32Array>, n) : { bytes: data, stride: 0 };
    const accessor: GltfAccessor = {
      bufferView: view ?? this.view(padded.bytes, options.target, padded.stride || undefined),
      componentType: componentTypeOf(data),
      count: data.length / n,
      type,
    };
    if (options.normalized) accessor.normalized = true;
    if (options.bounds) {
      const min = new Array<number>(n).fill(Infinity), max = new Array<number>(n).fill(-Infinity);
      for (let i = 0; i < data.length; i++) {
        const k = i % n, v = data[i];
        if (v < min[k]) min[k] = v;
        if (v > max[k]) max[k] = v;
      }
      accessor.min = min;
      accessor.max = max;
    }
    return this.add('accessors', accessor);
  }

  /**
   * Accessors of one `type`, those of each component type packed back to back in one vertex-attribute bufferView
   * (told apart by byteOffset; the view's byteStride set, as glTF requires of a view that accessors share): one view
   * per component type instead of one per accessor — the JSON of morph targets. Returns their indices in order.
   */
  sharedAccessors(list: AccessorData[], type: AccessorType, options: { bounds?: boolean; normalized?: boolean } = {}): number[] {
    const target = BufferTarget.ArrayBuffer, n = COMPONENTS[type];
    const out: number[] = [];
    for (const ctor of new Set(list.map((d) => d.constructor))) {
      const group = list.flatMap((d, i) => (d.constructor === ctor ? [i] : []));
      if (group.length === 1) {
        out[group[0]] = this.accessor(list[group[0]], type, { ...options, target });
        continue;
      }
      const parts = group.map((i) => {
        const d = list[i];
        return d instanceof Float32Array || d instanceof Uint32Array ? { bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength), stride: 0 } : padElements(d, n);
      });
      const all = new Uint8Array(parts.reduce((s, p) => s + p.bytes.byteLength, 0));
      let o = 0;
      const offsets = parts.map((p) => (all.set(p.bytes, o), (o += p.bytes.byteLength) - p.bytes.byteLength));
      const view = this.view(all, target, parts[0].stride || list[group[0]].BYTES_PER_ELEMENT * n);
      group.forEach((i, k) => {
        out[i] = this.accessor(list[i], type, options, view);
        if (offsets[k]) this.json.accessors[out[i]].byteOffset = offsets[k];
      });
    }
    return out;
  }

  /** The finished JSON object: buffer 0 sized, empty top-level arrays removed (the schema forbids them). */
  document(binUri?: string): Record<string, unknown> {
    const json: Record<string, unknown> = { ...this.json };
    json.buffers = this.byteLength > 0 ? [{ byteLength: this.byteLength, ...(binUri ? { uri: binUri } : {}) }] : [];
    if (this.json.scenes.length > 0 && this.json.scene === undefined) json.scene = 0;
    for (const [key, value] of Object.entries(json)) if (Array.isArray(value) && value.length === 0) delete json[key];
    return json;
  }

  /** The binary buffer (all bufferViews back to back). */
  binary(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.byteLength;
    }
    return out;
  }

  /** One GLB file: the document and the binary buffer (glbFile). */
  glb(): Uint8Array {
    return glbFile(this.document(), this.binary());
  }

  /** `.gltf` JSON text whose buffer 0 lives in a separate file at `binUri` (relative to the .gltf). */
  gltf(binUri: string): { json: string; bin: Uint8Array } {
    return { json: JSON.stringify(this.document(encodeURI(binUri)), null, 1), bin: this.binary() };
  }
}

/** One GLB file: 12-byte header, JSON chunk (space-padded), BIN chunk (`bin`, 4-byte aligned length, when not empty). */
export function glbFile(json: Record<string, unknown>, bin: Uint8Array): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = pad4(jsonBytes.byteLength);
  const binChunk = bin.byteLength > 0 ? 8 + bin.byteLength : 0;
  const total = 12 + 8 + jsonLength + binChunk;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); // 'glTF'
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLength, true);
  dv.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.byteLength, 20 + jsonLength);
  if (binChunk) {
    const o = 20 + jsonLength;
    dv.setUint32(o, bin.byteLength, true);
    dv.setUint32(o + 4, 0x004e4942, true); // 'BIN\0'
    out.set(bin, o + 8);
  }
  return out;
}
