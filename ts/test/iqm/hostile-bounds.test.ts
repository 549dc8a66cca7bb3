/**
 * Issue 36's IQM inputs (made by fixtures/generate-iqm.mjs): small files that claimed memory or time without bound.
 * Frames of no channels are no bytes of the file and are counted against maxAnimationKeys at the parse; the glTF
 * export bounds its joint poses by maxAnimationKeys before decoding any; names are read with one scan of the text
 * and quoted at most 64 characters long; extensions' overlap is found in O(log n) each; anims of one name are told
 * apart with a Map; a clip asking for frames or poses the file lacks is clamped or left out with a warning, never
 * written as NaN keys.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import type { ParseWarning } from '../../src/base/errors.js';
import { parseIqm } from '../../src/formats/iqm/parser.js';
import { iqmClips } from '../../src/formats/iqm/clips.js';
import { iqmToGlb } from '../../src/formats/iqm/gltf.js';
import { TakenRanges } from '../../src/formats/iqm/taken-ranges.js';
import { buildIqm, customArrayNames, fewPoses, manyExtensions, sameNameAnims, zeroChannelFrames } from '../../../fixtures/generate-iqm.mjs';
import { refusal } from '../helpers/failure.js';
import { openModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { DEFAULT_RESOURCE_LIMITS } from '../../src/base/resource-limits.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { iqmFiles } from './_corpus.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { iqmEntry } from '../../src/formats/iqm/entry.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';

afterEach(() => resetResourceLimits());

/** The JSON chunk of a .glb. */
function glbJson(glb: Uint8Array): { animations?: { name: string; samplers: { output: number }[] }[]; accessors: { count: number; min?: number[]; max?: number[] }[] } {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + v.getUint32(12, true))));
}

/** Every float of the glb's binary chunk that an animation sampler's output reads. */
function animationFloats(glb: Uint8Array): number[] {
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = v.getUint32(12, true);
  const doc = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const bin = 20 + jsonLength + 8;
  const out: number[] = [];
  for (const a of doc.animations ?? []) {
    for (const s of a.samplers) {
      for (const index of [s.input, s.output]) {
        const acc = doc.accessors[index];
        const view = doc.bufferViews[acc.bufferView];
        const n = acc.count * ({ SCALAR: 1, VEC3: 3, VEC4: 4 } as Record<string, number>)[acc.type];
        const at = bin + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
        for (let i = 0; i < n; i++) out.push(v.getFloat32(at + 4 * i, true));
      }
    }
  }
  return out;
}

describe('frames of no channels', () => {
  it('2³² − 1 frames of no bytes (a 542-byte file) are RESOURCE_LIMIT maxAnimationKeys at the parse', () => {
    const bytes = zeroChannelFrames();
    expect(bytes.length).toBe(542);
    const e = refusal(() => parseIqm(bytes));
    expect([e.code, e.offset, e.detail]).toEqual([
      'RESOURCE_LIMIT',
      92,
      'num_frames 4294967295 of no frame channels (no bytes in the file) × 1 poses are 4294967295 joint poses: over the limit maxAnimationKeys = 16777216 (raise it with --limit maxAnimationKeys=N, or the maxAnimationKeys option)',
    ]);
  });

  it('119 such frames (Red Eclipse\'s hud_zapper-idle.iqm has 119 of 31 poses) parse, and at the limit too', () => {
    expect(parseIqm(zeroChannelFrames(119)).frameCount).toBe(119);
    setResourceLimits({ maxAnimationKeys: 119 });
    expect(parseIqm(zeroChannelFrames(119)).frameCount).toBe(119);
    setResourceLimits({ maxAnimationKeys: 118 });
    expect(refusal(() => parseIqm(zeroChannelFrames(119))).detail).toMatch(/are 119 joint poses: over the limit maxAnimationKeys = 118 /);
  });
});

describe('the glTF export checks maxAnimationKeys', () => {
  it('anims × frames × joints over the limit are UNWRITABLE before any frame is decoded; at the limit they are written', () => {
    const model = parseIqm(sameNameAnims(6)); // 6 anims of 2 frames on 1 joint: 12 joint poses
    setResourceLimits({ maxAnimationKeys: 12 });
    expect(glbJson(iqmToGlb(model)).animations).toHaveLength(6);
    setResourceLimits({ maxAnimationKeys: 11 });
    const e = refusal(() => iqmToGlb(model));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', '6 animation(s) of 12 frames in all × 1 joints are 12 joint poses: over the limit maxAnimationKeys = 11 (raise it with --limit maxAnimationKeys=N, or the maxAnimationKeys option)']);
  });
});

