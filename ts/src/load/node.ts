/** Models from file paths in Node, streamed (never read whole). */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { resourceLimits } from '../base/resource-limits.js';
import { parseAnimationCfg, type Md3AnimationCfg } from '../formats/md3/animation-cfg.js';
import { resolveTexturesOnDisk, type GameFolderTextures } from './game-folder.js';
import { readRegularFile } from './regular-file.js';
import type { ResolveTexturesOptions } from './textures.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../formats/md5/stream.js';
import type { Md2Model, Md3Model } from '../base/model.js';
import { parseMd2Stream } from '../formats/md2/stream.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import type { ReadOptions } from '../base/source.js';

/** A file as a stream of chunks (64 KiB by default). */
export function fileChunks(path: string | URL, chunkSize = 64 * 1024): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: chunkSize });
}

export function loadMd5Mesh(path: string | URL, options?: ReadOptions): Promise<Md5Mesh> {
  return parseMd5MeshStream(fileChunks(path), options);
}

/** The file's size tells the parser how big the frame store will be: one allocation instead of doubling. */
export async function loadMd5Anim(path: string | URL, options?: ReadOptions): Promise<Md5Anim> {
  const sizeHint = options?.sizeHint ?? (await stat(path)).size;
  return parseMd5AnimStream(fileChunks(path), { ...options, sizeHint });
}

/** An MD2 file, streamed: only its header and then its declared ofs_end bytes are ever held. */
export function loadMd2(path: string | URL, options?: ReadOptions): Promise<Md2Model> {
  return parseMd2Stream(fileChunks(path), options);
}

/** An MD3 file, streamed: only its header and then its declared ofsEnd bytes are ever held. */
export function loadMd3(path: string | URL, options?: ReadOptions): Promise<Md3Model> {
  return parseMd3Stream(fileChunks(path), options);
}

// Folders, archives and game folders from paths (vfs/node.ts: node:fs, node:zlib).
export { folderFileSystem, openArchive, mountGameDir, openPath, fileReader, zlibInflater } from '../vfs/node.js';

// Textures resolved from the model's game folder on disk (load/game-folder.ts).
export { locateGameFolder, resolveTexturesOnDisk, GAME_FOLDER_MARKERS, type GameFolderPlace, type GameFolderTextures } from './game-folder.js';

/** What `loadPlayer` returns: the parts and animation.cfg (as `Md3Player` and `toGlb` take them) and the resolved skin. */
export interface LoadedPlayer {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  /** animation.cfg, when the folder has one. */
  animationCfg: Md3AnimationCfg | undefined;
  /** The parts as `toGlb` / `new Md3Player(backend, models)` take them. */
  models: { lower: Md3Model; upper: Md3Model; head: Md3Model };
  animations: Md3AnimationCfg | undefined;
  /** Each part's surfaces resolved through `<part>_<skin>.skin` in the game folder, with the image bytes: `toGlb(player, { textures: materials })`. */
  materials: GameFolderTextures;
}

/**
 * A Quake 3 player folder (`models/players/NAME/`: lower.md3, upper.md3, head.md3, animation.cfg; names in any case)
 * with its skin resolved in the game folder above it (ioquake3 cg_players.c CG_RegisterClientModelname /
 * CG_RegisterClientSkin). A missing part throws ModelParseError READ_FAILED; a missing skin or image is a warning.
 */
export async function loadPlayer(dir: string, options: ResolveTexturesOptions & { gameDir?: string } = {}): Promise<LoadedPlayer> {
  const names = await readdir(dir).catch((e) => {
    throw new ModelParseError(ErrorCode.ReadFailed, `${dir}: ${(e as Error).message}`, { offset: 0 });
  });
  const find = (name: string) => names.find((n) => n === name) ?? names.find((n) => n.toLowerCase() === name);
  const part = (name: string) => {
    const found = find(name);
    if (!found) throw new ModelParseError(ErrorCode.ReadFailed, `${dir}: not a Quake 3 player folder: no ${name}`, { offset: 0 });
    return loadMd3(join(dir, found));
  };
  const [lower, upper, head] = [await part('lower.md3'), await part('upper.md3'), await part('head.md3')];
  const cfgName = find('animation.cfg');
  // a regular file of at most maxScriptBytes (a FIFO named animation.cfg would block readFile for ever)
  const cfgBytes = cfgName ? await readRegularFile(join(dir, cfgName), { maxBytes: resourceLimits().maxScriptBytes, limit: 'maxScriptBytes' }) : undefined;
  const animationCfg = cfgBytes ? parseAnimationCfg(cfgBytes) : undefined;
  const models = { lower, upper, head };
  const materials = await resolveTexturesOnDisk(dir, models, options);
  return { lower, upper, head, animationCfg, models, animations: animationCfg, materials };
}
