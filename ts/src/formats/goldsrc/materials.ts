/**
 * Where a studio model's textures are found (the registration's `materials`): its own, else those of the texture
 * file beside it, read through the file system. Apart from textures.ts so the glTF exporter does not carry the parser.
 */
import type { MaterialSet } from '../../materials/resolver.js';
import type { MaterialWarning } from '../../materials/types.js';
import type { FileSystem } from '../../vfs/file-system.js';
import { textureFilePath } from './companions.js';
import type { GoldsrcModel } from './model.js';
import { parseGoldsrcStream } from './parser.js';
import { familyNames, familyOf, goldsrcMaterials } from './textures.js';

/**
 * The model's materials as the engine finds them in `fs`: its own textures, else those of `<name>T.mdl` beside it
 * (read through the file system, whose names fold case), one per mesh `body` draws (geometry.ts), in skin family `skin` (`family1`; family 0 by default). What is
 * missing is a warning, never an exception; so is a skin that is no family of the model (family 0 is shown).
 */
export async function resolveGoldsrcMaterials(fs: FileSystem, model: GoldsrcModel, path: string, skin?: string, body = 0): Promise<MaterialSet> {
  const warnings: MaterialWarning[] = [];
  let source = model;
  if (model.kind === 'studio' && model.textures.length === 0) {
    const p = textureFilePath(path);
    const f = await fs.file(p);
    if (!f) warnings.push({ code: 'MISSING_IMAGE', message: `${p}: the model has no textures and its texture file is not beside it`, path: p });
    else {
      try {
        source = await parseGoldsrcStream(f.stream(), { sizeHint: f.size });
      } catch (e) {
        warnings.push({ code: 'MISSING_IMAGE', message: `${p}: ${(e as Error).message}`, path: p, origin: f.origin });
      }
    }
  }
  let family = familyOf(skin);
  if (skin !== undefined && (family < 0 || family >= Math.max(1, source.skinFamilies.length))) {
    warnings.push({ code: 'MISSING_IMAGE', message: `skin ${JSON.stringify(skin)}: the model's skin families are ${familyNames(source).join(', ') || 'family0 alone'}; family0 is shown`, path });
    family = 0;
  }
  return { ...goldsrcMaterials(model, source, path, family, body), warnings };
}
