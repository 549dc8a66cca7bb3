/**
 * A fuzzing campaign: input i of campaign `seed` is a pure function of (seed, i) — target chosen round-robin, a real
 * file (or a foreign file, or random bytes) mutated by `mutate` — and is checked by `checkInput`. Used by the
 * fixed-count test in `npm test` and by `npm run fuzz` (scripts/fuzz.mjs), which runs slices of the index range in
 * worker threads.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { animPairs, manifest, read, SHARED_MODELS } from '../helpers/models.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { Md5Mesh } from '../../src/base/model.js';
import { memoryLimit } from './bounds.js';
import { checkInput, type Outcome, type ViolationKind } from './invariant.js';
import { mutate, type Seed } from './mutate.js';
import { Rng } from './rng.js';
import { setPairedMesh, TARGETS, type FuzzTarget } from './targets.js';

export interface TargetStats {
  inputs: number;
  /** Inputs the parser accepted (returned a model). */
  accepted: number;
  /** Error codes seen, with counts. */
  codes: Record<string, number>;
  violations: number;
  inputBytes: number;
  ms: number;
  /** The input with the most typed-array bytes per the target's bound (allocated / limit). */
  worstMemory: { allocated: number; inputBytes: number; ratio: number };
  /** Slowest input per byte. */
  worstTime: { ms: number; inputBytes: number };
}

export interface Violation {
  target: string;
  seed: number;
  index: number;
  from: string;
  ops: string[];
  kind: ViolationKind;
  detail: string;
  bytes: Uint8Array;
}

export interface CampaignResult {
  stats: Record<string, TargetStats>;
  violations: Violation[];
}

/** A real file of the shared corpus, before a target scans its structure. */
type File = Omit<Seed, 'structure'> & { format: string };

/** Every real file of the shared corpus; fails loudly when the corpus or a file it lists is missing. */
function corpus(): File[] {
  if (!existsSync(join(SHARED_MODELS, 'MANIFEST.tsv'))) throw new Error(`real models not found at ${SHARED_MODELS}`);
  return manifest().map((row) => {
    if (!existsSync(row.absPath)) throw new Error(`MANIFEST lists ${row.path}, missing from ${SHARED_MODELS}`);
    return { name: row.path, format: row.format, bytes: read(row.absPath) };
  });
}

interface TargetSeeds {
  target: FuzzTarget;
  /** Its own format's files, structure computed by the target. */
  own: Seed[];
  /** Every other model file (other formats, camera files): must fail with a typed error, never crash. */
  foreign: Seed[];
}

let cached: TargetSeeds[] | undefined;

/** Seeds per target (computed once per process). */
export function targetSeeds(): TargetSeeds[] {
  if (!cached) {
    const steps = seedSteps();
    let step;
    while (!(step = steps.next()).done);
    cached = step.value;
  }
  return cached;
}

/** `targetSeeds()`, the event loop turned every 100 ms or so while they are worked out (a few seconds: helpers/loop-turn.ts). */
export async function targetSeedsTurning(): Promise<TargetSeeds[]> {
  if (!cached) {
    const steps = seedSteps();
    let step;
    while (!(step = steps.next()).done) await turnIfHeld();
    cached ??= step.value;
  }
  return cached;
}

/** Works the seeds out, one file's structure per step. */
function* seedSteps(): Generator<void, TargetSeeds[]> {
  const files = corpus();
  const all: TargetSeeds[] = [];
  for (const target of TARGETS) {
    const mine = (f: File) => target.formats.includes(f.format) && (target.seedFilter?.(f.name) ?? true);
    const seeds = function* (from: readonly Pick<File, 'name' | 'bytes'>[]): Generator<void, Seed[]> {
      const out: Seed[] = [];
      for (const { name, bytes } of from) {
        out.push({ name, bytes, structure: target.structure(bytes) });
        yield;
      }
      return out;
    };
    const own = yield* seeds([...(target.seeds ? target.seeds(files) : files.filter(mine)), ...(target.extraSeeds?.() ?? [])]);
    if (own.length === 0) throw new Error(`no seeds for ${target.name} in ${SHARED_MODELS}`);
    const foreign = yield* seeds(files.filter((f) => !mine(f)));
    all.push({ target, own, foreign });
  }
  // Fuzzed anims are attached to the mesh their seed belongs to (MANIFEST "pairs with X"), each mesh parsed once;
  // those whose joint names differ from it too (their refusal is a typed error like any mutation's).
  const meshes = new Map<string, Md5Mesh>();
  const { same, renamed } = animPairs();
  for (const { anim, mesh } of [...same, ...renamed]) {
    if (!meshes.has(mesh.path)) meshes.set(mesh.path, parseMd5Mesh(read(mesh.absPath)));
    setPairedMesh(anim.path, meshes.get(mesh.path)!);
    yield;
  }
  return all;
}

