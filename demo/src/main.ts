/**
 * The demo page: open a model (dropped, picked, the bundled default, or `?files=url,url`), stream it with a
 * progress bar, play it on the chosen backend, and keep measuring every backend on the frame on screen.
 * Imports the package by name, as a user's bundle would (esbuild resolves its `browser` export).
 *
 * Page state for people and for the browser tests: `body[data-state]` is starting | loading | ready | error,
 * `body[data-renderer]` webgl2 | canvas2d, `#bench tr[data-backend][data-ms]` the measured ms per frame.
 */
import {
  createBackend,
  ModelParseError,
  droppedFileSystem,
  mountGameDir,
  openArchive,
  openPlayable,
  urlFileSystem,
  type BackendName,
  type FileSystem,
  type ModelFile,
  type ModelPlayer,
  type OpenOptions,
  type PlayableModel,
  type PoseBackend,
} from 'idtech-models';
import { catalogModels, clipFrameAtTime, directoryEntryFileSystem, wasmSimdSupported, type CatalogEntry } from 'idtech-models/advanced';
import { BackendBench, type FrameRef } from './bench.js';
import { OrbitCamera } from './camera.js';
import { buildBenchRows, updateBenchRows } from './chart.js';
import { createRenderer } from './renderer.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const DEFAULT_FILES = ['../fixtures/default/worm.md5mesh', '../fixtures/default/worm.md5anim'];

const canvas = $<HTMLCanvasElement>('view');
const renderer = createRenderer(canvas, params.get('renderer') === '2d' ? 'canvas2d' : 'webgl2');
document.body.dataset.renderer = renderer.kind;
const camera = new OrbitCamera();
const bench = new BackendBench();

const names: BackendName[] = [...(wasmSimdSupported() ? (['wasm-simd'] as const) : []), 'wasm-scalar', 'ts'];
const backends = new Map<BackendName, PoseBackend>();
let active: BackendName = names.includes(params.get('backend') as BackendName) ? (params.get('backend') as BackendName) : names[0];

let model: PlayableModel | null = null;
let players = new Map<BackendName, ModelPlayer>();
let clip = 0;
let playing = true;
let animTime = 0;
let scrubFrame = 0;
let benchTurn = 0;
let loadToken = 0;
let loading: AbortController | null = null;

function setState(state: 'starting' | 'loading' | 'ready' | 'error'): void {
  document.body.dataset.state = state;
}

function size(n: number): string {
  if (n < 1024) return `${n} B`;
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function showError(e: unknown, fileName: string): void {
  const box = $('error');
  if (e instanceof ModelParseError) {
    $('error-kind').textContent = `ModelParseError ${e.code}`;
    $('error-message').textContent = e.file !== undefined ? e.message : `${fileName}: ${e.message}`;
  } else {
    const err = e instanceof Error ? e : new Error(String(e));
    $('error-kind').textContent = err.name;
    $('error-message').textContent = err.message;
  }
  box.hidden = false;
}

async function urlFile(url: string, signal: AbortSignal): Promise<ModelFile> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) throw new Error(`${url}: HTTP ${res.status} ${res.statusText}`);
  const size = Number(res.headers.get('content-length'));
  const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() ?? url);
  return { name, source: res.body, size: size > 0 ? size : undefined };
}

const fromUrls = (urls: string[]) => (signal: AbortSignal) => Promise.all(urls.map((u) => urlFile(u, signal)));
const fromFiles = (files: File[]) => async () => files.map((f): ModelFile => ({ name: f.name, source: f.stream(), size: f.size }));

const ARCHIVE = /\.(pk3|pk4|dpk)$/i;

/**
 * A dropped or picked .pk3 / .pk4 / .dpk: its models (read from the central directory; nothing is extracted) fill the
 * archive picker, and the first opens. An md5mesh opens with the md5anims beside it; members stream straight into the
 * parsers, inflated as they are read. A Quake 3 player folder opens assembled (lower, upper, head by their tags).
 */
async function openArchiveFile(file: File): Promise<void> {
  await openCatalog(() => openArchive(file, { name: file.name }), file.name);
}

/** A game folder (picked with the folder button, or dropped): its models and its archives' models, in engine order. */
async function openFolder(getFs: () => Promise<FileSystem>, name: string): Promise<void> {
  await openCatalog(async () => mountGameDir([await getFs()]), name);
}

async function openCatalog(getFs: () => Promise<FileSystem>, name: string): Promise<void> {
  const file = { name };
  try {
    const fs = await getFs();
    const entries = await catalogModels(fs);
    const select = $<HTMLSelectElement>('archive-models');
    select.replaceChildren(...entries.map((e, i) => new Option(`${e.path}${e.kind === 'player' ? '/ (player)' : ''}${e.anims.length ? ` + ${e.anims.length} anims` : ''}`, String(i))));
    $('archive-models-label').hidden = entries.length === 0;
    document.body.dataset.archiveModels = String(entries.length);
    select.onchange = () => void openEntry(fs, entries[Number(select.value)], file.name);
    if (entries.length) await openEntry(fs, entries[0], file.name);
    else throw new Error(`${name}: no .md5mesh, .md2 or .md3 inside`);
  } catch (e) {
    showError(e, file.name);
    setState('error');
  }
}

