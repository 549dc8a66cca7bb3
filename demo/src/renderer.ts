/**
 * Draws posed vertices: WebGL2 when the browser gives a context (hardware, or SwiftShader under
 * `--disable-gpu`), else a Canvas 2D painter's-algorithm fallback. Both draw both faces of every triangle
 * and light them two-sided, because MD5, MD2 and MD3 do not agree on winding.
 */
import type { PlayableMaterial, PlayablePart } from 'idtech-models';
import type { ViewMatrices } from './camera.js';

export interface DrawableModel {
  vertexCount: number;
  indices: Uint32Array;
  parts: PlayablePart[];
  /** 2 per vertex; with `materials`, the parts are drawn textured. */
  uvs?: Float32Array;
  materials?: PlayableMaterial[];
}

export interface Renderer {
  readonly kind: 'webgl2' | 'canvas2d';
  setModel(model: DrawableModel): void;
  draw(positions: Float32Array, normals: Float32Array, view: ViewMatrices): void;
  /** Images of the model still being decoded: the next draw after this is 0 shows every texture. */
  readonly pendingTextures: number;
}

/** One colour per part, cycling. */
export const PART_COLOURS: [number, number, number][] = [
  [0.86, 0.62, 0.42],
  [0.45, 0.66, 0.9],
  [0.62, 0.82, 0.5],
  [0.85, 0.5, 0.62],
  [0.8, 0.78, 0.45],
  [0.6, 0.55, 0.88],
];

const VERTEX = `#version 300 es
in vec3 position;
in vec3 normal;
in vec2 uv;
uniform mat4 mvp;
uniform mat3 rotation;
out vec3 viewNormal;
out vec2 texCoord;
void main() {
  gl_Position = mvp * vec4(position, 1.0);
  viewNormal = rotation * normal;
  texCoord = uv;
}`;

// mode: 0 untextured (the part's colour), 1 opaque, 2 alpha-tested (discard below cutoff), 3 blended, 4 additive.
const FRAGMENT = `#version 300 es
precision mediump float;
in vec3 viewNormal;
in vec2 texCoord;
uniform vec3 colour;
uniform sampler2D image;
uniform int mode;
uniform float cutoff;
out vec4 outColour;
void main() {
  vec3 n = normalize(viewNormal);
  float key = abs(dot(n, normalize(vec3(0.4, 0.7, 0.6))));
  float fill = abs(dot(n, normalize(vec3(-0.6, -0.2, 0.5))));
  float light = 0.22 + 0.68 * key + 0.2 * fill;
  if (mode == 0) { outColour = vec4(colour * light, 1.0); return; }
  vec4 t = texture(image, texCoord);
  if (mode == 2 && t.a < cutoff) discard;
  if (mode == 4) { outColour = vec4(t.rgb, 1.0); return; }
  outColour = vec4(t.rgb * min(1.0, light + 0.15), mode == 3 ? t.a : 1.0);
}`;

/** How a part is drawn, from its material (see FRAGMENT's modes). */
function partMode(m: PlayableMaterial | undefined, hasTexture: boolean): number {
  if (!m || !hasTexture) return 0;
  if (m.additive) return 4;
  return m.alphaMode === 'MASK' ? 2 : m.alphaMode === 'BLEND' ? 3 : 1;
}

