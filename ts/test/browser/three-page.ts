/**
 * The three.js adapter's test page (ts/test/three/browser.test.ts builds it; the model viewer, demo/, is the page
 * for people): a model loaded with `IdTechLoader` from `idtech-models/three`, drawn by three.js with its
 * textures, played with the model's clips. Models come from the shared corpus the server maps at /models/ (each
 * preset mounts its game folder as a file system indexed by MANIFEST.tsv, so shader scripts are found as on disk),
 * from dropped or picked files (`droppedFileSystem`), or from `?files=URL,URL` / `?folder=URL/`.
 *
 * Page state for people and the browser tests: `body[data-state]` starting | loading | ready | error, and
 * `window.idtechThree` (load a preset, set the animation time, render one frame, measure the pixels).
 */
import { AmbientLight, Box3, Color, DirectionalLight, HemisphereLight, PerspectiveCamera, Scene, SRGBColorSpace, Vector3, WebGLRenderer, type Mesh, type MeshStandardMaterial, type Texture } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { ModelParseError } from 'idtech-models';
import { droppedFileSystem, urlFileSystem, type FileSystem } from 'idtech-models/files';
import { IdTechLoader, type IdTechModel } from 'idtech-models/three';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);

interface Preset {
  label: string;
  /** The game folder under /models/. */
  root: string;
  /**
   * true: mount the folder as a file system indexed by MANIFEST.tsv (so shader scripts are listed, as on disk);
   * false: plain URLs (surfaces' images found by HEAD requests, as any web server allows).
   */
  indexed: boolean;
  /** Paths in that folder: what IdTechLoader.loadAsync takes. */
  files: string[];
  /** Clips to start with (a player: legs, torso). */
  play: string[];
  /** Clips for the gallery picture, when not `play`. */
  gallery?: string[];
  /** Where the browser test samples two different poses. */
  times: [number, number];
}

const PRESETS: Record<string, Preset> = {
  drone: { label: 'MD5 — Red Eclipse drone (md5.cfg skin)', root: '', indexed: false, files: ['actors/drone/mesh.md5mesh', 'actors/drone/forward.md5anim', 'actors/drone/death.md5anim', 'actors/drone/idle.md5anim'], play: ['forward'], times: [0.05, 0.3] },
  player: { label: 'Quake 3 player — Tremulous human_bsuit', root: 'res-players_src.dpkdir/', indexed: false, files: ['models/players/human_bsuit/'], play: ['BOTH_DEATH1'], gallery: ['LEGS_WALKCR', 'TORSO_GESTURE'], times: [0.1, 0.9] },
  launcher: { label: 'MD3 — grenade launcher (60 frames, shader + .mtr)', root: 'aaa-assets/', indexed: true, files: ['models/weapons/grenade_launcher/grenade_launcher.md3'], play: [], times: [0, 1.0] },
  dolphin: { label: 'MD2 — assimp dolphin (BMP skin beside it)', root: '', indexed: false, files: ['assimp/test/models-nonbsd/MD2/dolphin.md2'], play: ['jump'], times: [0.2, 2.0] },
};

const canvas = $<HTMLCanvasElement>('view3');
const renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.outputColorSpace = SRGBColorSpace;
const scene = new Scene();
const BACKGROUND = new Color(0x0d0f13);
scene.background = BACKGROUND;
scene.add(new HemisphereLight(0xffffff, 0x444444, 1.6), new AmbientLight(0xffffff, 0.4));
const sun = new DirectionalLight(0xffffff, 2);
sun.position.set(3, 5, 4);
scene.add(sun);
const camera = new PerspectiveCamera(40, 10 / 7, 0.01, 1e5);
const controls = new OrbitControls(camera, canvas);

let manifest: Promise<string[]> | null = null;
let current: IdTechModel | null = null;
/** Models shown side by side (`?gallery`): each formats' preset, scaled to one height. */
const gallery: IdTechModel[] = [];
let playing = true;
let lastTick = performance.now();

