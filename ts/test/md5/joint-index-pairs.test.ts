/**
 * Unvanquished's naked human (../shared/models group U1) plays anims from another folder whose joint names differ
 * from the mesh's — `walk` names joint 32 `tag_head` (twice in the anim) where the mesh says `head_tag`, `jump` names
 * joints 4–5 `neck`/`neckcontol` — and Daemon plays them by joint index (pose/anim-mesh-match.ts). Every door takes
 * the pair: the poser (joint i from channel i, names ignored), model sets with a warning naming Doom 3's stricter rule,
 * the glTF export, three.js's view, and the CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { openModelSet } from '../../src/load/model-set.js';
import { boneIndex } from '../../src/pose/bone-index.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { IdTechLoader } from '../../src/three/loader.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { setGltfOptions } from '../../src/registry/gltf-options.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { readGlb } from '../export/gltf-eval.js';
import { cliTemp, runCli } from '../helpers/cli.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { viewOf } from '../three/views.js';

const PLAYERS = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players');
const BODY = 'human_naked/body.md5mesh';
const ANIMS = ['walk', 'jump', 'swim'].map((n) => `human_nobsuit_common/${n}.md5anim`);
const mesh = parseMd5Mesh(read(join(PLAYERS, BODY)));
const anim = (name: string) => parseMd5Anim(read(join(PLAYERS, `human_nobsuit_common/${name}.md5anim`)));

describe("Unvanquished's anims from another folder play on the naked human by joint index", () => {
  it('the files differ as the engine sees them: 85 joints each, walk names tag_head twice, jump names joints 4–5 otherwise', () => {
    const walk = anim('walk'), jump = anim('jump'), swim = anim('swim');
    expect([mesh.joints.count, walk.jointCount, jump.jointCount, swim.jointCount]).toEqual([85, 85, 85, 85]);
    expect([mesh.joints.names[32], walk.names[32]]).toEqual(['head_tag', 'tag_head']);
    expect(walk.names.filter((n) => n === 'tag_head')).toHaveLength(2);
    expect(jump.names.slice(4, 6)).toEqual(['neck', 'neckcontol']);
    expect(Array.from(swim.parents)).toEqual(Array.from(mesh.joints.parents));
  });

  it('the poser takes joint i from channel i: walk poses exactly as walk with the mesh\'s names', () => {
    const walk = anim('walk');
    const renamed = { ...walk, names: [...mesh.joints.names] };
    const a = new Md5Poser(createTsBackend(), mesh), b = new Md5Poser(createTsBackend(), mesh);
    expect(a.setAnim(walk)).toBeDefined();
    b.setAnim(renamed);
    for (const f of [0, Math.floor(walk.frameCount / 2), walk.frameCount - 1]) {
      const p = Array.from(a.poseFrame(f).positions), q = Array.from(b.poseFrame(f).positions);
      expect(p).toEqual(q);
    }
  });

  it('a model set holds all three, with one ENGINE_LIMIT warning per differing joint naming Doom 3', async () => {
    const set = await openModelSet(folderFileSystem(PLAYERS), BODY, { formats: DEFAULT_FORMATS, companions: ANIMS });
    expect(set.companions.map((c) => c.name)).toEqual(['walk', 'jump', 'swim']);
    const limits = (file: string) => set.warnings.filter((w) => w.file.endsWith(file)).flatMap((w) => w.warnings).filter((w) => w.code === 'ENGINE_LIMIT').map((w) => w.message);
    expect(limits('walk.md5anim')).toEqual([expect.stringMatching(/^joint 32 is "tag_head" in the anim but "head_tag" in the mesh: Daemon plays it by joint index .*Doom 3 refuses the pair/)]);
    expect(limits('jump.md5anim').map((m) => /^joint (\d+) is "(\w+)"/.exec(m)!.slice(1))).toEqual([['4', 'neck'], ['5', 'neckcontol']]);
    expect(limits('swim.md5anim')).toEqual([]);
    const glb = readGlb(await toGlb(set.data as never, setGltfOptions(set, {})));
    expect(glb.json.animations.map((a: { name: string }) => a.name)).toEqual(['walk', 'jump', 'swim']);
    const view = await viewOf('skinned', set.data, createTsBackend(), set.companions);
    expect(view.clips.map((c) => c.name)).toEqual(['walk', 'jump', 'swim']);
  });

  it('the CLI converts the pair (exit 0) and says how the names differ', async () => {
    const out = join(cliTemp('u1'), 'body.glb');
    const r = await runCli('convert', join(PLAYERS, BODY), '--anim', join(PLAYERS, ANIMS[0]), '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ENGINE_LIMIT.*joint 32 is "tag_head"/);
    const glb = readGlb(new Uint8Array(readFileSync(out)));
    expect(glb.json.animations.map((a: { name: string }) => a.name)).toEqual(['walk']);
  });
});

describe("tags and named joints resolve on the mesh, as Daemon's RE_BoneIndex (ignoring case, the first match)", () => {
  it('boneIndex: the mesh\'s names, Q_stricmp, the first of repeated names, −1 for none', () => {
    const names = mesh.joints.names;
    expect([names[4], names[32]]).toEqual(['tag_head', 'head_tag']);
    // walk names joints 4 and 32 "tag_head" and none "head_tag"; jump names joint 4 "neck": the mesh answers alike
    expect(anim('walk').names.indexOf('head_tag')).toBe(-1);
    expect(anim('jump').names.indexOf('tag_head')).toBe(-1);
    expect(boneIndex(names, 'HEAD_TAG')).toBe(32);
    expect(boneIndex(names, 'Tag_Head')).toBe(4);
    expect(boneIndex(names, 'nothing')).toBe(-1);
    expect(boneIndex(['a', 'Tag', 'tag', 'TAG'], 'tAg')).toBe(1);
    expect(boneIndex(['É'], 'é')).toBe(-1); // Q_stricmp folds ASCII letters only
  });

  it('three.js: with a walk that names no joint "head_tag", the mesh\'s head_tag is found by name, the bone it moves', async () => {
    const model = await new IdTechLoader().setFileSystem(folderFileSystem(PLAYERS)).setTextures(false).loadAsync([BODY, ANIMS[0]]);
    expect(model.joint('Head_Tag')).toBe(model.skeleton!.bones[32]);
    expect(model.joint('TAG_HEAD')).toBe(model.skeleton!.bones[4]);
    expect(model.joint('nothing')).toBeUndefined();
  });
});
