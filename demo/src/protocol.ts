/**
 * The messages between the page and its worker (`worker.ts`). The worker holds the mounted file system (a game
 * folder, archives, dropped files, URLs) and the open model; the page holds the three.js scene. Every request has an
 * id; the worker answers with any number of `progress` replies, then one `done` or `error`. Everything here is plain
 * data (structured clone); big arrays are transferred.
 */
import type { MaterialSet, ParseWarning } from 'idtech-models';
import type { ViewData } from './view-data.js';

/** A registered format, as the page shows it (the worker's format list: DEFAULT_FORMATS and any added). */
export interface FormatInfo {
  id: string;
  title: string;
  extensions: readonly string[];
  role: string;
  /** A folder format (a Quake 3 player folder). */
  folder: boolean;
}

export type MountSource =
  /**
   * Dropped or picked files (a game folder's, archives, loose models), by path; `origin` names where they come from in
   * messages (`baseq3:models/x.md3`, `picked:x.md2`).
   */
  | { kind: 'files'; name: string; origin: string; files: { path: string; blob: Blob }[] }
  /** An archive URL (read by HTTP Range requests), or a folder URL listed by its `index.txt`. */
  | { kind: 'url'; url: string }
  /** Model files by URL; `index`: every path of their game folder that may be read (no probing for others). */
  | { kind: 'urls'; urls: string[]; index?: string[] };

/** A model the mounted file system holds (the catalog's entry). */
export interface ModelEntry {
  /** The format's id. */
  kind: string;
  /** The model file, or a folder format's folder. */
  path: string;
  anims: string[];
  files: string[];
  skins: string[];
  size: number;
}

export interface Listing {
  name: string;
  /** Highest precedence first; `loose` is the folder's own files. */
  layers: { name: string; kind: string }[];
  /** Every file the engine would read, each once: its path, size and layer. */
  files: { path: string; size: number; layer: number }[];
  models: ModelEntry[];
  warnings: string[];
  /** Milliseconds from the request to the listing (mount, list, catalogue), in the worker. */
  ms: number;
}

export interface ImageBytes {
  path: string;
  bytes: Uint8Array;
}

export interface OpenedFile {
  path: string;
  origin: string;
  size: number;
}

export interface Opened {
  format: string;
  title: string;
  /** The model's path (a folder for a folder format), and a name for it. */
  path: string;
  name: string;
  view: ViewData;
  materials: MaterialSet;
  /** The bytes of every diffuse image the materials found. */
  images: ImageBytes[];
  /** Parse warnings, each with its file. */
  warnings: { file: string; warnings: readonly ParseWarning[] }[];
  files: OpenedFile[];
  /** Skins to pick from: `.skin` files beside it, skins the file carries; the one used. */
  skins: string[];
  skin: string | undefined;
  /** Id formats a writer can turn it into (`writer.fromGltf`): format id, title, extension. */
  writers: { id: string; title: string; extension: string }[];
  times: { parse: number; view: number; materials: number; images: number };
  /**
   * The model a source port draws in its place (`ModelSet.replacement`: a re-release's MD5 beside an MD2 or MDL),
   * when its files are there: who loads it, its path, its format's title, and whether it is what is shown.
   */
  replacement?: { by: string; path: string; title: string; shown: boolean };
}

/** One image of the model as the texture viewer shows it. */
export interface ViewedImage {
  path: string;
  /** What uses it: `diffuse of "surface"`. */
  uses: string[];
  width: number;
  height: number;
  /** Decoded pixels (TGA, PCX, BMP, DDS), top row first; or the file's own bytes (PNG, JPEG) for the browser to decode. */
  rgba?: Uint8Array;
  bytes?: Uint8Array;
  mimeType?: string;
  error?: string;
}

export interface Inspected {
  file: string;
  format: string;
  summary?: Record<string, unknown>;
  error?: string;
}

export interface BenchResult {
  /** ms per pose (positions and normals) by backend: the median of several runs over the clip's frames. */
  ms: Record<string, number>;
  clip: string;
  vertexCount: number;
}

export interface Exported {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  /** The summary's facts (`3 surfaces`, `60 frames`) and what the target engine would refuse. */
  facts: string[];
  warnings: string[];
}

/**
 * Values for a view's `extras.controls` (a Half-Life model's controllers by index, its blending bytes, the submodel of
 * each body part): baked into its clips and geometry; `body` is the submodels' body value (Σ submodel × base).
 */
export interface ViewControls {
  controllers?: Record<number, number>;
  blend?: number[];
  submodels?: Record<number, number>;
  body?: number;
}

export type Request =
  | { type: 'hello'; formatsUrl?: string }
  | { type: 'mount'; source: MountSource }
  /** Files read above the mounted game (animations dropped on the open model), at their paths. */
  | { type: 'add-files'; files: { path: string; blob: Blob }[]; origin: string }
  /** `replacement`: show the model's replacement (`Opened.replacement`) in its place, when it has one. */
  | { type: 'open'; entry: ModelEntry; skin?: string; replacement?: boolean; controls?: ViewControls }
  /** A model opened to hang on a tag of the open one: the open model stays what later requests work on. */
  | { type: 'open-hung'; entry: ModelEntry }
  | { type: 'inspect' }
  | { type: 'images' }
  | { type: 'image'; path: string }
  | { type: 'bench'; clip: string }
  | { type: 'export'; target: string }
  /** Every model of the mounted folder or archive as a .glb, in one .zip (worker/export-all.ts). */
  | { type: 'export-all' }
  | { type: 'abort'; id: number };

export interface Replies {
  hello: { formats: FormatInfo[]; backends: string[] };
  mount: Listing;
  'add-files': null;
  open: Opened;
  'open-hung': Opened;
  inspect: Inspected[];
  images: ViewedImage[];
  image: ViewedImage;
  bench: BenchResult;
  export: Exported;
  'export-all': Exported;
  abort: null;
}

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
}

export type Reply =
  | { id: number; type: 'progress'; done: number; total: number | null; what: string }
  | { id: number; type: 'done'; result: unknown }
  | { id: number; type: 'error'; error: SerializedError };
