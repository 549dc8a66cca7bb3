/**
 * Made-up MDL files for the tests, written here field by field from modelgen.h (not by `writeMdl`, which the tests
 * check): skin groups, frame groups, onseam vertices, QuakeForge MD16, Hexen II RAPO, and any header value.
 */

export interface BuildPose {
  name: string;
  /** 4 × vertexCount bytes: x, y, z, normal index. */
  verts: Uint8Array;
  /** MD16: the low bytes, same layout. */
  low?: Uint8Array;
  min?: number[];
  max?: number[];
}

export type BuildSkin = { pixels: Uint8Array } | { type?: number; intervals: number[]; pictures: Uint8Array[] };
export type BuildFrame = { pose: BuildPose } | { type?: number; intervals: number[]; poses: BuildPose[]; min?: number[]; max?: number[] };

export interface BuildSpec {
  ident?: 'IDPO' | 'MD16' | 'RAPO';
  version?: number;
  scale?: number[];
  origin?: number[];
  radius?: number;
  eye?: number[];
  skinWidth: number;
  skinHeight: number;
  /** Written as numskins unless `numskins` says otherwise. */
  skins: BuildSkin[];
  numskins?: number;
  numverts: number;
  /** One per st vertex (RAPO may have more or fewer than numverts). */
  st: { onseam: number; s: number; t: number }[];
  tris: { front: number; v: number[]; st?: number[] }[];
  numtris?: number;
  frames: BuildFrame[];
  numframes?: number;
  synctype?: number;
  flags?: number;
  size?: number;
  trailing?: Uint8Array;
}

class Out {
  private bytes = new Uint8Array(1024);
  private view = new DataView(this.bytes.buffer);
  length = 0;
  private room(n: number) {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes);
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }
  i32(v: number) {
    this.room(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  u16(v: number) {
    this.room(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }
  f32(v: number) {
    this.room(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  raw(b: ArrayLike<number>) {
    this.room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }
  name(s: string, size: number) {
    const b = new Uint8Array(size);
    for (let i = 0; i < Math.min(size, s.length); i++) b[i] = s.charCodeAt(i);
    this.raw(b);
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

export function buildMdl(spec: BuildSpec): Uint8Array {
  const o = new Out();
  const ident = spec.ident ?? 'IDPO';
  o.raw([...ident].map((c) => c.charCodeAt(0)));
  o.i32(spec.version ?? (ident === 'RAPO' ? 50 : 6));
  for (const v of spec.scale ?? [0.1, 0.2, 0.3]) o.f32(v);
  for (const v of spec.origin ?? [-10, -20, -5]) o.f32(v);
  o.f32(spec.radius ?? 30);
  for (const v of spec.eye ?? [0, 0, 24]) o.f32(v);
  o.i32(spec.numskins ?? spec.skins.length);
  o.i32(spec.skinWidth);
  o.i32(spec.skinHeight);
  o.i32(spec.numverts);
  o.i32(spec.numtris ?? spec.tris.length);
  o.i32(spec.numframes ?? spec.frames.length);
  o.i32(spec.synctype ?? 0);
  o.i32(spec.flags ?? 0);
  o.f32(spec.size ?? 5);
  if (ident === 'RAPO') o.i32(spec.st.length);
  for (const s of spec.skins) {
    if ('pixels' in s) {
      o.i32(0);
      o.raw(s.pixels);
    } else {
      o.i32(s.type ?? 1);
      o.i32(s.pictures.length);
      for (const t of s.intervals) o.f32(t);
      for (const p of s.pictures) o.raw(p);
    }
  }
  for (const s of spec.st) {
    o.i32(s.onseam);
    o.i32(s.s);
    o.i32(s.t);
  }
  for (const t of spec.tris) {
    o.i32(t.front);
    if (ident === 'RAPO') {
      for (const v of t.v) o.u16(v);
      for (const v of t.st ?? t.v) o.u16(v);
    } else for (const v of t.v) o.i32(v);
  }
  const pose = (p: BuildPose) => {
    o.raw(p.min ?? [0, 0, 0, 0]);
    o.raw(p.max ?? [255, 255, 255, 0]);
    o.name(p.name, 16);
    o.raw(p.verts);
    if (ident === 'MD16') o.raw(p.low ?? new Uint8Array(p.verts.length));
  };
  for (const f of spec.frames) {
    if ('pose' in f) {
      o.i32(0);
      pose(f.pose);
    } else {
      o.i32(f.type ?? 1);
      o.i32(f.poses.length);
      o.raw(f.min ?? [1, 2, 3, 0]);
      o.raw(f.max ?? [250, 251, 252, 0]);
      for (const t of f.intervals) o.f32(t);
      for (const p of f.poses) pose(p);
    }
  }
  if (spec.trailing) o.raw(spec.trailing);
  return o.done();
}

/** A deterministic pseudo-random byte stream (xorshift32) for made-up pixels and vertices. */
export function bytesFrom(seed: number, n: number, max = 256): Uint8Array {
  let x = seed >>> 0 || 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x % max;
  }
  return out;
}

/** Vertices of one pose: random positions, normal indices below 162. */
export function poseVerts(seed: number, vertexCount: number): Uint8Array {
  const v = bytesFrom(seed, 4 * vertexCount);
  for (let i = 3; i < v.length; i += 4) v[i] %= 162;
  return v;
}

/**
 * A small model exercising everything: 2 skin records (a single picture and a group of 3), 6 vertices of which 2 are
 * on the seam, 4 triangles (2 facing backwards), a single frame and a group of 3 poses.
 */
export function richSpec(overrides: Partial<BuildSpec> = {}): BuildSpec {
  const W = 8, H = 4, V = 6;
  return {
    skinWidth: W,
    skinHeight: H,
    skins: [{ pixels: bytesFrom(1, W * H) }, { intervals: [0.1, 0.25, 0.5], pictures: [bytesFrom(2, W * H), bytesFrom(3, W * H), bytesFrom(4, W * H)] }],
    numverts: V,
    st: [
      { onseam: 0, s: 1, t: 1 },
      { onseam: 32, s: 0, t: 2 },
      { onseam: 0, s: 3, t: 0 },
      { onseam: 32, s: 0, t: 3 },
      { onseam: 0, s: 2, t: 3 },
      { onseam: 0, s: 1, t: 2 },
    ],
    tris: [
      { front: 16, v: [0, 1, 2] },
      { front: 0, v: [1, 3, 4] },
      { front: 0, v: [2, 1, 3] },
      { front: 16, v: [3, 4, 5] },
    ],
    frames: [
      { pose: { name: 'stand1', verts: poseVerts(10, V) } },
      { intervals: [0.1, 0.2, 0.3], poses: [{ name: 'wave1', verts: poseVerts(11, V) }, { name: 'wave2', verts: poseVerts(12, V) }, { name: 'wave3', verts: poseVerts(13, V) }] },
    ],
    flags: 8,
    ...overrides,
  };
}
