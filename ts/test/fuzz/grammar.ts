/**
 * Grammar-aware campaigns for the two text side files an IQM set reads (issue 36), each input made by a generator
 * (a pure function of (seed, index)) in one of a few shapes at one of a few scales — depth, repetition, size — so
 * that the fixed-count test reaches every shape at every scale:
 * - `iqm-cfg`: Tesseract `iqm.cfg` files (cubescript.ts, iqm-cfg.ts): commands with random arguments, `if` / `loop`
 *   blocks nested up to 20,000 deep, `(! (! …` and `(|| (&& …` conditions nested as deep, padding (spaces, comments,
 *   blank lines) inside deep nests, one command repeated up to 20,000 times (the same clip name: variants), `exec`
 *   chains and cycles over several files, unclosed strings, blocks and expressions, `^` escapes; then a few bytes
 *   mutated. Read with `readIqmConfig` (documented never to throw) from an in-memory file system holding the config,
 *   what it execs and the animation files it names; then `configClips`, `configAnimationFiles` and
 *   `iqmCompanionsBeside`.
 * - `framegroups`: DarkPlaces `.framegroups` files (framegroups.ts): up to 200,000 groups, up to 20,000 of one name,
 *   files past the reader's 256 KiB window, edge numbers (atoi / atof overflow), quoted names, `//` and unclosed
 *   `/*` comments, CR LF, NUL and 8-bit bytes. Read with `parseFrameGroups` (documented never to throw) from bytes and
 *   from text, bounded to a model's frames (`boundFrameGroups`), and turned into clips (`iqmClips`) over a generated
 *   8-frame IQM.
 *
 * The invariant (grammarViolation): nothing thrown but the typed refusals the readers document (`parseFrameGroups`
 * and Cubescript's splitting never throw; `readIqmConfig` and `iqmClips` refuse what is over a limit, RESOURCE_LIMIT,
 * or a config they cannot read, READ_FAILED); the result held to the input's size (checkScriptSize: objects and string characters per input
 * byte); groups within the model's frames; and the work bounded — the library blocks the run executed (V8's block
 * counts, coverage-meter.ts: a deterministic step count, no clock) at most STEP_BOUND per input byte plus a constant,
 * which a linear reader keeps by far and a quadratic path (each nesting level re-reading its block, each clip
 * looking through all the clips before it) passes. Time is held to its bound in `npm run fuzz` only.
 */
import { ModelParseError } from '../../src/base/errors.js';
import type { IqmModel } from '../../src/base/model.js';
import { iqmClips } from '../../src/formats/iqm/clips.js';
import { iqmCompanionsBeside } from '../../src/formats/iqm/companions.js';
import { boundFrameGroups, parseFrameGroups } from '../../src/formats/iqm/framegroups.js';
import { configAnimationFiles, configClips, readIqmConfig } from '../../src/formats/iqm/iqm-cfg.js';
import { parseIqm } from '../../src/formats/iqm/parser.js';
import { iqmToGlb, type NamedIqmAnimation } from '../../src/formats/iqm/gltf.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { md5ToIqm } from '../../src/formats/iqm/md5-iqm.js';
import { writeIqm } from '../../src/formats/iqm/write.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { emptyStats, record, type CampaignResult, type TargetStats, type Violation } from './campaign.js';
import { metered } from './alloc-meter.js';
import { CoverageMeter, LIBRARY_MODULES, type CodeFilter } from './coverage-meter.js';
import type { Outcome, ViolationKind } from './invariant.js';
import { md5AnimText, MD5MESH } from './md5-seed.js';
import { Rng } from './rng.js';
import { checkScriptSize, type FuzzTarget } from './targets.js';

export type GrammarKind = 'iqm-cfg' | 'framegroups';
export const GRAMMAR_KINDS: readonly GrammarKind[] = ['iqm-cfg', 'framegroups'];

