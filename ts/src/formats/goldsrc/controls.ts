/**
 * What an entity sets on a studio model besides its sequence and frame: its bone controllers and its blending
 * (Half-Life SDK StudioModelRenderer.cpp StudioCalcBoneAdj / StudioSetupBones; Xash3D-FWGS r_studio.c the same).
 *
 * Controllers are given as the values `StudioCalcBoneAdj` makes of the entity's bytes — degrees for a rotating
 * controller (XR, YR, ZR), units for a moving one (X, Y, Z) — keyed by the controller's `index`: 0–3 the entity's
 * four controllers, 4 the mouth (every index above 3 reads the mouth, as the engine's `i <= 3` test does). A
 * controller given no value adjusts nothing, the pose a game shows once it has centred its controllers. A value is
 * brought into what the engine can make of a byte: clamped to [start, end] (the engine clamps its 0–1 fraction;
 * the mouth's `mouthopen / 64` is clamped the same), or for an `RLOOP` controller wrapped into the 360° from its start
 * (the byte × 360/256 + start the engine computes). The byte's own quantisation (1/255 of the range) is not applied:
 * the value is kept exact.
 *
 * Blending is given as the engine's bytes, `blending[0]` and `blending[1]` (0–255, default 0: the first blend, what
 * an entity that never sets them shows). How a sequence's blends are mixed: `blendCorners`.
 */
import type { GoldsrcController, GoldsrcModel, GoldsrcSequence } from './model.js';

export interface GoldsrcControls {
  /** Controller index (0–3, 4 the mouth) → degrees (rotating) or units (moving). Absent: no adjustment. */
  controllers?: ReadonlyMap<number, number> | Readonly<Record<number, number>>;
  /** The entity's `blending[0]`, `blending[1]`: 0–255 each (clamped). Default [0, 0]. */
  blend?: readonly number[];
}

export const STUDIO_RLOOP = 0x8000;
/** STUDIO_TYPES: the channel bits of a controller's type. */
const STUDIO_TYPES = 0x7fff;
const STUDIO_X = 0x1, STUDIO_Y = 0x2, STUDIO_Z = 0x4, STUDIO_XR = 0x8, STUDIO_YR = 0x10, STUDIO_ZR = 0x20;
/** The mouth's index; every index above 3 reads it (StudioCalcBoneAdj's `i <= 3` else branch). */
export const MOUTH_CONTROLLER = 4;

function valueOf(controllers: GoldsrcControls['controllers'], index: number): number | undefined {
  if (!controllers || index < 0) return undefined;
  const key = index > 3 ? MOUTH_CONTROLLER : index;
  const v = controllers instanceof Map ? controllers.get(key) : (controllers as Readonly<Record<number, number>>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The value the engine can reach nearest `v` for controller `c` (see the file's comment). */
export function controllerValue(c: GoldsrcController, v: number): number {
  if (c.index <= 3 && c.type & STUDIO_RLOOP) {
    const d = (((v - c.start) % 360) + 360) % 360;
    return c.start + d;
  }
  const lo = Math.min(c.start, c.end), hi = Math.max(c.start, c.end);
  return Math.min(hi, Math.max(lo, v));
}

/**
 * One adjustment per controller of the model (radians for XR/YR/ZR, units for X/Y/Z; 0 for one given no value or of
 * another type), as StudioCalcBoneAdj's `adj[]`; null when no controller is given a value (nothing to add).
 */
export function boneAdjust(model: GoldsrcModel, controllers: GoldsrcControls['controllers']): Float32Array | null {
  const out = new Float32Array(model.controllers.length);
  let any = false;
  model.controllers.forEach((c, j) => {
    const v = valueOf(controllers, c.index);
    if (v === undefined) return;
    const value = controllerValue(c, v);
    switch (c.type & STUDIO_TYPES) {
      case STUDIO_XR: case STUDIO_YR: case STUDIO_ZR:
        out[j] = value * (Math.PI / 180);
        any = true;
        break;
      case STUDIO_X: case STUDIO_Y: case STUDIO_Z:
        out[j] = value;
        any = true;
        break;
    }
  });
  return any ? out : null;
}

/**
 * Which of a sequence's blends the pose mixes, and how (StudioSetupBones): `corners[k]` the blend read for corner k,
 * `sx` the weight of corner 1 against 0 (and 3 against 2), `sy` of the pair (2, 3) against (0, 1).
 * - one blend: corner 0 alone;
 * - numblends 4 (Half-Life's two-axis blend): blends 0 1 by `blending[0]`, 2 3 likewise, the pairs by `blending[1]`;
 * - numblends 9 (Counter-Strike's 3 × 3 aim grid, row-major, x across): the cell of the grid each byte's half picks,
 *   its four corners mixed by (byte − 127) × 2 above 127, byte × 2 up to it, over 255 — as CS's client and
 *   Half-Life Asset Manager do;
 * - any other count above 1: blends 0 and 1 by `blending[0]` (the SDK's `numblends > 1` case).
 */
export function blendCorners(sequence: GoldsrcSequence, blend: readonly number[] | undefined): { corners: number[]; sx: number; sy: number } {
  const n = sequence.blendCount;
  const byte = (k: number) => Math.min(255, Math.max(0, Number.isFinite(blend?.[k]) ? (blend![k] as number) : 0));
  const bx = byte(0), by = byte(1);
  if (n <= 1) return { corners: [0], sx: 0, sy: 0 };
  if (n === 9) {
    const right = bx > 127, up = by > 127;
    const col = right ? 1 : 0, row = up ? 1 : 0;
    const at = (r: number, c: number) => (row + r) * 3 + col + c;
    // StudioSlerpBones clamps its weight to [0, 1]: 255 above 127 makes 256/255
    const w = (x: number) => Math.min(1, (x * 2) / 255);
    return { corners: [at(0, 0), at(0, 1), at(1, 0), at(1, 1)], sx: w(right ? bx - 127 : bx), sy: w(up ? by - 127 : by) };
  }
  if (n === 4) return { corners: [0, 1, 2, 3], sx: bx / 255, sy: by / 255 };
  return { corners: [0, 1], sx: bx / 255, sy: 0 };
}
