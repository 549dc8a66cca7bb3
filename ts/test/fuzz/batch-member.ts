/**
 * `convert --all` with a hostile member (issue 36): a generated game folder of a few good models and one hostile one,
 * catalogued as the batch catalogues it (`catalogModels`) and each model converted as a batch worker converts it
 * (`convertJob`: read with what lies beside it, exported to .glb) — in this thread, so that memory and work are
 * measured per model. The hostile member, one shape per input in turn at a growing scale:
 * - an IQM whose `iqm.cfg` nests `if 1 [` or `(!` thousands deep;
 * - an IQM whose `.framegroups` is past 256 KiB, or names one clip hundreds of times;
 * - an md5mesh with an md5anim of many frames over many joints (a long, legitimate, large model);
 * - an MD2 of many frames.
 * Invariant: every good model converts whatever the hostile one does; the hostile one converts or fails with a
 * ModelParseError code (a batch row reading ERROR means something untyped was thrown); each conversion's typed arrays
 * within BATCH_MEMORY_BOUND of its files' bytes (stopped at 1.25× it: alloc-meter.ts) and its library blocks within
 * 200 per byte read or written (coverage-meter.ts). The pool itself (worker threads, a member that never ends) is
 * ts/test/cli's; this is what each worker does with the member.
 */
import { ErrorCode } from '../../src/base/errors.js';
import { convertJob, type BatchJob, type ConvertedJob } from '../../src/commands/convert/batch-job.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { md5ToIqm } from '../../src/formats/iqm/md5-iqm.js';
import { catalogModels } from '../../src/registry/catalog.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { seamedModel } from '../../../fixtures/generate-md2.mjs';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { AllocationCapExceeded, meteredAsync } from './alloc-meter.js';
import type { MemoryBound } from './bounds.js';
import { emptyStats, record, type CampaignResult, type TargetStats, type Violation } from './campaign.js';
import { CoverageMeter, LIBRARY_MODULES, type CodeFilter } from './coverage-meter.js';
import type { Outcome, ViolationKind } from './invariant.js';
import { md5AnimText, MD5MESH } from './md5-seed.js';
import { Rng } from './rng.js';
import type { FuzzTarget } from './targets.js';

/**
 * Typed-array bytes converting one model may make per byte of its files, plus a constant: the glb holds each
 * frame's pose of every joint (an md5anim's 6 numbers of ~8 text bytes each become 4 floats of 4 bytes and their
 * matrices) and the export's growing buffers copy it: 256 per byte; 64 MiB for what a small file may rightly ask.
 */
export const BATCH_MEMORY_BOUND: MemoryBound = { perByte: 256, constant: 64 << 20 };
/** Library blocks per byte read or written, plus a constant (as the writers' campaign). */
export const BATCH_STEP_BOUND = { perByte: 200, constant: 2_000_000 };

const enc = new TextEncoder();
const SHAPES = ['cfg-nest', 'cfg-condition', 'framegroups-big', 'framegroups-names', 'md5-long', 'md2-frames'] as const;

/** The good models every input holds: an MD2, an md5mesh with its anim, an IQM. */
function goodFiles(): { path: string; bytes: Uint8Array }[] {
  return [
    { path: 'models/good/a.md2', bytes: seamedModel({ st: 12, xyz: 6, frames: 2, skinWidth: 8, skinHeight: 8, triangles: 4 }).bytes },
    { path: 'models/good/worm.md5mesh', bytes: enc.encode(MD5MESH) },
    { path: 'models/good/worm.md5anim', bytes: enc.encode(md5AnimText(4)) },
    { path: 'models/good/b.iqm', bytes: iqmOf(2) },
  ];
}

const iqmOf = (frames: number) => writeIqm(md5ToIqm(parseMd5Mesh(enc.encode(MD5MESH)), [{ name: 'wave', anim: parseMd5Anim(enc.encode(md5AnimText(frames))) }]));

