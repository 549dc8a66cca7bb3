/**
 * An orbit camera around the model's bounding sphere. id Software models are Z-up (Quake and Doom 3 alike);
 * the view turns Z up on screen. Matrices are column-major, as WebGL takes them.
 */
export type Mat4 = Float32Array;

function multiply(a: Mat4, b: Mat4): Mat4 {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    o[c * 4 + r] = s;
  }
  return o;
}

function perspective(fovY: number, aspect: number, near: number, far: number): Mat4 {
  const f = 1 / Math.tan(fovY / 2);
  // prettier-ignore
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, (2 * far * near) / (near - far), 0]);
}

function rotationX(a: number): Mat4 {
  const c = Math.cos(a), s = Math.sin(a);
  return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]);
}

function rotationY(a: number): Mat4 {
  const c = Math.cos(a), s = Math.sin(a);
  return new Float32Array([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]);
}

function translation(x: number, y: number, z: number): Mat4 {
  return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);
}

export interface ViewMatrices {
  /** Model → clip space. */
  mvp: Mat4;
  /** Model → view space rotation (3×3, column-major) for normals. */
  rotation: Float32Array;
}

export class OrbitCamera {
  yaw = -0.6;
  pitch = 0.25;
  zoom = 1;
  private center = [0, 0, 0];
  private radius = 1;

  /** Frames the box around xyz triples (the first posed frame). */
  fit(positions: Float32Array): void {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i + 2 < positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = positions[i + k];
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
    }
    if (!Number.isFinite(lo[0])) return;
    this.center = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
    this.radius = Math.max(1e-6, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
  }

  matrices(aspect: number): ViewMatrices {
    const fov = (40 * Math.PI) / 180;
    const distance = (this.radius / Math.sin(fov / 2)) * 1.05 * this.zoom;
    const [cx, cy, cz] = this.center;
    // Z-up model → Y-up view (−90° about X), then orbit, then back off along −Z.
    const zUp = rotationX(-Math.PI / 2);
    const orbit = multiply(rotationX(this.pitch), multiply(rotationY(this.yaw), zUp));
    const view = multiply(translation(0, 0, -distance), multiply(orbit, translation(-cx, -cy, -cz)));
    const proj = perspective(fov, aspect, Math.max(distance - this.radius * 2, distance / 100), distance + this.radius * 2);
    const rotation = new Float32Array([orbit[0], orbit[1], orbit[2], orbit[4], orbit[5], orbit[6], orbit[8], orbit[9], orbit[10]]);
    return { mvp: multiply(proj, view), rotation };
  }
}
