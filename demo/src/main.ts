/**
 * The model viewer: one page for every format the registry holds, built on `idtech-models/three`. What is opened
 * (files, a folder, an archive, a URL) is mounted and read in the page's worker (`worker.ts`); the page shows the
 * file tree, builds the picked model with the three.js adapter from the view the worker made (`model-build.ts`), and
 * plays it. Nothing here names a format: formats, their titles, clips, channels, tags, skins and spins come from the
 * registrations through the worker.
 *
 * Page state for people and tests: `body[data-state]` (the model: starting | loading | ready | error),
 * `body[data-mount]` (idle | busy | done | error), `data-model`, `data-format`, `data-playing`, `data-frame`, and
 * `window.viewer` (the hooks the browser tests use). `?clock=manual`: animation time moves only by
 * `viewer.advance(seconds)` (tests), `?idle`: no default model, `?url=` an archive or folder, `?files=` model URLs,
 * `?formats=` a same-origin module adding formats.
 */
import { Box3, Vector2, Vector3, type Mesh, type MeshStandardMaterial } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { AnimationPanel } from './animation-panel.js';
import { ControlsPanel } from './controls-panel.js';
import { Animator } from './animation.js';
import { clipRows } from './clips.js';
import { ViewerWorker, WorkerError } from './client.js';
import { showModelInfo } from './info-panel.js';
import { buildModel } from './model-build.js';
import { Overlays, type OverlayName } from './overlays.js';
import { showBench, showPerformance, type PageTimes } from './perf-panel.js';
import { posedVertex } from './posed.js';
import { StatusLine } from './progress.js';
import type { FormatInfo, Inspected, Listing, ModelEntry, MountSource, Opened, ViewControls } from './protocol.js';
import { droppedSource, pickedSource, urlSource } from './sources.js';
import { Stage } from './stage.js';
import { download, el } from './text.js';
import { hang, tagsOf, takeOff, type Hung } from './attach.js';
import { pickJoint, pickVertex, showPicked } from './pick.js';
import { poseObj } from './pose-obj.js';
import { ShaderAnimation } from './shader-anim.js';
import { SurfacePanel, surfacesOf } from './surfaces.js';
import { showImages, showUvLayout, type LayoutSource } from './texture-panel.js';
import type { StageView } from './stage.js';
import { CrowdMode } from './crowd-mode.js';
import { buildTree, FileTree, isImage, type TreeNode } from './tree.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const body = document.body;

const worker = new ViewerWorker(new URL('./worker.js', import.meta.url));
const stage = new Stage($<HTMLCanvasElement>('view'));
const animator = new Animator();
const animPanel = new AnimationPanel($('anim'), animator);
/** The controllers and blending set on the open model (its view's `extras.controls`), baked into its clips by the worker. */
let controlValues: ViewControls = {};
const controlsPanel = new ControlsPanel($('controls'), (values) => {
  controlValues = values;
  if (openedEntry) void openModel(openedEntry, opened?.skin);
});
const crowdMode = new CrowdMode();
const overlays = new Overlays(stage.scene, $('labels'), $('joint-tip'));
const status = new StatusLine($<HTMLProgressElement>('progress'), $('status-text'));
const tree = new FileTree($('tree'), $('tree-note'), (n) => void pickNode(n));
const surfacePanel = new SurfacePanel($('surfaces'), () => invalidate());
const shaderAnim = new ShaderAnimation();
const manualClock = params.get('clock') === 'manual';

let formats: FormatInfo[] = [];
let listing: Listing | null = null;
let model: IdTechModel | null = null;
let opened: Opened | null = null;
let openedEntry: ModelEntry | null = null;
/** Whether the open model's replacement (`Opened.replacement`) is drawn in its place: chosen again for each model. */
let replacementWanted = false;
let inspected: Inspected[] | null = null;
let pageTimes: PageTimes | null = null;
let openToken = 0;
let mountToken = 0;
/** Opens in flight. */
let opening = 0;
/** Models hung on tags of the open one by hand. */
let hung: Hung[] = [];

function showError(e: unknown, where: string): void {
  const err = e instanceof WorkerError || e instanceof Error ? e : new Error(String(e));
  $('error-kind').textContent = err instanceof WorkerError && err.code ? `${err.name} ${err.code}` : err.name;
  // a ModelParseError's message names its file and position already
  $('error-message').textContent = err instanceof WorkerError && err.code ? err.message : `${where}: ${err.message}`;
  $('error').hidden = false;
}

// --- opening -----------------------------------------------------------------------------------------------------

