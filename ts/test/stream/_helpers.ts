/** Shared helpers of the stream tests (not a test file itself): seeded randomness, synthetic md5anim text, sources. */

/** mulberry32: a small seeded PRNG, so every random test names its seed and replays exactly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** The header of a valid md5anim of `joints` joints (chain, all six components animated) and `frames` frames. */
export function animHeaderText(joints: number, frames: number): string {
  const lines = ['MD5Version 10', 'commandline "stream test"', '', `numFrames ${frames}`, `numJoints ${joints}`, 'frameRate 24', `numAnimatedComponents ${joints * 6}`, '', 'hierarchy {'];
  for (let j = 0; j < joints; j++) lines.push(`\t"j${j}"\t${j - 1} 63 ${j * 6}`);
  lines.push('}', '', 'bounds {');
  for (let f = 0; f < frames; f++) lines.push(`\t( -${f + 1} -1 -1 ) ( ${f + 1} 1 1 )`);
  lines.push('}', '', 'baseframe {');
  for (let j = 0; j < joints; j++) lines.push(`\t( ${j} 0 0 ) ( 0 0 0 )`);
  lines.push('}', '');
  return lines.join('\n');
}

/** One frame block with the given value tokens, six per line. */
export function frameText(index: number, tokens: readonly string[]): string {
  const rows: string[] = [];
  for (let i = 0; i < tokens.length; i += 6) rows.push('\t' + tokens.slice(i, i + 6).join(' '));
  return `frame ${index} {\n${rows.join('\n')}\n}\n`;
}

/** Deterministic value tokens of frame `f` (what {@link syntheticFrames} writes), exporter style. */
export function frameTokens(f: number, components: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < components; k++) out.push((Math.sin(f * 0.37 + k * 1.3) * 3).toFixed(6).replace(/0+$/, '').replace(/\.$/, ''));
  return out;
}

/**
 * A synthetic md5anim of `frames` frames produced lazily, a few frames per chunk: the whole text never exists at
 * once, so the source itself costs constant memory (what a memory test needs). `pulled()` is the bytes produced.
 */
export function syntheticFrames(joints: number, frames: number, framesPerChunk = 4) {
  let produced = 0;
  async function* gen(): AsyncGenerator<Uint8Array> {
    const head = enc(animHeaderText(joints, frames));
    produced += head.length;
    yield head;
    for (let f = 0; f < frames; f += framesPerChunk) {
      let text = '';
      for (let g = f; g < Math.min(frames, f + framesPerChunk); g++) text += frameText(g, frameTokens(g, joints * 6));
      const bytes = enc(text);
      produced += bytes.length;
      yield bytes;
    }
  }
  return { source: gen(), pulled: () => produced };
}

/** `bytes` in chunks of `size`; a ReadableStream over them that logs pulls and cancellation. */
export { chunked, instrumentedStream } from '../helpers/chunks.js';

/** 1-based line and column (in bytes) of byte `offset` of a Latin-1 / ASCII `text`; LF, CR and CRLF each end a line. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const breaks = before.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line: breaks + 1, column: offset - lineStart + 1 };
}