function setState(s: 'starting' | 'loading' | 'ready' | 'error'): void {
  document.body.dataset.state = s;
}

function resize(): void {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== Math.floor(w * devicePixelRatio) || canvas.height !== Math.floor(h * devicePixelRatio)) {
    renderer.setPixelRatio(devicePixelRatio);
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
}

/** Every path under /models/ (MANIFEST.tsv's second column), fetched once. */
function manifestPaths(): Promise<string[]> {
  manifest ??= fetch('/models/MANIFEST.tsv').then((r) => r.text()).then((t) => t.trim().split('\n').slice(1).map((l) => l.split('\t')[1]));
  return manifest;
}

/** A preset's game folder as a URL file system indexed by the manifest (so `scripts/*.shader` can be listed). */
async function presetFileSystem(root: string): Promise<FileSystem> {
  const index = (await manifestPaths()).filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
  return urlFileSystem(new URL(`/models/${root}`, location.href), { index });
}

function showError(e: unknown): void {
  $('error').hidden = false;
  $('error-kind').textContent = e instanceof ModelParseError ? `${e.code}` : 'Error';
  $('error-message').textContent = e instanceof Error ? e.message : String(e);
  setState('error');
}

function frameModel(model: IdTechModel): void {
  model.scene.updateMatrixWorld(true);
  const box = new Box3().setFromObject(model.scene, true);
  const center = box.getCenter(new Vector3());
  const size = box.getSize(new Vector3()).length() || 1;
  camera.near = size / 100;
  camera.far = size * 100;
  camera.position.copy(center).add(new Vector3(0.55, 0.35, 1).normalize().multiplyScalar(size * 1.05));
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

function fillClips(model: IdTechModel, play: string[]): void {
  const clip = $<HTMLSelectElement>('clip'), torso = $<HTMLSelectElement>('torso');
  const names = model.animations.map((c) => c.name);
  const isPlayer = model.format === 'player';
  const legsNames = isPlayer ? names.filter((n) => !n.startsWith('TORSO_')) : names;
  clip.replaceChildren(...legsNames.map((n) => new Option(n, n)));
  torso.replaceChildren(new Option('(with the legs clip)', ''), ...names.filter((n) => n.startsWith('TORSO_')).map((n) => new Option(n, n)));
  $('torso-row').hidden = !isPlayer;
  const first = play.length ? play : names.slice(0, 1);
  if (first[0]) clip.value = first[0];
  torso.value = first[1] ?? '';
  playSelected();
}

function playSelected(): void {
  if (!current || current.animations.length === 0) return;
  const names = [$<HTMLSelectElement>('clip').value, $<HTMLSelectElement>('torso').value].filter(Boolean);
  current.play(...names);
}

function showWarnings(model: IdTechModel): void {
  $('warnings').replaceChildren(...model.warnings.map((w) => Object.assign(document.createElement('li'), { textContent: `${w.code}: ${w.message}` })));
}

function showCode(files: string[], fs: string): void {
  const list = files.length === 1 ? `'${files[0]}'` : `[${files.map((f) => `'${f}'`).join(', ')}]`;
  $('code').textContent = `import { IdTechLoader } from 'idtech-models/three';\nconst model = await new IdTechLoader()${fs}.loadAsync(${list});\nscene.add(model.scene); model.play();  // each frame: model.update(dt)`;
}

/** Loads files from `fs` (or URLs when null) and shows the model; resolves when it is on screen. */
async function load(files: string[], fs: FileSystem | null, play: string[] = []): Promise<IdTechModel> {
  setState('loading');
  $('error').hidden = true;
  $<HTMLProgressElement>('progress').value = 0;
  const loader = new IdTechLoader().setFileSystem(fs).setSkinning($<HTMLSelectElement>('skinning').value as 'gpu' | 'exact').setMorph($<HTMLSelectElement>('morph').value as 'targets' | 'poser');
  try {
    const model = await loader.loadAsync(files, (e) => {
      if (e.lengthComputable) $<HTMLProgressElement>('progress').value = e.loaded / e.total;
    });
    if (current) {
      scene.remove(current.scene);
      current.dispose();
    }
    current = model;
    scene.add(model.scene);
    frameModel(model);
    fillClips(model, play);
    showWarnings(model);
    showCode(files, fs ? '.setFileSystem(fs)' : '');
    $('info').textContent = `${model.format}: ${model.animations.length} clips, ${model.materials.filter((m) => m.diffuse?.path).length}/${model.materials.length} surfaces with an image`;
    $<HTMLProgressElement>('progress').value = 1;
    setState('ready');
    return model;
  } catch (e) {
    showError(e);
    throw e;
  }
}

/** What `loadAsync` takes for a preset, and from where. */
async function presetSource(p: Preset): Promise<{ files: string[]; fs: FileSystem | null }> {
  return p.indexed ? { files: p.files, fs: await presetFileSystem(p.root) } : { files: p.files.map((f) => `/models/${p.root}${f}`), fs: null };
}

async function loadPreset(name: string): Promise<IdTechModel> {
  const p = PRESETS[name];
  if (!p) throw new RangeError(`no preset ${name}`);
  $<HTMLSelectElement>('preset').value = name;
  const { files, fs } = await presetSource(p);
  return load(files, fs, p.play);
}

/** Every preset at once, side by side, each scaled into a unit box, turned to face the camera, playing (the docs' picture). */
async function showGallery(): Promise<void> {
  setState('loading');
  document.body.classList.add('gallery');
  resize();
  const slot = 1.2;
  const presets = Object.values(PRESETS);
  for (const [i, p] of presets.entries()) {
    const { files, fs } = await presetSource(p);
    const model = await new IdTechLoader().setFileSystem(fs).loadAsync(files);
    model.scene.rotation.y = -Math.PI / 2 + 0.5; // id's forward (+X) towards the camera, three-quarter view
    model.play(...(p.gallery ?? p.play));
    model.update(0);
    const fit = () => {
      model.scene.updateMatrixWorld(true);
      return new Box3().setFromObject(model.scene, true);
    };
    const size = fit().getSize(new Vector3());
    model.scene.scale.setScalar(1 / Math.max(size.x, size.y, size.z));
    const box = fit();
    model.scene.position.set(i * slot - (box.min.x + box.max.x) / 2, -box.min.y, -(box.min.z + box.max.z) / 2);
    scene.add(model.scene);
    gallery.push(model);
  }
  const mid = ((presets.length - 1) * slot) / 2;
  const halfWidth = (presets.length * slot) / 2;
  const distance = halfWidth / (Math.tan((camera.fov * Math.PI) / 360) * camera.aspect) + 0.4;
  camera.position.set(mid, 0.9, distance);
  controls.target.set(mid, 0.42, 0);
  controls.update();
  setState('ready');
}

/** Pixel measures of what is on the canvas: how much is not background, how colourful it is, and the pixels themselves. */
function measure(): { coverage: number; chroma: number; colours: number; pixels: Uint8Array; width: number; height: number } {
  const gl = renderer.getContext();
  const width = gl.drawingBufferWidth, height = gl.drawingBufferHeight;
  const pixels = new Uint8Array(width * height * 4);
  gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const bg = BACKGROUND.clone().convertLinearToSRGB();
  const [br, bgG, bb] = [bg.r * 255, bg.g * 255, bg.b * 255];
  let covered = 0, chroma = 0;
  const colours = new Set<number>();
  for (let i = 0; i < pixels.length; i += 4) {
    const r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
    if (Math.abs(r - br) + Math.abs(g - bgG) + Math.abs(b - bb) <= 6) continue;
    covered++;
    chroma += Math.max(r, g, b) - Math.min(r, g, b);
    colours.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3));
  }
  return { coverage: covered / (width * height), chroma: covered ? chroma / covered : 0, colours: colours.size, pixels, width, height };
}

