/**
 * ET's skeletal mesh and skeleton as two `ModelFormat`s (load/format.ts): `.mdm` (`MDMW` v3), a model, which plays the
 * `.mdx` beside it with its name (ET names the pair in a `.char` file: `mesh` and `animationgroup`); and `.mdx`
 * (`MDXW` v2), what plays on a mesh — opened alone it names the meshes beside it that play it.
 */
import type { ModelFormat } from '../../load/format.js';
import { isMdmHead, isMdxHead } from './header.js';
import type { MdmModel, MdxModel } from './model.js';
import { mdxPathOf, pairMismatch } from './pairing.js';

export const mdmFormat: ModelFormat<MdmModel> = {
  id: 'mdm',
  title: 'Enemy Territory skeletal mesh (MDM)',
  name: 'MDM',
  description: "Wolfenstein: Enemy Territory's skeletal meshes: weighted vertices, LOD collapse maps, tags on bones; played by an .mdx skeleton",
  extensions: ['.mdm'],
  test: isMdmHead,
  role: 'model',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./parser.js')).parseMdmStream(source, options),
  warnings: (data) => data.warnings,
  async companionsBeside(fs, path) {
    const f = await fs.file(mdxPathOf(path));
    return f ? [f.path] : [];
  },
  // the engine draws a mesh only through a skeleton
  companionsByDefault: true,
  acceptsCompanion(mdm, companion, format, _warnings) {
    if (format !== 'mdx') return `an .${format} does not play on an .mdm`;
    return pairMismatch(mdm, companion as MdxModel);
  },
};

export const mdxFormat: ModelFormat<MdxModel> = {
  id: 'mdx',
  title: 'Enemy Territory skeleton (MDX)',
  name: 'MDX',
  description: "Wolfenstein: Enemy Territory's skeletons and their frames, shared by the .mdm meshes that play them",
  extensions: ['.mdx'],
  test: isMdxHead,
  role: 'animation',
  playsOn: 'mdm',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./parser.js')).parseMdxStream(source, options),
  warnings: (data) => data.warnings,
  // the mesh beside it with its name
  async playedBy(fs, path) {
    const f = await fs.file(path.replace(/\.[^./\\]*$/, '.mdm'));
    return f ? [f.path] : [];
  },
};
