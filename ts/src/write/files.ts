/**
 * What the writers' registrations share when they turn a write into files: the output's separator kept, the images
 * the shaders name written beside the output, the summary line's counts, and the one refusal of a scene with no mesh.
 * Paths are made with '/' or the output's own separator, so this runs in browsers too.
 */
/** One file a writer makes (its path relative to the output's folder, or the output itself when `main`). */
export interface WrittenFile {
  path: string;
  bytes: Uint8Array | string;
}

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sepOf = (p: string) => (p.includes('\\') && !p.includes('/') ? '\\' : '/');
/** `dir` + `name` with the output's separator. */
export const join = (dir: string, name: string) => (dir ? `${dir.replace(/[\\/]+$/, '')}${sepOf(dir)}${name}` : name);
const folderOf = (p: string) => p.slice(0, Math.max(0, Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'))));
const baseOf = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** The images the shaders name, as files beside OUT (their game path's last part). */
export const besideOut = (out: string, textures: readonly { path: string; bytes: Uint8Array }[] = []): WrittenFile[] => textures.map((t) => ({ path: join(folderOf(out), baseOf(t.path)), bytes: t.bytes }));

/** No triangles: nothing an id format could show. */
export const noMesh = () => new Error('no triangle mesh to convert');


/** The summary's word on an MD2 / MDL atlas: how many materials share the one skin, and whether they were scaled. */
export const atlasFacts = (atlas: { materials: number; scale: number } | null): string[] =>
  atlas ? [`${atlas.materials} materials packed into one skin${atlas.scale < 1 ? ` (scaled by ${atlas.scale.toFixed(2)})` : ''}`] : [];
