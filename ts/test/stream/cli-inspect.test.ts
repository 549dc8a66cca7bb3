/**
 * `idtech-models inspect` on generated files (fixtures/generate-md5.mjs, written to a temp dir): it streams them and
 * reports what the one-buffer parsers find; a cut file fails with the end-of-input position; the progress bar only
 * appears on a terminal and is erased. Needs dist/ (node scripts/bundle.mjs), like the other CLI tests.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { fileProgress, formatBar } from '../../src/commands/progress.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { execChild } from '../helpers/child.js';
import { runCli } from '../helpers/cli.js';
import { REPO } from '../helpers/models.js';
import { lineColumn } from './_helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idtech-stream-cli-'));
const prefix = join(dir, 'gen');
// 24 joints, 2 meshes, 3,000 frames (~ 1.9 MB of md5anim): many 64 KiB chunks, many frames per chunk.
await execChild(process.execPath, [join(REPO, 'fixtures/generate-md5.mjs'), prefix, '--joints', '24', '--rings', '30', '--sides', '12', '--frames', '3000', '--loose-bounds']);
const animBytes = new Uint8Array(readFileSync(`${prefix}.md5anim`));
const meshBytes = new Uint8Array(readFileSync(`${prefix}.md5mesh`));

const inspect = (file: string, ...flags: string[]) => runCli('inspect', file, ...flags);

describe('inspect streams generated files', () => {
  test('md5anim: the header and frame count of the one-buffer parse', async () => {
    const r = await inspect(`${prefix}.md5anim`, '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(''); // not a terminal: no progress bar
    const anim = parseMd5Anim(animBytes);
    expect(JSON.parse(r.stdout)).toEqual({
      file: `${prefix}.md5anim`,
      format: 'md5anim',
      version: 10,
      commandline: anim.commandline,
      joints: 24,
      frames: 3000,
      frameRate: anim.frameRate,
      animatedComponents: anim.componentCount,
      durationSeconds: 2999 / anim.frameRate,
      jointNames: anim.names,
    });
  });

  test('md5mesh: per-mesh counts of the one-buffer parse', async () => {
    const r = await inspect(`${prefix}.md5mesh`, '--json');
    expect(r.status, r.stderr).toBe(0);
    const mesh = parseMd5Mesh(meshBytes);
    const j = JSON.parse(r.stdout);
    expect(j.meshes).toBe(2);
    expect(j.perMesh).toEqual(mesh.meshes.map((m) => ({ name: m.name, shader: m.shader, vertices: m.vertexCount, triangles: m.triangleCount, weights: m.weightTotal })));
    // the generator's own numbers: a tube of rings × sides vertices, two weights each, and an 8 + 1 vertex cap
    expect(j.vertices).toBe(30 * 12 + 9);
    expect(j.weights).toBe(30 * 12 * 2 + 9);
  });

  test('a truncated md5anim exits 1 with file:line:column of the end of input', async () => {
    const cut = Math.floor(animBytes.length * 0.77);
    const file = join(dir, 'cut.md5anim');
    writeFileSync(file, animBytes.subarray(0, cut));
    const r = await inspect(file);
    expect(r.status).toBe(1);
    const text = new TextDecoder('latin1').decode(animBytes.subarray(0, cut));
    const m = /^idtech-models: (.*):(\d+):(\d+): ([A-Z_]+): /.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(m![1]).toBe(file);
    if (m![4] === 'TRUNCATED' || m![4] === 'BAD_COUNT') {
      const { line, column } = lineColumn(text, cut);
      expect([Number(m![2]), Number(m![3])]).toEqual([line, column]);
    } else {
      // cut inside a number: that partial number's own error, on the last line
      expect(Number(m![2])).toBe(lineColumn(text, cut).line);
    }
  });
});

describe('progress bar', () => {
  function fakeTty(isTTY: boolean) {
    const out: string[] = [];
    const stream = { isTTY, columns: 100, write: (s: string) => (out.push(s), true) } as unknown as NodeJS.WriteStream;
    return { stream, out };
  }

  test('drawn on a terminal for a big input, throttled, and erased at the end', async () => {
    const { stream, out } = fakeTty(true);
    // The bar's clock is performance.now(): faked, so the updates come 7 ms apart however busy the machine is.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      vi.advanceTimersByTime(1000);
      const p = await fileProgress(`${prefix}.md5anim`, stream, 1024);
      for (let i = 1; i <= 100; i++) {
        p.update(Math.floor((animBytes.length * i) / 100));
        vi.advanceTimersByTime(7);
      }
      p.done();
    } finally {
      vi.useRealTimers();
    }
    // 700 ms of updates: the first draws, then one every 100 ms (15 updates apart: 7 × 15 = 105 ms), the last (100%)
    // always; then the bar is erased.
    expect(out.length).toBe(1 + Math.floor(99 / 15) + 1 + 1);
    expect(out.at(-2)).toMatch(/^\r.*\[#+\] 100% /);
    expect(out.at(-1)).toBe('\r\x1b[K');
  });

  test('silent when stderr is not a terminal, or the input is small', async () => {
    for (const [tty, min] of [[false, 1024], [true, animBytes.length + 1]] as const) {
      const { stream, out } = fakeTty(tty);
      const p = await fileProgress(`${prefix}.md5anim`, stream, min);
      p.update(animBytes.length);
      p.done();
      expect(out).toEqual([]);
    }
  });

  test('the bar line: label, filled share, percent, MB and rate, within the terminal width', () => {
    // by hand: the tail "  25%  250/1000 MB  250 MB/s" (MB read padded to the total's width, the rate to 9) is
    // 28 wide, so the bar gets 80 − 11 − 28 − 4 = 37 cells, of which 25% → 9.25 → 9 are filled
    expect(formatBar('big.md5anim', 250e6, 1000e6, 1, 80)).toBe(`big.md5anim [${'#'.repeat(9)}${'.'.repeat(28)}]  25%  250/1000 MB  250 MB/s`);
    // the bar keeps its width as the numbers change
    expect(formatBar('big.md5anim', 5e6, 1000e6, 1, 80).length).toBe(formatBar('big.md5anim', 990e6, 1000e6, 3, 80).length);
    expect(formatBar('x', 0, 0, 0, 40).length).toBeLessThan(40);
  });
});
