/**
 * The Web Worker entry (bundled as `dist/worker.js`): serves `ModelWorker` with every format this package reads
 * (`serve.ts`; an app with a format of its own writes the same two lines with its list).
 */
import { DEFAULT_FORMATS } from '../registry/formats.js';
import { serveModels, type WorkerScope } from './serve.js';

serveModels(globalThis as unknown as WorkerScope, DEFAULT_FORMATS);
