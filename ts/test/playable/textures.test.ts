/**
 * openPlayable with `textures`: every part gets the image the resolver finds (decoded, or the PNG/JPEG bytes with
 * their size) and the render state the glTF exporter gives it; texture coordinates line up with the vertices.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeImage, readImageInfo } from '../../src/images/index.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { openPlayable } from '../../src/registry/open-playable.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const CASES = [
  { root: 'res-tremulous_src.dpkdir', path: 'models/mapobjects/stasis/stasis.md3' },
  { root: 'distrib/baseaq/pak0', path: 'models/indicator/arrow_blue.md2' },
  { root: 'actors', path: 'drone/mesh.md5mesh' },
];

describe('openPlayable with textures', () => {
  for (const c of CASES) {
    test(`${c.path}: each part's image is the resolver's, at its size; uvs are 2 per vertex`, async () => {
      const fs = folderFileSystem(join(SHARED_MODELS, c.root));
      const bytes = read(join(SHARED_MODELS, c.root, c.path));
      const m = await openPlayable([{ name: c.path.split('/').pop()!, source: bytes }], { textures: { fileSystem: fs, modelPath: c.path } });
      expect(m.uvs.length).toBe(m.vertexCount * 2);
      expect(m.materials.length).toBe(m.parts.length);
      const resolved = await resolveModelTextures(fs, m.model, c.path);
      const found = m.materials.filter((x) => x.image);
      expect(found.length).toBeGreaterThan(0);
      for (const mat of found) {
        const src = resolved.images.get(mat.path!)!;
        const info = readImageInfo(src, mat.path!);
        expect([mat.image!.width, mat.image!.height], mat.path!).toEqual([info.width, info.height]);
        // Buffer.compare, not toEqual: vitest's deep equality walks megabytes of pixels one element at a time.
        if ('rgba' in mat.image!) expect(Buffer.compare(mat.image.rgba, (decodeImage(src, mat.path!) as { rgba: Uint8Array }).rgba), mat.path!).toBe(0);
        else expect(Buffer.compare(mat.image!.bytes, src), mat.path!).toBe(0); // PNG / JPEG: the file's own bytes
      }
      // The posed vertices are the ones the uvs describe.
      const player = m.createPlayer(createTsBackend());
      player.poseBlend(0, 0, 0);
      expect(player.positions.length).toBe(m.vertexCount * 3);
      player.dispose();
    });
  }

  test('without textures, no materials and no warnings; uvs still 2 per vertex', async () => {
    const m = await openPlayable([{ name: 'arrow_blue.md2', source: read(join(SHARED_MODELS, 'distrib/baseaq/pak0/models/indicator/arrow_blue.md2')) }]);
    expect(m.materials).toEqual([]);
    expect(m.textureWarnings).toEqual([]);
    expect(m.uvs.length).toBe(m.vertexCount * 2);
  });

  test('a missing image is a warning and an untextured part, never an exception', async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'assimp/test/models/MD5')); // a folder without faerie's skin
    const m = await openPlayable([{ name: 'faerie.md2', source: read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')) }], { textures: { fileSystem: fs, modelPath: 'nowhere/faerie.md2' } });
    expect(m.materials.length).toBe(1);
    expect(m.materials[0].image).toBeNull();
    expect(m.textureWarnings.length).toBeGreaterThan(0);
  });
});

describe('a Quake 3 player through openPlayable', () => {
  const dir = 'res-players_src.dpkdir';
  const folder = 'models/players/human_bsuit';
  const names = ['lower.md3', 'upper.md3', 'head.md3', 'animation.cfg'];
  const files = () => names.map((name) => ({ name, source: read(join(SHARED_MODELS, dir, folder, name)) }));

  test('opens from its files: every surface a part, clips from animation.cfg, posed as Md3Player poses it, textured by its skins', async () => {
    const m = await openPlayable(files(), { textures: { fileSystem: folderFileSystem(join(SHARED_MODELS, dir)), modelPath: folder } });
    const models = ['lower', 'upper', 'head'].map((p) => parseMd3(read(join(SHARED_MODELS, dir, folder, `${p}.md3`))));
    expect(m.parts.length).toBe(models.reduce((n, x) => n + x.surfaces.length, 0));
    expect(m.vertexCount).toBe(models.reduce((n, x) => n + x.surfaces.reduce((k, s) => k + s.vertexCount, 0), 0));
    expect(m.uvs.length).toBe(m.vertexCount * 2);
    const cfg = parseAnimationCfg(read(join(SHARED_MODELS, dir, folder, 'animation.cfg')));
    const run = m.clips.findIndex((c) => c.name === 'LEGS_RUN');
    expect(run).toBeGreaterThanOrEqual(0);
    expect(m.clips[run].frameCount).toBe(cfg.byName.LEGS_RUN!.numFrames);
    // Every surface resolves to an image through the player's default skins.
    expect(m.materials.every((x) => x.image)).toBe(true);
    // Frame 1 → 2 of LEGS_RUN with the torso standing, exactly as Md3Player poses it.
    const backend = createTsBackend();
    const player = m.createPlayer(backend);
    player.setClip(run);
    player.poseBlend(1, 2, 0.25);
    const direct = new Md3Player(backend, { lower: models[0], upper: models[1], head: models[2] }, cfg);
    // human_bsuit's TORSO_STAND (Unvanquished's list) is one frame, not looping: frames 1 and 2 hold its only one
    const legs = cfg.byName.LEGS_RUN!, torso = cfg.byName.TORSO_STAND!;
    expect([torso.numFrames, torso.loopFrames]).toEqual([1, 0]);
    direct.pose({ legs: { frame1: legs.firstFrame + 1, frame2: legs.firstFrame + 2, t: 0.25 }, torso: { frame1: torso.firstFrame, frame2: torso.firstFrame, t: 0.25 } });
    expect([...player.positions]).toEqual([...direct.positions]);
    direct.dispose();
    player.dispose();
  });
});
