/**
 * One way from a resolved image path to its pixels, for every consumer: the glTF/OBJ exporters (through
 * `resolveModelTextures` and `ImageConverter`) and the three.js adapter read a path the material resolver chose with
 * `readTextureBytes`, and decode it with `decodeTexture` — the image floor's `decodeImage`, so TGA, PCX, BMP and DDS
 * become the same RGBA8 everywhere and PNG/JPEG the same untouched bytes. Failures are warnings, never exceptions
 * (an aborted signal still throws).
 */
import { ModelParseError } from '../base/errors.js';
import { decodeImage } from '../images/decode.js';
import type { DecodedImage } from '../images/types.js';
import type { FileSystem } from '../vfs/file-system.js';

/** A warning about one image file: it fits both the resolver's list (MaterialWarning) and a model's (ParseWarning). */
export interface TextureWarning {
  code: string;
  message: string;
  path: string;
  offset: number;
}

/** Where texture warnings go: a MaterialWarning[] or a ParseWarning[]. */
export interface TextureWarnings {
  push(w: TextureWarning): number;
}

/** The bytes of `path` in `fs`, or null with an IMAGE_UNREADABLE warning (found while resolving, gone now). */
export async function readTextureBytes(fs: FileSystem, path: string, warnings: TextureWarnings, signal?: AbortSignal): Promise<Uint8Array | null> {
  const file = await fs.file(path);
  if (!file) {
    const w: TextureWarning = { code: 'IMAGE_UNREADABLE', message: `${path}: found while resolving but not readable now`, path, offset: 0 };
    warnings.push(w);
    return null;
  }
  return file.bytes({ signal });
}

/** `bytes` (the file at `path`) decoded by the image floor, or null with a TEXTURE_DECODE_FAILED warning. */
export function decodeTexture(path: string, bytes: Uint8Array, warnings: TextureWarnings): DecodedImage | null {
  try {
    return decodeImage(bytes, path);
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    const w: TextureWarning = { code: 'TEXTURE_DECODE_FAILED', message: `${path}: ${e.message}: left untextured`, path, offset: 0 };
    warnings.push(w);
    return null;
  }
}