/**
 * Library blocks a run may execute per input byte, plus a constant. The readers run at about 5–20 blocks a byte (a
 * character's loop turn and its tests); 200 leaves room for every warning and clip a line can make, and a path that
 * re-reads what came before (n² / 2 blocks for n bytes) passes it from a few thousand bytes on.
 */
export const STEP_BOUND = { perByte: 200, constant: 200_000 };
export const stepLimit = (n: number) => STEP_BOUND.perByte * n + STEP_BOUND.constant;
/**
 * Time in `npm run fuzz` (timed; never in a test): reading, 100 ms + 2 µs per byte; a .framegroups is also exported
 * to glTF, an animation per 4-byte line at ~0.5 ms each: 250 ms + 200 µs per byte.
 */
const timeLimitMs = (kind: GrammarKind, n: number) => (kind === 'iqm-cfg' ? 100 + n / 500 : 250 + n / 5);

export interface GrammarInput {
  from: string;
  ops: string[];
  /** The file system's files (iqm-cfg) or the one .framegroups file; `bytes` is the main one. */
  files: { path: string; bytes: Uint8Array }[];
  bytes: Uint8Array;
}

const latin1 = (s: string): Uint8Array => {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
  return b;
};

/**
 * A scale tier per round of shapes: 0 small, 1 medium, 2 large (sizes that already show each of issue 36's shapes,
 * at a cost the fixed-count test carries on the unfixed code), and with `edge` (npm run fuzz) 3: issue 36's own sizes
 * (20,000-deep nests, 200,000 groups, 20,000 of one name), which the unfixed code takes minutes on.
 */
const tierOf = (index: number, shapes: number, edge: boolean) => Math.floor(index / shapes) % (edge ? 4 : 3);

// --- iqm.cfg -----------------------------------------------------------------------------------------------------

const CFG_WORDS = ['iqmload', 'iqmdir', 'exec', 'iqmanim', 'iqmanimpart', 'iqmskin', 'iqmbumpmap', 'iqmtag', 'mdllod', 'loop', 'if',
  'iqmpitch', 'mdlscale', 'local', 'cases', 'IQMANIM', 'Exec'];
const NAMES = ['idle', 'run', 'jump|land', 'idle|idle', 'a|b|c|d', '', 'x'.repeat(300), '(at $W_NAMES $i)', 'dead', 'shoot'];
const FILES = ['m.iqm', 'anim.iqm', 'anim.iqm:idle', 'anim.iqm:', 'missing.iqm', '../m/anim.iqm', 'models/m/anim.iqm', '/abs.iqm', 'a:b:c', 'sub/../anim.iqm', '.', '..', ''];
const NUMBERS = ['0', '1', '-1', '10', '1e9', '-1e9', '1e400', 'nan', '0x10', '2147483648', '.5', '-'];
const CONDS = ['1', '0', '""', '"x"', '(strcmp (mdlname) "models/m")', '(strcmp (mdlname) "other")', '(|| 0 1)', '(&& 1 (! 0))', '(! 1)', '(unknown 1)', '()', '(strcmp)', '[block]', '$var'];

function quote(rng: Rng, s: string): string {
  const r = rng.below(4);
  if (r === 0) return `"${s.replace(/"/g, '^"')}"`;
  if (r === 1) return `"${s}^n^t^^^"x"`;
  return s || '""';
}

function cfgCommand(rng: Rng): string {
  const kw = rng.pick(CFG_WORDS);
  const n = rng.below(8);
  const args: string[] = [];
  for (let k = 0; k < n; k++) {
    const r = rng.below(4);
    args.push(r === 0 ? quote(rng, rng.pick(NAMES)) : r === 1 ? quote(rng, rng.pick(FILES)) : r === 2 ? rng.pick(NUMBERS) : rng.pick(CONDS));
  }
  if (kw === 'iqmanim' && rng.chance(0.7)) return `iqmanim ${quote(rng, rng.pick(NAMES))} ${quote(rng, rng.pick(FILES))} ${args.join(' ')}`;
  if ((kw === 'if' || kw === 'loop') && rng.chance(0.7)) return kw === 'if' ? `if ${rng.pick(CONDS)} [ ${cfgCommand(rng)} ] [ ${cfgCommand(rng)} ]` : `loop i 3 [ ${cfgCommand(rng)} ]`;
  return [kw, ...args].join(' ');
}

