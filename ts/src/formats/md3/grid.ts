/**
 * MD3 stores vertices on a fixed 1/64-unit grid (int16 × 1/64, ioquake3 MD3_XYZ_SCALE), whatever the model's size: a
 * glTF character in metres (1.8 units tall) spans 115 steps and moves in visible jumps. The threshold is MD2's grid:
 * Quake 2 stores each frame in 256 levels per axis (8 bits) and its models visibly wobble on it, so a model spanning
 * fewer than 256 MD3 steps along its largest extent is coarser than the coarsest grid id shipped — it is reported
 * (`MD3_GRID_COARSE`), with the `--scale` (`scale` option) that keeps 256 steps and the one that makes it as tall as
 * a Quake 3 player (56 units: bg_public.h / g_client.c playerMins z −24, playerMaxs z 32).
 *
 * MD2 has no such trap: each frame is quantised to its own bounds in 255 steps (gltf-md2.ts), so the step is the
 * same fraction of the frame at any scale.
 */
import type { ParseWarning } from '../../base/errors.js';

/** Fewer steps than this along the model's largest extent is visibly coarse (see the file comment). */
export const MD3_MIN_GRID_STEPS = 256;
/** Quake 3's player box height in units (playerMins z −24 … playerMaxs z 32). */
export const QUAKE3_PLAYER_HEIGHT = 56;

const nice = (x: number) => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toPrecision(2));

/** The largest extent, in units, of the box every frame (`frameMins` / `frameMaxs`, 3 floats a frame) fits in. */
export function md3Extent(frameMins: Float32Array, frameMaxs: Float32Array): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < frameMins.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], frameMins[i + k]);
      hi[k] = Math.max(hi[k], frameMaxs[i + k]);
    }
  }
  return Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

/**
 * The warning for a model whose frames span fewer than MD3_MIN_GRID_STEPS steps of 1/64 along their largest extent
 * (`extent`, in units, after `scale`), or null. `what` names it in the message (`the model`, `head`); `wholeModel`
 * adds the scale that makes it player-sized (not for one part of a player).
 */
export function md3GridWarning(extent: number, scale: number, what = 'the model', wholeModel = true): ParseWarning | null {
  if (!(extent > 0)) return null;
  const steps = Math.round(extent * 64);
  if (steps >= MD3_MIN_GRID_STEPS) return null;
  const keep = Math.ceil((MD3_MIN_GRID_STEPS / steps) * scale * 10) / 10;
  const player = (QUAKE3_PLAYER_HEIGHT / extent) * scale;
  return {
    code: 'MD3_GRID_COARSE',
    message:
      `${what} spans ${extent.toFixed(2)} units, ${steps} steps of MD3's 1/64-unit grid: its vertices move in visible jumps ` +
      `(fewer than ${MD3_MIN_GRID_STEPS} steps, the 8-bit grid Quake 2's MD2 models wobble on). --scale ${nice(keep)} keeps ${MD3_MIN_GRID_STEPS} steps` +
      (wholeModel ? `; --scale ${nice(player)} makes it as tall as a Quake 3 player (${QUAKE3_PLAYER_HEIGHT} units)` : ''),
    offset: 0,
  };
}
