/** Which parser a file wants: by extension, else by its first bytes (binary magic, or MD5's first declarations). */
export type FileKind = 'md5mesh' | 'md5anim' | 'md2' | 'md3';

export function kindFromName(path: string): FileKind | null {
  const p = path.toLowerCase();
  if (p.endsWith('.md5mesh')) return 'md5mesh';
  if (p.endsWith('.md5anim')) return 'md5anim';
  if (p.endsWith('.md2')) return 'md2';
  if (p.endsWith('.md3')) return 'md3';
  return null;
}

export function kindFromBytes(head: Uint8Array): FileKind | null {
  const magic = String.fromCharCode(...head.subarray(0, 4));
  if (magic === 'IDP2') return 'md2';
  if (magic === 'IDP3') return 'md3';
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096));
  const mesh = text.indexOf('numMeshes');
  const anim = text.indexOf('numFrames');
  if (mesh >= 0 && (anim < 0 || mesh < anim)) return 'md5mesh';
  if (anim >= 0) return 'md5anim';
  return null;
}
