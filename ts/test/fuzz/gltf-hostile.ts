/**
 * Two glTF campaigns made by generators (not mutated seeds), each input a pure function of (seed, index):
 * - `gltf-files`: a `.gltf` in a folder of hostile files — links to a secret file outside the folder and to
 *   /dev/zero, a link to the parent folder, a FIFO, a sub-folder, a missing file, an image over the reader's size
 *   limit — naming them (and `..`, absolute paths, URLs, `%zz`, control characters, `\`, every mixture of
 *   percent-encoding) as buffers and images, read through the Node reader `gltfFileReader`. Invariant: the import's
 *   (checkGltfInput), and the reader never hands back the secret file's bytes;
 * - `gltf-deep`: node chains, trees, random graphs (cycles, several parents, self and out-of-range references) of
 *   1 to 20,000 nodes, and sparse accessors with edge counts, views and offsets. Invariant: the import's — a model or
 *   a typed error, never a stack overflow or untyped error, within the memory bound.
 * Each input is checked to the same invariant as the mutation campaign's glTF target (gltf-target.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GltfResourceRequest } from '../../src/import/gltf-resources.js';
import { gltfFileReader } from '../../src/load/gltf-files.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { emptyStats, record, type CampaignResult, type TargetStats, type Violation } from './campaign.js';
import { checkGltfInput, GLTF_TARGET_STATS } from './gltf-target.js';
import type { Outcome } from './invariant.js';
import { Rng } from './rng.js';

export type HostileGltfKind = 'gltf-files' | 'gltf-deep';

// --- gltf-files ---------------------------------------------------------------------------------------------------

/** Bytes no file inside the model's folder holds (the triangle's length, so a byteLength check alone passes). */
const SECRET = Uint8Array.from({ length: 36 }, (_, i) => (i * 37 + 11) & 0xff);
/** Largest file the campaign's reader reads: big.png (5000 bytes) is over it. */
const READER_MAX = 4096;

let folder: { root: string; model: string } | undefined;

