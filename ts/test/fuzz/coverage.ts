/**
 * The coverage-guided campaign over the binary parsers (md2, md3, mdl, iqm, pak, zip): a queue of inputs, each
 * step one of them mutated (`mutate.ts`, the structure-aware operators of the mutation campaign) and checked to the
 * same invariant (`checkInput`: typed errors only, accepted models re-checked, memory bound, the model used); an input
 * that reaches a library block — or a block's hit-count bucket — no earlier input reached joins the queue
 * (coverage-meter.ts: V8's block coverage). Input i of a campaign is a function of (seed, i) and the queue so far,
 * which is itself a function of the seed: a failure is reproduced from the seed and the number of runs.
 *
 * Seeds come from generators (never copies of the shared models): `coverageSeeds`. The kept corpus
 * (fixtures/fuzz-corpus/<target>/, small files the campaign found, chosen by `keepCorpus`) starts every run, so the
 * fixed-budget test (`coverage.test.ts`) begins where the last long run (`npm run fuzz -- --coverage TARGET`) ended.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { md5ToIqm } from '../../src/formats/iqm/md5-iqm.js';
import { importGltf } from '../../src/registry/import-gltf.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { seamedModel } from '../../../fixtures/generate-md2.mjs';
import { triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { makePak } from '../helpers/pak-writer.js';
import { makeZip } from '../helpers/zip-writer.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { emptyStats, record, type TargetStats, type Violation } from './campaign.js';
import { CoverageMeter, type CodeFilter } from './coverage-meter.js';
import { checkInput } from './invariant.js';
import { md5AnimText, MD5MESH } from './md5-seed.js';
import { mdlExtraSeeds } from './mdl-target.js';
import { mutate, type Seed } from './mutate.js';
import { Rng } from './rng.js';
import { TARGETS, type FuzzTarget } from './targets.js';

export const COVERAGE_TARGETS = ['md2', 'md3', 'mdl', 'iqm', 'pak', 'zip'] as const;
export type CoverageTargetName = (typeof COVERAGE_TARGETS)[number];

/** Where the kept corpus lives, relative to the repository root. */
export const CORPUS_DIR = 'fixtures/fuzz-corpus';
/** A kept input's size cap and the number kept per target: the corpus stays a few KB a file, a handful a target. */
export const KEEP_MAX_BYTES = 4096;
export const KEEP_MAX_FILES = 8;

type Named = { name: string; bytes: Uint8Array };

const text = (s: string) => new TextEncoder().encode(s);

/** Generated seeds of each target (small: the campaign runs thousands of them a second). */
export async function coverageSeeds(target: CoverageTargetName): Promise<Named[]> {
  const md2 = (): Named[] => [
    { name: 'gen:seamed.md2', bytes: seamedModel({ st: 12, xyz: 6, frames: 2, skinWidth: 8, skinHeight: 8, triangles: 4 }).bytes },
    { name: 'gen:seamed-noglcmds.md2', bytes: seamedModel({ st: 5, xyz: 4, frames: 3, skinWidth: 4, skinHeight: 4, triangles: 2, glcmds: false }).bytes },
  ];
  const md3 = async (): Promise<Named[]> => {
    const tri = await importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin' }), resources: { 'tri.bin': triangleBin() } }, { format: 'md3', name: 'tri' });
    return [{ name: 'gen:triangle.md3', bytes: writeMd3(tri) }];
  };
  const iqm = (): Named[] => {
    const mesh = parseMd5Mesh(text(MD5MESH));
    const anim = parseMd5Anim(text(md5AnimText(2)));
    return [
      { name: 'gen:two-joints.iqm', bytes: writeIqm(md5ToIqm(mesh, [])) },
      { name: 'gen:two-joints-anim.iqm', bytes: writeIqm(md5ToIqm(mesh, [{ name: 'wave', anim }])) },
    ];
  };
  const mdl = () => mdlExtraSeeds().map((s) => ({ name: `gen:${s.name}`, bytes: s.bytes }));
  switch (target) {
    case 'md2':
      return md2();
    case 'md3':
      return md3();
    case 'iqm':
      return iqm();
    case 'mdl':
      return mdl();
    case 'pak': {
      const [a] = mdl(), [b] = md2();
      return [
        { name: 'gen:two.pak', bytes: makePak([{ name: 'progs/a.mdl', data: a.bytes }, { name: 'progs/b.md2', data: b.bytes }]) },
        { name: 'gen:odd-names.pak', bytes: makePak([{ name: 'PROGS\\A.MDL', data: a.bytes }, { name: 'progs/a.mdl', data: b.bytes }, { name: '../escape.txt', data: text('x') }]) },
      ];
    }
    case 'zip': {
      const [a] = md2(), [b] = await md3();
      const entries = [{ name: 'models/a.md2', data: a.bytes }, { name: 'models/b.md3', data: b.bytes }];
      return [
        { name: 'gen:deflated.pk3', bytes: makeZip(entries) },
        { name: 'gen:stored.pk3', bytes: makeZip(entries.map((e) => ({ ...e, method: 0 }))) },
        { name: 'gen:zip64.pk3', bytes: makeZip(entries.slice(0, 1), { zip64: true }) },
        { name: 'gen:prefixed.pk3', bytes: makeZip([...entries, { name: 'x/../escape.txt', data: text('escape') }], { prefix: new Uint8Array(32).fill(0x4d), comment: 'seed' }) },
      ];
    }
  }
}