const SEPS = ['\n', ';', '\r\n', ' ; ', '\n\n'];
const PADS = [' ', '\t', '\n', '// a comment\n', '  ', '\r\n', '/'];

function padding(rng: Rng, size: number): string {
  const unit = rng.pick(PADS);
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

/** The shapes of a generated iqm.cfg; `tier` 0 small, 1 medium, 2 issue 36's sizes. */
const CFG_SHAPES: readonly ((rng: Rng, tier: number, ops: string[]) => string)[] = [
  // commands with random arguments
  (rng, tier, ops) => {
    const n = [rng.range(1, 20), rng.range(20, 400), rng.range(400, 3000), rng.range(3000, 30000)][tier];
    ops.push(`commands ${n}`);
    return Array.from({ length: n }, () => cfgCommand(rng) + rng.pick(SEPS)).join('');
  },
  // `if COND [` nested, closed or not
  (rng, tier, ops) => {
    const d = [rng.range(1, 8), rng.range(8, 300), rng.pick([1000, 4000]), rng.pick([4000, 20000])][tier];
    const open = rng.pick(['if 1 [', 'if 1 [\n', `if ${rng.pick(CONDS)} [`, 'loop i 2 [', 'if 0 [] [']);
    const closed = rng.chance(0.7);
    ops.push(`nest ${JSON.stringify(open)} × ${d}${closed ? '' : ' unclosed'}`);
    return open.repeat(d) + ` iqmanim idle anim.iqm\n` + (closed ? ']'.repeat(d) : '');
  },
  // conditions nested: `(! (! …` and `(|| (&& …`
  (rng, tier, ops) => {
    const d = [rng.range(1, 8), rng.range(8, 1000), rng.pick([2000, 4000]), rng.pick([4000, 20000])][tier];
    const open = rng.pick(['(!', '(! ', '(|| 0 ', '(&& 1 ', '(strcmp ']);
    const closed = rng.chance(0.7);
    ops.push(`condition ${JSON.stringify(open)} × ${d}${closed ? '' : ' unclosed'}`);
    return `if ${open.repeat(d)} 1${closed ? ')'.repeat(d) : ''} [ iqmanim idle anim.iqm ]\n`;
  },
  // padding inside a deep nest: each level's block holds all of it
  (rng, tier, ops) => {
    const d = [rng.range(1, 10), rng.range(10, 60), rng.range(60, 200), rng.range(200, 2000)][tier];
    const p = [rng.range(1, 200), rng.range(200, 5000), rng.range(5000, 20000), rng.range(20000, 200000)][tier];
    ops.push(`padding ${p} at depth ${d}`);
    return 'if 1 ['.repeat(d) + padding(rng, p) + 'iqmanimpart' + ']'.repeat(d) + '\n';
  },
  // one command repeated: the same clip name again and again (variants), or the same skin, tag, lod
  (rng, tier, ops) => {
    const r = [rng.range(1, 30), rng.range(30, 1000), rng.range(1000, 3000), rng.pick([5000, 20000])][tier];
    const line = rng.pick(['iqmanim idle anim.iqm 10', 'iqmanim idle anim.iqm 10', 'iqmanim "idle|run" anim.iqm:idle', 'iqmskin * skin.png', 'iqmtag j t 1 2 3', 'mdllod lod 100', 'iqmanimpart', 'iqmanim idle missing.iqm']);
    ops.push(`${JSON.stringify(line)} × ${r}`);
    return `iqmload m.iqm\n${`${line}\n`.repeat(r)}`;
  },
  // strings, blocks and expressions left open, escapes, stray closers
  (rng, tier, ops) => {
    const n = [rng.range(1, 20), rng.range(20, 500), rng.range(500, 4000), rng.range(4000, 40000)][tier];
    ops.push(`unbalanced ${n}`);
    const parts = ['"', '[', '(', ']', ')', '^', '^"', '//', '\n', ';', 'iqmanim ', 'idle ', 'anim.iqm ', 'if 1 ', '"a^nb"', '[[]', '(()'];
    return Array.from({ length: n }, () => rng.pick(parts)).join('');
  },
];

/** What each generated config may exec: files exec'ing each other (chains, cycles, themselves). */
function execFiles(rng: Rng, tier: number, ops: string[]): { path: string; bytes: Uint8Array }[] {
  const k = [rng.range(0, 2), rng.range(2, 8), rng.range(8, 24), rng.range(8, 24)][tier];
  if (k) ops.push(`${k} exec'd configs`);
  return Array.from({ length: k }, (_, i) => {
    const next = rng.chance(0.3) ? rng.below(k) : i + 1;
    const body = `exec models/m/c${next}.cfg\niqmanim c${i} anim.iqm\n${rng.chance(0.3) ? 'exec models/m/iqm.cfg\n' : ''}${rng.chance(0.3) ? cfgCommand(rng) : ''}`;
    return { path: `models/m/c${i}.cfg`, bytes: latin1(body) };
  });
}

/** A few byte edits from the grammar's own punctuation. */
function nudge(rng: Rng, text: string, ops: string[]): string {
  if (!text.length || rng.chance(0.5)) return text;
  let t = text;
  for (let k = rng.range(1, 3); k > 0; k--) {
    const at = rng.below(t.length);
    const c = rng.pick(['"', '[', ']', '(', ')', ';', '\n', '^', '\0', '\xff', '/']);
    t = rng.chance(0.5) ? t.slice(0, at) + c + t.slice(at) : t.slice(0, at) + t.slice(at + 1);
    ops.push(`nudge@${at}`);
  }
  return t;
}

export function makeCfgInput(rng: Rng, index: number, edge = false): GrammarInput {
  const shape = index % CFG_SHAPES.length;
  const tier = tierOf(index, CFG_SHAPES.length, edge);
  const ops: string[] = [`shape ${shape}, tier ${tier}`];
  let main = CFG_SHAPES[shape](rng, tier, ops);
  if (rng.chance(0.3)) main = `exec models/m/c0.cfg\n${main}`;
  main = nudge(rng, main, ops);
  const files = [
    { path: 'models/m/iqm.cfg', bytes: latin1(main) },
    ...execFiles(rng, tier, ops),
    { path: 'models/m/m.iqm', bytes: new Uint8Array(4) },
    { path: 'models/m/anim.iqm', bytes: new Uint8Array(4) },
    { path: 'models/m/skin.png', bytes: new Uint8Array(4) },
  ];
  return { from: 'generated', ops, files, bytes: files[0].bytes };
}

// --- .framegroups ------------------------------------------------------------------------------------------------

const FG_NUMBERS = ['0', '1', '-1', '7', '8', '100', '2147483647', '2147483648', '-2147483649', '9'.repeat(400), '1e400', '-0', '0x10', '1.5', '.5', 'x', '+3', '20', '0.0001'];
const FG_NAMES = ['idle', 'run', '"two words"', '"unclosed', 'groupified_0_anim', '""', 'a'.repeat(200), 'é\xff', '//not-a-name'];

function fgLine(rng: Rng): string {
  const k = rng.pick([0, 1, 2, 2, 3, 4, 5, 5, 5, 6]);
  const words = Array.from({ length: k }, (_, i) => (i === 4 ? rng.pick(FG_NAMES) : rng.pick(FG_NUMBERS)));
  const comment = rng.pick(['', '', ` // ${rng.pick(FG_NAMES)}`, ' /* c */', ' /* unclosed', '//']);
  return words.join(rng.pick([' ', '\t', '  '])) + comment;
}

const EOLS = ['\n', '\r\n', '\n\n', '\r'];

const FG_SHAPES: readonly ((rng: Rng, tier: number, ops: string[]) => string)[] = [
  // random lines
  (rng, tier, ops) => {
    const n = [rng.range(1, 20), rng.range(20, 2000), rng.range(2000, 6000), rng.range(6000, 40000)][tier];
    ops.push(`lines ${n}`);
    return Array.from({ length: n }, () => fgLine(rng) + rng.pick(EOLS)).join('');
  },
  // many groups
  (rng, tier, ops) => {
    const n = [rng.range(1, 100), rng.range(100, 2000), rng.range(2000, 8000), rng.pick([100000, 200000])][tier];
    ops.push(`${n} groups`);
    let s = '';
    for (let i = 0; i < n; i++) s += `${i % 8} 1 20 1\n`;
    return s;
  },
  // the same name again and again
  (rng, tier, ops) => {
    const n = [rng.range(1, 50), rng.range(50, 300), rng.range(300, 1000), rng.pick([5000, 20000])][tier];
    const named = rng.chance(0.5);
    ops.push(`${n} groups named the same (${named ? 'fifth token' : 'comment'})`);
    return (named ? '0 1 20 1 idle\n' : '0 1 // idle\n').repeat(n);
  },
  // past the reader's window: a long comment, a long token, a huge file
  (rng, tier, ops) => {
    const n = [rng.range(1, 4096), rng.range(4096, 0x30000), rng.range(0x40000, 0x60000), rng.range(0x60000, 0x400000)][tier];
    const fill = rng.pick(['/', ' ', 'a', '\n', '0 1\n', '/*']);
    ops.push(`${n} bytes of ${JSON.stringify(fill)}`);
    return `0 1 20 1 first\n${fill.repeat(Math.ceil(n / fill.length))}\n1 1 20 0 last\n`;
  },
];

export function makeFgInput(rng: Rng, index: number, edge = false): GrammarInput {
  const shape = index % FG_SHAPES.length;
  const tier = tierOf(index, FG_SHAPES.length, edge);
  const ops: string[] = [`shape ${shape}, tier ${tier}`];
  const text = nudge(rng, FG_SHAPES[shape](rng, tier, ops), ops);
  const bytes = latin1(text);
  return { from: 'generated', ops, files: [{ path: 'models/m/m.iqm.framegroups', bytes }], bytes };
}

// --- running and checking ------------------------------------------------------------------------------------------

let fgModel: IqmModel | undefined;

/** An IQM of 8 frames (generated: a two-joint mesh with an 8-frame md5anim), the model the groups are bounded to. */
function framesModel(): IqmModel {
  if (!fgModel) {
    const enc = new TextEncoder();
    const model = md5ToIqm(parseMd5Mesh(enc.encode(MD5MESH)), [{ name: 'wave', anim: parseMd5Anim(enc.encode(md5AnimText(8))) }]);
    fgModel = parseIqm(writeIqm(model));
  }
  return fgModel;
}

/** The readers' outputs for an input (anything they throw propagates). */
async function readInput(kind: GrammarKind, input: GrammarInput): Promise<unknown> {
  if (kind === 'iqm-cfg') {
    const fs = memoryFileSystem(input.files);
    const config = await readIqmConfig(fs, 'models/m/iqm.cfg');
    const clips = configClips(config);
    const files = configAnimationFiles(config);
    const beside = await iqmCompanionsBeside(fs, 'models/m/m.iqm');
    return { config, clips, files, beside };
  }
  const fromBytes = parseFrameGroups(input.bytes);
  const model = framesModel();
  const clips = iqmClips({ data: model, companions: [], sideFiles: input.files });
  // the glTF export of the clips, as the format registry's gltfOptions hands them over (formats/iqm/entry.ts)
  const anims: NamedIqmAnimation[] = clips.map((c) => ({ name: c.name, anim: c.file, clip: { firstFrame: c.firstFrame, frameCount: c.frameCount, fps: c.fps, loop: c.loop } }));
  const exported = metered(() => iqmToGlb(model, { anims }));
  if (exported.error !== undefined) throw exported.error;
  return { fromBytes, bounded: boundFrameGroups(fromBytes.groups, model.frameCount), clips: clips.map((c) => ({ ...c, file: null })), glb: { bytes: exported.value!.length, allocated: exported.bytes, ...nameStats(animationNames(exported.value!)) } };
}

/** The glb's animation names (its JSON chunk, read back). */
function animationNames(glb: Uint8Array): string[] {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + v.getUint32(12, true)))) as { animations?: { name?: string }[] };
  return (json.animations ?? []).map((a) => a.name ?? '');
}

