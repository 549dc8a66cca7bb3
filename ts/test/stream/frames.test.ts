/**
 * Frame and mesh streams give exactly what the one-buffer parsers give (the expected values), for any chunking:
 * every two-way split of small real files, random multi-splits of the biggest real anim, 64 KiB ReadableStreams,
 * and one buffer handed out one frame at a time. With `pose`, each frame's joints are the reference kernels' compose
 * of the same frame, on the TS and both WASM backends.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { forEachMd5AnimFrame, openMd5AnimFrames } from '../../src/formats/md5/composed-frames.js';
import { parseMd5AnimStream } from '../../src/formats/md5/stream.js';
import { openMd5Meshes } from '../../src/formats/md5/mesh-stream.js';
import type { Md5Anim, Md5Mesh, Md5MeshPart } from '../../src/base/model.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import * as tsKernels from '../../src/kernels/ts-kernels.js';
import type { ByteSource } from '../../src/base/source.js';
import { diff, FILES, readModel, splitAt } from '../md5/_helpers.js';
import { chunked, instrumentedStream } from './_helpers.js';

/** Every frame of a stream, copied, with the header. */
async function collectFrames(source: ByteSource, keepBounds = true) {
  const reader = await openMd5AnimFrames(source, { keepBounds });
  const frames: { index: number; components: Float32Array; bounds: Float32Array | null }[] = [];
  for await (const f of reader) frames.push({ index: f.index, components: f.components.slice(), bounds: f.bounds && f.bounds.slice() });
  return { header: reader.header, frames };
}

/** The stream's result in the one-buffer shape, for a bit-exact comparison with parseMd5Anim. */
function asAnim(r: Awaited<ReturnType<typeof collectFrames>>): Md5Anim {
  const c = r.header.componentCount;
  const frames = new Float32Array(r.frames.length * c);
  r.frames.forEach((f, i) => {
    expect(f.index).toBe(i);
    frames.set(f.components, i * c);
    expect(diff(f.bounds, r.header.bounds.subarray(i * 6, i * 6 + 6))).toBe('');
  });
  return { ...r.header, frames };
}

async function collectMeshes(source: ByteSource): Promise<Md5Mesh> {
  const reader = await openMd5Meshes(source);
  const meshes: Md5MeshPart[] = [];
  for await (const m of reader) meshes.push(m);
  const { meshCount, ...rest } = reader.header;
  expect(meshCount).toBe(meshes.length);
  return { ...rest, meshes };
}

describe('frame stream = one-buffer parse', () => {
  test('drone idle.md5anim: every two-way split point', async () => {
    const bytes = readModel(FILES.droneIdle);
    const whole = parseMd5Anim(bytes);
    for (let i = 0; i <= bytes.length; i++) {
      const d = diff(asAnim(await collectFrames(splitAt(bytes, [i]))), whole);
      if (d) throw new Error(`split at ${i}: differs at ${d}`);
    }
  });

  test('rifle_view_idle.md5anim (1.4 MB, CRLF, 501 frames): random multi-splits and 1-byte runs', async () => {
    const bytes = readModel(FILES.rifleIdle);
    const whole = parseMd5Anim(bytes);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 0, max: bytes.length }), { maxLength: 200 }), fc.integer({ min: 0, max: bytes.length - 300 }), async (cuts, dense) => {
        const all = [...new Set([...cuts, ...Array.from({ length: 300 }, (_, k) => dense + k)])].sort((a, b) => a - b);
        const d = diff(asAnim(await collectFrames(splitAt(bytes, all))), whole);
        if (d) throw new Error(`cuts ${all.slice(0, 20).join(',')}…: differs at ${d}`);
      }),
      { numRuns: 25 },
    );
  });

  test('every real anim, as a ReadableStream of 64 KiB chunks and as one buffer', async () => {
    for (const file of [FILES.droneDeath, FILES.droneForward, FILES.rifleReload, FILES.rifleIdle]) {
      const bytes = readModel(file);
      const whole = parseMd5Anim(bytes);
      expect(diff(asAnim(await collectFrames(instrumentedStream(bytes, 65536).stream)), whole), file).toBe('');
      expect(diff(asAnim(await collectFrames(bytes)), whole), file).toBe('');
    }
  });

  test('keepBounds: false hands out no bounds and keeps none', async () => {
    const bytes = readModel(FILES.rifleReload);
    const r = await collectFrames(bytes, false);
    expect(r.header.bounds.length).toBe(0);
    expect(r.frames.every((f) => f.bounds === null)).toBe(true);
    const whole = parseMd5Anim(bytes);
    const c = whole.componentCount;
    expect(r.frames.length).toBe(whole.frameCount);
    r.frames.forEach((f, i) => expect(diff(f.components, whole.frames.subarray(i * c, (i + 1) * c)), `frame ${i}`).toBe(''));
  });

  test('the callback form sees the same frames, and waits for an async callback before reading on', async () => {
    const bytes = readModel(FILES.droneForward);
    const whole = parseMd5Anim(bytes);
    const seen: number[] = [];
    let busy = false;
    const header = await forEachMd5AnimFrame(chunked(bytes, 4096), async (f, h) => {
      expect(busy).toBe(false); // not called again before the previous promise settled
      busy = true;
      expect(diff(f.components, whole.frames.subarray(f.index * h.componentCount, (f.index + 1) * h.componentCount))).toBe('');
      await new Promise((r) => setTimeout(r, 1));
      seen.push(f.index);
      busy = false;
    });
    expect(seen).toEqual(Array.from({ length: whole.frameCount }, (_, i) => i));
    expect(header.frameCount).toBe(whole.frameCount);
  });
});