describe('the glTF export of frames of no channels', () => {
  it('100,000 frames of one pose are written as its first and last keys, counted as 2 against maxAnimationKeys', () => {
    const model = parseIqm(zeroChannelFrames(100000));
    setResourceLimits({ maxAnimationKeys: 2 });
    const glb = iqmToGlb(model);
    const doc = glbJson(glb) as ReturnType<typeof glbJson> & { animations: { extras: { frameCount: number } }[] };
    const input = doc.accessors[(doc.animations[0].samplers[0] as unknown as { input: number }).input];
    expect([input.count, input.min, input.max]).toEqual([2, [0], [Math.fround(99999 / 10)]]);
    expect(doc.animations[0].extras.frameCount).toBe(100000);
    expect(animationFloats(glb).every(Number.isFinite)).toBe(true);
  });
});

describe('the glTF export checks maxGltfAnimations', () => {
  it('140,000 anims (a 2.7 MB file; 955 MiB to export) are UNWRITABLE before any animation is built; 6 are written at 6, refused at 5', () => {
    const e = refusal(() => iqmToGlb(parseIqm(sameNameAnims(140000))));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', '140000 animations: over the limit maxGltfAnimations = 16384 (raise it with --limit maxGltfAnimations=N, or the maxGltfAnimations option)']);
    const model = parseIqm(sameNameAnims(6));
    setResourceLimits({ maxGltfAnimations: 6 });
    expect(glbJson(iqmToGlb(model)).animations).toHaveLength(6);
    setResourceLimits({ maxGltfAnimations: 5 });
    expect(refusal(() => iqmToGlb(model)).detail).toMatch(/^6 animations: over the limit maxGltfAnimations = 5 /);
  });
});

describe('the real models', () => {
  it('every corpus IQM opened with its companions makes at most 127 clips (Red Eclipse\'s female player: its iqm.cfg\'s): ≥ 120× room under maxGltfAnimations; its frames of no channels ≥ 2,000× under maxAnimationKeys', async () => {
    const fs = sharedFileSystem('actors-iqm');
    let most = { clips: 0, path: '' }, zero = 0;
    for (const f of iqmFiles()) {
      if (f.model.frameChannels === 0) zero = Math.max(zero, f.model.frameCount * Math.max(1, f.model.poses.count));
      if (f.model.meshes.length === 0) continue; // animation-only: opened through the mesh that plays it
      const set = await openModelSet(fs, f.path, { formats: DEFAULT_FORMATS });
      const n = iqmClips(set as never).length;
      if (n > most.clips) most = { clips: n, path: f.path };
    }
    console.log(`most clips of a corpus IQM: ${most.clips} (${most.path}); frames of no channels: at most ${zero} joint poses`);
    expect(most).toEqual({ clips: 127, path: 'player/female/RE_Player_female.iqm' });
    expect(most.clips * 120).toBeLessThanOrEqual(DEFAULT_RESOURCE_LIMITS.maxGltfAnimations);
    expect(zero).toBe(119 * 31);
    expect(zero * 2000).toBeLessThanOrEqual(DEFAULT_RESOURCE_LIMITS.maxAnimationKeys);
  });
});

describe('the three.js view', () => {
  const viewOf = async (files: { path: string; bytes: Uint8Array }[]) => {
    const set = await openModelSet(memoryFileSystem(files), 'm.iqm', { formats: DEFAULT_FORMATS });
    const backend = createTsBackend();
    try {
      const view = await iqmEntry.view!(set as never, backend);
      if (view.kind !== 'skinned') throw new Error(view.kind);
      return view;
    } finally {
      backend.dispose();
    }
  };

  it('bounds its clips\' keys ((frames + 1) × joints) by maxAnimationKeys before making any', async () => {
    const files = [{ path: 'm.iqm', bytes: sameNameAnims(6) }]; // 6 clips of 2 frames and the first again, 1 joint: 18 keys
    setResourceLimits({ maxAnimationKeys: 18 });
    expect((await viewOf(files)).clips).toHaveLength(6);
    setResourceLimits({ maxAnimationKeys: 17 });
    const e = await viewOf(files).then(() => null, (x) => x);
    expect([e?.code, e?.detail]).toEqual(['RESOURCE_LIMIT', '6 clip(s) of 18 keys in all × 1 joints are 18 joint poses: over the limit maxAnimationKeys = 17 (raise it with --limit maxAnimationKeys=N, or the maxAnimationKeys option)']);
  });

  it('frames of no channels are one pose: the view\'s box poses one of 100,000, not each', async () => {
    const poseFrame = vi.spyOn(IqmPoser.prototype, 'poseFrame');
    try {
      const view = await viewOf([{ path: 'm.iqm', bytes: zeroChannelFrames(100000) }]);
      expect(poseFrame).toHaveBeenCalledTimes(1);
      expect(view.bounds).toEqual({ min: [0, 0, 0], max: [1, 1, 0] });
      expect(view.clips[0].frameCount).toBe(100000);
    } finally {
      poseFrame.mockRestore();
    }
  });

  it('a .framegroups over a file of 1 pose for 3 joints: no clip, no NaN', async () => {
    const view = await viewOf([{ path: 'm.iqm', bytes: fewPoses() }, { path: 'm.iqm.framegroups', bytes: new TextEncoder().encode('0 2 10 1 // all\n') }]);
    expect(view.clips).toEqual([]);
  });
});