const nameStats = (names: string[]) => ({ names: names.length, nameChars: names.reduce((a, x) => a + x.length, 0), longest: names.reduce((a, x) => Math.max(a, x.length), 0) });

/**
 * The clips' glTF export, per input byte: a group line is at least 4 bytes (`0 1` and its end) and exports one glTF
 * animation over the model's 2 joints, ~1.6 KB of typed arrays with the builder's growing copies (measured: ~400
 * bytes per input byte at one group per 4-byte line); 1 KiB per byte leaves room, and the constant holds the model.
 */
export const CLIP_EXPORT_BOUND = { perByte: 1024, constant: 4 << 20 };

/** What is wrong with a result, beyond its size: groups outside the model's frames, more groups than lines. */
function checkResult(kind: GrammarKind, result: unknown, bytes: Uint8Array): string {
  if (kind !== 'framegroups') return '';
  const r = result as { fromBytes: ReturnType<typeof parseFrameGroups>; bounded: ReturnType<typeof boundFrameGroups>; glb: { bytes: number; allocated: number } & ReturnType<typeof nameStats> };
  const n = bytes.length;
  const exportLimit = CLIP_EXPORT_BOUND.perByte * n + CLIP_EXPORT_BOUND.constant;
  if (r.glb.allocated > exportLimit) return `the clips' glTF export allocated ${r.glb.allocated} typed-array bytes for ${n} input bytes (bound ${exportLimit})`;
  // a clip's name in the glTF is its group's (its text, or `groupified_<i>_anim` up to 24 characters), made unique
  // with a short suffix: together no more characters than the file has, + 32 each
  if (r.glb.nameChars > n + 32 * r.glb.names + 4096) return `the glTF's ${r.glb.names} animation names hold ${r.glb.nameChars} characters for ${n} input bytes (longest ${r.glb.longest})`;
  let lines = 1;
  for (const b of bytes) if (b === 10) lines++;
  if (r.fromBytes.groups.length > lines) return `${r.fromBytes.groups.length} groups from ${lines} lines`;
  const frames = framesModel().frameCount;
  for (const g of r.bounded) {
    if (!Number.isInteger(g.firstFrame) || g.firstFrame < 0 || g.firstFrame >= frames) return `group "${g.name}" first frame ${g.firstFrame} outside 0..${frames - 1}`;
    if (!Number.isInteger(g.frameCount) || g.frameCount < 1 || g.firstFrame + g.frameCount > frames) return `group "${g.name}" frames ${g.firstFrame}+${g.frameCount} past ${frames}`;
    if (!(g.fps >= 1)) return `group "${g.name}" fps ${g.fps}`;
  }
  return '';
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message.slice(0, 200)} ${(e.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' ')}`;
  return `non-Error thrown: ${String(e)}`;
}

/** The step meter of this process (one inspector session; created on first use). */
let meter: CoverageMeter | undefined;

/** One input through the readers, checked (see the file comment). */
export async function checkGrammarInput(kind: GrammarKind, input: GrammarInput, opts: { filter?: CodeFilter; timed?: boolean } = {}): Promise<Outcome & { steps: number }> {
  meter ??= new CoverageMeter(opts.filter ?? LIBRARY_MODULES);
  const n = input.files.reduce((a, f) => a + f.bytes.length, 0);
  meter.reset();
  const t0 = performance.now();
  let result: unknown, error: unknown, threw = false;
  try {
    result = await readInput(kind, input);
  } catch (e) {
    error = e;
    threw = true;
  }
  const ms = performance.now() - t0;
  const steps = meter.take().steps;
  const out: Outcome & { steps: number } = { code: threw ? (error instanceof ModelParseError ? error.code : 'THREW') : 'OK', allocated: 0, ms, steps };
  const fail = (kind: ViolationKind, detail: string) => ({ ...out, violation: { kind, detail } });
  // The contracts (formats/iqm): parseFrameGroups and Cubescript's splitting never throw; readIqmConfig and iqmClips
  // refuse what is over a limit, typed (RESOURCE_LIMIT naming it; READ_FAILED for a config that cannot be read).
  const refused = threw && error instanceof ModelParseError && (error.code === 'RESOURCE_LIMIT' || error.code === 'READ_FAILED');
  if (threw && !refused) return fail('untyped', `threw from a reader documented as never throwing: ${describe(error)}`);
  if (refused) return steps > stepLimit(n) ? fail('steps', `${steps} library blocks executed for ${n} input bytes before a typed refusal (bound ${stepLimit(n)})`) : out;
  const bad = checkResult(kind, result, input.bytes);
  if (bad) return fail(bad.startsWith('the clips') ? 'memory' : 'accepted-invalid', bad);
  const size = checkScriptSize(result, { length: n } as Uint8Array);
  if (size) return fail('memory', size);
  if (steps > stepLimit(n)) return fail('steps', `${steps} library blocks executed for ${n} input bytes (bound ${stepLimit(n)}: ${STEP_BOUND.perByte} a byte + ${STEP_BOUND.constant})`);
  if (opts.timed && ms > timeLimitMs(kind, n)) return fail('slow', `${ms.toFixed(1)} ms for ${n} bytes (limit ${timeLimitMs(kind, n).toFixed(1)} ms)`);
  return out;
}

/** For `record`: the stats' memory column reads 0 (these readers make plain objects; their size is checked instead). */
const STATS_TARGET = { memory: { perByte: 1, constant: 1 } } as FuzzTarget;

export interface GrammarOptions {
  kind: GrammarKind;
  seed: number;
  start: number;
  count: number;
  filter?: CodeFilter;
  timed?: boolean;
  /** Issue 36's own sizes as a fourth scale tier (`npm run fuzz -- --edge`; minutes on the unfixed code). */
  edge?: boolean;
  onInput?: (index: number) => void;
}

/** Input `index` of campaign `seed` of `kind`. */
export function makeGrammarInput(kind: GrammarKind, seed: number, index: number, edge = false): GrammarInput {
  const rng = Rng.forInput(seed, index);
  return kind === 'iqm-cfg' ? makeCfgInput(rng, index, edge) : makeFgInput(rng, index, edge);
}

/** Inputs start … start + count − 1 of a grammar campaign, each checked; stats carry the largest step count per byte. */
export async function runGrammarCampaign(o: GrammarOptions): Promise<CampaignResult & { worstSteps: { steps: number; bytes: number; index: number } }> {
  const stats: Record<string, TargetStats> = { [o.kind]: emptyStats() };
  const violations: Violation[] = [];
  let worstSteps = { steps: 0, bytes: 0, index: -1 };
  for (let i = o.start; i < o.start + o.count; i++) {
    const input = makeGrammarInput(o.kind, o.seed, i, o.edge);
    const out = await checkGrammarInput(o.kind, input, { filter: o.filter, timed: o.timed });
    const n = input.files.reduce((a, f) => a + f.bytes.length, 0);
    if (out.steps / (n + 1000) > worstSteps.steps / (worstSteps.bytes + 1000)) worstSteps = { steps: out.steps, bytes: n, index: i };
    record(stats[o.kind], out, n, STATS_TARGET);
    if (out.violation) violations.push({ target: o.kind, seed: o.seed, index: i, from: input.from, ops: input.ops, ...out.violation, bytes: input.bytes });
    o.onInput?.(i);
    await turnIfHeld();
  }
  return { stats, violations, worstSteps };
}