/** The folder tree every gltf-files input reads from (made once per process, in the temp folder). */
function hostileFolder(): { root: string; model: string } {
  if (folder) return folder;
  const root = mkdtempSync(join(tmpdir(), 'idtech-fuzz-gltf-files-'));
  const model = join(root, 'm');
  mkdirSync(join(model, 'sub'), { recursive: true });
  writeFileSync(join(root, 'secret.bin'), SECRET);
  writeFileSync(join(model, 'tri.bin'), triangleBin());
  writeFileSync(join(model, 'sub', 'tri.bin'), triangleBin());
  writeFileSync(join(model, 'big.png'), new Uint8Array(5000));
  writeFileSync(join(model, 'skin.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  symlinkSync('tri.bin', join(model, 'link-in.bin'));
  symlinkSync(join(root, 'secret.bin'), join(model, 'link-out.bin'));
  symlinkSync('/dev/zero', join(model, 'link-dev.bin'));
  symlinkSync('..', join(model, 'updir'));
  execFileSync('mkfifo', [join(model, 'pipe.bin')]);
  return (folder = { root, model });
}

/** The names a hostile .gltf may use for a file, before the mutations of `disguise`. */
function targets(root: string): string[] {
  const secret = join(root, 'secret.bin');
  return [
    'tri.bin', 'sub/tri.bin', './tri.bin', 'link-in.bin', 'skin.png', 'big.png', 'missing.bin', 'sub', 'pipe.bin',
    'link-out.bin', 'link-dev.bin', 'updir/secret.bin', 'updir/m/tri.bin', '../secret.bin', 'sub/../../secret.bin',
    `${'../'.repeat(12)}etc/passwd`, secret, `file://${secret}`, 'http://127.0.0.1:9/tri.bin', 'C:\\secret.bin',
    '\\\\server\\share\\tri.bin', '%zz', '%', 'tri%2ebin', '%74ri.bin', `${'a'.repeat(300)}.bin`, '',
    `data:application/octet-stream;base64,${Buffer.from(triangleBin()).toString('base64')}`,
  ];
}

/** A name made harder to read: percent-encodings, `\` for `/`, control characters, doubled slashes, `./`. */
function disguise(name: string, rng: Rng): string {
  let s = name;
  const ops = rng.below(3);
  for (let k = 0; k < ops; k++) {
    const at = rng.below(s.length + 1);
    switch (rng.below(6)) {
      case 0: // percent-encode one character
        if (s.length) s = s.slice(0, at) + `%${s.charCodeAt(Math.min(at, s.length - 1)).toString(16).padStart(2, '0')}` + s.slice(at + 1);
        break;
      case 1:
        s = s.replace(/\//g, '\\');
        break;
      case 2:
        s = s.slice(0, at) + rng.pick(['%00', '%1b', '\x1b', '\x00', '%0a', '\u009b', '%7f']) + s.slice(at);
        break;
      case 3:
        s = s.replace('/', '//');
        break;
      case 4:
        s = `./${s}`;
        break;
      default:
        s = s.slice(0, at) + rng.pick(['../', '%2e%2e/', '..%2f', '.%2e/']) + s.slice(at);
    }
  }
  return s;
}

interface HostileInput {
  from: string;
  ops: string[];
  bytes: Uint8Array;
  resources: Record<string, Uint8Array>;
}

/** Input `index` of a gltf-files campaign. */
function filesInput(rng: Rng, root: string): HostileInput {
  const names = targets(root);
  const bufferUri = rng.chance(0.1) ? undefined : disguise(rng.pick(names), rng);
  const byteLength = rng.chance(0.8) ? 36 : rng.pick([0, 1, 35, 37, 5000, 2 ** 31 - 1, 2 ** 53, 1e20, -1, 0.5]);
  const imageUri = rng.chance(0.5) ? disguise(rng.pick(names), rng) : undefined;
  const bytes = triangleGltf({ bufferUri, byteLength, imageUri });
  // a buffer without a uri is a GLB's: none here, so give it as a resource of no name (glTF Transform's key)
  return { from: 'generated', ops: [`buffer=${JSON.stringify(bufferUri)}`, `byteLength=${byteLength}`, `image=${JSON.stringify(imageUri)}`], bytes, resources: {} };
}

// --- gltf-deep ----------------------------------------------------------------------------------------------------

/** A node count: mostly small, sometimes long chains near and past the bounds. */
function nodeCount(rng: Rng): number {
  const r = rng.unit();
  if (r < 0.6) return rng.range(1, 64);
  if (r < 0.85) return rng.range(200, 2000);
  return rng.pick([255, 256, 257, 258, 4000, 16_384, 16_385, 20_000]);
}

/** Input `index` of a gltf-deep campaign. */
function deepInput(rng: Rng): HostileInput {
  const n = nodeCount(rng);
  const shape = rng.pick(['chain', 'tree', 'graph', 'wide'] as const);
  const edge = (): unknown => rng.pick([-1, n, n + 1, 2 ** 31 - 1, 0.5, '0', null]);
  const nodes: Record<string, unknown>[] = Array.from({ length: n }, (_, i) => ({ name: `n${i}` }));
  for (let i = 0; i < n; i++) {
    let children: unknown[] = [];
    if (shape === 'chain' && i + 1 < n) children = [i + 1];
    else if (shape === 'tree') children = [2 * i + 1, 2 * i + 2].filter((c) => c < n);
    else if (shape === 'wide' && i === 0) children = Array.from({ length: n - 1 }, (_, k) => k + 1);
    else if (shape === 'graph' && rng.chance(0.5)) children = Array.from({ length: rng.range(1, 3) }, () => rng.below(n));
    if (rng.chance(0.002)) children.push(edge());
    if (children.length) nodes[i].children = children;
  }
  nodes[rng.below(n)].mesh = 0;
  if (rng.chance(0.05)) nodes[rng.below(n)].children = [rng.below(n)]; // a back edge: a cycle, or a second parent
  const extra: Record<string, unknown> = { nodes, scenes: [{ nodes: rng.chance(0.95) ? [0] : [edge()] }] };
  if (rng.chance(0.1)) extra.scene = rng.pick([0, 1, -1, 0.5]);
  if (rng.chance(0.1)) extra.skins = [{ joints: [0, rng.chance(0.5) ? rng.below(n) : edge()] }];
  const ops = [`${shape} of ${n}`];
  if (rng.chance(0.5)) {
    // a sparse accessor over views of the triangle's buffer: counts, offsets and types at their edges
    const count = rng.pick([1, 2, 3, 4, 9, 10, 1000, 2 ** 31 - 1, 0, -1, 2.5]);
    const sparseCount = rng.pick([1, 2, 3, 4, 9, 10, 11, 1000, 2 ** 31 - 1, 0, -1, 2.5]);
    const view = () => ({ buffer: 0, byteOffset: rng.pick([0, 4, 36]), byteLength: rng.pick([0, 4, 12, 32, 36]) });
    extra.bufferViews = [{ buffer: 0, byteLength: 36 }, view(), view()];
    extra.accessors = [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' },
      { componentType: 5126, count, type: 'VEC3', ...(rng.chance(0.3) ? { bufferView: 0 } : {}), sparse: { count: sparseCount, indices: { bufferView: rng.pick([1, 2, 3]), componentType: rng.pick([5121, 5123, 5125, 5122, 5126]), byteOffset: rng.pick([0, 4, 40]) }, values: { bufferView: rng.pick([1, 2, 3]), byteOffset: rng.pick([0, 4, 40]) } } },
    ];
    // the sparse accessor drives the primitive's POSITION half of the time
    if (rng.chance(0.5)) extra.meshes = [{ name: 'tri', primitives: [{ attributes: { POSITION: 1 }, mode: 4 }] }];
    ops.push(`sparse count ${sparseCount} of ${count}`);
  }
  return { from: 'generated', ops, bytes: triangleGltf({ bufferUri: 'tri.bin', extra }), resources: { 'tri.bin': triangleBin() } };
}

// --- the campaign -------------------------------------------------------------------------------------------------

export interface HostileGltfOptions {
  kind: HostileGltfKind;
  seed: number;
  start: number;
  count: number;
  /** Hold each import to its time bound (scripts/fuzz.mjs only). */
  timed?: boolean;
  onInput?: (index: number) => void;
}

/** Input `index` of campaign `seed` of `kind` (exported for scripts/fuzz.mjs's hang reports). */
export function makeHostileGltfInput(kind: HostileGltfKind, seed: number, index: number): HostileInput {
  const rng = Rng.forInput(seed, index);
  return kind === 'gltf-files' ? filesInput(rng, hostileFolder().root) : deepInput(rng);
}

/** Inputs start … start + count − 1 of a hostile glTF campaign, each checked (see the file comment). */
export async function runHostileGltfCampaign(o: HostileGltfOptions): Promise<CampaignResult> {
  const stats: Record<string, TargetStats> = { [o.kind]: emptyStats() };
  const violations: Violation[] = [];
  const dir = o.kind === 'gltf-files' ? hostileFolder() : undefined;
  for (let i = o.start; i < o.start + o.count; i++) {
    const input = makeHostileGltfInput(o.kind, o.seed, i);
    let leaked = '';
    const reader = dir ? gltfFileReader(join(dir.model, 'model.gltf'), { maxGltfFileBytes: READER_MAX }) : undefined;
    const readResource = reader
      ? async (r: GltfResourceRequest) => {
          const bytes = await reader(r);
          if (bytes.length >= SECRET.length && SECRET.every((b, k) => bytes[k] === b)) leaked = `the reader handed back the secret file outside the folder for ${JSON.stringify(r.uri)}`;
          return bytes;
        }
      : undefined;
    let out: Outcome = await checkGltfInput(input.bytes, input.resources, i % 3 === 0, { readResource, timed: o.timed });
    if (leaked && !out.violation) out = { ...out, violation: { kind: 'accepted-invalid', detail: leaked } };
    record(stats[o.kind], out, input.bytes.length, GLTF_TARGET_STATS);
    if (out.violation) violations.push({ target: o.kind, seed: o.seed, index: i, from: input.from, ops: input.ops, ...out.violation, bytes: input.bytes });
    o.onInput?.(i);
    await turnIfHeld(); // the loop turns between inputs however few of them wait on I/O (helpers/loop-turn.ts)
  }
  return { stats, violations };
}
