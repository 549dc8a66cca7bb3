/**
 * Where a header goes past a limit of Quake 2 that we do not enforce: one ENGINE_LIMIT warning per field, naming
 * the limit, where the engine has it and what the engine does with such a file. The model still parses — these are
 * things a modder targeting Quake 2 needs to know, not reasons to refuse a file other engines and tools load.
 * Source of every condition: id Software's Quake 2 GPL release (docs/limits.md has the table).
 */
import type { ParseWarning } from '../../base/errors.js';
import { HEADER_FIELD as FIELD, type Md2Header } from './header.js';
import { LIMITS } from './limits.js';

export function md2EngineWarnings(h: Md2Header): ParseWarning[] {
  const out: ParseWarning[] = [];
  const warn = (offset: number, message: string) => out.push({ code: 'ENGINE_LIMIT', message, offset });
  if (h.skinHeight > LIMITS.maxSkinHeight) {
    warn(FIELD.skinHeight, `skinheight ${h.skinHeight} is over MAX_LBM_HEIGHT ${LIMITS.maxSkinHeight}: Quake 2 refuses the model (ref_gl/gl_model.c Mod_LoadAliasModel: skinheight > MAX_LBM_HEIGHT)`);
  }
  if (h.skinCount > LIMITS.maxSkins) {
    warn(FIELD.skinCount, `num_skins ${h.skinCount} is over MAX_MD2SKINS ${LIMITS.maxSkins} (qcommon/qfiles.h): Quake 2's Mod_LoadAliasModel writes every skin into model_t.skins[MAX_MD2SKINS] unchecked, past its end`);
  }
  if (h.stCount === 0) {
    warn(FIELD.stCount, 'num_st is 0: Quake 2 refuses the model (Mod_LoadAliasModel: num_st <= 0, "has no st vertices")');
  }
  if (h.triangleCount === 0) {
    warn(FIELD.triangleCount, 'num_tris is 0: Quake 2 refuses the model (Mod_LoadAliasModel: num_tris <= 0, "has no triangles")');
  } else if (h.triangleCount > LIMITS.maxTriangles) {
    warn(FIELD.triangleCount, `num_tris ${h.triangleCount} is over MAX_TRIANGLES ${LIMITS.maxTriangles} (qcommon/qfiles.h, qdata's limit); Quake 2's loader does not check it`);
  }
  if (h.frameCount > LIMITS.maxFrames) {
    warn(FIELD.frameCount, `num_frames ${h.frameCount} is over MAX_FRAMES ${LIMITS.maxFrames} (qcommon/qfiles.h, qdata's limit); Quake 2's loader does not check it`);
  }
  if (h.endOffset > LIMITS.maxFileBytes) {
    warn(FIELD.endOffset, `ofs_end ${h.endOffset} is over the ${LIMITS.maxFileBytes}-byte hunk Quake 2 reserves for a model (gl_model.c Mod_ForName: Hunk_Begin (0x200000)); its Hunk_Alloc (ofs_end) fails with "Hunk_Alloc overflow"`);
  }
  return out;
}
