/** Which parser a file wants: by extension, else by its first declarations. */
export type FileKind = 'md5mesh' | 'md5anim';

export function kindFromName(path: string): FileKind | null {
  const p = path.toLowerCase();
  if (p.endsWith('.md5mesh')) return 'md5mesh';
  if (p.endsWith('.md5anim')) return 'md5anim';
  return null;
}

export function kindFromBytes(head: Uint8Array): FileKind | null {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 4096));
  const mesh = text.indexOf('numMeshes');
  const anim = text.indexOf('numFrames');
  if (mesh >= 0 && (anim < 0 || mesh < anim)) return 'md5mesh';
  if (anim >= 0) return 'md5anim';
  return null;
}
