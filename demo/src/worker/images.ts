/**
 * The images of the open model for the texture viewer: every image its materials name and found (diffuse, normal
 * and specular maps, an animMap's frames, later stages), each read once and decoded by the image floor
 * (`decodeImage`: TGA, PCX, BMP and DDS to RGBA8; PNG and JPEG passed as they are, for the browser to decode).
 */
import { ModelParseError, type FileSystem, type ResolvedImage, type ResolvedMaterial } from 'idtech-models';
import { decodeImage } from 'idtech-models/textures';
import type { ViewedImage } from '../protocol.js';

/** Every found image of `m` with what it is to the surface. */
function imagesOf(m: ResolvedMaterial): { image: ResolvedImage; use: string }[] {
  const surface = m.part ? `${m.part} "${m.surface}"` : `"${m.surface || m.shaderName}"`;
  const all: { image: ResolvedImage | null; use: string }[] = [
    { image: m.diffuse, use: `diffuse of ${surface}` },
    { image: m.normal, use: `normal map of ${surface}` },
    { image: m.specular, use: `specular map of ${surface}` },
    ...(m.animation?.frames ?? []).map((image, i) => ({ image, use: `animMap frame ${i} of ${surface}` })),
    ...m.others.map((image) => ({ image, use: `${image.role} of ${surface}` })),
  ];
  return all.filter((x): x is { image: ResolvedImage; use: string } => !!x.image?.path && !x.image.builtin);
}

/** One image file, decoded for viewing; `transfer` collects the buffers to move. */
export async function viewImage(fs: FileSystem, path: string, uses: string[], transfer: Transferable[], signal?: AbortSignal): Promise<ViewedImage> {
  const f = await fs.file(path);
  if (!f) return { path, uses, width: 0, height: 0, error: 'found while resolving, not readable now' };
  const bytes = (await f.bytes({ signal })).slice();
  try {
    const img = decodeImage(bytes, path);
    if (img.kind === 'rgba') {
      transfer.push(img.rgba.buffer);
      return { path, uses, width: img.width, height: img.height, rgba: img.rgba };
    }
    transfer.push(bytes.buffer);
    return { path, uses, width: img.width, height: img.height, bytes, mimeType: img.mimeType };
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    return { path, uses, width: 0, height: 0, error: `${e.code}: ${e.message}` };
  }
}

export async function modelImages(fs: FileSystem, materials: readonly ResolvedMaterial[], transfer: Transferable[], signal: AbortSignal): Promise<ViewedImage[]> {
  const uses = new Map<string, string[]>();
  for (const m of materials) for (const { image, use } of imagesOf(m)) uses.set(image.path!, [...(uses.get(image.path!) ?? []), use]);
  const out: ViewedImage[] = [];
  for (const [path, u] of uses) {
    signal.throwIfAborted();
    out.push(await viewImage(fs, path, u, transfer, signal));
  }
  return out;
}