function openEntry(fs: FileSystem, entry: CatalogEntry, archiveName: string, skin?: string): Promise<void> {
  // A player opens from its parts and animation.cfg (openPlayable assembles it); a model with its md5anims.
  const paths = entry.kind === 'player' ? entry.files : [entry.path, ...entry.anims];
  // The skins an MD3 offers (`<model>_<name>.skin` beside it): a picker when there is a choice.
  const skins = $<HTMLSelectElement>('skin');
  if (skin === undefined) {
    skins.replaceChildren(...entry.skins.map((s) => new Option(s.name, s.name)));
    skin = entry.skins.find((s) => s.name === 'default')?.name ?? entry.skins[0]?.name;
    if (skin) skins.value = skin;
    skins.onchange = () => void openEntry(fs, entry, archiveName, skins.value);
  }
  $('skin-label').hidden = entry.skins.length < 2;
  document.body.dataset.skins = String(entry.skins.length);
  return open(
    (signal) =>
      Promise.all(
        paths.map(async (p): Promise<ModelFile> => {
          const f = await fs.file(p);
          if (!f) throw new Error(`${archiveName}:${p} is listed but cannot be read`);
          return { name: p.slice(p.lastIndexOf('/') + 1), source: f.stream({ signal }), size: f.size };
        }),
      ),
    `${archiveName}:${entry.path}`,
    { fileSystem: fs, modelPath: entry.path, skin },
  );
}

/** Files picked or dropped: an archive lists its models; model files open together. */
function openPicked(files: File[]): void {
  const archive = files.find((f) => ARCHIVE.test(f.name));
  if (archive) void openArchiveFile(archive);
  else if (files.length) {
    $('archive-models-label').hidden = true;
    void open(fromFiles(files), files[0].name);
  }
}

/** Opens a model; on failure shows the typed error and keeps playing the previous model, if any. */
async function open(getFiles: (signal: AbortSignal) => Promise<ModelFile[]>, label: string, textures?: OpenOptions['textures']): Promise<void> {
  loading?.abort();
  const controller = (loading = new AbortController());
  const token = ++loadToken;
  setState('loading');
  $('error').hidden = true;
  const progress = $<HTMLProgressElement>('progress');
  progress.removeAttribute('value'); // indeterminate until the first chunk
  $('progress-text').textContent = `opening ${label}…`;
  let current = label;
  const next = new Map<BackendName, ModelPlayer>();
  try {
    const files = await getFiles(controller.signal);
    const t0 = performance.now();
    const opened = await openPlayable(files, {
      signal: controller.signal,
      onProgress: (read, total, fileName) => {
        current = fileName;
        if (total) progress.value = read / total;
        $('progress-text').textContent = `${fileName}: ${size(read)}${total ? ` of ${size(total)}` : ''}`;
      },
      textures,
    });
    const parseMs = performance.now() - t0;
    for (const name of names) next.set(name, opened.createPlayer(backends.get(name)!)); // validates indices
    if (token !== loadToken) throw null; // a newer open won
    for (const p of players.values()) p.dispose();
    model = opened;
    players = next;
    progress.value = 1;
    $('progress-text').textContent = `${files.map((f) => f.name).join(', ')}: parsed in ${parseMs.toFixed(0)} ms`;
    $('info').textContent = opened.summary;
    renderer.setModel(opened);
    document.body.dataset.texturedParts = String(opened.materials.filter((m) => m.image).length);
    document.body.dataset.images = opened.materials.map((m) => m.path ?? '').join(',');
    if (opened.textureWarnings.length) console.warn(opened.textureWarnings.map((w) => `${w.code}: ${w.message}`).join('\n'));
    setClip(0);
    setPlaying(true);
    const first = players.get(active)!;
    first.poseBlend(0, 0, 0);
    camera.fit(first.positions);
    bench.reset();
    setState('ready');
  } catch (e) {
    for (const p of next.values()) p.dispose();
    if (token !== loadToken || e === null) return;
    progress.value = 0;
    showError(e, current);
    setState('error');
  }
}

function setClip(index: number): void {
  if (!model) return;
  clip = index;
  for (const p of players.values()) p.setClip(index);
  animTime = 0;
  scrubFrame = 0;
  const c = model.clips[index];
  const select = $<HTMLSelectElement>('clip');
  if (select.options.length !== model.clips.length || select.dataset.model !== model.summary) {
    select.replaceChildren(...model.clips.map((k, i) => new Option(`${k.name} (${k.frameCount} frames, ${k.frameRate} fps)`, String(i))));
    select.dataset.model = model.summary;
  }
  select.value = String(index);
  const slider = $<HTMLInputElement>('frame');
  slider.max = String(Math.max(0, c.frameCount - 1));
  slider.value = '0';
}