export function emptyStats(): TargetStats {
  return {
    inputs: 0,
    accepted: 0,
    codes: {},
    violations: 0,
    inputBytes: 0,
    ms: 0,
    worstMemory: { allocated: 0, inputBytes: 0, ratio: 0 },
    worstTime: { ms: 0, inputBytes: 0 },
  };
}

/** Random bytes, or random text made of MD5's own vocabulary (so the grammar gets past its first token). */
function randomInput(rng: Rng, text: boolean): Uint8Array {
  const n = rng.below(600);
  if (!text || rng.chance(0.3)) return Uint8Array.from({ length: n }, () => rng.below(256));
  const words = ['MD5Version', '10', 'commandline', '""', 'numJoints', 'numMeshes', 'joints', 'mesh', 'shader', 'numverts',
    'vert', 'numtris', 'tri', 'numweights', 'weight', 'numFrames', 'frameRate', 'numAnimatedComponents', 'hierarchy',
    'bounds', 'baseframe', 'frame', '{', '}', '(', ')', '0', '1', '-1', '2', '0.5', '"j"', '//c\n', '/*c*/'];
  const parts: string[] = [];
  for (let k = 0; k < n / 4; k++) parts.push(rng.pick(words), rng.pick([' ', '\n', '\t', '\r\n']));
  return new TextEncoder().encode(parts.join(''));
}

export interface CampaignOptions {
  seed: number;
  /** First input index and how many to run. */
  start: number;
  count: number;
  /** Hold each parse to its time bound (scripts/fuzz.mjs; never in a test, which runs a fixed number of inputs). */
  timed?: boolean;
  /** Check chunked parsing on every k-th input (0: never). */
  chunkEvery?: number;
  /** Use accepted models (pose them) on every k-th input (0: never). */
  useEvery?: number;
  /** Only these targets. */
  only?: readonly string[];
  /** Called after each input (progress reporting in child processes). */
  onInput?: (index: number) => void;
}

/**
 * How often a campaign also checks chunked parsing and uses accepted models: the same in `npm test` and
 * `npm run fuzz`, so a failing input of the fixed-budget test is reproduced by scripts/fuzz.mjs with its seed.
 */
export const CAMPAIGN_CADENCE = { chunkEvery: 4, useEvery: 2 } as const;

/** Input `index` of campaign `seed`: which target, which seed, which bytes. */
export function makeInput(seed: number, index: number, only?: readonly string[]): { ts: TargetSeeds; rng: Rng; from: string; ops: string[]; bytes: Uint8Array } {
  const all = targetSeeds().filter((t) => !only || only.includes(t.target.name));
  const ts = all[index % all.length];
  const rng = Rng.forInput(seed, index);
  const r = rng.unit();
  if (r < 0.04) {
    const bytes = randomInput(rng, ts.target.text);
    return { ts, rng, from: 'random', ops: [], bytes };
  }
  const pool = r < 0.12 ? ts.foreign : ts.own;
  const s = rng.pick(pool);
  const others = [...ts.own, ...ts.foreign];
  const m = mutate(s, rng, ts.target.text, others);
  return { ts, rng, from: s.name, ops: m.ops, bytes: m.bytes };
}

export function runCampaign(o: CampaignOptions): CampaignResult {
  const result: CampaignResult = { stats: {}, violations: [] };
  for (const _ of campaignSteps(o, result));
  return result;
}

/**
 * `runCampaign`, the same inputs in the same order, with the event loop turned every 100 ms or so: how a test runs a
 * campaign (a test worker's loop must not be held for long: helpers/loop-turn.ts); scripts/fuzz.mjs's workers do not need it.
 */
export async function runCampaignTurning(o: CampaignOptions): Promise<CampaignResult> {
  await targetSeedsTurning();
  const result: CampaignResult = { stats: {}, violations: [] };
  for (const _ of campaignSteps(o, result)) await turnIfHeld();
  return result;
}

