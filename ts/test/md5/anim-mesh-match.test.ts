/**
 * An md5anim against the md5mesh it plays on, as Daemon plays it (pose/anim-mesh-match.ts): the issue's
 * refused Unvanquished pairs differ from their meshes in one joint's parent ("track.shoulder.R" has parent −1 in the
 * anim, 0 in the mesh). The corpus holds no such pair (res-players_src.dpkdir has only human_bsuit's MD3s), so the
 * test makes one from the real drone: its `forward` anim with joint 1 ("Thigh.Right", parent 0 = "Waist") turned
 * into a root, its values re-expressed as Waist ∘ Thigh (the same motion through the anim's own hierarchy). Daemon
 * composes with the anim's parents (RE_BuildSkeleton → CG_TransformSkeleton), so the pair must pose exactly as the
 * original pair does; composing with the mesh's parents would put the thigh under the waist twice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError, type ParseWarning } from '../../src/base/errors.js';
import type { Md5Anim } from '../../src/base/model.js';
import { quatMultiply, quatRotate, recoverW, type Quat } from '../../src/base/quat.js';
import { toGlb } from '../../src/registry/gltf.js';
import { matchAnimToMesh } from '../../src/pose/anim-mesh-match.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import type { ModelSet } from '../../src/load/model-set.js';
import { md5View } from '../../src/formats/md5/view.js';
import { md5ToIqm } from '../../src/formats/iqm/md5-iqm.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { assertAnimMatchesMesh, Md5Poser } from '../../src/pose/md5-poser.js';
import { writeMd5Anim } from '../../src/formats/md5/write-anim.js';
import { gltfPositions, readGlb, yUp } from '../export/gltf-eval.js';
import { diagonal } from '../helpers/compare.js';
import { runCli } from '../helpers/cli.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const DRONE = join(SHARED_MODELS, 'actors/drone');
const mesh = parseMd5Mesh(read(join(DRONE, 'mesh.md5mesh')));
const forward = parseMd5Anim(read(join(DRONE, 'forward.md5anim')));
const JOINT = 1; // Thigh.Right, child of joint 0 (Waist)

/** `anim` with joint `j` (a child of the root, both fully animated) made a root holding root ∘ j. */
function rooted(anim: Md5Anim, j: number): Md5Anim {
  expect([anim.parents[j], anim.parents[0], anim.flags[0], anim.flags[j]]).toEqual([0, -1, 63, 63]);
  const compose = (src: Float32Array, a: number, b: number, out: Float32Array, o: number) => {
    const q0: Quat = [src[a + 3], src[a + 4], src[a + 5], recoverW(src[a + 3], src[a + 4], src[a + 5])];
    const qj: Quat = [src[b + 3], src[b + 4], src[b + 5], recoverW(src[b + 3], src[b + 4], src[b + 5])];
    const t = quatRotate(q0, [src[b], src[b + 1], src[b + 2]]);
    let q = quatMultiply(q0, qj);
    if (q[3] > 0) q = q.map((c) => -c) as Quat; // the file keeps xyz and recovers a negative w
    out.set([src[a] + t[0], src[a + 1] + t[1], src[a + 2] + t[2], q[0], q[1], q[2]], o);
  };
  const baseframe = anim.baseframe.slice();
  compose(anim.baseframe, 0, j * 6, baseframe, j * 6);
  const frames = anim.frames.slice();
  const C = anim.componentCount, s0 = anim.startIndices[0], sj = anim.startIndices[j];
  for (let f = 0; f < anim.frameCount; f++) compose(anim.frames, f * C + s0, f * C + sj, frames, f * C + sj);
  const parents = anim.parents.slice();
  parents[j] = -1;
  // Through the writer and the parser: a real md5anim file, as a modder's exporter would write it.
  return parseMd5Anim(writeMd5Anim({ ...anim, parents, baseframe, frames }));
}

const edited = rooted(forward, JOINT);