class WebGl2Renderer implements Renderer {
  readonly kind = 'webgl2';
  private readonly program: WebGLProgram;
  private readonly positionBuffer: WebGLBuffer;
  private readonly normalBuffer: WebGLBuffer;
  private readonly indexBuffer: WebGLBuffer;
  private readonly vao: WebGLVertexArrayObject;
  private readonly uvBuffer: WebGLBuffer;
  private readonly uniforms: Record<'mvp' | 'rotation' | 'colour' | 'mode' | 'cutoff' | 'image', WebGLUniformLocation | null>;
  private parts: PlayablePart[] = [];
  private materials: (PlayableMaterial | undefined)[] = [];
  /** Per part: its texture once uploaded (PNG/JPEG decode asynchronously), else null. */
  private textures: (WebGLTexture | null)[] = [];
  private generation = 0;
  private vertexCount = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.program = link(gl, VERTEX, FRAGMENT);
    const u = (name: string) => gl.getUniformLocation(this.program, name);
    this.uniforms = { mvp: u('mvp'), rotation: u('rotation'), colour: u('colour'), mode: u('mode'), cutoff: u('cutoff'), image: u('image') };
    this.vao = gl.createVertexArray()!;
    gl.bindVertexArray(this.vao);
    this.positionBuffer = this.attribute('position');
    this.normalBuffer = this.attribute('normal');
    this.uvBuffer = this.attribute('uv', 2);
    this.indexBuffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bindVertexArray(null);
  }

  private attribute(name: string, size = 3): WebGLBuffer {
    const gl = this.gl;
    const buffer = gl.createBuffer()!;
    const loc = gl.getAttribLocation(this.program, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
    return buffer;
  }

  pendingTextures = 0;

  /** One texture per distinct image: RGBA8 uploaded now, PNG/JPEG once the browser has decoded them. */
  private loadTextures(materials: readonly (PlayableMaterial | undefined)[]): void {
    const gl = this.gl;
    for (const t of this.textures) if (t) gl.deleteTexture(t);
    const generation = ++this.generation;
    this.textures = materials.map(() => null);
    const byImage = new Map<object, number[]>();
    materials.forEach((m, i) => {
      if (m?.image && !m.invisible) byImage.set(m.image, [...(byImage.get(m.image) ?? []), i]);
    });
    this.pendingTextures = byImage.size;
    for (const [image, parts] of byImage) {
      const upload = (source: ImageBitmap | { width: number; height: number; rgba: Uint8Array }) => {
        if (generation !== this.generation) return;
        this.pendingTextures--;
        const tex = gl.createTexture()!;
        gl.bindTexture(gl.TEXTURE_2D, tex);
        if ('rgba' in source) gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, source.width, source.height, 0, gl.RGBA, gl.UNSIGNED_BYTE, source.rgba);
        else gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
        gl.generateMipmap(gl.TEXTURE_2D);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        for (const p of parts) this.textures[p] = tex;
      };
      const img = image as NonNullable<PlayableMaterial['image']>;
      if ('rgba' in img) upload(img);
      else {
        const bytes = new Uint8Array(img.bytes); // a copy the Blob may keep
        void createImageBitmap(new Blob([bytes], { type: img.mimeType }), { imageOrientation: 'none', premultiplyAlpha: 'none' }).then(upload, () => {
          if (generation === this.generation) this.pendingTextures--; // drawn untextured
        });
      }
    }
  }

  setModel(model: DrawableModel): void {
    const gl = this.gl;
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, model.indices, gl.STATIC_DRAW);
    for (const b of [this.positionBuffer, this.normalBuffer]) {
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, model.vertexCount * 12, gl.DYNAMIC_DRAW);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.uvBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, model.uvs && model.uvs.length === model.vertexCount * 2 ? model.uvs : new Float32Array(model.vertexCount * 2), gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    this.parts = model.parts;
    this.materials = model.parts.map((_, i) => model.materials?.[i]);
    this.loadTextures(this.materials);
    this.vertexCount = model.vertexCount;
  }

  draw(positions: Float32Array, normals: Float32Array, view: ViewMatrices): void {
    const gl = this.gl;
    const canvas = gl.canvas as HTMLCanvasElement;
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(0.05, 0.06, 0.075, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    if (!this.vertexCount) return;
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
    gl.useProgram(this.program);
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, positions, 0, this.vertexCount * 3);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
    gl.bufferSubData(gl.ARRAY_BUFFER, 0, normals, 0, this.vertexCount * 3);
    gl.uniformMatrix4fv(this.uniforms.mvp, false, view.mvp);
    gl.uniformMatrix3fv(this.uniforms.rotation, false, view.rotation);
    gl.uniform1i(this.uniforms.image, 0);
    gl.activeTexture(gl.TEXTURE0);
    // Opaque and alpha-tested parts first, with depth writes; then blended and additive ones over them, without.
    const modes = this.parts.map((_, i) => partMode(this.materials[i], this.textures[i] !== null));
    for (const pass of [0, 1]) {
      const blended = pass === 1;
      gl.depthMask(!blended);
      if (blended) gl.enable(gl.BLEND);
      else gl.disable(gl.BLEND);
      this.parts.forEach((p, i) => {
        const mode = modes[i];
        if (this.materials[i]?.invisible || (mode >= 3) !== blended) return;
        if (mode === 4) gl.blendFunc(gl.ONE, gl.ONE);
        else gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        gl.uniform1i(this.uniforms.mode, mode);
        gl.uniform1f(this.uniforms.cutoff, this.materials[i]?.alphaCutoff ?? 0.5);
        gl.uniform3fv(this.uniforms.colour, PART_COLOURS[i % PART_COLOURS.length]);
        gl.bindTexture(gl.TEXTURE_2D, this.textures[i]);
        gl.drawElements(gl.TRIANGLES, p.indexCount, gl.UNSIGNED_INT, p.firstIndex * 4);
      });
    }
    gl.depthMask(true);
    gl.disable(gl.BLEND);
    gl.bindVertexArray(null);
  }
}