/** The campaign into `result`, one input per step. */
function* campaignSteps(o: CampaignOptions, { stats, violations }: CampaignResult): Generator<void> {
  for (let i = o.start; i < o.start + o.count; i++) {
    const { ts, rng, from, ops, bytes } = makeInput(o.seed, i, o.only);
    const name = ts.target.name;
    const st = (stats[name] ??= emptyStats());
    const out: Outcome = checkInput(ts.target, bytes, rng, {
      chunks: !!o.chunkEvery && i % o.chunkEvery === 0,
      use: !!o.useEvery && i % o.useEvery === 0,
      seedName: from,
      timed: o.timed,
    });
    record(st, out, bytes.length, ts.target);
    if (out.violation) violations.push({ target: name, seed: o.seed, index: i, from, ops, ...out.violation, bytes });
    o.onInput?.(i);
    yield;
  }
}

/** What "slowest" ranks by: ms per byte, with 1000 bytes of fixed cost so that tiny inputs do not dominate. */
const slowness = (t: TargetStats['worstTime']): number => t.ms / (t.inputBytes + 1000);

/** Add one outcome to a target's stats. */
export function record(st: TargetStats, out: Outcome, n: number, target: FuzzTarget): void {
  st.inputs++;
  st.inputBytes += n;
  st.ms += out.ms;
  if (out.code === 'OK') st.accepted++;
  else st.codes[out.code] = (st.codes[out.code] ?? 0) + 1;
  if (out.violation) st.violations++;
  const ratio = out.allocated / memoryLimit(target.memory, n);
  if (ratio > st.worstMemory.ratio) st.worstMemory = { allocated: out.allocated, inputBytes: n, ratio };
  const time = { ms: out.ms, inputBytes: n };
  if (slowness(time) > slowness(st.worstTime)) st.worstTime = time;
}

/** Merge stats from several workers. */
export function mergeStats(into: Record<string, TargetStats>, from: Record<string, TargetStats>): void {
  for (const [name, s] of Object.entries(from)) {
    const d = (into[name] ??= emptyStats());
    d.inputs += s.inputs;
    d.accepted += s.accepted;
    d.violations += s.violations;
    d.inputBytes += s.inputBytes;
    d.ms += s.ms;
    for (const [c, k] of Object.entries(s.codes)) d.codes[c] = (d.codes[c] ?? 0) + k;
    if (s.worstMemory.ratio > d.worstMemory.ratio) d.worstMemory = s.worstMemory;
    if (slowness(s.worstTime) > slowness(d.worstTime)) d.worstTime = s.worstTime;
  }
}

/**
 * The deterministic part: every seed of every target truncated at every block boundary (or every `step`-th one).
 * Returns the stats and violations like a campaign.
 */
export function truncationSweep(step = 1, only?: readonly string[]): CampaignResult {
  const result: CampaignResult = { stats: {}, violations: [] };
  for (const _ of sweepSteps(step, only, result));
  return result;
}

/** `truncationSweep`, the same cuts in the same order, with the event loop turned every 100 ms or so (as `runCampaignTurning`). */
export async function truncationSweepTurning(step = 1, only?: readonly string[]): Promise<CampaignResult> {
  await targetSeedsTurning();
  const result: CampaignResult = { stats: {}, violations: [] };
  for (const _ of sweepSteps(step, only, result)) await turnIfHeld();
  return result;
}

/** The sweep into `result`, one cut per step. */
function* sweepSteps(step: number, only: readonly string[] | undefined, { stats, violations }: CampaignResult): Generator<void> {
  const rng = new Rng(1);
  for (const ts of targetSeeds().filter((t) => !only || only.includes(t.target.name))) {
    const st = (stats[ts.target.name] ??= emptyStats());
    for (const s of ts.own) {
      const bs = s.structure.boundaries;
      for (let k = 0; k < bs.length; k += step) {
        const bytes = s.bytes.subarray(0, bs[k]);
        const out = checkInput(ts.target, bytes, rng, { chunks: k % 16 === 0 });
        record(st, out, bytes.length, ts.target);
        if (out.violation) violations.push({ target: ts.target.name, seed: -1, index: k, from: s.name, ops: [`truncate@${bs[k]}`], ...out.violation, bytes: bytes.slice() });
        yield;
      }
    }
  }
}
