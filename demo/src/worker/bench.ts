/**
 * The WASM-against-TS panel: the open model's playable form (`entry.playable`) posed on every backend, here in the
 * worker, over the frames of one clip — ms per pose (positions and normals: MD5 skeleton + skinning, MD2/MD3 frame
 * blend + normal decode), the median of five runs, each posing the clip's frames in turn for a few milliseconds (one
 * pose of a small model is below the timer's resolution), at least once. Between runs the worker reads its messages,
 * so a model opened meanwhile is not kept waiting, and the measure stops when its signal says so.
 */
import { createBackend, wasmSimdSupported, type BackendName, type ModelPlayer, type PlayableModel, type PoseBackend } from 'idtech-models';
import type { BenchResult } from '../protocol.js';
import type { OpenModel } from './open.js';

export const BACKENDS: BackendName[] = [...(wasmSimdSupported() ? (['wasm-simd'] as const) : []), 'wasm-scalar', 'ts'];

const backends = new Map<BackendName, Promise<PoseBackend>>();
const backend = (name: BackendName) => backends.get(name) ?? backends.set(name, createBackend(name)).get(name)!;

/** The open model's playable and its players, made on first use. */
const playables = new WeakMap<OpenModel, Promise<{ playable: PlayableModel; players: Map<BackendName, ModelPlayer> }>>();

async function playersOf(open: OpenModel) {
  let p = playables.get(open);
  if (!p) {
    p = (async () => {
      if (!open.entry.playable) throw new Error(`${open.entry.title}: no playable form to time`);
      const playable = await open.entry.playable(open.set);
      const players = new Map<BackendName, ModelPlayer>();
      for (const name of BACKENDS) players.set(name, playable.createPlayer(await backend(name)));
      return { playable, players };
    })();
    playables.set(open, p);
  }
  return p;
}

const RUNS = 5;
const RUN_MS = 4;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

async function msPerPose(player: ModelPlayer, frames: number, signal: AbortSignal): Promise<number> {
  const runs: number[] = [];
  let f = 0;
  for (let r = 0; r < RUNS; r++) {
    let poses = 0;
    const t0 = performance.now();
    let elapsed = 0;
    do {
      player.poseBlend(f, Math.min(f + 1, frames - 1), 0.5);
      f = (f + 1) % frames;
      poses++;
      elapsed = performance.now() - t0;
    } while (elapsed < RUN_MS);
    runs.push(elapsed / poses);
    await nextTask();
    signal.throwIfAborted();
  }
  return runs.sort((a, b) => a - b)[runs.length >> 1];
}

export async function benchModel(open: OpenModel, clipName: string, signal: AbortSignal): Promise<BenchResult> {
  const { playable, players } = await playersOf(open);
  const index = Math.max(0, playable.clips.findIndex((c) => c.name === clipName));
  const clip = playable.clips[index];
  const ms: Record<string, number> = {};
  for (const [name, player] of players) {
    player.setClip(index);
    ms[name] = await msPerPose(player, Math.max(1, clip?.frameCount ?? 1), signal);
  }
  return { ms, clip: clip?.name ?? '', vertexCount: playable.vertexCount };
}

/** Frees the players of a model no longer open. */
export async function disposeBench(open: OpenModel): Promise<void> {
  const p = playables.get(open);
  playables.delete(open);
  if (p) for (const player of (await p.catch(() => null))?.players.values() ?? []) player.dispose();
}
