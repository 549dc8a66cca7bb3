/**
 * glTF → md5anim keeps the glTF's own frames: without `fps`, an animation whose keys are evenly spaced at a whole rate
 * is sampled at that rate (every key kept), one with uneven keys at 24 with GLTF_RESAMPLED. The case, an
 * md5anim at 60 fps with 601 frames, is made from the real rifle_view_idle (60 fps, 501 frames: its first 100 frames
 * appended); it and the real pairs go md5 → our glb → md5 with the frame count and rate they had.
 */
import { join } from 'node:path';
import { Document, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import type { Md5Anim } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { gltfToMd5 } from '../../src/import/gltf-md5.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const RIFLE = join(SHARED_MODELS, 'res-weapons_src.dpkdir/models/weapons/rifle');
const DRONE = join(SHARED_MODELS, 'actors/drone');

/** `anim` with its first `extra` frames appended (bounds too): a longer anim at the same rate. */
function longer(anim: Md5Anim, extra: number): Md5Anim {
  const C = anim.componentCount;
  const frames = new Float32Array((anim.frameCount + extra) * C);
  frames.set(anim.frames);
  frames.set(anim.frames.subarray(0, extra * C), anim.frameCount * C);
  const bounds = new Float32Array((anim.frameCount + extra) * 6);
  bounds.set(anim.bounds);
  bounds.set(anim.bounds.subarray(0, extra * 6), anim.frameCount * 6);
  return { ...anim, frameCount: anim.frameCount + extra, frames, bounds };
}

describe('glTF → md5anim at the glTF\'s own key rate', () => {
  const rifle = parseMd5Mesh(read(join(RIFLE, 'rifle_view.md5mesh')));
  const idle = parseMd5Anim(read(join(RIFLE, 'rifle_view_idle.md5anim')));

  it('an md5anim at 60 fps with 601 frames comes back with 601 frames at 60 fps (it came back with 241 at 24)', async () => {
    const anim = longer(idle, 100);
    expect([anim.frameRate, anim.frameCount]).toEqual([60, 601]);
    const r = await gltfToMd5({ bytes: await toGlb(rifle, { anims: [{ name: 'idle', anim }] }) });
    expect(r.anims.map((a) => [a.anim.frameRate, a.anim.frameCount])).toEqual([[60, 601]]);
    expect(r.warnings.map((w) => w.code)).not.toContain('GLTF_RESAMPLED');
  });

  it('every real pair keeps its rate and frame count: the drone\'s three anims at 24, the rifle\'s two at 60', async () => {
    const drone = parseMd5Mesh(read(join(DRONE, 'mesh.md5mesh')));
    for (const [mesh, dir, names] of [[drone, DRONE, ['death', 'forward', 'idle']], [rifle, RIFLE, ['rifle_view_idle', 'rifle_view_reload']]] as const) {
      const anims = names.map((name) => ({ name, anim: parseMd5Anim(read(join(dir, `${name}.md5anim`))) }));
      const r = await gltfToMd5({ bytes: await toGlb(mesh, { anims }) });
      expect(r.anims.map((a) => [a.name, a.anim.frameRate, a.anim.frameCount])).toEqual(anims.map((a) => [a.name, a.anim.frameRate, a.anim.frameCount]));
    }
    // asked for, a rate is still a rate: forward (12 frames at 24, 11/24 s) at 48
    const forward = parseMd5Anim(read(join(DRONE, 'forward.md5anim')));
    const at48 = await gltfToMd5({ bytes: await toGlb(drone, { anims: [{ name: 'forward', anim: forward }] }) }, { fps: 48 });
    expect([at48.anims[0].anim.frameRate, at48.anims[0].anim.frameCount]).toEqual([48, 23]);
  });

  it('keys at uneven times: sampled at 24 with GLTF_RESAMPLED naming the animation', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const node = doc.createNode('tag_spin');
    doc.createScene().addChild(node);
    const times = doc.createAccessor().setType('SCALAR').setArray(new Float32Array([0, 0.1, 0.35, 1])).setBuffer(buffer);
    const values = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0])).setBuffer(buffer);
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(values).setInterpolation('LINEAR');
    doc.createAnimation('slide').addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(sampler));
    const r = await gltfToMd5({ bytes: await new WebIO().writeBinary(doc) });
    expect(r.anims.map((a) => [a.anim.frameRate, a.anim.frameCount])).toEqual([[24, 25]]);
    expect(r.warnings.filter((w) => w.code === 'GLTF_RESAMPLED').map((w) => w.message)).toEqual(['animation 0 ("slide"): its keys are not evenly spaced at a whole frame rate: sampled at 24 fps (fps sets another)']);
  });
});