async function mount(source: MountSource): Promise<void> {
  const token = ++mountToken;
  const t0 = performance.now();
  body.dataset.mount = 'busy';
  const task = status.start(`opening ${source.kind === 'files' ? source.name : source.kind === 'url' ? source.url : source.urls.join(', ')}`);
  try {
    const l = await worker.request({ type: 'mount', source }, task.update).reply;
    if (token !== mountToken) return;
    listing = l;
    // a new listing: what was typed to filter the one before does not apply to it
    $<HTMLInputElement>('filter').value = '';
    tree.set(buildTree(l, formats), '');
    body.dataset.mountMs = String(performance.now() - t0);
    body.dataset.mount = 'done';
    body.dataset.models = String(l.models.length);
    body.dataset.listing = l.name;
    $<HTMLButtonElement>('export-all').disabled = l.models.length === 0;
    task.end(`${l.name}: ${l.files.length} files, ${l.models.length} models${l.layers.length > 1 ? ` in ${l.layers.filter((x) => x.kind !== 'loose').length} archives` : ''}${l.warnings.length ? `; ${l.warnings.join('; ')}` : ''}`);
    $('error').hidden = true;
    const first = l.models.find((m) => m.path === params.get('model')) ?? l.models[0];
    if (first) await openModel(first);
    else {
      // nothing here is a model: the one before belongs to what was open before, so it goes too
      clearModel();
      body.dataset.state = 'ready';
      if (!l.files.some((f) => isImage(f.path))) {
        const known = formats.filter((f) => f.role === 'model').flatMap((f) => f.extensions);
        showError(new Error(`no model here (${l.files.length} ${l.files.length === 1 ? 'file' : 'files'}; the models this viewer opens end in ${known.join(' ')}, or come in .pk3 / .pk4 / .dpk / .pak archives or folders)`), l.name);
      }
    }
  } catch (e) {
    task.end('');
    if (token !== mountToken) return;
    body.dataset.mount = 'error';
    // what was open before is not what the user asked for now: the error alone is on screen
    clearModel();
    listing = null;
    tree.set(null, '');
    $<HTMLInputElement>('filter').value = '';
    body.dataset.models = '0';
    body.dataset.listing = '';
    $<HTMLButtonElement>('export-all').disabled = true;
    showError(e, 'opening');
  }
}

// --- hanging models on tags ----------------------------------------------------------------------------------------

function showHangChoices(): void {
  const tags = model ? [...tagsOf(model).keys()] : [];
  $<HTMLSelectElement>('hang-tag').replaceChildren(...tags.map((t) => new Option(t || '(unnamed tag)', t)));
  $<HTMLSelectElement>('hang-model').replaceChildren(...(listing?.models ?? []).filter((m) => !formats.find((f) => f.id === m.kind)?.folder).map((m) => new Option(m.path, m.path)));
  for (const id of ['hang-tag', 'hang-model', 'hang', 'take-off']) ($(id) as HTMLButtonElement).disabled = tags.length === 0;
  showHung();
}

function showHung(): void {
  $('hung').replaceChildren(...hung.map((x) => el('li', `${x.path} on ${x.tag}`)));
  body.dataset.hung = hung.map((x) => `${x.tag}=${x.path}`).join(',');
}

/** Opens the model at `path` (in the worker, beside the open one) and hangs it on `tag`, in place of one hung there. */
async function hangModel(tag: string, path: string): Promise<void> {
  const entry = listing?.models.find((m) => m.path === path);
  const host = model;
  if (!entry || !host) return;
  const task = status.start(`opening ${path} to hang on ${tag}`);
  try {
    const o = await worker.request({ type: 'open-hung', entry }, task.update).reply;
    const built = await buildModel(o);
    if (model !== host) {
      built.dispose();
      return;
    }
    for (const old of hung.filter((x) => x.tag === tag)) takeOff(old);
    hung = hung.filter((x) => x.tag !== tag);
    if (!hang(host, tag, built)) throw new Error(`${host.name} has no tag ${tag}`);
    hung.push({ tag, path, model: built });
    showHung();
    task.end(`${path} hung on ${tag}`);
    invalidate();
  } catch (e) {
    task.end('');
    showError(e, `hanging ${path} on ${tag}`);
  }
}

function takeOffAll(): void {
  for (const h of hung) takeOff(h);
  hung = [];
  showHung();
}

/** No model on screen and nothing about one in the panels (after a failed open). */
function clearModel(): void {
  ++openToken;
  if (model) {
    stage.holder.remove(model.scene);
    model.dispose();
  }
  model = null;
  opened = null;
  openedEntry = null;
  inspected = null;
  pageTimes = null;
  takeOffAll();
  shaderAnim.clear();
  overlays.attach(null, 1);
  surfacePanel.attach([]);
  $('picked').replaceChildren();
  $<HTMLButtonElement>('export-pose').disabled = true;
  animator.clear();
  animPanel.rebuild();
  controlValues = {};
  controlsPanel.show(undefined, {});
  stage.holder.rotation.y = 0;
  for (const id of ['info', 'perf-model', 'textures', 'export-buttons', 'export-result', 'skin', 'spin', 'replacement']) $(id).replaceChildren();
  $('replacement-choice').hidden = true;
  $<HTMLTableElement>('bench').tBodies[0]?.replaceChildren();
  $('textures').dataset.images = '0';
  tree.select(null);
  for (const k of ['model', 'format', 'images', 'textured', 'playing', 'frame', 'key', 'skins', 'inspected', 'bench', 'shaderAnims', 'replacement']) delete body.dataset[k];
  invalidate();
}