/** An md5mesh of `joints` joints in a chain and an md5anim of `frames` frames animating every component of each. */
function longAnim(joints: number, frames: number): { mesh: string; anim: string } {
  const mesh = [
    'MD5Version 10', 'commandline ""', `numJoints ${joints}`, 'numMeshes 1', 'joints {',
    ...Array.from({ length: joints }, (_, j) => `  "j${j}" ${j - 1} ( 0 0 ${j ? 1 : 0} ) ( 0 0 0 )`),
    '}', 'mesh {', '  shader "s"', '  numverts 3', '  vert 0 ( 0 0 ) 0 1', '  vert 1 ( 1 0 ) 1 1', '  vert 2 ( 0 1 ) 2 1',
    '  numtris 1', '  tri 0 0 1 2', '  numweights 3', '  weight 0 0 1 ( 0 0 0 )', `  weight 1 ${joints - 1} 1 ( 1 0 0 )`,
    `  weight 2 ${joints >> 1} 1 ( 0 1 0 )`, '}', '',
  ].join('\n');
  const parts = [`MD5Version 10\ncommandline ""\nnumFrames ${frames}\nnumJoints ${joints}\nframeRate 24\nnumAnimatedComponents ${6 * joints}\nhierarchy {\n`];
  for (let j = 0; j < joints; j++) parts.push(`  "j${j}" ${j - 1} 63 ${6 * j}\n`);
  parts.push('}\nbounds {\n', '  ( -9 -9 -9 ) ( 9 9 9 )\n'.repeat(frames), '}\nbaseframe {\n', '  ( 0 0 1 ) ( 0 0 0 )\n'.repeat(joints), '}\n');
  const frame = `${'0 0 1 0 0 0.1 '.repeat(joints)}\n`;
  for (let f = 0; f < frames; f++) parts.push(`frame ${f} {\n`, frame, '}\n');
  return { mesh, anim: parts.join('') };
}

export interface BatchInput {
  from: string;
  ops: string[];
  files: { path: string; bytes: Uint8Array }[];
  /** The hostile model's path (its catalog entry's). */
  hostile: string;
}

/** Input `index` of campaign `seed`: the good models and one hostile member (tiers 0–2; 3 with `edge`). */
export function makeBatchInput(seed: number, index: number, edge = false): BatchInput {
  const rng = Rng.forInput(seed, index);
  const shape = SHAPES[index % SHAPES.length];
  const tier = Math.floor(index / SHAPES.length) % (edge ? 4 : 3);
  const pick = <T>(v: T[]): T => v[tier];
  const ops = [`${shape}, tier ${tier}`];
  const files = goodFiles();
  let hostile = 'models/bad/bad.iqm';
  switch (shape) {
    case 'cfg-nest':
    case 'cfg-condition': {
      const d = pick([10, 500, 4000, 20000]);
      const cfg = shape === 'cfg-nest' ? `${'if 1 ['.repeat(d)} iqmanim idle bad.iqm ${']'.repeat(d)}\n` : `if ${'(! '.repeat(d)}0${')'.repeat(d)} [ iqmanim idle bad.iqm ]\n`;
      files.push({ path: 'models/bad/bad.iqm', bytes: iqmOf(4) }, { path: 'models/bad/iqm.cfg', bytes: enc.encode(`iqmload bad.iqm\n${cfg}`) });
      ops.push(`iqm.cfg ${shape === 'cfg-nest' ? '"if 1 ["' : '"(! "'} × ${d}`);
      break;
    }
    case 'framegroups-big':
    case 'framegroups-names': {
      const n = pick([100, 2000, 40000, 200000]);
      const text = shape === 'framegroups-big' ? '0 1 20 1\n'.repeat(n) : '0 1 20 1 idle\n'.repeat(Math.ceil(n / 20));
      files.push({ path: 'models/bad/bad.iqm', bytes: iqmOf(8) }, { path: 'models/bad/bad.iqm.framegroups', bytes: enc.encode(text) });
      ops.push(shape === 'framegroups-big' ? `.framegroups of ${n} groups (${text.length} bytes)` : `.framegroups of ${Math.ceil(n / 20)} groups named idle`);
      break;
    }
    case 'md5-long': {
      const [joints, frames] = pick([[2, 10], [20, 500], [64, 4000], [200, 20000]]);
      const { mesh, anim } = longAnim(joints, frames);
      hostile = 'models/bad/long.md5mesh';
      files.push({ path: hostile, bytes: enc.encode(mesh) }, { path: 'models/bad/long.md5anim', bytes: enc.encode(anim) });
      ops.push(`md5anim of ${frames} frames × ${joints} joints (${anim.length} bytes)`);
      break;
    }
    case 'md2-frames': {
      const frames = pick([4, 100, 1000, 10000]);
      hostile = 'models/bad/frames.md2';
      files.push({ path: hostile, bytes: seamedModel({ st: 40, xyz: rng.range(20, 60), frames, skinWidth: 8, skinHeight: 8, triangles: 30 }).bytes });
      ops.push(`MD2 of ${frames} frames`);
      break;
    }
  }
  return { from: 'generated', ops, files, hostile };
}