/** The kept corpus of a target (`root`: the repository), in name order. */
export function keptCorpus(root: string, target: string): Named[] {
  const dir = join(root, CORPUS_DIR, target);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .sort()
    .map((f) => ({ name: `corpus:${f}`, bytes: new Uint8Array(readFileSync(join(dir, f))) }));
}

export interface QueueEntry extends Seed {
  /** Features first reached by this entry. */
  fresh: number[];
  /** Where it came from: 'seed', 'corpus' or the campaign index that found it. */
  origin: 'seed' | 'corpus' | number;
}

export interface CoverageOptions {
  target: CoverageTargetName;
  seed: number;
  /** Mutated inputs to run (after the seeds and the kept corpus, which are run first). */
  runs: number;
  /** The generated seeds and the kept corpus. */
  seeds: readonly Named[];
  corpus: readonly Named[];
  /** Which code counts (LIBRARY_MODULES in vitest; bundleFilter in scripts/fuzz.mjs). */
  filter: CodeFilter;
  /** Hold each parse to its time bound (scripts/fuzz.mjs only; never in a test). */
  timed?: boolean;
  onInput?: (index: number) => void;
}

export interface CoverageResult {
  stats: TargetStats;
  violations: Violation[];
  queue: QueueEntry[];
  /** Distinct features reached by the seeds alone, by seeds + kept corpus, and by the end of the run. */
  seedFeatures: number;
  corpusFeatures: number;
  features: number;
  /** Distinct library blocks reached (any count) at the same three points. */
  seedBlocks: number;
  corpusBlocks: number;
  blocks: number;
  /** Runs that joined the queue. */
  found: number;
  runs: number;
}

const blockOf = (f: number) => Math.floor(f / 8);

/** The campaign, one input per step (run it with `runCoverage` or `runCoverageTurning`). */
export function* coverageSteps(o: CoverageOptions, out: { result?: CoverageResult }): Generator<void> {
  const target = TARGETS.find((t) => t.name === o.target) as FuzzTarget;
  const meter = new CoverageMeter(o.filter);
  const seen = new Set<number>();
  const blocks = new Set<number>();
  const stats = emptyStats();
  const violations: Violation[] = [];
  const queue: QueueEntry[] = [];
  const rng0 = new Rng(o.seed);

  /** Runs one input; returns the features it reached first. */
  const run = (bytes: Uint8Array, rng: Rng, index: number, from: string, ops: string[]): number[] => {
    meter.reset();
    const outcome = checkInput(target, bytes, rng, { use: true, seedName: from, timed: o.timed });
    const { features } = meter.take();
    record(stats, outcome, bytes.length, target);
    if (outcome.violation) violations.push({ target: target.name, seed: o.seed, index, from, ops, ...outcome.violation, bytes: bytes.slice() });
    const fresh = features.filter((f) => !seen.has(f));
    for (const f of fresh) seen.add(f), blocks.add(blockOf(f));
    return fresh;
  };
  const admit = (n: Named, origin: QueueEntry['origin'], fresh: number[]) => {
    queue.push({ name: n.name, bytes: n.bytes, structure: target.structure(n.bytes), fresh, origin });
  };

  // The seeds, then the kept corpus: every one joins the queue (a seed that adds nothing is still a starting point).
  const start = (list: readonly Named[], origin: 'seed' | 'corpus') => {
    for (const s of list) admit(s, origin, run(s.bytes, rng0, -1, s.name, []));
  };
  start(o.seeds, 'seed');
  const seedFeatures = seen.size, seedBlocks = blocks.size;
  yield;
  start(o.corpus, 'corpus');
  const corpusFeatures = seen.size, corpusBlocks = blocks.size;
  yield;

  let found = 0;
  for (let i = 0; i < o.runs; i++) {
    const rng = Rng.forInput(o.seed, i);
    // the newest entries more often: they are where the campaign is making progress
    const parent = rng.chance(0.3) ? queue[queue.length - 1 - rng.below(Math.min(8, queue.length))] : rng.pick(queue);
    const m = mutate(parent, rng, false, queue);
    const fresh = run(m.bytes, rng, i, parent.name, m.ops);
    if (fresh.length) {
      found++;
      admit({ name: `run:${i}`, bytes: m.bytes }, i, fresh);
    }
    o.onInput?.(i);
    yield;
  }
  meter.stop();
  out.result = { stats, violations, queue, seedFeatures, corpusFeatures, features: seen.size, seedBlocks, corpusBlocks, blocks: blocks.size, found, runs: o.runs };
}

