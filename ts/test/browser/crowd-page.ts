/**
 * The crowd test page (ts/test/three/crowd-browser.test.ts): a crowd of a real model drawn by three.js in Chromium
 * through `CrowdMesh` (`three/crowd.ts`) — its GPU skin or frame blend compiled and run by WebGL2 — placed on a grid,
 * each instance its own colour. `window.idtechCrowd.draw(kind)` builds it, renders it at two moments and reports the
 * draw calls of a frame and what the pixels show.
 */
import { AmbientLight, Color, DirectionalLight, Matrix4, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import type { ModelView } from '../../src/formats/model-view.js';
import type { ModelSet } from '../../src/load/model-set.js';
import { entryOwning } from '../../src/registry/formats.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createCrowd } from '../../src/crowd/index.js';
import { CrowdMesh } from '../../src/three/crowd.js';

const canvas = document.getElementById('view3') as HTMLCanvasElement;
const renderer = new WebGLRenderer({ canvas, preserveDrawingBuffer: true });
renderer.setSize(640, 400, false);
const backend = createTsBackend();
const bytes = async (path: string) => new Uint8Array(await (await fetch(`/models/${path}`)).arrayBuffer());

async function viewOf(data: unknown, companions: { name: string; data: unknown }[]): Promise<ModelView> {
  const entry = entryOwning(data);
  const set: ModelSet = { format: entry.id, registration: entry, path: 'model', origin: 'model', data, companions: companions.map((c) => ({ ...c, path: c.name, origin: c.name })), files: [], sideFiles: [], warnings: [] };
  return entry.view!(set, backend);
}

const MODELS = {
  skinned: async () => {
    const mesh = parseMd5Mesh(await bytes('res-players_src.dpkdir/models/players/human_naked/body.md5mesh'));
    const anims = await Promise.all(['walk', 'swim'].map(async (n) => ({ name: n, data: parseMd5Anim(await bytes(`res-players_src.dpkdir/models/players/human_nobsuit_common/${n}.md5anim`)) })));
    return viewOf(mesh, anims);
  },
  morph: async () => viewOf(parseMd2(await bytes('assimp/test/models-nonbsd/MD2/dolphin.md2')), []),
};

function pixels(): Uint8Array {
  const gl = renderer.getContext();
  const out = new Uint8Array(640 * 400 * 4);
  gl.readPixels(0, 0, 640, 400, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

async function draw(kind: keyof typeof MODELS) {
  const view = await MODELS[kind]();
  const side = 5;
  const crowd = createCrowd(view, side * side, { backend, seed: 9 });
  const mesh = new CrowdMesh(crowd, view);
  const b = view.kind === 'tagged' ? null : view.bounds!;
  const size = b ? Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) : 1;
  for (let i = 0; i < crowd.count; i++) {
    mesh.setMatrixAt(i, new Matrix4().makeRotationY(i * 0.7).setPosition(((i % side) - 2) * size * 1.1, 0, (Math.floor(i / side) - 2) * size * 1.1));
    mesh.setColorAt(i, new Color().setHSL(i / crowd.count, 0.8, 0.6));
  }
  const scene = new Scene();
  scene.add(new AmbientLight(0xffffff, 1), mesh);
  const sun = new DirectionalLight(0xffffff, 2);
  sun.position.set(1, 2, 1);
  scene.add(sun);
  const camera = new PerspectiveCamera(50, 640 / 400, size * 0.1, size * 100);
  camera.position.set(0, size * 4.5, size * 6);
  camera.lookAt(new Vector3(0, 0, 0));
  renderer.setClearColor(0x000000, 1);
  renderer.render(scene, camera);
  const calls = renderer.info.render.calls;
  const a = pixels();
  mesh.update(0.4);
  renderer.render(scene, camera);
  const c = pixels();
  let covered = 0, changed = 0;
  const colours = new Set<number>();
  for (let p = 0; p < a.length; p += 4) {
    if (a[p] + a[p + 1] + a[p + 2] > 0) {
      covered++;
      colours.add(((a[p] >> 4) << 8) | ((a[p + 1] >> 4) << 4) | (a[p + 2] >> 4));
    }
    if (a[p] !== c[p] || a[p + 1] !== c[p + 1] || a[p + 2] !== c[p + 2]) changed++;
  }
  const surfaces = mesh.meshes.length;
  mesh.dispose();
  return { calls, surfaces, instances: crowd.count, coverage: covered / (a.length / 4), changed: changed / (a.length / 4), colours: colours.size };
}

declare global {
  interface Window {
    idtechCrowd: { draw: typeof draw };
  }
}
window.idtechCrowd = { draw };
document.body.dataset.state = 'ready';