const CODES = new Set<string>(Object.values(ErrorCode));

/** Every model of an input converted as a batch worker converts it, each checked. */
export async function checkBatchInput(input: BatchInput, filter: CodeFilter = LIBRARY_MODULES): Promise<Outcome & { rows: string[] }> {
  const meter = (checker ??= new CoverageMeter(filter));
  const fs = memoryFileSystem(input.files);
  const entries = await catalogModels(fs, DEFAULT_FORMATS);
  const rows: string[] = [];
  let allocated = 0, ms = 0, code = 'OK';
  const fail = (kind: ViolationKind, detail: string) => ({ code, allocated, ms, rows, violation: { kind, detail } });
  if (!entries.some((e) => e.path === input.hostile)) return fail('accepted-invalid', `the catalog does not list ${input.hostile}: ${entries.map((e) => e.path).join(', ')}`);
  for (const [id, e] of entries.entries()) {
    // a model's bytes: the files in its folder (what lies beside it is read with it)
    const folder = e.path.slice(0, e.path.lastIndexOf('/') + 1);
    const n = input.files.filter((f) => f.path.startsWith(folder)).reduce((a, f) => a + f.bytes.length, 0);
    const limit = BATCH_MEMORY_BOUND.perByte * n + BATCH_MEMORY_BOUND.constant;
    const job: BatchJob = { id, kind: e.kind, path: e.path, origin: `memory:${e.path}`, anims: e.anims, out: '', outDir: '', yUp: false, textures: false };
    meter.reset();
    const t0 = performance.now();
    const run = await meteredAsync(() => convertJob(fs, job, DEFAULT_FORMATS), 1.25 * limit);
    ms += performance.now() - t0;
    const steps = meter.take().steps;
    allocated = Math.max(allocated, run.bytes);
    if (run.error instanceof AllocationCapExceeded) return fail('memory', `${e.path}: ${run.error.message}: over 1.25 × the bound ${limit} for its ${n} bytes (stopped there)`);
    if (run.error !== undefined) return fail('untyped', `${e.path}: convertJob threw ${String(run.error)}`);
    const r = run.value!;
    const glb = 'glb' in r ? (r as ConvertedJob).glb.length : 0;
    const failed = 'ok' in r && !r.ok ? r : null;
    rows.push(`${e.path}: ${failed ? `${failed.code} ${failed.error}` : `${glb} bytes`}`);
    if (e.path === input.hostile) code = failed?.code ?? 'OK';
    if (failed && e.path !== input.hostile) return fail('accepted-invalid', `a good model failed beside a hostile one: ${e.path}: ${failed.code} ${failed.error}`);
    if (failed && !CODES.has(failed.code ?? '')) return fail('untyped', `${e.path}: a batch row ${failed.code}: ${failed.error?.slice(0, 300)}`);
    if (run.bytes > limit) return fail('memory', `${e.path}: ${run.bytes} typed-array bytes for its ${n} bytes (limit ${limit})`);
    const stepLimit = BATCH_STEP_BOUND.perByte * (n + glb) + BATCH_STEP_BOUND.constant;
    if (steps > stepLimit) return fail('steps', `${e.path}: ${steps} library blocks executed for ${n} bytes read and ${glb} written (bound ${stepLimit})`);
  }
  return { code, allocated, ms, rows };
}

let checker: CoverageMeter | undefined;

const STATS_TARGET = { memory: BATCH_MEMORY_BOUND } as FuzzTarget;

export async function runBatchCampaign(o: { seed: number; start: number; count: number; edge?: boolean; filter?: CodeFilter; onInput?: (i: number) => void }): Promise<CampaignResult> {
  const stats: Record<string, TargetStats> = { batch: emptyStats() };
  const violations: Violation[] = [];
  for (let i = o.start; i < o.start + o.count; i++) {
    const input = makeBatchInput(o.seed, i, o.edge);
    const out = await checkBatchInput(input, o.filter);
    const n = input.files.reduce((a, f) => a + f.bytes.length, 0);
    record(stats.batch, out, n, STATS_TARGET);
    if (out.violation) violations.push({ target: 'batch', seed: o.seed, index: i, from: input.from, ops: input.ops, ...out.violation, bytes: new Uint8Array(0) });
    o.onInput?.(i);
    await turnIfHeld();
  }
  return { stats, violations };
}