function nodeOf(entry: ModelEntry): TreeNode | null {
  return tree.find((n) => n.model?.path === entry.path);
}

/**
 * Opens `entry` (with `skin`) in place of the model on screen. When it fails, the model before is cleared and the
 * error shown alone — unless `keep` (an animation added to the open model that does not fit it: refused, with the
 * model as it was). Whether it opened.
 */
async function openModel(entry: ModelEntry, skin?: string, keep = false): Promise<boolean> {
  const token = ++openToken;
  const t0 = performance.now();
  const sameModel = openedEntry?.path === entry.path;
  // the controllers and blending set on the model stay set while it is reopened (a skin, an added animation); another model starts at rest
  const controls = sameModel ? controlValues : {};
  const replacement = sameModel && replacementWanted;
  // the replacement is another mesh, of its own size: framed anew as another model is
  const reframe = !sameModel || (opened?.replacement?.shown ?? false) !== replacement;
  body.dataset.state = 'loading';
  $('error').hidden = true;
  const task = status.start(`opening ${entry.path}`);
  opening++;
  try {
    const o = await worker.request({ type: 'open', entry, skin, replacement, controls }, task.update).reply;
    if (token !== openToken) return false;
    task.update(1, 1, 'building');
    const t1 = performance.now();
    const built = await buildModel(o);
    if (token !== openToken) {
      built.dispose();
      return false;
    }
    const t2 = performance.now();
    const rehang = sameModel ? hung.map((x) => ({ tag: x.tag, path: x.path })) : [];
    takeOffAll();
    shaderAnim.clear();
    delete body.dataset.shaderAnims;
    if (model) {
      stage.holder.remove(model.scene);
      model.dispose();
    }
    crowdMode.clear();
    $<HTMLInputElement>('crowd-count').value = '0';
    $('crowd-count-value').textContent = '0';
    model = built;
    opened = o;
    openedEntry = entry;
    replacementWanted = replacement;
    inspected = null;
    stage.holder.add(built.scene);
    animator.load(built, clipRows(o.view), o.view.extras?.spin ?? 0);
    animPanel.rebuild();
    controlValues = controls;
    controlsPanel.show(o.view.extras?.controls, controls);
    built.update(0);
    if (reframe) stage.frame(built.scene, everyFrameBox(o, built));
    overlays.attach(built, stage.box.getSize(new Vector3()).length(), o.view.kind === 'skinned' ? o.view.joints.names : []);
    surfacePanel.attach(surfacesOf(o.view, built));
    showHangChoices();
    for (const r of rehang) void hangModel(r.tag, r.path);
    if (!sameModel) $('picked').replaceChildren();
    $<HTMLButtonElement>('export-pose').disabled = false;
    showSkins(o);
    showReplacement(o);
    showExports(o);
    render(0);
    await new Promise(requestAnimationFrame);
    pageTimes = { build: t2 - t1, firstFrame: performance.now() - t0 };
    body.dataset.firstFrameMs = String(pageTimes.firstFrame);
    performance.measure(`pick → first frame: ${entry.path}`, { start: t0, end: t0 + pageTimes.firstFrame });
    task.end(`${o.title}: ${o.path}`);
    tree.select(nodeOf(entry));
    body.dataset.model = o.path;
    body.dataset.format = o.format;
    body.dataset.images = o.materials.materials.map((m) => m.diffuse?.path ?? '').join(',');
    body.dataset.textured = String(texturedMaterials(built));
    body.dataset.state = 'ready';
    invalidate();
    showPanels();
    void followUp(o, token);
    return true;
  } catch (e) {
    task.end('');
    if (token !== openToken) return false;
    if (keep && model) {
      body.dataset.state = 'ready';
      showError(e, entry.path);
      return false;
    }
    clearModel();
    body.dataset.state = 'error';
    showError(e, entry.path);
    return false;
  } finally {
    opening--;
  }
}

/**
 * Plays the animation files at `paths` (in the mounted game) on the open model: the model is opened again with them
 * as its companions (the registration checks each fits — a joint count or hierarchy of its own is refused with
 * ANIM_MESH_MISMATCH, shown, and the model stays as it was), and the first new clip plays.
 */