function setPlaying(on: boolean): void {
  playing = on;
  const b = $('play');
  b.textContent = on ? 'Pause' : 'Play';
  b.setAttribute('aria-pressed', String(on));
}

function setBackend(name: BackendName): void {
  active = name;
  $<HTMLSelectElement>('backend').value = name;
}

function resize(): void {
  const dpr = Math.min(2, window.devicePixelRatio || 1);
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
}

let last = performance.now();
function tick(now: number): void {
  const dt = Math.min(0.1, Math.max(0, (now - last) / 1000));
  last = now;
  if (model) {
    const c = model.clips[clip];
    let f: FrameRef;
    if (playing) {
      animTime += dt;
      f = clipFrameAtTime(c, animTime);
      $<HTMLInputElement>('frame').value = String(f.frame1);
    } else {
      f = { frame1: scrubFrame, frame2: scrubFrame, t: 0 };
    }
    $('frame-text').textContent = `${f.frame1}${f.t > 0 ? `→${f.frame2}` : ''} / ${c.frameCount - 1}`;
    resize();
    const p = players.get(active)!;
    p.poseBlend(f.frame1, f.frame2, f.t);
    renderer.draw(p.positions, p.normals, camera.matrices(canvas.width / canvas.height));
    // One backend measured per display frame, in turn, on the frame being shown.
    const name = names[benchTurn++ % names.length];
    bench.measure(name, players.get(name)!, f);
    updateBenchRows($('bench').querySelector('tbody')!, bench, active, model.vertexCount);
  }
  requestAnimationFrame(tick);
}

function wireUi(): void {
  const backendSelect = $<HTMLSelectElement>('backend');
  backendSelect.replaceChildren(...names.map((n) => new Option(n, n)));
  backendSelect.value = active;
  backendSelect.addEventListener('change', () => setBackend(backendSelect.value as BackendName));
  buildBenchRows($('bench').querySelector('tbody')!, names, setBackend);

  $('error').addEventListener('click', () => ($('error').hidden = true));
  $<HTMLSelectElement>('clip').addEventListener('change', (e) => setClip(Number((e.target as HTMLSelectElement).value)));
  $('play').addEventListener('click', () => setPlaying(!playing));
  $<HTMLInputElement>('frame').addEventListener('input', (e) => {
    setPlaying(false);
    scrubFrame = Number((e.target as HTMLInputElement).value);
  });
  $('default').addEventListener('click', () => void open(fromUrls(DEFAULT_FILES), 'worm'));
  $<HTMLInputElement>('folder').addEventListener('change', (e) => {
    const files = [...((e.target as HTMLInputElement).files ?? [])];
    if (files.length) void openFolder(async () => droppedFileSystem(files), files[0].webkitRelativePath.split('/')[0] || 'folder');
  });
  $<HTMLInputElement>('file').addEventListener('change', (e) => {
    openPicked([...((e.target as HTMLInputElement).files ?? [])]);
  });

  // Drop anywhere on the page.
  let depth = 0;
  const hint = $('drop-hint');
  document.addEventListener('dragenter', (e) => {
    e.preventDefault();
    if (depth++ === 0) (hint.hidden = false), document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    if (--depth === 0) (hint.hidden = true), document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    document.body.classList.remove('dragging');
    const folder = [...(e.dataTransfer?.items ?? [])].map((i) => i.webkitGetAsEntry?.()).find((x) => x?.isDirectory);
    if (folder) void openFolder(() => directoryEntryFileSystem(folder as unknown as Parameters<typeof directoryEntryFileSystem>[0]), folder.name);
    else openPicked([...(e.dataTransfer?.files ?? [])]);
  });

  // Orbit by dragging, zoom with the wheel.
  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    camera.yaw += (e.clientX - drag.x) * 0.01;
    camera.pitch = Math.max(-1.5, Math.min(1.5, camera.pitch + (e.clientY - drag.y) * 0.01));
    drag = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      camera.zoom = Math.max(0.2, Math.min(5, camera.zoom * Math.exp(e.deltaY * 0.001)));
    },
    { passive: false },
  );
}

async function start(): Promise<void> {
  wireUi();
  for (const name of names) backends.set(name, await createBackend(name));
  requestAnimationFrame(tick);
  const urls = params.get('files')?.split(',').filter(Boolean);
  // `&game=URL`: the game folder on the server the model's skins, scripts and images are read from (by name: a server
  // cannot be listed, so shader scripts are not searched); the model's path is its URL below that folder.
  const game = params.get('game');
  const model = urls?.[0] && game ? new URL(urls[0], location.href).href : '';
  const gameUrl = game ? new URL(game.replace(/\/?$/, '/'), location.href).href : '';
  const textures = model.startsWith(gameUrl) && gameUrl ? { fileSystem: urlFileSystem(gameUrl), modelPath: decodeURIComponent(model.slice(gameUrl.length)) } : undefined;
  await open(fromUrls(urls?.length ? urls : DEFAULT_FILES), urls?.length ? urls[0] : 'worm', textures);
}

start().catch((e) => {
  showError(e, 'demo');
  setState('error');
});
