/**
 * Where an MDL goes past a limit some engine refuses (or breaks on) and another loads: one ENGINE_LIMIT warning per
 * fact, naming the engines that refuse and the check they make. The model still parses. Sources (docs/mdl.md):
 * id's WinQuake model.c and GLQuake gl_model.h/gl_model.c Mod_LoadAliasModel; QuakeSpasm and Ironwail
 * gl_model.c Mod_LoadAliasModel / Mod_LoadAllSkins / Mod_LoadAliasFrame; QuakeForge model_alias.c; DarkPlaces
 * model_alias.c Mod_IDP0_Load; uHexen2 gl_model.c Mod_LoadAliasModelNew.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { MdlHeader } from './header.js';
import { MDL_FIELD as F, MDL_LIMITS as L } from './limits.js';

const warning = (offset: number, message: string): ParseWarning => ({ code: 'ENGINE_LIMIT', message, offset });

/** The header's counts against every engine's limits. */
export function mdlHeaderEngineWarnings(h: MdlHeader): ParseWarning[] {
  const out: ParseWarning[] = [];
  const w = (offset: number, message: string) => out.push(warning(offset, message));
  if (h.skinCount === 0) {
    w(F.skinCount, 'numskins is 0: WinQuake, QuakeSpasm, Ironwail and QuakeForge refuse the model ("Invalid # of skins"); DarkPlaces loads it untextured');
  } else if (h.skinCount > L.maxSkins) {
    w(F.skinCount, `numskins ${h.skinCount} is over MAX_SKINS ${L.maxSkins}: QuakeSpasm, Ironwail and QuakeForge refuse the model (Mod_LoadAllSkins: "Invalid # of skins")`);
  }
  if (h.skinHeight > L.maxSkinHeight) {
    w(F.skinHeight, `skinheight ${h.skinHeight} is over MAX_LBM_HEIGHT ${L.maxSkinHeight}: WinQuake, GLQuake, QuakeForge and uHexen2 refuse the model ("has a skin taller than"); QuakeSpasm and Ironwail only warn`);
  }
  if (h.skinWidth % 4 !== 0) {
    w(F.skinWidth, `skinwidth ${h.skinWidth} is not a multiple of 4: WinQuake and uHexen2 refuse the model (Mod_LoadAliasModel: "skinwidth not multiple of 4")`);
  }
  if (h.skinWidth === 0 || h.skinHeight === 0) {
    w(F.skinWidth, `the skin is ${h.skinWidth}×${h.skinHeight} texels: no engine can draw it (texture coordinates are divided by 1 here)`);
  }
  if (h.vertexCount > L.ironwailMaxVertices) {
    w(F.vertexCount, `numverts ${h.vertexCount} is over ${L.ironwailMaxVertices}: Ironwail refuses the model (MAXALIASVERTS, "has too many vertices"), as do QuakeSpasm and the original; DarkPlaces loads it`);
  } else if (h.vertexCount > L.quakespasmMaxVertices) {
    w(F.vertexCount, `numverts ${h.vertexCount} is over ${L.quakespasmMaxVertices}: QuakeSpasm and WinQuake refuse the model (MAXALIASVERTS, "has too many vertices"); Ironwail and DarkPlaces load it`);
  } else if (h.vertexCount > L.glquakeMaxVertices) {
    w(F.vertexCount, `numverts ${h.vertexCount} is over ${L.glquakeMaxVertices}: GLQuake's stverts[MAXALIASVERTS] overflows (gl_model.h); QuakeSpasm and later load it`);
  }
  if (h.triangleCount === 0) {
    w(F.triangleCount, 'numtris is 0: WinQuake, QuakeSpasm, Ironwail and QuakeForge refuse the model ("has no triangles"); DarkPlaces loads it');
  } else if (h.triangleCount >= L.darkplacesBound) {
    w(F.triangleCount, `numtris ${h.triangleCount}: DarkPlaces refuses the model (Mod_IDP0_Load BOUNDI under ${L.darkplacesBound}), as do QuakeSpasm and GLQuake; Ironwail loads it`);
  } else if (h.triangleCount > L.quakespasmMaxTriangles) {
    w(F.triangleCount, `numtris ${h.triangleCount} is over ${L.quakespasmMaxTriangles}: QuakeSpasm refuses the model (MAXALIASTRIS, "has too many triangles"); Ironwail and DarkPlaces load it`);
  } else if (h.triangleCount > L.glquakeMaxTriangles) {
    w(F.triangleCount, `numtris ${h.triangleCount} is over ${L.glquakeMaxTriangles}: GLQuake's triangles[MAXALIASTRIS] overflows (gl_model.h); QuakeSpasm and later load it`);
  }
  if (h.synctype !== 0 && h.synctype !== 1) {
    w(F.synctype, `synctype is ${h.synctype}, neither ST_SYNC (0) nor ST_RAND (1): DarkPlaces refuses the model (Mod_IDP0_Load BOUNDI); the others treat it as random`);
  }
  return out;
}

/** The poses of all frames (groups expanded) against the engines' pose arrays. */
export function mdlPoseEngineWarnings(poseCount: number, at: number): ParseWarning[] {
  if (poseCount > L.ironwailMaxPoses) {
    return [warning(at, `${poseCount} poses are over ${L.ironwailMaxPoses}: Ironwail refuses the model ("posenum >= MAXALIASFRAMES"), as do QuakeSpasm and GLQuake; DarkPlaces loads it`)];
  }
  if (poseCount > L.quakespasmMaxPoses) {
    return [warning(at, `${poseCount} poses are over ${L.quakespasmMaxPoses}: QuakeSpasm and GLQuake refuse the model ("posenum >= MAXALIASFRAMES"); Ironwail and DarkPlaces load it`)];
  }
  return [];
}

/** A group interval WinQuake refuses (`Mod_LoadAliasGroup` / `Mod_LoadAliasSkinGroup`: "interval<=0"). */
export function mdlIntervalWarning(what: string, interval: number, at: number): ParseWarning {
  return warning(at, `${what} interval is ${interval}: WinQuake and QuakeForge refuse the model ("interval<=0"); QuakeSpasm and Ironwail read only a frame group's first interval, and DarkPlaces plays a skin group's first below 0.01 s at 0.1 s`);
}