async function addAnimations(paths: string[]): Promise<void> {
  const entry = openedEntry;
  if (!entry || !model) {
    showError(new Error(`an animation plays on a model: open one first, then pick ${paths.join(', ')} again`), paths.join(', '));
    return;
  }
  const fresh = paths.filter((p) => !entry.anims.some((a) => a.toLowerCase() === p.toLowerCase()));
  const before = new Set(animator.rows.map((r) => r.name));
  body.dataset.added = '';
  if (fresh.length && !(await openModel({ ...entry, anims: [...entry.anims, ...fresh] }, opened?.skin, true))) {
    body.dataset.refused = paths.join(',');
    return;
  }
  // the clip each file became (a new name; an animation already playing on the model: its clip, by the file's name)
  const stem = (p: string) => p.replace(/^.*\//, '').replace(/\.[^.]*$/, '').toLowerCase();
  const added = animator.rows.find((r) => !before.has(r.name)) ?? animator.rows.find((r) => paths.some((p) => stem(p) === r.name.toLowerCase()));
  if (added) {
    animator.pick(added.name);
    animator.paused = false;
    animPanel.refresh(true);
    void measureBackends();
  }
  delete body.dataset.refused;
  body.dataset.added = added?.name ?? '';
  status.start('').end(added ? `playing ${added.name} on ${entry.path}` : '');
  invalidate();
}

/** After the first frame: the inspect summaries, the backend timings and the images, each when the worker has them. */
async function followUp(o: Opened, token: number): Promise<void> {
  const inspect = worker.request({ type: 'inspect' }).reply.then((r) => {
    if (token !== openToken) return;
    inspected = r;
    showPanels();
    body.dataset.inspected = 'true';
  });
  await Promise.all([inspect, measureBackends(token), showTextures(token)]).catch((e) => void (token === openToken && showError(e, o.path)));
}

/** Times every backend on the clip picked last (in the worker); a newer model's opening makes it moot. */
async function measureBackends(token = openToken): Promise<void> {
  if (!animator.primary && animator.rows.length) return;
  body.dataset.bench = 'busy';
  try {
    const r = await worker.request({ type: 'bench', clip: animator.primary ?? '' }).reply;
    if (token !== openToken) return;
    showBench($<HTMLTableElement>('bench'), r);
    body.dataset.bench = 'done';
  } catch (e) {
    if (token === openToken) showError(e, 'timing the backends');
  }
}

async function showTextures(token = openToken): Promise<void> {
  const images = await worker.request({ type: 'images' }).reply;
  if (token !== openToken || !opened) return;
  const missing = opened.materials.materials.filter((m) => m.diffuse && !m.diffuse.path && !m.diffuse.builtin).map((m) => `"${m.surface}": ${m.diffuse!.name} — tried ${m.diffuse!.tried.join(', ') || 'nothing'}`);
  await showImages($('textures'), images, missing);
  showLayout();
  const o = opened;
  await shaderAnim.load(surfacePanel.surfaces, o.materials.materials, images, () => token === openToken && opened === o);
  if (token === openToken) body.dataset.shaderAnims = String(shaderAnim.state().length + shaderAnim.texModState().length);
  invalidate();
}

/** The triangles and texture coordinates of the surfaces that use the image at `path` (any of its maps). */
function layoutSources(path: string): LayoutSource[] {
  if (!opened) return [];
  const uses = (m: Opened['materials']['materials'][number]) => [m.diffuse, m.normal, m.specular, ...(m.animation?.frames ?? []), ...m.others].some((i) => i?.path === path);
  const users = new Set(opened.materials.materials.flatMap((m, k) => (uses(m) ? [k] : [])));
  return surfacePanel.surfaces.filter((s) => users.has(s.index));
}

const showLayout = () => showUvLayout($('textures'), $<HTMLInputElement>('uv-layout').checked, layoutSources);

/** The box every frame of the model lies in (its view's, in the file's axes, taken to the scene's); null when the view has none. */
function everyFrameBox(o: Opened, m: IdTechModel): Box3 | null {
  const b = o.view.kind === 'tagged' ? null : o.view.bounds;
  if (!b) return null;
  m.scene.updateWorldMatrix(true, true);
  return new Box3(new Vector3(...b.min), new Vector3(...b.max)).applyMatrix4(m.root.matrixWorld);
}

function frameModel(): void {
  if (model && opened) stage.frame(model.scene, everyFrameBox(opened, model));
}

function texturedMaterials(m: IdTechModel): number {
  let n = 0;
  m.scene.traverse((o) => {
    const mesh = o as Mesh;
    if (mesh.isMesh) for (const mat of [mesh.material].flat() as MeshStandardMaterial[]) if (mat.map) n++;
  });
  return n;
}

function showPanels(): void {
  if (!opened || !model) return;
  showModelInfo($('info'), opened, inspected, model.warnings);
  showPerformance($('perf'), opened, pageTimes, listing?.ms ?? null);
}

function showSkins(o: Opened): void {
  const select = $<HTMLSelectElement>('skin');
  select.replaceChildren(...(o.skins.length ? o.skins : ['(its own)']).map((s) => new Option(s, o.skins.length ? s : '')));
  select.value = o.skin ?? '';
  select.disabled = o.skins.length < 2;
  body.dataset.skins = String(o.skins.length);
}

/** The choice between the model and what a source port draws in its place (`Opened.replacement`), when it has one. */
function showReplacement(o: Opened): void {
  const r = o.replacement;
  $('replacement-choice').hidden = !r;
  if (!r) {
    $('replacement').replaceChildren();
    delete body.dataset.replacement;
    return;
  }
  const select = $<HTMLSelectElement>('replacement');
  select.replaceChildren(new Option(`original (${openedEntry?.path ?? o.path})`, 'original'), new Option(`replacement (${r.path}: ${r.title}, as ${r.by} draws it)`, 'replacement'));
  select.value = r.shown ? 'replacement' : 'original';
  body.dataset.replacement = select.value;
}

function showExports(o: Opened): void {
  const box = $('export-buttons');
  const button = (text: string, target: string) => {
    const b = el('button', text, { type: 'button' });
    b.addEventListener('click', () => void exportAs(target, b));
    return b;
  };
  box.replaceChildren(button('Download .glb', 'glb'), ...o.writers.map((w) => button(`Download ${w.extension} (${w.title})`, w.id)));
}

async function exportAs(target: string, b: HTMLButtonElement): Promise<void> {
  b.disabled = true;
  const task = status.start(`exporting ${opened?.name}`);
  const out = $('export-result');
  try {
    const r = await worker.request({ type: 'export', target }, task.update).reply;
    download(r.bytes, r.name, r.mimeType);
    out.replaceChildren(el('p', `${r.name}: ${r.bytes.length} bytes${r.facts.length ? `, ${r.facts.join(', ')}` : ''}`), ...r.warnings.map((w) => el('p', w, { class: 'small bad' })));
    body.dataset.exported = r.name;
    task.end(`wrote ${r.name}`);
  } catch (e) {
    task.end('');
    showError(e, `export to ${target}`);
  } finally {
    b.disabled = false;
  }
}

/** Every model of the open folder or archive as a .glb, in one .zip (worker/export-all.ts). */
async function exportAll(b: HTMLButtonElement): Promise<void> {
  b.disabled = true;
  const task = status.start(`exporting every model of ${listing?.name}`);
  const out = $('export-result');
  try {
    const r = await worker.request({ type: 'export-all' }, task.update).reply;
    download(r.bytes, r.name, r.mimeType);
    out.replaceChildren(el('p', `${r.name}: ${r.bytes.length} bytes, ${r.facts.join(', ')}`), ...r.warnings.map((w) => el('p', w, { class: 'small bad' })));
    body.dataset.exported = r.name;
    task.end(`wrote ${r.name}`);
  } catch (e) {
    task.end('');
    showError(e, 'export of every model');
  } finally {
    b.disabled = !listing?.models.length;
  }
}

async function pickNode(n: TreeNode): Promise<void> {
  if (n.model) return void (await openModel(n.model));
  if (n.animation) return addAnimations([n.path]);
  try {
    const img = await worker.request({ type: 'image', path: n.path }).reply;
    ($('textures-section') as HTMLDetailsElement).open = true;
    await showImages($('textures'), [img], []);
    showLayout();
  } catch (e) {
    showError(e, n.path);
  }
}

// --- drawing -----------------------------------------------------------------------------------------------------

/** The last frames' times (ms): between display frames, and spent drawing each on this thread. */
const frames = { interval: [] as number[], cpu: [] as number[] };
function keep(list: number[], v: number): void {
  list.push(v);
  if (list.length > 600) list.shift();
}

let last = performance.now();
function render(dt: number): void {
  if (model) {
    animator.advance(dt);
    for (const h of hung) h.model.update(animator.paused ? 0 : dt * animator.speed);
    shaderAnim.advance(animator.paused ? 0 : dt * animator.speed);
    stage.holder.rotation.y = (animator.angle * Math.PI) / 180;
  }
  crowdMode.update(animator.paused ? 0 : dt * animator.speed);
  stage.resize();
  overlays.update(stage.camera, stage.canvas.clientWidth, stage.canvas.clientHeight);
  const r0 = performance.now();
  stage.render();
  crowdMode.drawn(performance.now() - r0);
  if (crowdMode.mesh && ++crowdFrames % 15 === 0) $('crowd-info').textContent = crowdMode.text();
  animPanel.refresh();
}
let crowdFrames = 0;

/** The crowd mode's count changed: the open model as that many instances (0: the model itself again). */
async function showCrowd(count: number): Promise<void> {
  $('crowd-count-value').textContent = String(count);
  if (!model || !opened) return;
  const box = await crowdMode.show(opened, model, count, stage.holder);
  model.scene.visible = !crowdMode.mesh;
  document.body.dataset.crowd = String(crowdMode.mesh ? count : 0);
  if (crowdMode.mesh && box) stage.frame(crowdMode.mesh, box);
  else frameModel();
  $('crowd-info').textContent = crowdMode.mesh ? crowdMode.text() : count > 0 ? 'No crowd of this kind of model yet (parts hung on tags).' : '';
  invalidate();
}

/**
 * Draws a display frame when something moves: a clip playing, a spin, the camera, a control touched, a model opened.
 * A still model is not drawn again (a page kept open costs nothing while nobody looks at it).
 */
let dirty = true;
const invalidate = () => void (dirty = true);
function tick(now: number): void {
  const dt = Math.min(0.1, Math.max(0, (now - last) / 1000));
  // while a model opens the one on screen holds still: drawing it would compete with the build for the thread (and,
  // on a software renderer, for the cores)
  const moving = !!model && !manualClock && !animator.paused && opening === 0 && (animator.playing.size > 0 || animator.spin !== 0 || shaderAnim.active || !!crowdMode.mesh);
  if (moving || dirty) {
    dirty = false;
    keep(frames.interval, now - last);
    const t0 = performance.now();
    render(manualClock ? 0 : dt);
    keep(frames.cpu, performance.now() - t0);
  }
  last = now;
  requestAnimationFrame(tick);
}

// --- wiring ------------------------------------------------------------------------------------------------------

for (const type of ['input', 'change', 'click', 'keydown', 'wheel', 'pointerdown', 'pointerup', 'resize']) addEventListener(type, invalidate, { capture: true, passive: true });
$<HTMLInputElement>('crowd-count').addEventListener('change', (e) => void showCrowd(Number((e.target as HTMLInputElement).value)));
$<HTMLInputElement>('crowd-count').addEventListener('input', (e) => void ($('crowd-count-value').textContent = (e.target as HTMLInputElement).value));
stage.controls.addEventListener('change', invalidate);

const OVERLAYS: Record<string, OverlayName> = { 'ov-wireframe': 'wireframe', 'ov-skeleton': 'skeleton', 'ov-bounds': 'bounds', 'ov-normals': 'normals', 'ov-tags': 'tags' };
for (const [id, name] of Object.entries(OVERLAYS)) $<HTMLInputElement>(id).addEventListener('change', (e) => overlays.set(name, (e.target as HTMLInputElement).checked));
$<HTMLInputElement>('ov-grid').addEventListener('change', (e) => stage.setGrid((e.target as HTMLInputElement).checked));
$<HTMLInputElement>('ov-axes').addEventListener('change', (e) => stage.setAxes((e.target as HTMLInputElement).checked));
$<HTMLInputElement>('background').addEventListener('input', (e) => stage.setBackground((e.target as HTMLInputElement).value));
$('screenshot').addEventListener('click', async () => download(await stage.screenshot(), `${opened?.name ?? 'view'}.png`));
$('frame-model').addEventListener('click', () => frameModel());
$<HTMLSelectElement>('view-select').addEventListener('change', (e) => {
  stage.setView((e.target as HTMLSelectElement).value as StageView);
  body.dataset.view = stage.view;
});
$<HTMLInputElement>('light').addEventListener('input', (e) => stage.setLight(Number((e.target as HTMLInputElement).value)));
$<HTMLInputElement>('exposure').addEventListener('input', (e) => stage.setExposure(Number((e.target as HTMLInputElement).value)));
$<HTMLInputElement>('uv-layout').addEventListener('change', () => showLayout());
$('hang').addEventListener('click', () => void hangModel($<HTMLSelectElement>('hang-tag').value, $<HTMLSelectElement>('hang-model').value));
$('take-off').addEventListener('click', () => {
  const tag = $<HTMLSelectElement>('hang-tag').value;
  for (const h of hung.filter((x) => x.tag === tag)) takeOff(h);
  hung = hung.filter((x) => x.tag !== tag);
  showHung();
  invalidate();
});
$('export-all').addEventListener('click', (e) => void exportAll(e.currentTarget as HTMLButtonElement));
$('export-pose').addEventListener('click', () => {
  if (!model || !opened) return;
  const name = `${opened.name}_frame${body.dataset.frame ?? 0}.obj`;
  const text = poseObj(model, surfacePanel.surfaces, `${opened.path}, ${body.dataset.playing ?? ''} frame ${body.dataset.frame ?? 0}`, opened.materials.materials.map((m) => m.shaderName));
  download(new TextEncoder().encode(text), name, 'model/obj');
  body.dataset.exported = name;
});
$('skin').addEventListener('change', () => openedEntry && void openModel(openedEntry, $<HTMLSelectElement>('skin').value || undefined));
$('replacement').addEventListener('change', () => {
  if (!openedEntry) return;
  replacementWanted = $<HTMLSelectElement>('replacement').value === 'replacement';
  void openModel(openedEntry, replacementWanted ? undefined : opened?.skin);
});
$('bench-again').addEventListener('click', () => void measureBackends());
$('error').addEventListener('click', () => ($('error').hidden = true));
$<HTMLInputElement>('filter').addEventListener('input', (e) => tree.applyFilter((e.target as HTMLInputElement).value));
$<HTMLInputElement>('pick-files').addEventListener('change', (e) => {
  const files = [...((e.target as HTMLInputElement).files ?? [])];
  if (files.length) void mount(pickedSource(files));
});
$<HTMLInputElement>('pick-folder').addEventListener('change', (e) => {
  const files = [...((e.target as HTMLInputElement).files ?? [])];
  if (files.length) void mount(pickedSource(files));
});
$('url-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $<HTMLInputElement>('url').value.trim();
  if (text) void mount(urlSource(text, modelExtensions()));
});
const modelExtensions = () => formats.filter((f) => f.role === 'model' || f.role === 'animation').flatMap((f) => f.extensions);

