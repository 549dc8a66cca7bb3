/**
 * The three.js stage: renderer, scene, lights, camera with orbit, pan and zoom (three's OrbitControls), the ground
 * grid and axes, the background colour, frame-to-fit and screenshots. The model hangs under `stage.holder`, a group
 * the page turns for EF_ROTATE items; everything else (overlays, animation) is the page's.
 */
import { AmbientLight, AxesHelper, Box3, Color, DirectionalLight, GridHelper, Group, HemisphereLight, PerspectiveCamera, Scene, SRGBColorSpace, Vector3, WebGLRenderer, type Object3D } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { posedBox } from './posed.js';

export class Stage {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(40, 1, 0.01, 1e5);
  readonly controls: OrbitControls;
  /** What the model hangs under (turned for a spinning model). */
  readonly holder = new Group();
  private grid: GridHelper | null = null;
  private axes: AxesHelper | null = null;
  readonly background = new Color(0x0d0f13);
  /** Times the camera was framed on the model (for tests: F pressed, a model opened). */
  framed = 0;
  /** The model's box when last framed (three's Y-up). */
  box = new Box3();

  constructor(readonly canvas: HTMLCanvasElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.outputColorSpace = SRGBColorSpace;
    this.scene.background = this.background;
    this.scene.add(new HemisphereLight(0xffffff, 0x444444, 1.6), new AmbientLight(0xffffff, 0.4));
    const sun = new DirectionalLight(0xffffff, 2);
    sun.position.set(3, 5, 4);
    this.scene.add(sun, this.holder);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
  }

  resize(): void {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const dpr = Math.min(2, devicePixelRatio || 1);
    if (w === 0 || h === 0) return;
    if (this.canvas.width !== Math.floor(w * dpr) || this.canvas.height !== Math.floor(h * dpr)) {
      this.renderer.setPixelRatio(dpr);
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / h;
      this.camera.updateProjectionMatrix();
    }
  }

  render(): void {
    this.resize();
    this.renderer.render(this.scene, this.camera);
  }

  /**
   * Points the camera at `object` so that it fills the view — at `box` when given (the box of every frame, so that
   * the model stays in view as it plays), else at its box as drawn now; the grid and axes are sized to it.
   */
  frame(object: Object3D, box: Box3 | null = null): void {
    box = box && !box.isEmpty() ? box : posedBox(object);
    if (box.isEmpty()) return;
    this.box = box;
    const center = box.getCenter(new Vector3());
    const size = box.getSize(new Vector3()).length() || 1;
    this.camera.near = size / 200;
    this.camera.far = size * 200;
    // the box's bounding sphere (radius size / 2) inside the narrower of the two fields of view
    const half = Math.min(this.camera.fov, (2 * Math.atan(Math.tan((this.camera.fov * Math.PI) / 360) * this.camera.aspect) * 180) / Math.PI) / 2;
    const distance = (size / 2 / Math.sin((half * Math.PI) / 180)) * 1.02;
    this.camera.position.copy(center).add(new Vector3(0.55, 0.3, 1).normalize().multiplyScalar(distance));
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    this.framed++;
    if (this.grid) this.setGrid(true);
    if (this.axes) this.setAxes(true);
  }

  /** `next` in the scene in place of `old` (freed), under `name`. */
  private swap<T extends Object3D & { dispose(): void }>(old: T | null, next: T | null, name: string): T | null {
    old?.removeFromParent();
    old?.dispose();
    if (next) {
      next.name = name;
      this.scene.add(next);
    }
    return next;
  }

  /** A grid on the ground (the model's lowest point), ten cells over twice its size. */
  setGrid(on: boolean): void {
    const box = this.box, size = box.isEmpty() ? 10 : Math.max(...box.getSize(new Vector3()).toArray()) * 2;
    this.grid = this.swap(this.grid, on ? new GridHelper(size, 10, 0x6b7385, 0x343a46) : null, 'ground grid');
    if (this.grid && !box.isEmpty()) this.grid.position.set((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
  }

  /** The world axes at the origin (red X, green Y up, blue Z: three's; the model's own X forward is three's X, its Z up is three's Y). */
  setAxes(on: boolean): void {
    this.axes = this.swap(this.axes, on ? new AxesHelper(this.box.isEmpty() ? 1 : this.box.getSize(new Vector3()).length() * 0.4) : null, 'axes');
  }

  setBackground(css: string): void {
    this.background.set(css);
  }

  /** The canvas as a PNG (the frame just drawn). */
  screenshot(): Promise<Blob> {
    this.render();
    return new Promise((resolve, reject) => this.canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png'));
  }
}