describe('names', () => {
  it('10,000 custom arrays named into a 300 KB NUL-free text: each name runs to the text\'s end, each message quotes 64 characters of it', () => {
    const model = parseIqm(customArrayNames(10000, 300000));
    expect(model.vertexArrays).toHaveLength(10000);
    expect(model.vertexArrays[0].name.length).toBe(299999);
    expect(model.vertexArrays[9999].name).toBe('a'.repeat(299999 - 9999 * 29));
    const skipped = model.warnings.filter((w) => w.code === 'IQM_ARRAY_SKIPPED');
    expect(skipped).toHaveLength(10000);
    expect(skipped[0].message).toBe(`vertex array 0 (${'a'.repeat(64)}… (299999 characters)) has format 99, not one of iqm.h's: skipped, as DarkPlaces skips it (ioquake3 refuses the model)`);
    expect(Math.max(...skipped.map((w) => w.message.length))).toBeLessThan(250);
  });

  it('names end at their NUL, also when many share a text', () => {
    const model = parseIqm(buildIqm({ text: '\0one\0two\0three', vertexArrays: [1, 5, 9, 11, 4].map((at) => ({ type: 0x10 + at, format: 99, size: 1 })) }));
    expect(model.vertexArrays.map((a) => a.name)).toEqual(['one', 'two', 'three', 'ree', '']);
  });

  it('10,000 anims of one name become 10,000 glTF animations "walk", "walk (2)" … "walk (10000)"', () => {
    const names = glbJson(iqmToGlb(parseIqm(sameNameAnims(10000)))).animations!.map((a) => a.name);
    expect(names).toHaveLength(10000);
    expect(names.slice(0, 3)).toEqual(['walk', 'walk (2)', 'walk (3)']);
    expect(names[9999]).toBe('walk (10000)');
    expect(new Set(names).size).toBe(10000);
  });

  it('a disambiguated name already taken by another anim is passed over', () => {
    const bytes = buildIqm({
      text: '\0root\0walk\0walk (2)\0',
      joints: [{ name: 1, parent: -1 }],
      poses: [{ parent: -1, mask: 1 }],
      anims: [{ name: 6, first: 0, count: 2 }, { name: 11, first: 0, count: 2 }, { name: 6, first: 0, count: 2 }],
      numFrames: 2,
      frameChannels: 1,
      frames: Uint16Array.of(0, 65535),
    });
    expect(glbJson(iqmToGlb(parseIqm(bytes))).animations!.map((a) => a.name)).toEqual(['walk', 'walk (2)', 'walk (3)']);
  });
});

