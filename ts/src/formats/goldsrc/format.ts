/**
 * Half-Life's studio model as one `ModelFormat` (load/format.ts): `.mdl` as Quake's is, told apart by its first
 * bytes (`IDST` version 10; its sequence group files `IDSQ`), with the files the engine reads beside it (its
 * `<name>T.mdl` textures and `<name>NN.mdl` sequence groups: companions.ts). A texture or group file is no model of
 * its own (`animationOnly`: the catalog lists it under nothing). Its parser is imported on the first parse.
 */
import type { ModelFormat } from '../../load/format.js';
import { goldsrcAcceptsCompanion, goldsrcCompanionsBeside } from './companions.js';
import { isCompanionOnly, isGoldsrcHead } from './header.js';
import type { GoldsrcModel } from './model.js';

export const goldsrcFormat: ModelFormat<GoldsrcModel> = {
  id: 'hl1mdl',
  title: 'Half-Life studio model (GoldSrc MDL)',
  name: 'GoldSrc MDL',
  description: "Half-Life's studio models (and its mods'): bones, sequences, body parts, palette skins",
  extensions: ['.mdl'],
  test: isGoldsrcHead,
  role: 'model',
  animation: 'skeletal',
  parseStream: async (source, options) => (await import('./parser.js')).parseGoldsrcStream(source, options),
  warnings: (data) => data.warnings,
  companionsBeside: goldsrcCompanionsBeside,
  // the engine reads the texture file and the group files of every model it loads
  companionsByDefault: true,
  acceptsCompanion: goldsrcAcceptsCompanion,
  animationOnly: isCompanionOnly,
};
