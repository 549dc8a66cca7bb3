/**
 * The classes of issue 27 as fuzz targets of their own, each run for a fixed number of inputs:
 * - `inflation` (synchronous, in TARGETS): archives whose members inflate 1 to 1000 times their packed size, mutated,
 *   read under the DEFAULT limits (`resolveLimits()`): whatever an input declares, the bytes served stay within
 *   64 × its size + 1 MiB (`maxTotalRatio`) and no member passes `maxMemberBytes`;
 * - `names` (synchronous, in TARGETS): MD2 and MD3 files whose names are made of control bytes (ESC/OSC, CSI, C1,
 *   DEL, CR), mutated, parsed, and their `inspect` summary printed through the CLI's gate (cli/terminal.ts): no
 *   printed line holds a control character but the line feed, no stderr line passes its cap, and `--json` stays
 *   the same JSON;
 * - `gltf-files` (asynchronous, gltf-hostile.ts): `.gltf` files naming hostile files;
 * - `gltf-deep` (asynchronous, gltf-hostile.ts): deep, long, cyclic and sparse glTF structures.
 */
import { deflateRawSync } from 'node:zlib';
import { DEFAULT_RESOURCE_LIMITS } from '../../src/base/resource-limits.js';
import type { Md2Model, Md3Model } from '../../src/base/model.js';
import { capLines, MAX_LINE, printable } from '../../src/commands/terminal.js';
import { groupLines, groupWarnings, parseWarnings } from '../../src/commands/warnings.js';
import { md2Summary } from '../../src/formats/md2/entry.js';
import { md3Summary } from '../../src/formats/md3/entry.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { crc32, makeZip } from '../helpers/zip-writer.js';
import { PARSER_MEMORY_BOUND } from './bounds.js';
import { md2Structure, md3Structure, type Structure } from './structure.js';
import type { FuzzTarget } from './targets.js';
import { checkZip, readZipSync, ZIP_MEMORY_BOUND, zipStructure } from './zip-target.js';
import { resolveLimits } from '../../src/vfs/archive-limits.js';

// --- inflation -------------------------------------------------------------------------------------------------

/** What every archive may make under the default limits: `maxTotalRatio` × its size + the 1 MiB allowance. */
const defaultCap = (archiveBytes: number) => DEFAULT_RESOURCE_LIMITS.maxTotalRatio * archiveBytes + (1 << 20);

/**
 * Seeds: archives of members that inflate far more than real content does — zeros and one repeated byte from 1 KiB to
 * 4 MiB (ratios up to ~1000), one beside a small real file, and members declared larger or smaller than they are.
 */