function link(gl: WebGL2RenderingContext, vs: string, fs: string): WebGLProgram {
  const program = gl.createProgram()!;
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]] as const) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(program, s);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`program: ${gl.getProgramInfoLog(program)}`);
  return program;
}

/** Flat-shaded triangles sorted back to front: slow, but draws anywhere a canvas does. */
class Canvas2dRenderer implements Renderer {
  readonly kind = 'canvas2d';
  readonly pendingTextures = 0; // draws untextured
  private model: DrawableModel | null = null;
  private partOf = new Uint8Array(0);
  private depth = new Float32Array(0);
  private order = new Uint32Array(0);
  /** Screen x, y and depth per vertex, refilled every frame. */
  private sx = new Float32Array(0);
  private sy = new Float32Array(0);
  private sz = new Float32Array(0);

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  setModel(model: DrawableModel): void {
    this.model = model;
    const triangles = model.indices.length / 3;
    this.partOf = new Uint8Array(triangles);
    model.parts.forEach((p, i) => this.partOf.fill(i % PART_COLOURS.length, p.firstIndex / 3, (p.firstIndex + p.indexCount) / 3));
    this.depth = new Float32Array(triangles);
    this.order = new Uint32Array(triangles);
    this.sx = new Float32Array(model.vertexCount);
    this.sy = new Float32Array(model.vertexCount);
    this.sz = new Float32Array(model.vertexCount);
  }

  draw(positions: Float32Array, normals: Float32Array, view: ViewMatrices): void {
    const { ctx } = this;
    const { width, height } = ctx.canvas;
    ctx.fillStyle = 'rgb(13, 15, 19)';
    ctx.fillRect(0, 0, width, height);
    const m = this.model;
    if (!m) return;
    const n = m.vertexCount;
    const { sx, sy, sz } = this;
    const a = view.mvp;
    for (let v = 0; v < n; v++) {
      const x = positions[v * 3], y = positions[v * 3 + 1], z = positions[v * 3 + 2];
      const w = a[3] * x + a[7] * y + a[11] * z + a[15];
      sx[v] = (((a[0] * x + a[4] * y + a[8] * z + a[12]) / w) * 0.5 + 0.5) * width;
      sy[v] = (0.5 - ((a[1] * x + a[5] * y + a[9] * z + a[13]) / w) * 0.5) * height;
      sz[v] = (a[2] * x + a[6] * y + a[10] * z + a[14]) / w;
    }
    const idx = m.indices, r = view.rotation;
    const triangles = idx.length / 3;
    for (let t = 0; t < triangles; t++) {
      this.depth[t] = sz[idx[t * 3]] + sz[idx[t * 3 + 1]] + sz[idx[t * 3 + 2]];
      this.order[t] = t;
    }
    this.order.sort((p, q) => this.depth[q] - this.depth[p]);
    for (const t of this.order) {
      const i0 = idx[t * 3], i1 = idx[t * 3 + 1], i2 = idx[t * 3 + 2];
      let nx = 0, ny = 0, nz = 0;
      for (const v of [i0, i1, i2]) {
        nx += normals[v * 3];
        ny += normals[v * 3 + 1];
        nz += normals[v * 3 + 2];
      }
      const vx = r[0] * nx + r[3] * ny + r[6] * nz, vy = r[1] * nx + r[4] * ny + r[7] * nz, vz = r[2] * nx + r[5] * ny + r[8] * nz;
      const len = Math.hypot(vx, vy, vz) || 1;
      const shade = 0.22 + 0.68 * Math.abs((0.4 * vx + 0.7 * vy + 0.6 * vz) / (len * 1.005));
      const c = PART_COLOURS[this.partOf[t]];
      ctx.fillStyle = `rgb(${(c[0] * shade * 255) | 0}, ${(c[1] * shade * 255) | 0}, ${(c[2] * shade * 255) | 0})`;
      ctx.beginPath();
      ctx.moveTo(sx[i0], sy[i0]);
      ctx.lineTo(sx[i1], sy[i1]);
      ctx.lineTo(sx[i2], sy[i2]);
      ctx.closePath();
      ctx.fill();
    }
  }
}

/** WebGL2 unless unavailable or `prefer` is 'canvas2d'. */
export function createRenderer(canvas: HTMLCanvasElement, prefer: 'webgl2' | 'canvas2d' = 'webgl2'): Renderer {
  if (prefer === 'webgl2') {
    const gl = canvas.getContext('webgl2', { antialias: true });
    if (gl) return new WebGl2Renderer(gl);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives neither a WebGL2 nor a 2D canvas context');
  return new Canvas2dRenderer(ctx);
}