/** Renders the current pose with every texture taken off (grey, as an untextured surface is), measures, puts them back. */
function measureUntextured(): ReturnType<typeof measure> {
  const saved: [MeshStandardMaterial, Texture | null, number][] = [];
  current?.scene.traverse((o) => {
    const mesh = o as Mesh;
    if (!mesh.isMesh) return;
    for (const m of [mesh.material].flat() as MeshStandardMaterial[]) {
      saved.push([m, m.map, m.color.getHex()]);
      m.map = null;
      m.color.set(0xb0b0b0);
      m.needsUpdate = true;
    }
  });
  renderer.render(scene, camera);
  const out = measure();
  for (const [m, map, color] of saved) {
    m.map = map;
    m.color.setHex(color);
    m.needsUpdate = true;
  }
  renderer.render(scene, camera);
  return out;
}

/** The model at `seconds` of its clips, drawn once (for tests and screenshots: no clock involved). */
function renderAt(seconds: number): void {
  playing = false;
  for (const m of [...gallery, ...(current ? [current] : [])]) {
    m.mixer.setTime(seconds);
    m.sync();
  }
  resize();
  renderer.render(scene, camera);
}

function tick(now: number): void {
  const dt = Math.min(0.1, (now - lastTick) / 1000);
  lastTick = now;
  if (playing) for (const m of [...gallery, ...(current ? [current] : [])]) m.update(dt);
  resize();
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(tick);
}

