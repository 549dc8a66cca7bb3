/**
 * The glTF export's own bounds, checked before what they bound is allocated. A morph-target glTF holds one weight per
 * target per keyframe — quadratic in an MD2's or MD3's frame count — so the
 * export bounds their sum (`maxMorphWeights`, default 2²⁶; export/gltf-morph.ts) before allocating it: an MD3 of
 * 9,000 tiny frames (made here; 80 million weights) is UNWRITABLE naming the limit, not 3.6 GB and a RangeError; a
 * real model exports under the default and is refused under a lowered one. An MD5 glTF holds a pose of every joint in
 * every frame (`maxAnimationKeys`, default 2²⁴; formats/md5/gltf.ts): an md5anim of empty frames asks for far more
 * than its text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { refusal, failure } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

/** An MD3 of one 3-vertex surface and `frames` frames (all zeros but the counts and offsets). */
function md3(frames: number): Uint8Array {
  const verts = 3;
  const surface = 108 + 68 + 12 + 8 * verts + 8 * verts * frames;
  const b = new Uint8Array(108 + 56 * frames + surface);
  const v = new DataView(b.buffer);
  const ascii = (at: number, s: string) => b.set(new TextEncoder().encode(s), at);
  ascii(0, 'IDP3');
  v.setInt32(4, 15, true);
  v.setInt32(76, frames, true);
  v.setInt32(84, 1, true);
  v.setInt32(92, 108, true);
  v.setInt32(96, 108 + 56 * frames, true);
  const s = 108 + 56 * frames;
  v.setInt32(100, s, true);
  v.setInt32(104, b.length, true);
  ascii(s, 'IDP3');
  ascii(s + 4, 'surface');
  v.setInt32(s + 72, frames, true);
  v.setInt32(s + 76, 1, true);
  v.setInt32(s + 80, verts, true);
  v.setInt32(s + 84, 1, true);
  v.setInt32(s + 88, 108 + 68, true);
  v.setInt32(s + 92, 108, true);
  v.setInt32(s + 96, 108 + 68 + 12, true);
  v.setInt32(s + 100, 108 + 68 + 12 + 8 * verts, true);
  v.setInt32(s + 104, surface, true);
  v.setInt32(s + 180, 2, true);
  v.setInt32(s + 184, 1, true);
  return b;
}


describe('maxMorphWeights', () => {
  it('an MD3 of 9,000 frames (216 KB) is UNWRITABLE before its 81 million weights are allocated', async () => {
    const model = parseMd3(md3(9000));
    expect(model.frameCount).toBe(9000);
    const before = process.memoryUsage().arrayBuffers;
    const e = await failure(toGlb(model));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', expect.stringMatching(/^the animations' morph weights reach \d+ \(this clip: \d+ keyframes × \d+ targets\): over the limit maxMorphWeights = 67108864 /)]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('faerie.md2 (198 frames in 16 clips over 198 targets: 39,204 weights) exports under the default and at 39,204, not at 39,203', async () => {
    const faerie = parseMd2(read(`${SHARED_MODELS}/assimp/test/models/MD2/faerie.md2`));
    expect((await toGlb(faerie)).length).toBeGreaterThan(0);
    setResourceLimits({ maxMorphWeights: 39_204 });
    expect((await toGlb(faerie)).length).toBeGreaterThan(0);
    setResourceLimits({ maxMorphWeights: 39_203 });
    expect((await failure(toGlb(faerie))).detail).toMatch(/morph weights reach 39204 .*over the limit maxMorphWeights = 39203 /);
  });
});

describe('maxAnimationKeys', () => {
  const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
  /** An md5anim for the drone with `frames` frames and nothing animated: a dozen bytes a frame. */
  function emptyFrames(frames: number) {
    const joints = mesh.joints;
    const lines = ['MD5Version 10', 'commandline ""', `numFrames ${frames}`, `numJoints ${joints.count}`, 'frameRate 24', 'numAnimatedComponents 0', 'hierarchy {'];
    for (let j = 0; j < joints.count; j++) lines.push(`"${joints.names[j]}" ${joints.parents[j]} 0 0`);
    lines.push('}', 'bounds {');
    for (let f = 0; f < frames; f++) lines.push('( -1 -1 -1 ) ( 1 1 1 )');
    lines.push('}', 'baseframe {');
    for (let j = 0; j < joints.count; j++) lines.push(`( ${joints.positions.slice(3 * j, 3 * j + 3).join(' ')} ) ( ${joints.orientations.slice(4 * j, 4 * j + 3).join(' ')} )`);
    lines.push('}');
    for (let f = 0; f < frames; f++) lines.push(`frame ${f} {`, '}');
    return parseMd5Anim(lines.join('\n'));
  }

  it('an md5anim of 700,000 empty frames (17 MB of text, 18.9 million joint poses) is UNWRITABLE before any pose is composed', async () => {
    const anim = emptyFrames(700_000);
    const e = await failure(toGlb(mesh, { anims: [{ name: 'long', anim }] }));
    expect([e.code, e.detail]).toEqual(['UNWRITABLE', `1 anim(s) of 700000 frames in all × ${mesh.joints.count} joints are ${700_000 * mesh.joints.count} joint poses: over the limit maxAnimationKeys = 16777216 (raise it with --limit maxAnimationKeys=N, or the maxAnimationKeys option)`]);
  });

  it('the drone with its real anims exports under the default, and not under one pose fewer', async () => {
    const anims = ['forward', 'idle'].map((n) => ({ name: n, anim: parseMd5Anim(read(`${SHARED_MODELS}/actors/drone/${n}.md5anim`)) }));
    const keys = anims.reduce((k, a) => k + a.anim.frameCount * mesh.joints.count, 0);
    expect((await toGlb(mesh, { anims })).length).toBeGreaterThan(0);
    setResourceLimits({ maxAnimationKeys: keys - 1 });
    expect((await failure(toGlb(mesh, { anims }))).detail).toMatch(new RegExp(`are ${keys} joint poses: over the limit maxAnimationKeys = ${keys - 1} `));
  });
});
