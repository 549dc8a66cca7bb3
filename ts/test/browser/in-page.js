// Runs inside the test page (blank.html): the browser entry imported as plain ESM, no bundler. Kept as a
// browser module rather than functions inside the test so that vitest's transforms never touch it.
import * as front from '/dist/browser.js';
import * as md5 from '/dist/md5.js';
import { wasmSimdSupported } from '/dist/advanced.js';

// the stable door and MD5's entry (its parsers and poser), as an app imports them
const lib = { ...front, ...md5 };

const arrays = (p) => ({ backend: p.backend, positions: Array.from(p.positions), normals: Array.from(p.normals) });

/** Streams an md5mesh + md5anim with fetch().body; poses `frame` and `blend` on WASM ('wasm': SIMD when supported) and TS. */
export async function poseStreamed({ mesh, anim, frame, blend }) {
  let bytes = 0;
  const m = await lib.parseMd5MeshStream((await fetch(mesh)).body, { onProgress: (n) => (bytes = n) });
  const a = await lib.parseMd5AnimStream((await fetch(anim)).body);
  const out = {};
  for (const name of ['wasm', 'ts']) {
    const p = new lib.Md5Poser(await lib.createBackend(name), m);
    p.setAnim(a);
    p.poseFrame(frame);
    const f = arrays({ backend: p.backend.name, positions: p.positions, normals: p.normals });
    p.poseBlend(blend.frame1, blend.frame2, blend.t);
    out[name] = { frame: f, blend: arrays({ backend: p.backend.name, positions: p.positions, normals: p.normals }) };
  }
  return { out, bytes, simd: wasmSimdSupported() };
}

/** The same through the worker mode, plus buffer hand-back and a malformed file's error. */
export async function poseInWorker({ mesh, anim, invalid, frame, blend }) {
  const w = lib.ModelWorker.create();
  try {
    let progress = 0;
    const files = [
      { name: 'mesh.md5mesh', source: (await fetch(mesh)).body },
      { name: 'forward.md5anim', source: (await fetch(anim)).body },
    ];
    const info = await w.open(files, { backend: 'wasm-simd', onProgress: () => progress++ });
    const first = await w.pose(frame);
    const simd = arrays(first);
    // Hand the buffers back: they move to the worker (detached here) and come back refilled.
    const handedBack = first.positions.buffer;
    const blended = await w.pose(blend.frame1, blend.frame2, blend.t, first);
    const detached = handedBack.byteLength === 0;
    const simdBlend = arrays(blended);
    await w.setBackend('ts');
    const ts = arrays(await w.pose(frame));
    let error = null;
    try {
      await w.open([{ name: 'InvalidBoneIndex.md5mesh', source: { url: invalid } }]);
    } catch (e) {
      error = { isTyped: e instanceof lib.ModelParseError, name: e.name, code: e.code, message: e.message, line: e.line };
    }
    return { info: { vertexCount: info.vertexCount, indices: info.indices.length, clips: info.clips }, progress, simd, simdBlend, detached, ts, error };
  } finally {
    w.terminate();
  }
}

/**
 * Any format through the format dispatch (`openPlayable`), streamed with fetch().body: clip `clip`, frames
 * `frame1`→`frame2` blended by `t`, on WASM SIMD and on TS in this thread, and on WASM SIMD in the worker.
 */
export async function posePlayable({ urls, clip, frame1, frame2, t }) {
  const files = async () => Promise.all(urls.map(async (url) => ({ name: url.split('/').pop(), source: (await fetch(url)).body })));
  const model = await lib.openPlayable(await files());
  const out = {};
  for (const name of ['wasm-simd', 'ts']) {
    const player = model.createPlayer(await lib.createBackend(name));
    player.setClip(clip);
    player.poseBlend(frame1, frame2, t);
    out[name] = arrays({ backend: name, positions: player.positions, normals: player.normals });
  }
  const w = lib.ModelWorker.create();
  try {
    const info = await w.open(await files(), { backend: 'wasm-simd' });
    await w.setClip(clip);
    out.worker = arrays(await w.pose(frame1, frame2, t));
    return { format: model.format, clips: model.clips, indices: Array.from(model.indices), workerIndices: info.indices.length, out };
  } finally {
    w.terminate();
  }
}

/** A BakePool with its defaults (module Web Workers on /dist/bake-worker.js sharing one WebAssembly memory, when the page is cross-origin isolated). */
export async function bakeAcrossWorkers({ mesh, anim, frames }) {
  const adv = await import('/dist/advanced.js');
  const m = lib.parseMd5Mesh(new Uint8Array(await (await fetch(mesh)).arrayBuffer()));
  const a = lib.parseMd5Anim(new Uint8Array(await (await fetch(anim)).arrayBuffer()));
  const pool = await adv.BakePool.create(m, a, { workers: 2 });
  try {
    const out = await pool.bake(frames);
    const p = new lib.Md5Poser(await lib.createBackend('wasm'), m);
    p.setAnim(a);
    const ref = p.bakeFrames(frames);
    let same = ref.length === out.length;
    for (let i = 0; same && i < ref.length; i++) same = Object.is(ref[i], out[i]);
    const view = await pool.bakeView(frames);
    let viewSame = ref.length === view.length;
    for (let i = 0; viewSame && i < ref.length; i++) viewSame = Object.is(ref[i], view[i]);
    return { isolated: globalThis.crossOriginIsolated, workers: pool.workers, fallback: pool.fallback, mode: pool.mode, shared: out.buffer instanceof SharedArrayBuffer, same, viewSame, positions: Array.from(out) };
  } finally {
    pool.dispose();
  }
}

/** A model opened in the worker with its textures: from the game folder's URL, and from dropped files (Blobs). */
export async function texturesInWorker({ model, game, modelPath, index }) {
  const w = lib.ModelWorker.create();
  try {
    const summary = (info) => info.materials.map((m) => (m.image ? { path: m.path, width: m.image.width, height: m.image.height, kind: 'rgba' in m.image ? 'rgba' : m.image.mimeType } : null));
    const byUrl = await w.open([{ name: modelPath.split('/').pop(), source: { url: model } }], { textures: { url: game, index, modelPath } });
    const files = await Promise.all(index.map(async (path) => ({ path, blob: await (await fetch(game + path)).blob() })));
    const byFiles = await w.open([{ name: modelPath.split('/').pop(), source: { url: model } }], { textures: { files, modelPath } });
    return { byUrl: summary(byUrl), byFiles: summary(byFiles), uvs: byUrl.uvs.length, vertexCount: byUrl.vertexCount };
  } finally {
    w.terminate();
  }
}

/** A Quake 3 player opened in the worker from its files' URLs, textured from its folder URL, and posed. */
export async function playerInWorker({ folder, game, modelPath, index }) {
  const w = lib.ModelWorker.create();
  try {
    const names = ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg'];
    const info = await w.open(names.map((name) => ({ name, source: { url: `${folder}/${name}` } })), { textures: { url: game, index, modelPath } });
    await w.setClip(info.clips.findIndex((c) => c.name === 'LEGS_RUN'));
    const frame = await w.pose(1, 2, 0.25);
    return { summary: info.summary, parts: info.parts.length, textured: info.materials.filter((m) => m.image).length, vertexCount: info.vertexCount, positions: Array.from(frame.positions) };
  } finally {
    w.terminate();
  }
}