// --- wiring ----------------------------------------------------------------------------------------------------
$<HTMLSelectElement>('preset').replaceChildren(...Object.entries(PRESETS).map(([k, p]) => new Option(p.label, k)));
$('preset').addEventListener('change', () => void loadPreset($<HTMLSelectElement>('preset').value).catch(() => {}));
for (const id of ['skinning', 'morph']) $(id).addEventListener('change', () => void loadPreset($<HTMLSelectElement>('preset').value).catch(() => {}));
$('clip').addEventListener('change', playSelected);
$('torso').addEventListener('change', playSelected);
$('play').addEventListener('click', () => {
  playing = !playing;
  $('play').textContent = playing ? 'Pause' : 'Play';
  $('play').setAttribute('aria-pressed', String(playing));
});
/** Dropped or picked files: a file system of them; the model files among them are what is loaded. */
function openFiles(list: File[]): void {
  const fs = droppedFileSystem(list);
  const paths = list.map((f) => (f.webkitRelativePath || f.name).replace(/\\/g, '/'));
  const root = paths.length && paths.every((p) => p.includes('/') && p.split('/')[0] === paths[0].split('/')[0]) ? `${paths[0].split('/')[0]}/` : '';
  const rel = paths.map((p) => p.slice(root.length));
  const parts = rel.filter((p) => /(^|\/)(lower|upper|head)\.md3$/i.test(p));
  const models = parts.length === 3 ? [parts[0].replace(/[^/]*$/, '')] : rel.filter((p) => /\.(md5mesh|md5anim|md2|md3)$/i.test(p));
  void load(models, fs).catch(() => {});
}
$<HTMLInputElement>('file').addEventListener('change', (e) => openFiles([...((e.target as HTMLInputElement).files ?? [])]));
addEventListener('dragover', (e) => e.preventDefault());
addEventListener('drop', (e) => {
  e.preventDefault();
  openFiles([...(e.dataTransfer?.files ?? [])]);
});

declare global {
  interface Window {
    idtechThree: { loadPreset: typeof loadPreset; renderAt: typeof renderAt; measure: typeof measure; measureUntextured: typeof measureUntextured; presets: typeof PRESETS; current: () => IdTechModel | null };
  }
}
window.idtechThree = { loadPreset, renderAt, measure, measureUntextured, presets: PRESETS, current: () => current };

const files = params.get('files')?.split(',').filter(Boolean);
const folder = params.get('folder');
if (files?.length || folder) void load(folder ? [folder] : files!, null).catch(() => {});
else if (params.has('gallery')) void showGallery().catch(showError);
else if (!params.has('idle')) void loadPreset(params.get('preset') ?? 'drone').catch(() => {});
else setState('ready');
requestAnimationFrame(tick);
