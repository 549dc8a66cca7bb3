/**
 * Messages between `ModelWorker` (main thread) and `worker.ts`. The worker first says `ready`; every request
 * carries an `id` (from 1), and the worker answers each with exactly one `done` or `failed` of the same id (and `progress` messages before an `open`
 * completes). Posed vertices come back in buffers that are transferred, never copied, and the caller may
 * hand them back with the next request to be refilled, so steady-state posing allocates nothing.
 */
import type { BackendName } from '../kernels/backend.js';
import type { PlayableInfo } from '../playable/playable.js';

/** A file for the worker: bytes, a stream (transferred), a Blob/File (cloned by reference), or a URL to fetch. */
export interface WorkerFile {
  name: string;
  source: ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | Blob | { url: string };
  size?: number;
}

/**
 * Where the worker finds a model's skins, scripts and images (a file system cannot cross threads, its contents can):
 * dropped files (Blobs, passed by reference) with their paths in the game folder, or a game folder's URL.
 */
export interface WorkerTextures {
  files?: { path: string; blob: Blob }[];
  url?: string;
  /** With `url`: the paths under it (a server cannot be listed; without them shader scripts are not searched). */
  index?: string[];
  /** The model's path in that folder. */
  modelPath: string;
  skin?: string;
}

export type WorkerRequest =
  | { id: number; type: 'open'; files: WorkerFile[]; backend: BackendName | 'auto'; textures?: WorkerTextures }
  | { id: number; type: 'backend'; backend: BackendName | 'auto' }
  | { id: number; type: 'clip'; clip: number }
  | { id: number; type: 'pose'; frame1: number; frame2: number; t: number; positions?: Float32Array; normals?: Float32Array };

/** What a pose returns: this frame's vertices (3 floats each) and the worker's time to pose and skin them. */
export interface PosedFrame {
  positions: Float32Array;
  normals: Float32Array;
  /** Pose + skin time inside the worker, in ms (excludes the copy out of WASM memory and the message). */
  poseMs: number;
  backend: BackendName;
}

/** A ModelParseError (or any Error) as plain data: the client rebuilds the same class, code and message. */
export interface SerializedError {
  name: string;
  message: string;
  code?: string;
  detail?: string;
  offset?: number;
  line?: number;
  column?: number;
  /** ModelParseError: the file it came from, and the one it was checked against. */
  file?: string;
  pairedWith?: string;
}

export type WorkerReply =
  /** Sent once, unasked, when the worker script has started: before it, an `error` event means the script did not load. */
  | { id: 0; type: 'ready' }
  | { id: number; type: 'progress'; bytesRead: number; bytesTotal: number | undefined; fileName: string }
  | { id: number; type: 'done'; info?: PlayableInfo; backend?: BackendName; frame?: PosedFrame }
  | { id: number; type: 'failed'; error: SerializedError };