describe('extensions', () => {
  it('80,000 extensions of a byte each are all read, none skipped', () => {
    const model = parseIqm(manyExtensions(80000));
    expect(model.extensions).toHaveLength(80000);
    expect(model.extensions.every((e) => e.name === 'x' && e.data.length === 1 && e.data[0] === 7)).toBe(true);
    expect(model.warnings.filter((w) => w.code === 'IQM_EXTENSION_SKIPPED')).toEqual([]);
  });

  it('the overlap check answers as comparing with every range kept before, in at most 2 (log₂ n + 1) steps a range', () => {
    let x = 12345;
    const random = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % n);
    const ranges = Array.from({ length: 5000 }, () => {
      const s = random(100000);
      return [s, s + 1 + random(40)] as const;
    });
    const taken = new TakenRanges(ranges.map(([s]) => s));
    const kept: (readonly [number, number])[] = [];
    for (const [s, e] of ranges) {
      const brute = !kept.some(([a, b]) => s < b && a < e);
      if (brute) kept.push([s, e]);
      expect(taken.take(s, e)).toBe(brute);
    }
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.length).toBeLessThan(5000);
    expect(taken.steps).toBeLessThanOrEqual(5000 * 2 * (Math.log2(5000) + 1));
  });

  it('data overlapping an earlier kept extension\'s is kept empty', () => {
    // three records, then extension 0's 8 bytes at the file's end; 1 and 2 name ranges inside them
    const layout = buildIqm({ text: '\0x\0', extensions: [{ name: 1, data: new Uint8Array(8) }, { name: 1, data: new Uint8Array(0) }, { name: 1, data: new Uint8Array(0) }] });
    const own = layout.length - 8;
    const fixed = buildIqm({
      text: '\0x\0',
      extensions: [
        { name: 1, data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) },
        { name: 1, data: new Uint8Array(0), ofs: own + 2, num: 4 }, // inside 0's: skipped
        { name: 1, data: new Uint8Array(0), ofs: own + 4, num: 4 }, // inside 0's too (and 1's, which was not kept): skipped
      ],
    });
    const model = parseIqm(fixed);
    expect(model.extensions.map((e) => [...e.data])).toEqual([[1, 2, 3, 4, 5, 6, 7, 8], [], []]);
    expect(model.warnings.filter((w) => w.code === 'IQM_EXTENSION_SKIPPED').map((w) => w.message)).toEqual([
      `extension 1's data [${own + 2}, ${own + 6}) overlaps an earlier extension's: kept empty (no engine reads extensions)`,
      `extension 2's data [${own + 4}, ${own + 8}) overlaps an earlier extension's: kept empty (no engine reads extensions)`,
    ]);
  });
});

describe('clips that ask for what the file lacks', () => {
  it('140,000 anims are 140,000 clips (no spread of them as arguments)', () => {
    const model = parseIqm(sameNameAnims(140000));
    const clips = iqmClips({ data: model, companions: [], sideFiles: [] });
    expect(clips).toHaveLength(140000);
    expect(clips[139999]).toMatchObject({ name: 'walk (140000)', firstFrame: 0, frameCount: 2 }); // named apart in one pass (clips.ts distinctNames)
  });

  it('a .framegroups over a file of 1 pose for 3 joints makes no clip, and a clip of it handed to the export is left out with IQM_CLIP_POSES', () => {
    const model = parseIqm(fewPoses());
    expect([model.joints.count, model.poses.count, model.frameCount]).toEqual([3, 1, 2]);
    const framegroups = { path: 'm.iqm.framegroups', bytes: new TextEncoder().encode('0 2 10 1 // all\n') };
    expect(iqmClips({ data: model, companions: [], sideFiles: [framegroups] })).toEqual([]);
    const warnings: ParseWarning[] = [];
    const glb = iqmToGlb(model, { anims: [{ name: 'all', anim: model, clip: { firstFrame: 0, frameCount: 2, fps: 10, loop: true } }], warnings });
    expect(glbJson(glb).animations).toBeUndefined();
    expect(warnings.filter((w) => w.code === 'IQM_CLIP_POSES').map((w) => w.message)).toEqual(['animation "all" plays a file of 1 poses on 3 joints: not exported']);
  });

  it('a clip past the stored frames keeps the frames there are (CLIP_RANGE); one wholly past them is left out; every key is finite', () => {
    const model = parseIqm(sameNameAnims(1)); // 2 frames
    const warnings: ParseWarning[] = [];
    const glb = iqmToGlb(model, {
      anims: [
        { name: 'long', anim: model, clip: { firstFrame: 1, frameCount: 5, fps: 10, loop: true } },
        { name: 'gone', anim: model, clip: { firstFrame: 7, frameCount: 3, fps: 10, loop: true } },
      ],
      warnings,
    });
    const doc = glbJson(glb);
    expect(doc.animations!.map((a) => a.name)).toEqual(['long']);
    expect(doc.accessors[doc.animations![0].samplers[0].output].count).toBe(1);
    expect(warnings.filter((w) => w.code === 'CLIP_RANGE').map((w) => w.message)).toEqual(['animation "long" asks for frames 1..5, the file stores 2: frames 1..1 exported (and 1 more)']);
    const floats = animationFloats(glb);
    expect(floats.length).toBeGreaterThan(0);
    expect(floats.every(Number.isFinite)).toBe(true);
  });
});