// clips: measure the backends again on the clip picked
$('channels').addEventListener('change', () => void measureBackends());

let dragDepth = 0;
document.addEventListener('dragenter', (e) => {
  e.preventDefault();
  if (dragDepth++ === 0) $('drop-hint').hidden = false;
});
document.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) (dragDepth = 0), ($('drop-hint').hidden = true);
});
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  $('drop-hint').hidden = true;
  if (e.dataTransfer) void droppedSource(e.dataTransfer).then((s) => s && (isAnimationDrop(s) ? dropAnimations(s) : mount(s)), (err) => showError(err, 'drop'));
});

const isAnimationFile = (path: string) => formats.some((f) => f.role === 'animation' && f.extensions.some((x) => path.toLowerCase().endsWith(x)));
/** Animation files alone, dropped while a model is open: they play on it (anything else dropped is a new game). */
const isAnimationDrop = (s: MountSource): s is Extract<MountSource, { kind: 'files' }> => s.kind === 'files' && !!model && s.files.length > 0 && s.files.every((f) => isAnimationFile(f.path));

async function dropAnimations(s: Extract<MountSource, { kind: 'files' }>): Promise<void> {
  try {
    await worker.request({ type: 'add-files', files: s.files, origin: s.origin }).reply;
  } catch (e) {
    showError(e, 'drop');
    return;
  }
  await addAnimations(s.files.map((f) => f.path));
}