export function runCoverage(o: CoverageOptions): CoverageResult {
  const out: { result?: CoverageResult } = {};
  for (const _ of coverageSteps(o, out));
  return out.result!;
}

/** `runCoverage` with the event loop turned every 100 ms or so (how a test runs it: helpers/loop-turn.ts). */
export async function runCoverageTurning(o: CoverageOptions): Promise<CoverageResult> {
  const out: { result?: CoverageResult } = {};
  for (const _ of coverageSteps(o, out)) await turnIfHeld();
  return out.result!;
}

/**
 * The inputs worth keeping after a run: found by the campaign (not seeds), at most KEEP_MAX_BYTES, chosen greedily
 * by the new features each adds over the seeds and what is already kept (smallest first on ties), at most
 * KEEP_MAX_FILES — together with the current kept corpus, re-chosen the same way, so the corpus stays small.
 */
export function keepCorpus(r: CoverageResult): QueueEntry[] {
  const base = new Set<number>();
  for (const e of r.queue) if (e.origin === 'seed') for (const f of e.fresh) base.add(f);
  const candidates = r.queue.filter((e) => e.origin !== 'seed' && e.bytes.length <= KEEP_MAX_BYTES && e.fresh.length > 0);
  const kept: QueueEntry[] = [];
  while (kept.length < KEEP_MAX_FILES) {
    let best: QueueEntry | undefined, bestGain = 0;
    for (const c of candidates) {
      if (kept.includes(c)) continue;
      const gain = c.fresh.filter((f) => !base.has(f)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best && c.bytes.length < best.bytes.length)) (best = c), (bestGain = gain);
    }
    if (!best) break;
    kept.push(best);
    for (const f of best.fresh) base.add(f);
  }
  return kept;
}

/**
 * A kept input made smaller while it still reaches every feature it was kept for: its tail cut, then ranges of it
 * removed (halves, quarters … down to single bytes), at most `budget` runs. Returns the smaller bytes.
 */
export function trimKept(target: CoverageTargetName, entry: QueueEntry, filter: CodeFilter, budget = 400): Uint8Array {
  const t = TARGETS.find((x) => x.name === target) as FuzzTarget;
  const meter = new CoverageMeter(filter);
  const rng = new Rng(1);
  const want = entry.fresh;
  let runs = 0;
  const keeps = (b: Uint8Array) => {
    runs++;
    meter.reset();
    checkInput(t, b, rng, { use: true });
    const got = new Set(meter.take().features);
    return want.every((f) => got.has(f));
  };
  let best = entry.bytes;
  for (let chunk = best.length >> 1; chunk >= 1 && runs < budget; chunk >>= 1) {
    for (let at = best.length - chunk; at >= 0 && runs < budget; at -= chunk) {
      const cut = new Uint8Array(best.length - chunk);
      cut.set(best.subarray(0, at));
      cut.set(best.subarray(at + chunk), at);
      if (keeps(cut)) best = cut;
    }
  }
  meter.stop();
  return best;
}