export function inflationSeeds(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[] {
  const real = files.find((f) => f.name.endsWith('.md3') && f.bytes.length < 8192) ?? files[0];
  const seeds: { name: string; bytes: Uint8Array }[] = [];
  for (const size of [1 << 10, 64 << 10, 1 << 20, 4 << 20]) {
    const zeros = new Uint8Array(size);
    const spaces = new Uint8Array(size).fill(0x20);
    seeds.push({ name: `zeros-${size}.pk3`, bytes: makeZip([{ name: 'scripts/zeros.shader', data: zeros }]) });
    seeds.push({ name: `spaces-${size}+real.pk3`, bytes: makeZip([{ name: real.name, data: real.bytes }, { name: 'scripts/spaces.shader', data: spaces }]) });
    // a member declaring twice what it holds, and one declaring half
    const raw = new Uint8Array(deflateRawSync(spaces));
    seeds.push({ name: `liar-${size}.pk3`, bytes: makeZip([{ name: 'a.shader', data: new Uint8Array(0), raw, crc: crc32(spaces), size: 2 * size }, { name: 'b.shader', data: new Uint8Array(0), raw, crc: crc32(spaces), size: size >> 1 }]) });
  }
  return seeds;
}

/** Read under the defaults: every member, as `openArchive` + reading each would (zip-target.ts). */
const readDefault = (bytes: Uint8Array) => readZipSync(bytes, resolveLimits());

/** What is wrong with an archive the defaults accepted: more inflated than the bound, a member over its cap. */
function checkInflation(model: unknown, bytes: Uint8Array): string {
  const r = model as ReturnType<typeof readZipSync>;
  if (r.inflated > defaultCap(bytes.length)) return `inflated ${r.inflated} bytes from a ${bytes.length}-byte archive: over 64 × + 1 MiB (${defaultCap(bytes.length)})`;
  const big = r.sizes.find((s) => s > DEFAULT_RESOURCE_LIMITS.maxMemberBytes);
  if (big !== undefined) return `a member of ${big} bytes served, over maxMemberBytes`;
  return checkZip(model, bytes);
}

export const inflationTarget: FuzzTarget = {
  name: 'inflation',
  formats: [],
  text: false,
  parse: readDefault,
  structure: zipStructure,
  check: checkInflation,
  memory: ZIP_MEMORY_BOUND,
  seeds: inflationSeeds,
  minErrorCodes: 3,
};

// --- names ---------------------------------------------------------------------------------------------------------

/** Control sequences a name may carry: OSC (retitle), CSI (clear, move), the 8-bit CSI, BEL, DEL, CR, backspace. */
const HOSTILE = ['\x1b]0;pwned\x07', '\x1b[2J', '\x1b[1A\x1b[2K', '\x9b31m', '\x9d0;x\x9c', '\x7f', '\r', '\x08\x08', '\x00', '\x1b'];

/** `text` (Latin-1, NUL-padded) into the 64-byte field at `at`. */
function setName(b: Uint8Array, at: number, text: string): void {
  if (at < 0 || at + 64 > b.length) return;
  b.fill(0, at, at + 64);
  for (let i = 0; i < Math.min(63, text.length); i++) b[at + i] = text.charCodeAt(i) & 0xff;
}

/** A real MD2 or MD3 with every name it has replaced by control sequences (k-th seed: k-th mixture). */
function hostileNames(file: { name: string; bytes: Uint8Array }, k: number): Uint8Array {
  const b = file.bytes.slice();
  const v = new DataView(b.buffer);
  const name = (i: number) => `n${i}${HOSTILE[(i + k) % HOSTILE.length]}${HOSTILE[(i * 3 + k) % HOSTILE.length]}x`;
  if (file.name.endsWith('.md2')) {
    const skins = v.getInt32(20, true), ofs = v.getInt32(44, true);
    for (let i = 0; i < Math.min(skins, 32); i++) setName(b, ofs + 64 * i, name(i));
  } else {
    setName(b, 8, name(99));
    const surfaces = v.getInt32(84, true);
    let at = v.getInt32(100, true);
    for (let s = 0; s < Math.min(surfaces, 32) && at + 108 <= b.length; s++) {
      setName(b, at + 4, name(s));
      const shaders = v.getInt32(at + 76, true), ofsShaders = v.getInt32(at + 92, true);
      for (let i = 0; i < Math.min(shaders, 8); i++) setName(b, at + ofsShaders + 68 * i, `models/${name(s + i)}.tga`);
      at += v.getInt32(at + 104, true);
    }
    const tags = v.getInt32(80, true), ofsTags = v.getInt32(96, true);
    for (let i = 0; i < Math.min(tags, 16); i++) setName(b, ofsTags + 112 * i, `tag_${name(i)}`);
  }
  return b;
}

const isMd2 = (b: Uint8Array) => b.length >= 4 && b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x50 && b[3] === 0x32;

/** What `inspect` prints for a model, as lines (its table and its JSON line), and the summary itself. */
function printed(bytes: Uint8Array): { summary: object; lines: string[] } {
  const model = isMd2(bytes) ? parseMd2(bytes) : parseMd3(bytes);
  const summary = model.format === 'md2' ? md2Summary(model as Md2Model) : md3Summary(model as Md3Model);
  const lines = Object.entries(summary).map(([k, v]) => `${k} ${Array.isArray(v) ? v.map((s) => JSON.stringify(s)).join(' ') : String(v)}`);
  for (const g of groupWarnings(parseWarnings('fuzz', model.warnings))) lines.push(`fuzz: warning ${groupLines(g).join('\n')}`);
  lines.push(JSON.stringify(summary));
  return { summary, lines };
}

/** The characters the gate must have escaped. */
const LEFT = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every printed line through the gate: no control character left, no stderr line past its cap, JSON unchanged. */
function checkPrinted(result: unknown): string {
  const { summary, lines } = result as ReturnType<typeof printed>;
  for (const line of lines) {
    const out = capLines(printable(line));
    const bad = LEFT.exec(out);
    if (bad) return `U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} printed raw in ${JSON.stringify(out.slice(0, 120))}`;
    for (const l of out.split('\n')) if (l.length > MAX_LINE + 40) return `a printed line of ${l.length} characters`;
  }
  const json = JSON.stringify(summary);
  if (JSON.stringify(JSON.parse(printable(json))) !== json) return '--json changed by the gate';
  return '';
}

/** Seeds: the corpus MD2 and MD3 files, each with hostile names (three mixtures each). */
function nameSeeds(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[] {
  const models = files.filter((f) => /\.(md2|md3)$/i.test(f.name) && f.bytes.length <= 256 * 1024 && !f.name.includes('/invalid/'));
  return models.flatMap((f) => [0, 1, 2].map((k) => ({ name: `${f.name}#names${k}`, bytes: hostileNames(f, k) })));
}

const nameStructure = (b: Uint8Array): Structure => (isMd2(b) ? md2Structure(b) : md3Structure(b));

export const namesTarget: FuzzTarget = {
  name: 'names',
  formats: [],
  text: false,
  parse: printed,
  structure: nameStructure,
  check: checkPrinted,
  memory: PARSER_MEMORY_BOUND,
  seeds: nameSeeds,
};