// keyboard: space plays or pauses, arrows step frames, F frames the model — where keys are not a control's own
document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if (e.ctrlKey || e.metaKey || e.altKey || t.closest('input, select, textarea, button, [role="tree"], summary, a')) return;
  if (e.key === ' ') animPanel.setPlaying(animator.paused);
  else if (e.key === 'ArrowRight') animator.step(1);
  else if (e.key === 'ArrowLeft') animator.step(-1);
  else if (e.key === 'f' || e.key === 'F') {
    frameModel();
  } else return;
  e.preventDefault();
  animPanel.refresh();
});

// picking: a click (not a drag) on the canvas while Pick is on
let downAt: { x: number; y: number } | null = null;
stage.canvas.addEventListener('pointerdown', (e) => (downAt = { x: e.clientX, y: e.clientY }));
stage.canvas.addEventListener('pointerup', (e) => {
  const was = downAt;
  downAt = null;
  if (!was || Math.hypot(e.clientX - was.x, e.clientY - was.y) > 4 || !$<HTMLInputElement>('pick').checked || !model || !opened) return;
  const r = stage.canvas.getBoundingClientRect();
  const x = e.clientX - r.left, y = e.clientY - r.top;
  const joints = opened.view.kind === 'skinned' ? opened.view.joints : null;
  const j = joints ? overlays.jointAt(x, y, stage.camera, r.width, r.height) : null;
  const picked = j !== null && joints ? pickJoint(j, model, joints.names, joints.parents) : pickVertex(new Vector2((x / r.width) * 2 - 1, 1 - (y / r.height) * 2), stage.camera, model, surfacePanel.surfaces, joints?.names ?? []);
  showPicked($('picked'), picked);
  ($('picked-section') as HTMLDetailsElement).open = true;
});

