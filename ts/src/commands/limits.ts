/**
 * `--limit NAME=N` (inspect and convert): the resource limits of base/resource-limits.ts, which keep memory
 * proportional to the input (docs/security.md), raised or lowered for this run. Applied once, process-wide, by
 * the shell (cli/main.ts) before the command runs, and handed to `convert --all`'s worker threads with their input (batch.ts), so
 * every archive, image, script and glTF the command reads is held to them — and what `convert IN.glb -o OUT.<id
 * format>` samples from a glTF (`maxImportFrames`, `maxImportBytes`, `maxMorphTargetVertices`: import/gltf-scene.ts).
 */
import { DEFAULT_RESOURCE_LIMITS, resourceLimits, setResourceLimits, type ResourceLimits } from '../node.js';
import { UsageError, type OptionSpec, type ParsedArgs } from './args.js';

const NAMES = Object.keys(DEFAULT_RESOURCE_LIMITS) as (keyof ResourceLimits)[];

export const LIMIT_OPTIONS: OptionSpec[] = [
  {
    name: '--limit',
    value: 'NAME=N',
    repeatable: true,
    group: 'limits',
    help:
      `Raise or lower a bound that keeps memory proportional to the input (docs/security.md): ${NAMES.map((n) => `${n} (default ${DEFAULT_RESOURCE_LIMITS[n]})`).join(', ')}. ` +
      'N is a number, with an optional k, M or G (× 1024, 1024², 1024³), or Infinity; e.g. --limit maxImagePixels=268435456 --limit maxTotalRatio=256.',
  },
];

const SCALE: Record<string, number> = { '': 1, k: 1024, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `NAME=N` → the limit and its value; a usage error naming what is wrong. */
export function parseLimit(text: string, command: string): [keyof ResourceLimits, number] {
  const m = /^(\w+)=(?:(Infinity)|(\d+(?:\.\d+)?)([kKMG]?))$/.exec(text);
  const name = m?.[1] as keyof ResourceLimits | undefined;
  if (!m || !name || !NAMES.includes(name)) throw new UsageError(`--limit ${text}: expected NAME=N with NAME one of ${NAMES.join(', ')}`, command);
  const value = m[2] ? Infinity : Number(m[3]) * SCALE[m[4]];
  if (!(value > 0)) throw new UsageError(`--limit ${text}: the limit must be > 0`, command);
  return [name, value];
}

/** Applies the command's `--limit` options to the process (no-op without any). */
export function applyLimitOptions(a: ParsedArgs, command: string): void {
  const given = a.options.get('--limit') ?? [];
  if (given.length) setResourceLimits(Object.fromEntries(given.map((t) => parseLimit(t, command))));
}

/** What a worker thread needs to hold its reads to the same limits (batch.ts → batch-worker.ts). */
export const limitsForWorker = (): ResourceLimits => ({ ...resourceLimits() });
