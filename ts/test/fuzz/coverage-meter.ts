/**
 * Block coverage of this isolate, read through V8's precise coverage (node:inspector `Profiler.startPreciseCoverage`
 * with `callCount` and `detailed`): the coverage-guided campaign (coverage.ts) keeps an input that reaches a block, or
 * a block's hit count bucket, no earlier input reached; the grammar campaigns (grammar.ts) read the number of blocks a
 * run executed as its step count (a deterministic measure of work: no test asserts a time).
 *
 * Why not Jazzer.js or cargo-fuzz: docs/fuzzing.md ("Coverage-guided campaign").
 *
 * A same-thread inspector session answers `post` synchronously (the callback runs before `post` returns), so a
 * measurement is an ordinary function call. `takePreciseCoverage` resets the counters: each take covers what ran
 * since the previous one.
 */
import { Session } from 'node:inspector';

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface ScriptCoverage {
  url: string;
  functions: { ranges: Range[] }[];
}

/** Which scripts (and, in a bundle, which byte ranges of one) are library code; null: none of this script. */
export type CodeFilter = (url: string) => ((offset: number) => boolean) | null;

/** Library code as vitest loads it: one script per module, named by its path. */
export const LIBRARY_MODULES: CodeFilter = (url) => (/\/ts\/src\//.test(url) ? () => true : null);

/**
 * Library code inside an esbuild bundle (scripts/fuzz.mjs): esbuild marks each module's start with a `// path` comment
 * line, so the library is the ranges that follow a `// ts/src/…` marker (or one `counts` matches) up to the next marker.
 */
export function bundleFilter(bundleUrl: string, bundleText: string, counts: RegExp = /ts\/src\//): CodeFilter {
  const marks: { at: number; lib: boolean }[] = [];
  const re = /^\/\/ (\S+\.[cm]?[jt]s)$/gm;
  for (let m; (m = re.exec(bundleText)); ) marks.push({ at: m.index, lib: counts.test(m[1]) });
  const inLib = (offset: number) => {
    let lo = 0, hi = marks.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid].at <= offset) (found = mid), (lo = mid + 1);
      else hi = mid - 1;
    }
    return found >= 0 && marks[found].lib;
  };
  return (url) => (url === bundleUrl ? inLib : null);
}

/** AFL's hit-count buckets: 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128+. */
function bucket(count: number): number {
  if (count <= 3) return count - 1;
  if (count < 8) return 3;
  if (count < 16) return 4;
  if (count < 32) return 5;
  if (count < 128) return 6;
  return 7;
}

export interface Taken {
  /** One number per (script, block, hit-count bucket) reached: `features.size` is the coverage measure. */
  features: number[];
  /** Block executions in library code: the run's step count. */
  steps: number;
  /** Library blocks reached at least once. */
  blocks: number;
}

export class CoverageMeter {
  private session = new Session();
  private scripts = new Map<string, number>();
  private filters = new Map<string, ((offset: number) => boolean) | null>();

  constructor(private readonly filter: CodeFilter) {
    this.session.connect();
    this.post('Profiler.enable');
    this.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    this.post('Profiler.takePreciseCoverage');
  }

  private post(method: string, params?: object): unknown {
    let result: unknown, error: unknown, answered = false;
    this.session.post(method, params ?? {}, (e, r) => {
      error = e;
      result = r;
      answered = true;
    });
    if (!answered) throw new Error(`inspector ${method}: no synchronous answer`);
    if (error) throw error;
    return result;
  }

  /** Forget what ran since the last take. */
  reset(): void {
    this.post('Profiler.takePreciseCoverage');
  }

  /** What library code ran since the last take (or reset). */
  take(): Taken {
    const { result } = this.post('Profiler.takePreciseCoverage') as { result: ScriptCoverage[] };
    const features: number[] = [];
    let steps = 0, blocks = 0;
    for (const s of result) {
      let f = this.filters.get(s.url);
      if (f === undefined) this.filters.set(s.url, (f = this.filter(s.url)));
      if (!f) continue;
      let id = this.scripts.get(s.url);
      if (id === undefined) this.scripts.set(s.url, (id = this.scripts.size));
      for (const fn of s.functions) {
        for (const r of fn.ranges) {
          if (r.count === 0 || !f(r.startOffset)) continue;
          steps += r.count;
          blocks++;
          // (script, start, end, bucket) as one exact double: start and end under 2^22 (4 MB scripts), 64 scripts
          features.push(((((id & 63) * 2 ** 22 + (r.startOffset & 0x3fffff)) * 2 ** 22 + (r.endOffset & 0x3fffff)) * 8) + bucket(r.count));
        }
      }
    }
    return { features, steps, blocks };
  }

  stop(): void {
    this.post('Profiler.stopPreciseCoverage');
    this.post('Profiler.disable');
    this.session.disconnect();
  }
}
