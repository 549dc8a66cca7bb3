/**
 * Draws posed vertices: WebGL2 when the browser gives a context (hardware, or SwiftShader under
 * `--disable-gpu`), else a Canvas 2D painter's-algorithm fallback. Both draw both faces of every triangle
 * and light them two-sided, because MD5, MD2 and MD3 do not agree on winding.
 */
import type { PlayablePart } from 'idtech-models';
import type { ViewMatrices } from './camera.js';

export interface DrawableModel {
  vertexCount: number;
  indices: Uint32Array;
  parts: PlayablePart[];
}

export interface Renderer {
  readonly kind: 'webgl2' | 'canvas2d';
  setModel(model: DrawableModel): void;
  draw(positions: Float32Array, normals: Float32Array, view: ViewMatrices): void;
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
uniform mat4 mvp;
uniform mat3 rotation;
out vec3 viewNormal;
void main() {
  gl_Position = mvp * vec4(position, 1.0);
  viewNormal = rotation * normal;
}`;

const FRAGMENT = `#version 300 es
precision mediump float;
in vec3 viewNormal;
uniform vec3 colour;
out vec4 outColour;
void main() {
  vec3 n = normalize(viewNormal);
  float key = abs(dot(n, normalize(vec3(0.4, 0.7, 0.6))));
  float fill = abs(dot(n, normalize(vec3(-0.6, -0.2, 0.5))));
  outColour = vec4(colour * (0.22 + 0.68 * key + 0.2 * fill), 1.0);
}`;

class WebGl2Renderer implements Renderer {
  readonly kind = 'webgl2';
  private readonly program: WebGLProgram;
  private readonly positionBuffer: WebGLBuffer;
  private readonly normalBuffer: WebGLBuffer;
  private readonly indexBuffer: WebGLBuffer;
  private readonly vao: WebGLVertexArrayObject;
  private readonly uniforms: { mvp: WebGLUniformLocation | null; rotation: WebGLUniformLocation | null; colour: WebGLUniformLocation | null };
  private parts: PlayablePart[] = [];
  private vertexCount = 0;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.program = link(gl, VERTEX, FRAGMENT);
    this.uniforms = { mvp: gl.getUniformLocation(this.program, 'mvp'), rotation: gl.getUniformLocation(this.program, 'rotation'), colour: gl.getUniformLocation(this.program, 'colour') };
    this.vao = gl.createVertexArray()!;
    gl.bindVertexArray(this.vao);
    this.positionBuffer = this.attribute('position');
    this.normalBuffer = this.attribute('normal');
    this.indexBuffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer);
    gl.bindVertexArray(null);
  }

  private attribute(name: string): WebGLBuffer {
    const gl = this.gl;
    const buffer = gl.createBuffer()!;
    const loc = gl.getAttribLocation(this.program, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 3, gl.FLOAT, false, 0, 0);
    return buffer;
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
    gl.bindVertexArray(null);
    this.parts = model.parts;
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
    this.parts.forEach((p, i) => {
      gl.uniform3fv(this.uniforms.colour, PART_COLOURS[i % PART_COLOURS.length]);
      gl.drawElements(gl.TRIANGLES, p.indexCount, gl.UNSIGNED_INT, p.firstIndex * 4);
    });
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
