/**
 * The three.js stage: renderer, scene, lights, camera with orbit, pan and zoom (three's OrbitControls), the ground
 * grid and axes, the background colour, frame-to-fit and screenshots; orthographic front / side / top views (the
 * model's own axes: id's X forward, Y left, Z up — three's X, −Z, Y), the lights' strength and the exposure. The model hangs under `stage.holder`, a group
 * the page turns for EF_ROTATE items; everything else (overlays, animation) is the page's.
 */
import { AmbientLight, AxesHelper, Box3, Color, DirectionalLight, GridHelper, Group, HemisphereLight, LinearToneMapping, OrthographicCamera, PerspectiveCamera, Scene, SRGBColorSpace, Vector3, WebGLRenderer, type Object3D } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { posedBox } from './posed.js';

export type StageView = 'perspective' | 'front' | 'side' | 'top';

export class Stage {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly perspective = new PerspectiveCamera(40, 1, 0.01, 1e5);
  readonly ortho = new OrthographicCamera(-1, 1, 1, -1, 0.01, 1e5);
  /** The view: perspective (orbit) or one of the orthographic ones (pan and zoom, no orbit). */
  view: StageView = 'perspective';
  /** The lights as made, and the factor they are scaled by. */
  private readonly lights: { light: { intensity: number }; base: number }[] = [];
  light = 1;
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
  private lastFramed: { object: Object3D; box: Box3 | null } | null = null;

  constructor(readonly canvas: HTMLCanvasElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.outputColorSpace = SRGBColorSpace;
    // linear tone mapping at exposure 1 draws what no tone mapping draws; the exposure control scales it
    this.renderer.toneMapping = LinearToneMapping;
    this.renderer.toneMappingExposure = 1;
    this.scene.background = this.background;
    const hemi = new HemisphereLight(0xffffff, 0x444444, 1.6), ambient = new AmbientLight(0xffffff, 0.4);
    const sun = new DirectionalLight(0xffffff, 2);
    sun.position.set(3, 5, 4);
    for (const l of [hemi, ambient, sun]) this.lights.push({ light: l, base: l.intensity });
    this.scene.add(hemi, ambient, sun, this.holder);
    this.controls = new OrbitControls(this.perspective, canvas);
    this.controls.enableDamping = false;
  }

  /** The camera drawing: the perspective one, or the orthographic one in a front / side / top view. */
  get camera(): PerspectiveCamera | OrthographicCamera {
    return this.view === 'perspective' ? this.perspective : this.ortho;
  }

  /** The lights at `factor` times their strength (0 – 3). */
  setLight(factor: number): void {
    this.light = factor;
    for (const l of this.lights) l.light.intensity = l.base * factor;
  }

  /** The exposure (three's `toneMappingExposure`): everything drawn lit scaled by it. */
  setExposure(v: number): void {
    this.renderer.toneMappingExposure = v;
  }

  /**
   * A view: `perspective` (orbit, pan, zoom) or looking along one of the model's axes with an orthographic camera —
   * `front` (from ahead: id's +X), `side` (from its right: id's −Y), `top` (from above: id's +Z) — pan and zoom only,
   * so it stays square to the axes. Framed on the model's box.
   */
  setView(view: StageView): void {
    this.view = view;
    this.controls.object = this.camera;
    this.controls.enableRotate = view === 'perspective';
    this.reframe();
  }

  private orthoFrustum(): void {
    const size = this.box.isEmpty() ? 10 : this.box.getSize(new Vector3()).length();
    const half = (size / 2) * 1.05, aspect = this.perspective.aspect || 1;
    Object.assign(this.ortho, { left: -half * aspect, right: half * aspect, top: half, bottom: -half, near: size / 200, far: size * 200 });
    this.ortho.updateProjectionMatrix();
  }

  private reframe(): void {
    if (this.view === 'perspective') {
      if (this.lastFramed) this.frame(this.lastFramed.object, this.lastFramed.box);
      return;
    }
    const box = this.box.isEmpty() ? new Box3(new Vector3(-5, -5, -5), new Vector3(5, 5, 5)) : this.box;
    const center = box.getCenter(new Vector3());
    const size = box.getSize(new Vector3()).length() || 1;
    // three's axes: id's X forward is X, its Y left is −Z, its Z up is Y (a hair off the pole, so "up" on screen is forward)
    const along = { front: new Vector3(1, 0, 0), side: new Vector3(0, 0, 1), top: new Vector3(-1e-4, 1, 0).normalize() }[this.view];
    this.ortho.zoom = 1;
    this.orthoFrustum();
    this.ortho.position.copy(center).addScaledVector(along, size * 2);
    this.controls.target.copy(center);
    this.ortho.lookAt(center);
    this.controls.update();
  }

  resize(): void {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const dpr = Math.min(2, devicePixelRatio || 1);
    if (w === 0 || h === 0) return;
    if (this.canvas.width !== Math.floor(w * dpr) || this.canvas.height !== Math.floor(h * dpr)) {
      this.renderer.setPixelRatio(dpr);
      this.renderer.setSize(w, h, false);
      this.perspective.aspect = w / h;
      this.perspective.updateProjectionMatrix();
      this.orthoFrustum();
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
    this.lastFramed = { object, box };
    box = box && !box.isEmpty() ? box : posedBox(object);
    if (box.isEmpty()) return;
    this.box = box;
    if (this.view !== 'perspective') {
      this.reframe();
      this.framed++;
      if (this.grid) this.setGrid(true);
      if (this.axes) this.setAxes(true);
      return;
    }
    this.controls.object = this.perspective;
    const center = box.getCenter(new Vector3());
    const size = box.getSize(new Vector3()).length() || 1;
    const camera = this.perspective;
    camera.near = size / 200;
    camera.far = size * 200;
    // the box's bounding sphere (radius size / 2) inside the narrower of the two fields of view
    const half = Math.min(camera.fov, (2 * Math.atan(Math.tan((camera.fov * Math.PI) / 360) * camera.aspect) * 180) / Math.PI) / 2;
    const distance = (size / 2 / Math.sin((half * Math.PI) / 180)) * 1.02;
    camera.position.copy(center).add(new Vector3(0.55, 0.3, 1).normalize().multiplyScalar(distance));
    camera.updateProjectionMatrix();
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