describe('the comparison (a pure function)', () => {
  it('the real pair matches; the made-up pair differs in one parent, which Daemon accepts', () => {
    expect(matchAnimToMesh(mesh.joints, forward)).toEqual({ accepted: true, differences: [] });
    expect(matchAnimToMesh(mesh.joints, edited)).toEqual({ accepted: true, differences: [{ kind: 'parent', joint: 1, name: 'Thigh.Right', mesh: 0, anim: -1 }] });
  });

  it('a pair plays by joint index: another name (or only its letter case), a repeated name, are accepted and listed; another count is refused', () => {
    const names = [...forward.names];
    names[3] = names[3].toUpperCase();
    expect(matchAnimToMesh(mesh.joints, { ...forward, names })).toMatchObject({ accepted: true, differences: [{ kind: 'name', joint: 3, caseOnly: true }] });
    names[3] = 'Tail';
    expect(matchAnimToMesh(mesh.joints, { ...forward, names })).toMatchObject({ accepted: true, differences: [{ kind: 'name', joint: 3, anim: 'Tail', caseOnly: false }] });
    names[4] = 'Tail'; // twice in the anim, as Unvanquished's walk names tag_head twice
    expect(matchAnimToMesh(mesh.joints, { ...forward, names }).accepted).toBe(true);
    expect(matchAnimToMesh(mesh.joints, { ...forward, jointCount: 26 })).toEqual({ accepted: false, differences: [{ kind: 'joint-count', mesh: 27, anim: 26 }] });
  });
});

describe('assertAnimMatchesMesh', () => {
  it('the parent difference: one ENGINE_LIMIT warning naming the joint, both parents, Daemon and Doom 3', () => {
    const w = assertAnimMatchesMesh(mesh, edited, { mesh: 'mesh.md5mesh', anim: 'forward.md5anim' });
    expect(w).toHaveLength(1);
    expect(w[0].code).toBe('ENGINE_LIMIT');
    expect(w[0].message).toBe('joint 1 ("Thigh.Right") has parent -1 in forward.md5anim but 0 in mesh.md5mesh: Daemon plays it with the anim\'s hierarchy (RE_BuildSkeleton), Doom 3 refuses the pair (idMD5Anim::CheckModelHierarchy)');
  });

  it('another name: one ENGINE_LIMIT warning naming both names, Daemon (by joint index) and Doom 3', () => {
    const names = [...forward.names];
    names[3] = 'Tail';
    const w = assertAnimMatchesMesh(mesh, { ...forward, names }, { anim: 'walk.md5anim', mesh: 'body.md5mesh' });
    expect(w.map((x) => [x.code, x.message])).toEqual([['ENGINE_LIMIT', `joint 3 is "Tail" in walk.md5anim but "${mesh.joints.names[3]}" in body.md5mesh: Daemon plays it by joint index (RE_BuildSkeleton: bone i from channel i; names are not compared), Doom 3 refuses the pair (idMD5Anim::CheckModelHierarchy)`]]);
  });

  it('what stays refused (another joint count) names the anim and its joint list, not a byte offset', () => {
    const e = (() => {
      try {
        assertAnimMatchesMesh(mesh, { ...forward, jointCount: 26 }, { anim: 'walk.md5anim', mesh: 'body.md5mesh' });
      } catch (x) {
        return x as ModelParseError;
      }
      throw new Error('expected a refusal');
    })();
    expect(e).toBeInstanceOf(ModelParseError);
    expect(e.code).toBe(ErrorCode.AnimMeshMismatch);
    expect(e.message).toBe('ANIM_MESH_MISMATCH: walk.md5anim has 26 joints, body.md5mesh 27 at its joint list of walk.md5anim');
    expect(e.message).not.toContain('byte');
  });
});