describe('frame stream with pose composition', () => {
  // Expected: the reference TS kernels (ts-kernels.ts, mirrored by the Rust core) run on the one-buffer parse.
  function expectedPose(anim: Md5Anim, frame: number) {
    const c = anim.componentCount;
    const local = new Float32Array(anim.jointCount * 8);
    const object = new Float32Array(anim.jointCount * 8);
    tsKernels.composeFrame(anim.flags, anim.startIndices, anim.baseframe, anim.frames.subarray(frame * c, (frame + 1) * c), local);
    tsKernels.localToObject(anim.parents, local, object);
    return { local, object };
  }
  const backends = [
    ['ts', async () => createTsBackend()],
    ['wasm-simd', () => createWasmBackend('simd')],
    ['wasm-scalar', () => createWasmBackend('scalar')],
  ] as const;
  for (const [name, make] of backends) {
    test(`${name}: every frame's local joints are the reference compose, object joints within 1e-5 (rifle reload)`, async () => {
      const bytes = readModel(FILES.rifleReload);
      const anim = parseMd5Anim(bytes);
      const reader = await openMd5AnimFrames(chunked(bytes, 1000), { pose: await make() });
      let n = 0;
      let worst = 0;
      for await (const f of reader) {
        const want = expectedPose(anim, f.index);
        expect(diff(f.local!.slice(), want.local), `frame ${f.index}`).toBe('');
        for (let i = 0; i < want.object.length; i++) worst = Math.max(worst, Math.abs(f.object![i] - want.object[i]));
        n++;
      }
      expect(n).toBe(anim.frameCount);
      expect(worst).toBeLessThan(1e-5);
    });
  }
});

describe('mesh stream = one-buffer parse', () => {
  test('every real md5mesh, as a 64 KiB stream and in 333-byte chunks', async () => {
    for (const file of [FILES.droneMesh, FILES.turret, FILES.boarMan, FILES.simpleCube, FILES.grenade, FILES.rifleView]) {
      const bytes = readModel(file);
      const whole = parseMd5Mesh(bytes);
      expect(diff(await collectMeshes(instrumentedStream(bytes, 65536).stream), whole), file).toBe('');
      expect(diff(await collectMeshes(chunked(bytes, 333)), whole), file).toBe('');
    }
  });

  test('SimpleCube.md5mesh: every two-way split point', async () => {
    const bytes = readModel(FILES.simpleCube);
    const whole = parseMd5Mesh(bytes);
    for (let i = 0; i <= bytes.length; i++) {
      const d = diff(await collectMeshes(splitAt(bytes, [i])), whole);
      if (d) throw new Error(`split at ${i}: differs at ${d}`);
    }
  });

  test('meshes handed out are independent: keeping one while reading on does not change it', async () => {
    const bytes = readModel(FILES.droneMesh);
    const whole = parseMd5Mesh(bytes);
    const reader = await openMd5Meshes(bytes);
    const kept: Md5MeshPart[] = [];
    for await (const m of reader) kept.push(m);
    expect(diff(kept, whole.meshes)).toBe('');
  });
});

describe('size hints', () => {
  test('parseMd5AnimStream gives the same anim with a right, a too small and a too large sizeHint, and from a Response', async () => {
    const bytes = readModel(FILES.rifleIdle);
    const whole = parseMd5Anim(bytes);
    for (const sizeHint of [bytes.length, 1000, bytes.length * 10, undefined]) {
      expect(diff(await parseMd5AnimStream(instrumentedStream(bytes, 65536).stream, { sizeHint }), whole), `hint ${sizeHint}`).toBe('');
    }
    const response = new Response(instrumentedStream(bytes, 65536).stream, { headers: { 'content-length': String(bytes.length) } });
    expect(diff(await parseMd5AnimStream(response), whole)).toBe('');
  });
});
