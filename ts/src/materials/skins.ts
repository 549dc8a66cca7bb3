/**
 * The skins a model folder offers: its `.skin` files named `<model>_<skin>.skin` — `lower_red.skin` is skin `red`
 * of the player part `lower` (ioquake3 cgame cg_players.c builds `models/players/%s/%s_%s.skin` from the part and
 * the skin name), `portals_blue.skin` is skin `blue` of `portals.md3`.
 */
import type { FileSystem } from '../vfs/file-system.js';

export interface SkinOffer {
  /** The skin's name (`default`, `red`, `blue` …). */
  name: string;
  /** Its file per model or player part (`lower` → `models/players/sarge/lower_red.skin`). */
  files: Record<string, string>;
  /** Every model asked about has this skin (a player: all of lower, upper and head). */
  complete: boolean;
}

/** The Quake 3 player parts, for `listSkins(fs, folder, PLAYER_PARTS)`. */
export const PLAYER_PARTS: readonly string[] = ['lower', 'upper', 'head'];

/**
 * Skins offered in `folder` (its direct `.skin` files). `models` names the models to match
 * (`['portals']`, {@link PLAYER_PARTS}); without it, a file's model is the part of its name before the first '_'.
 * Sorted with `default` first, then by name.
 */
export async function listSkins(fs: FileSystem, folder: string, models?: readonly string[]): Promise<SkinOffer[]> {
  const prefix = folder ? `${folder.replace(/\/+$/, '')}/`.toLowerCase() : '';
  const files = (await fs.list(folder, ['.skin'])).filter((f) => {
    const p = f.path.toLowerCase();
    return p.startsWith(prefix) && !p.slice(prefix.length).includes('/');
  });
  const wanted = models?.map((m) => m.toLowerCase());
  const offers = new Map<string, SkinOffer>();
  for (const f of files) {
    const base = f.path.slice(prefix.length, -'.skin'.length);
    const lower = base.toLowerCase();
    let model: string;
    let skin: string;
    if (wanted) {
      const m = wanted.filter((w) => lower.startsWith(`${w}_`)).sort((a, b) => b.length - a.length)[0];
      if (!m) continue;
      model = m;
      skin = base.slice(m.length + 1);
    } else {
      const cut = base.indexOf('_');
      if (cut <= 0) continue;
      model = lower.slice(0, cut);
      skin = base.slice(cut + 1);
    }
    if (!skin) continue;
    const key = skin.toLowerCase();
    const offer = offers.get(key) ?? { name: skin, files: {}, complete: false };
    offer.files[model] ??= f.path;
    offers.set(key, offer);
  }
  const all = [...offers.values()];
  for (const o of all) o.complete = (wanted ?? Object.keys(o.files)).every((m) => m in o.files);
  return all.sort((a, b) => (a.name.toLowerCase() === 'default' ? -1 : b.name.toLowerCase() === 'default' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
