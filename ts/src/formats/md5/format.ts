/**
 * MD5's entries in the format list: `md5mesh` (a model; its md5anims play on it), `md5anim` (an animation of an
 * md5mesh) and `md5camera` (recognised only to be refused by name).
 *
 * Without an extension, the kind is read from the first declarations. Doom 3's camera paths share the MD5 header
 * (`MD5Version`, `commandline`, `numFrames`, `frameRate`) and then declare `numCuts` (Doom 3 GPL source,
 * neo/game/Camera.cpp idCameraAnim::LoadAnim), where an md5anim declares `numJoints` (neo/game/anim/Anim.cpp
 * idMD5Anim::LoadAnim) and an md5mesh `numMeshes`. Without the camera entry a camera file with an unknown extension
 * sniffed as an md5anim and failed with the anim parser's `MISSING_BLOCK`, which says nothing about what the file is.
 *
 * The parsers are imported on the first parse: a list of formats carries how each is recognised, not every parser.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { byPath, type FileSystem } from '../../vfs/file-system.js';
import type { ModelFormat } from '../../load/format.js';
import { animMeshMismatch } from '../../pose/anim-mesh-match.js';

/**
 * Where `keyword` first stands as a whole token in MD5 text, -1 if nowhere. Quoted strings are blanked first, so a
 * `commandline "… numMeshes …"` cannot decide the kind. The engine's lexer (idLexer) separates tokens by any
 * whitespace, so a keyword need not start a line.
 */
function keywordAt(text: string, keyword: string): number {
  const m = new RegExp(`(?:^|\\s)${keyword}(?=\\s|$)`).exec(text);
  return m ? m.index : -1;
}

/** What MD5 text declares first: a mesh, an anim or a camera path (null: not MD5 text). */
function md5Kind(head: Uint8Array): 'md5mesh' | 'md5anim' | 'md5camera' | null {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096)).replace(/"[^"\n]*"/g, '""');
  if (keywordAt(text, 'numCuts') >= 0) return 'md5camera';
  const mesh = keywordAt(text, 'numMeshes');
  const anim = keywordAt(text, 'numFrames');
  if (mesh >= 0 && (anim < 0 || mesh < anim)) return 'md5mesh';
  if (anim >= 0) return 'md5anim';
  return null;
}

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

export const md5MeshFormat: ModelFormat<Md5Mesh> = {
  id: 'md5mesh',
  title: 'Doom 3 mesh (md5mesh)',
  name: 'MD5',
  description: "Doom 3's skeletal meshes (also Quake 4's, Daemon's, Tesseract's); the .md5anim files of its folder play on it",
  extensions: ['.md5mesh'],
  test: (head) => md5Kind(head) === 'md5mesh',
  role: 'model',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./index.js')).parseMd5MeshStream(source, options),
  warnings: (mesh) => mesh.warnings ?? [],
  // Doom 3 keeps a monster's mesh and its anims in one folder.
  async companionsBeside(fs: FileSystem, path: string): Promise<string[]> {
    return (await fs.list(folderOf(path), ['.md5anim'])).filter((f) => folderOf(f.path).toLowerCase() === folderOf(path).toLowerCase()).sort(byPath).map((f) => f.path);
  },
  // As Daemon plays a pair (anim-mesh-match.ts): a parent or a name's letter case may differ, with ENGINE_LIMIT.
  acceptsCompanion(mesh: Md5Mesh, companion: unknown, format: string, warnings: ParseWarning[]): string | null {
    if (format !== 'md5anim') return `an .${format} does not play on an .md5mesh`;
    return animMeshMismatch(mesh, companion as Md5Anim, warnings);
  },
  // a re-release's replacement drawn by its engine's skin rule (docs/md5-replacements.md): q2pro's every mesh the
  // MD2's first skin, its own shaders unread; QuakeSpasm-Spiked's and vkQuake's progs/<shader>_00_00 per mesh
  skinnedWith: (mesh, skin) => ({ ...mesh, meshes: mesh.meshes.map((m) => ({ ...m, shader: skin(m.shader) })) }),
};

export const md5AnimFormat: ModelFormat<Md5Anim> = {
  id: 'md5anim',
  title: 'Doom 3 animation (md5anim)',
  name: 'MD5',
  description: 'a Doom 3 skeletal animation, played on its .md5mesh',
  extensions: ['.md5anim'],
  test: (head) => md5Kind(head) === 'md5anim',
  role: 'animation',
  playsOn: 'md5mesh',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./index.js')).parseMd5AnimStream(source, options),
};

export const md5CameraFormat: ModelFormat<never> = {
  id: 'md5camera',
  title: 'Doom 3 camera path (md5camera)',
  name: 'MD5',
  description: 'a Doom 3 camera path: recognised, to be refused by name',
  extensions: ['.md5camera'],
  test: (head) => md5Kind(head) === 'md5camera',
  role: 'refused',
  refusal: 'a Doom 3 camera path (.md5camera), which this tool does not read',
  animation: 'static',
};