describe('posing the made-up pair as Daemon does (through the anim\'s hierarchy)', () => {
  it('Md5Poser: every frame equals the original pair\'s; the warning is on the poser', () => {
    const a = new Md5Poser(createTsBackend(), mesh).setAnim(forward);
    const b = new Md5Poser(createTsBackend(), mesh).setAnim(edited);
    expect(b.animWarnings.map((w) => w.code)).toEqual(['ENGINE_LIMIT']);
    for (let f = 0; f < forward.frameCount; f++) {
      const want = a.poseFrame(f).positions.slice();
      const got = b.poseFrame(f).positions;
      const tol = 1e-4 * diagonal(want);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
      expect(worst, `frame ${f}`).toBeLessThanOrEqual(tol);
    }
    a.dispose();
    b.dispose();
  });

  it('glTF: the skeleton is the mesh\'s, the keys re-expressed under it; every frame poses as the poser does', async () => {
    const warnings: ParseWarning[] = [];
    const g = readGlb(await toGlb(mesh, { anims: [{ name: 'forward', anim: edited }], warnings }));
    expect(warnings.map((w) => w.code)).toContain('ENGINE_LIMIT');
    const poser = new Md5Poser(createTsBackend(), mesh).setAnim(forward);
    for (let f = 0; f < forward.frameCount; f++) {
      poser.poseFrame(f);
      const want = yUp(poser.positions);
      const got = gltfPositions(g, 0, f / forward.frameRate);
      const tol = 1e-4 * diagonal(poser.positions);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
      expect(worst, `frame ${f}`).toBeLessThanOrEqual(tol);
    }
    poser.dispose();
  });

  it('the renderers\' view (three.js): the clip\'s keys are the mesh\'s hierarchy\'s, the same as the original pair\'s', () => {
    const view = (anim: Md5Anim) => {
      const set = { format: 'md5mesh', path: 'mesh.md5mesh', origin: 'mesh.md5mesh', data: mesh, companions: [{ name: 'forward', path: 'forward.md5anim', origin: 'forward.md5anim', data: anim }], files: [], warnings: [] } as unknown as ModelSet<typeof mesh>;
      const v = md5View(set, createTsBackend());
      const clip = v.clips[0];
      v.dispose();
      return clip;
    };
    const want = view(forward), got = view(edited);
    expect(got.joints).toHaveLength(want.joints.length);
    let worst = 0;
    want.joints.forEach((j, i) => {
      for (let k = 0; k < j.translation.length; k++) worst = Math.max(worst, Math.abs(got.joints[i].translation[k] - j.translation[k]) / diagonal(mesh.joints.positions));
      // a quaternion and its negation are one rotation
      for (let k = 0; k < j.rotation.length; k += 4) {
        const dot = [0, 1, 2, 3].reduce((d, c) => d + got.joints[i].rotation[k + c] * j.rotation[k + c], 0);
        worst = Math.max(worst, 1 - Math.abs(dot));
      }
    });
    expect(worst).toBeLessThanOrEqual(1e-5);
  });

  it('IQM (md5ToIqm: joints keep the mesh\'s parents): every frame poses as the original pair\'s IQM does', () => {
    const pose = (anim: Md5Anim) => {
      const p = new IqmPoser(createTsBackend(), md5ToIqm(mesh, [{ name: 'forward', anim }]));
      const frames = Array.from({ length: forward.frameCount }, (_, f) => p.poseFrame(f).positions.slice());
      p.dispose();
      return frames;
    };
    const want = pose(forward), got = pose(edited);
    let worst = 0;
    want.forEach((w, f) => {
      for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(got[f][i] - w[i]) / diagonal(w));
    });
    // both quantised to 16-bit channels over their own ranges: within a few steps of each other
    expect(worst).toBeLessThanOrEqual(1e-3);
  });

  it('the CLI converts the pair (exit 0) and reports the difference', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idtech-anim-mesh-'));
    writeFileSync(join(dir, 'forward.md5anim'), writeMd5Anim(edited));
    const r = await runCli('convert', join(DRONE, 'mesh.md5mesh'), '--anim', join(dir, 'forward.md5anim'), '--no-textures', '-o', join(dir, 'drone.glb'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('ENGINE_LIMIT');
    expect(r.stderr).toContain('joint 1 ("Thigh.Right") has parent -1');
  });
});
