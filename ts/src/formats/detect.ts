/**
 * Which parser a file wants: by extension, else by its first bytes (binary magic, or MD5's first declarations).
 *
 * `md5camera` is recognised so it can be refused by name: Doom 3's camera paths share the MD5 header
 * (`MD5Version`, `commandline`, `numFrames`, `frameRate`) and then declare `numCuts` (Doom 3 GPL source,
 * neo/game/Camera.cpp idCameraAnim::LoadAnim), where an md5anim declares `numJoints` (neo/game/anim/Anim.cpp
 * idMD5Anim::LoadAnim). Without this, a camera file with an unknown extension sniffed as an md5anim and failed
 * with the anim parser's `MISSING_BLOCK`, which says nothing about what the file is. No parser here reads it.
 */
export type FileKind = 'md5mesh' | 'md5anim' | 'md2' | 'md3' | 'md5camera';

/** The kinds some parser in this package reads (`md5camera` is detected only to be refused clearly). */
export const READ_KINDS: readonly FileKind[] = ['md5mesh', 'md5anim', 'md2', 'md3'];

export function kindFromName(path: string): FileKind | null {
  const p = path.toLowerCase();
  if (p.endsWith('.md5mesh')) return 'md5mesh';
  if (p.endsWith('.md5anim')) return 'md5anim';
  if (p.endsWith('.md5camera')) return 'md5camera';
  if (p.endsWith('.md2')) return 'md2';
  if (p.endsWith('.md3')) return 'md3';
  return null;
}

/**
 * Where `keyword` first stands as a whole token in MD5 text, -1 if nowhere. Quoted strings are blanked first,
 * so a `commandline "… numMeshes …"` cannot decide the kind. The engine's lexer (idLexer) separates tokens by
 * any whitespace, so a keyword need not start a line.
 */
function keywordAt(text: string, keyword: string): number {
  const m = new RegExp(`(?:^|\\s)${keyword}(?=\\s|$)`).exec(text);
  return m ? m.index : -1;
}

export function kindFromBytes(head: Uint8Array): FileKind | null {
  const magic = String.fromCharCode(...head.subarray(0, 4));
  if (magic === 'IDP2') return 'md2';
  if (magic === 'IDP3') return 'md3';
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096)).replace(/"[^"\n]*"/g, '""');
  if (keywordAt(text, 'numCuts') >= 0) return 'md5camera';
  const mesh = keywordAt(text, 'numMeshes');
  const anim = keywordAt(text, 'numFrames');
  if (mesh >= 0 && (anim < 0 || mesh < anim)) return 'md5mesh';
  if (anim >= 0) return 'md5anim';
  return null;
}