stage.canvas.addEventListener('pointermove', (e) => {
  const r = stage.canvas.getBoundingClientRect();
  overlays.hover(e.clientX - r.left, e.clientY - r.top, stage.camera, r.width, r.height);
});

// --- test hooks --------------------------------------------------------------------------------------------------

declare global {
  interface Window {
    viewer: typeof hooks;
  }
}
const hooks = {
  /** Advances animation time by `seconds` (with `?clock=manual`) and draws. */
  advance(seconds: number): void {
    render(seconds);
  },
  /** Opens the model at `path` in the listing. */
  async open(path: string): Promise<void> {
    const entry = listing?.models.find((m) => m.path === path);
    if (!entry) throw new Error(`no model ${path}`);
    await openModel(entry);
  },
  listing: () => listing,
  /** Draws the open model's replacement (true) or the model itself (false), as the Draw choice does. */
  async showReplacement(on: boolean): Promise<void> {
    if (!openedEntry) throw new Error('no model is open');
    replacementWanted = on;
    await openModel(openedEntry);
  },
  /** The last open's times: the worker's (parse, view, materials, images) and the page's (build, first frame). */
  times: () => (opened ? { ...opened.times, ...pageTimes } : null),
  model: () => model,
  opened: () => opened,
  spinAngle: () => stage.holder.rotation.y,
  joints: () => overlays.joints(stage.camera, stage.canvas.clientWidth, stage.canvas.clientHeight),
  cameraDistance: () => stage.camera.position.distanceTo(stage.controls.target),
  framed: () => stage.framed,
  /** The camera drawing: its kind and the direction it looks in (three's world axes). */
  camera: () => ({ orthographic: stage.view !== 'perspective', direction: stage.camera.getWorldDirection(new Vector3()).toArray() }),
  /** The world positions of tag `tag` of the open model and of the origin of the model hung on it. */
  hungAt(tag: string): { tag: number[]; hung: number[] | null; tagInRoot: number[] } | null {
    const t = model ? tagsOf(model).get(tag) : undefined;
    if (!t || !model) return null;
    model.scene.updateWorldMatrix(true, true);
    const h = hung.find((x) => x.tag === tag);
    const world = t.getWorldPosition(new Vector3());
    const inRoot = model.root.worldToLocal(world.clone());
    return { tag: world.toArray(), hung: h ? h.model.root.getWorldPosition(new Vector3()).toArray() : null, tagInRoot: inRoot.toArray() };
  },
  /** Each animMap surface's picture on show. */
  shaderFrames: () => shaderAnim.state(),
  /** Each tcMod surface's uv transform now. */
  texMods: () => shaderAnim.texModState(),
  /** Triangles of the meshes of the model hung on `tag`. */
  hungTriangles(tag: string): number {
    let n = 0;
    hung.find((x) => x.tag === tag)?.model.root.traverse((o) => {
      const g = (o as Mesh).isMesh ? (o as Mesh).geometry : null;
      if (g) n += (g.index?.count ?? g.getAttribute('position').count) / 3;
    });
    return n;
  },
  /** Where vertex `i` of the model's first mesh is drawn on the canvas (CSS pixels), posed. */
  projectVertex(i: number): { x: number; y: number } | null {
    const mesh = surfacePanel.surfaces[0]?.mesh;
    if (!mesh) return null;
    const p = new Vector3(), n = new Vector3();
    posedVertex(mesh, i, p, n);
    p.project(stage.camera);
    return { x: ((p.x + 1) / 2) * stage.canvas.clientWidth, y: ((1 - p.y) / 2) * stage.canvas.clientHeight };
  },
  /** Triangles three.js drew in a frame drawn now (overlays off: the model's shown surfaces). */
  drawnTriangles(): number {
    render(0);
    return stage.renderer.info.render.triangles;
  },
  /** The mean of every pixel's red, green and blue on the canvas (0–255), drawn now. */
  brightness(): number {
    render(0);
    const gl = stage.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let sum = 0;
    for (let i = 0; i < px.length; i += 4) sum += px[i] + px[i + 1] + px[i + 2];
    return sum / (3 * w * h);
  },
  /** The last frames' intervals and drawing times (ms), and forgets them. */
  frameTimes(): { interval: number[]; cpu: number[] } {
    const out = { interval: frames.interval.splice(0), cpu: frames.cpu.splice(0) };
    return out;
  },
  /** Names of the overlay objects in the scene. */
  overlayObjects(): string[] {
    const out: string[] = [];
    stage.scene.traverse((o) => o.userData.overlay && o.name && out.push(o.name));
    return out;
  },
  /** Pixels on the canvas that are not the background. */
  coverage(): number {
    render(0);
    const gl = stage.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const bg = stage.background.clone().convertLinearToSRGB();
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - bg.r * 255) + Math.abs(px[i + 1] - bg.g * 255) + Math.abs(px[i + 2] - bg.b * 255) > 6) n++;
    return n / (w * h);
  },
};
window.viewer = hooks;

// --- start -------------------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const formatsUrl = params.get('formats') ?? undefined;
  formats = (await worker.request({ type: 'hello', formatsUrl }).reply).formats;
  $('formats').textContent = formats.filter((f) => f.role === 'model').map((f) => f.title).join(' · ');
  requestAnimationFrame(tick);
  const url = params.get('url');
  const files = params.get('files')?.split(',').filter(Boolean);
  if (url) await mount({ kind: 'url', url });
  else if (files?.length) await mount({ kind: 'urls', urls: files });
  else if (!params.has('idle')) {
    const worm = ['models/worm/worm.md5mesh', 'models/worm/worm.md5anim'];
    await mount({ kind: 'urls', urls: worm, index: worm });
  } else body.dataset.state = 'ready';
}

start().catch((e) => {
  body.dataset.state = 'error';
  showError(e, 'starting');
});
