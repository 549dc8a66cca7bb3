/**
 * glTF → a Quake 3 player: lower.md3, upper.md3, head.md3 and the animation.cfg that plays them (the inverse of
 * `formats/md3/gltf-player.ts`).
 *
 * - parts: the nodes named `lower`, `upper`, `head` (case-insensitive, optionally `.md3`: what our exporter names
 *   the part group nodes), each with the mesh nodes under it — not descending into another part or the weapon
 *   attachment: a node named `weapon` (optionally `.md3`) that hangs on a `tag_weapon` node (where our exporter and
 *   ioquake3's CG_AddPlayerWeapon put weapon.md3) or holds no mesh itself (a group). It is left out with a
 *   PLAYER_WEAPON_SKIPPED warning (a player folder's weapon.md3 is optional and is not written); a mesh node that is
 *   merely named `weapon` (an upper body's `hands`, `weapon`, `weapon` surfaces) is a surface like any other.
 * - tags: the `tag_*` nodes under each part; a chain tag a part lacks is taken by name from anywhere in the scene
 *   (`tag_torso` for lower, `tag_head` and `tag_weapon` for upper).
 * - coordinates: as ioquake3 draws a player (CG_Player, CG_PositionRotatedEntityOnTag), lower is in the player's
 *   (the lower node's parent's) coordinates, upper's vertices and tags in those of lower's `tag_torso` at the same
 *   instant, head's in upper's `tag_head`'s. A tag the parent lacks is the identity (R_LerpTag), so the child is
 *   written in its parent's coordinates.
 * - animations: one named as a Quake 3 animation (BOTH_DEATH1 … LEGS_TURN and the Team Arena gestures) fills its
 *   slot — or as an Unvanquished one when the glTF names any of Unvanquished's own (TORSO_GESTURE_BLASTER …: an
 *   Unvanquished player exported by us), and the cfg is then written in Unvanquished's longer list: BOTH_* sampled into lower and upper, LEGS_* into lower, TORSO_* into upper. Other names take the free
 *   slots in order (PLAYER_ANIMATION_MAPPED warning); the derived LEGS_BACKCR, LEGS_BACKWALK and FLAG_* (the game
 *   makes them) are skipped. Each animation is sampled at `fps`, or without it at its own key rate (1 / the
 *   shortest key interval, which is the frame rate our exporter wrote it at), from 0 to its last key.
 * - frames: each part's frames are its animations' one after the other, BOTH_* first (in both parts), then
 *   TORSO_* (upper) and LEGS_* (lower), in Quake 3's order; an animation whose frames (all surfaces' int16
 *   vertices and every tag, bit for bit) repeat a run already written reuses it (BOTH_DEAD1 is the last frame of
 *   BOTH_DEATH1). A part with no animation has the document as it stands as its one frame; head always has one.
 * - animation.cfg: `first num loop fps` per animation in file order; LEGS_ first frames are written after every
 *   torso frame, as ioquake3's CG_ParseAnimationFile expects (it subtracts first(LEGS_WALKCR) − first(TORSO_GESTURE));
 *   loop = the cfg's own loop frames where our export of a player carried them (`extras.animationCfg` of the
 *   animation: loop frames, frame count and rate, the rate of a one-frame clip too; and on the root node `sex`,
 *   `footsteps`, `headoffset`, `fixedlegs`, `fixedtorso`, written back before the animations), else every frame for
 *   LEGS_WALKCR, WALK, RUN, BACK, SWIM, IDLE, IDLECR and TURN (as Quake 3's own files), else 0; an animation the glTF
 *   lacks plays one frame (PLAYER_ANIMATION_MISSING warning).
 */
import type { Animation, Document, Node } from '@gltf-transform/core';
import { MAT4_IDENTITY } from '../../base/mat4.js';
import type { ParseWarning } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import { MD3_DERIVED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS, type PlayerAnimationNames } from './animation-cfg.js';
import { readGltfDocument, type GltfInput } from '../../import/gltf.js';
import { sampleMd3, type GltfToMd3Options } from './from-gltf.js';
import { animationPlayer, invertMatrix } from '../../import/gltf-sample.js';
import { animationFrames, checkSampling, importBounds, nameOf, sceneNodes, unwritable, type ImportBounds, type SampleFrame } from '../../import/gltf-scene.js';
import { preorder } from '../../import/gltf-structure.js';
import { md3Extent, md3GridWarning } from './grid.js';

type FileAnimation = (typeof MD3_PLAYER_ANIMATIONS)[number] | (typeof MD3_UNVANQUISHED_PLAYER_ANIMATIONS)[number];
const PLAYER_LISTS: Record<PlayerAnimationNames, readonly FileAnimation[]> = { quake3: MD3_PLAYER_ANIMATIONS, unvanquished: MD3_UNVANQUISHED_PLAYER_ANIMATIONS };
const GAME = { quake3: 'Quake 3', unvanquished: 'Unvanquished' } as const;

/**
 * As gltfToMd3's (scale, maxFrames, maxBytes per part), except `fps`: without it each animation is sampled at its own
 * key rate (15 for a one-key animation); the parts are named lower, upper and head.
 */
export interface GltfToPlayerOptions extends Omit<GltfToMd3Options, 'name'> {}

/** One animation.cfg line (file order, first frames as the engine reads them back: LEGS_ into lower.md3). */
export interface PlayerCfgLine {
  name: FileAnimation;
  firstFrame: number;
  numFrames: number;
  loopFrames: number;
  fps: number;
  /** Which glTF animation filled it ('' when none did). */
  from: string;
}

export interface GltfPlayerResult {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  /** The animation.cfg text (ioquake3's CG_ParseAnimationFile reads it; so does `parseAnimationCfg`). */
  animationCfg: string;
  /** Which game's animation list the cfg is written in (Unvanquished's when the glTF names one of its own animations). */
  playerNames: PlayerAnimationNames;
  lines: PlayerCfgLine[];
  warnings: ParseWarning[];
}

const PARTS = ['lower', 'upper', 'head'] as const;
type Part = (typeof PARTS)[number];
const PART_NAME = /^(lower|upper|head)(\.md3)?$/i;
/** What our export of a player keeps of its animation.cfg line in the animation's `extras.animationCfg` (gltf-player.ts). */
function cfgLineOf(a: Animation): { loopFrames?: number; numFrames?: number; fps?: number } {
  const e = (a.getExtras() as { animationCfg?: Record<string, unknown> } | null)?.animationCfg;
  if (!e || typeof e !== 'object') return {};
  const num = (v: unknown, min: number) => (typeof v === 'number' && Number.isFinite(v) && v >= min ? v : undefined);
  return { loopFrames: num(e.loopFrames, 0), numFrames: num(e.numFrames, 1), fps: num(e.fps, 1e-3) };
}

/**
 * The loop frames of a slot filled by `c`: the cfg's own when our export carried them (scaled when the clip was
 * sampled to another frame count), else every frame for the looping legs animations, else 0.
 */
function loopFramesOf(c: { slot: string; animation: Animation; count: number }): number {
  const line = cfgLineOf(c.animation);
  if (line.loopFrames === undefined) return LOOPING.has(c.slot) ? c.count : 0;
  const of = line.numFrames ?? c.count;
  return Math.min(c.count, of === c.count ? line.loopFrames : Math.round((line.loopFrames * c.count) / of));
}

/** The keywords before the animations (`sex`, `footsteps`, `headoffset`, `fixedlegs`, `fixedtorso`) our export of a player kept on its root node. */
function cfgKeywordLines(doc: Document): string[] {
  for (const n of doc.getRoot().listNodes()) {
    const e = (n.getExtras() as { animationCfg?: Record<string, unknown> } | null)?.animationCfg;
    if (!e || typeof e !== 'object') continue;
    const lines: string[] = [];
    if (e.sex === 'male' || e.sex === 'female' || e.sex === 'neuter') lines.push(`sex\t${e.sex[0]}`);
    if (typeof e.footsteps === 'string' && /^[a-z]+$/.test(e.footsteps) && e.footsteps !== 'normal') lines.push(`footsteps\t${e.footsteps}`);
    const h = e.headOffset;
    if (Array.isArray(h) && h.length === 3 && h.every((x) => typeof x === 'number' && Number.isFinite(x)) && h.some((x) => x !== 0)) lines.push(`headoffset\t${h.join(' ')}`);
    if (e.fixedLegs === true) lines.push('fixedlegs');
    if (e.fixedTorso === true) lines.push('fixedtorso');
    return lines;
  }
  return [];
}

const LOOPING = new Set<string>(['LEGS_WALKCR', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_BACK', 'LEGS_SWIM', 'LEGS_IDLE', 'LEGS_IDLECR', 'LEGS_TURN']);

const warning = (code: string, message: string): ParseWarning => ({ code, message, offset: 0 });

/** Inverse of a node's world matrix; one whose determinant is within 1e-12 of 0 is UNWRITABLE. */
export const invertAffine = (m: ArrayLike<number>, what: string): number[] => invertMatrix(m, `${what}: its transform`, 1e-12);

/** The frame rate an animation's keys were written at: 1 / its shortest key interval, whole when within 1e-3. @internal */
export function keyRate(animation: Animation): number | null {
  let shortest = Infinity;
  for (const s of animation.listSamplers()) {
    const input = s.getInput();
    if (!input) continue;
    for (let k = 1; k < input.getCount(); k++) {
      const d = input.getScalar(k) - input.getScalar(k - 1);
      if (d > 1e-6 && d < shortest) shortest = d;
    }
  }
  const rate = 1 / shortest;
  if (!(rate >= 1 && rate <= 1000)) return null;
  return Math.abs(rate - Math.round(rate)) < 1e-3 * rate ? Math.round(rate) : Math.round(rate * 1000) / 1000;
}

const WEAPON_NAME = /^weapon(\.md3)?$/i;

/** Whether `n` is the weapon attachment (see the file comment), not a surface that happens to be named `weapon`. */
function isWeaponAttachment(n: Node, parent: Node): boolean {
  return WEAPON_NAME.test(nameOf(n)) && (/^tag_weapon$/i.test(nameOf(parent)) || !n.getMesh());
}

/** The part nodes, their mesh nodes and their tag nodes; a weapon attachment left out is one warning. */
function findParts(scene: Node[], warnings: ParseWarning[]) {
  const byPart = new Map<Part, Node>();
  for (const n of scene) {
    const m = PART_NAME.exec(nameOf(n));
    if (m && !byPart.has(m[1].toLowerCase() as Part)) byPart.set(m[1].toLowerCase() as Part, n);
  }
  const missing = PARTS.filter((p) => !byPart.has(p));
  if (missing.length) unwritable(`no node named ${missing.join(', ')}: a Quake 3 player has nodes lower, upper and head (their meshes and tags under them)`);
  const skipped = new Set<Node>();
  const subtree = (root: Node): Node[] =>
    preorder([root], (c, parent) => {
      if (PART_NAME.test(nameOf(c))) return false;
      if (isWeaponAttachment(c, parent)) {
        skipped.add(c);
        return false;
      }
      return true;
    });
  const parts = Object.fromEntries(PARTS.map((p) => {
    const nodes = subtree(byPart.get(p)!);
    return [p, { node: byPart.get(p)!, nodes, tags: nodes.filter((n) => /^tag_/i.test(nameOf(n))) }];
  })) as Record<Part, { node: Node; nodes: Node[]; tags: Node[] }>;
  for (const w of skipped) {
    let meshes = 0;
    const count = (n: Node) => {
      if (n.getMesh()) meshes++;
      n.listChildren().forEach(count);
    };
    count(w);
    if (meshes > 0) warnings.push(warning('PLAYER_WEAPON_SKIPPED', `node "${nameOf(w)}" (${meshes} mesh${meshes > 1 ? 'es' : ''}) is the weapon attachment (weapon.md3, hung on tag_weapon): not written into the player's parts`));
  }
  const chain: [Part, string][] = [['lower', 'tag_torso'], ['upper', 'tag_head'], ['upper', 'tag_weapon']];
  for (const [p, tag] of chain) {
    if (parts[p].tags.some((n) => nameOf(n).toLowerCase() === tag)) continue;
    const elsewhere = scene.find((n) => nameOf(n).toLowerCase() === tag && !PARTS.some((q) => parts[q].tags.includes(n)));
    if (elsewhere) parts[p].tags.push(elsewhere);
  }
  return parts;
}

/** A clip: a glTF animation in a cfg slot, sampled into the parts its name says. */
interface Clip {
  slot: FileAnimation;
  animation: Animation;
  index: number;
  fps: number;
  count: number;
  parts: Part[];
}

function clipParts(slot: string): Part[] {
  return slot.startsWith('LEGS_') ? ['lower'] : slot.startsWith('TORSO_') ? ['upper'] : ['lower', 'upper'];
}

/**
 * The list the cfg is written in: Unvanquished's when an animation is named as one of its own (TORSO_GESTURE_BLASTER,
 * TORSO_RALLY …: what our export of an Unvanquished player names its clips), else Quake 3's.
 */
function playerNamesOf(doc: Document): PlayerAnimationNames {
  const q3 = new Set<string>(MD3_PLAYER_ANIMATIONS);
  const unv = new Set<string>(MD3_UNVANQUISHED_PLAYER_ANIMATIONS);
  return doc.getRoot().listAnimations().some((a) => { const n = nameOf(a).toUpperCase(); return unv.has(n) && !q3.has(n); }) ? 'unvanquished' : 'quake3';
}

/** Each glTF animation in its cfg slot (by name, else the next free slot), with its rate and frame count. */
function assignClips(doc: Document, names: PlayerAnimationNames, options: GltfToPlayerOptions, bounds: ImportBounds, warnings: ParseWarning[]): Clip[] {
  const list = PLAYER_LISTS[names];
  const slots = new Map<FileAnimation, Clip>();
  const others: { a: Animation; index: number }[] = [];
  const derived = new Set<string>(MD3_DERIVED_ANIMATIONS);
  let total = 0;
  const clip = (slot: FileAnimation, a: Animation, index: number): Clip => {
    // a one-key clip has no interval to read a rate from: the cfg line our export kept gives it
    const fps = options.fps ?? keyRate(a) ?? cfgLineOf(a).fps ?? 15;
    // counted before any is sampled: at most maxImportFrames in all (gltf-scene.ts)
    const count = animationFrames(a, index, fps, total, bounds.maxFrames);
    total += count;
    return { slot, animation: a, index, fps, count, parts: clipParts(slot) };
  };
  doc.getRoot().listAnimations().forEach((a, index) => {
    const name = nameOf(a).toUpperCase();
    if (derived.has(name)) return;
    const slot = list.find((s) => s === name);
    if (slot && !slots.has(slot)) slots.set(slot, clip(slot, a, index));
    else others.push({ a, index });
  });
  for (const { a, index } of others) {
    const free = list.find((s) => !slots.has(s));
    if (!free) {
      warnings.push(warning('PLAYER_ANIMATION_DROPPED', `animation ${index} ("${nameOf(a)}"): every animation.cfg slot is taken: not imported`));
      continue;
    }
    warnings.push(warning('PLAYER_ANIMATION_MAPPED', `animation ${index} ("${nameOf(a)}") is not a ${GAME[names]} player animation name: written as ${free}`));
    slots.set(free, clip(free, a, index));
  }
  return list.flatMap((s) => (slots.has(s) ? [slots.get(s)!] : []));
}

/** A part's frame f as words: every surface's int16 vertices, then its tags' float bits (equal frames, equal words). */
function frameWords(m: Md3Model, f: number): ArrayLike<number>[] {
  const bits = (a: Float32Array, n: number) => new Uint32Array(a.buffer, a.byteOffset + 4 * n * f, n);
  return [...m.surfaces.map((s) => s.xyzNormals.subarray(4 * s.vertexCount * f, 4 * s.vertexCount * (f + 1))), bits(m.tagOrigins, 3 * m.tagCount), bits(m.tagAxes, 9 * m.tagCount)];
}

/** FNV-1a of each frame's words: frames that hash alike are then compared word by word (`sameFrame`). */
function frameHashes(m: Md3Model): number[] {
  return Array.from({ length: m.frameCount }, (_, f) => {
    let h = 0x811c9dc5;
    for (const a of frameWords(m, f)) for (let k = 0; k < a.length; k++) h = Math.imul(h ^ a[k], 0x01000193);
    return h >>> 0;
  });
}

function sameFrame(m: Md3Model, f: number, g: number): boolean {
  const a = frameWords(m, f), b = frameWords(m, g);
  return a.every((x, i) => Array.prototype.every.call(x, (v: number, k: number) => v === b[i][k]));
}

/** The model with only `frames` (indices into its frames, in order). */
export function pickFrames(m: Md3Model, frames: number[]): Md3Model {
  const pick = (a: Float32Array, n: number) => {
    const out = new Float32Array(n * frames.length);
    frames.forEach((f, i) => out.set(a.subarray(n * f, n * (f + 1)), n * i));
    return out;
  };
  return {
    ...m,
    frameCount: frames.length,
    frameNames: frames.map((f) => m.frameNames[f]),
    frameMins: pick(m.frameMins, 3),
    frameMaxs: pick(m.frameMaxs, 3),
    frameLocalOrigins: pick(m.frameLocalOrigins, 3),
    frameRadii: pick(m.frameRadii, 1),
    tagOrigins: pick(m.tagOrigins, 3 * m.tagCount),
    tagAxes: pick(m.tagAxes, 9 * m.tagCount),
    surfaces: m.surfaces.map((s) => {
      const n = 4 * s.vertexCount;
      const xyz = new Int16Array(n * frames.length);
      frames.forEach((f, i) => xyz.set(s.xyzNormals.subarray(n * f, n * (f + 1)), n * i));
      return { ...s, xyzNormals: xyz };
    }),
  };
}

/** Splits a glTF holding a Quake 3 player into its three parts and animation.cfg (see the file comment). */
export async function gltfToPlayer(input: GltfInput, options: GltfToPlayerOptions = {}): Promise<GltfPlayerResult> {
  const doc = await readGltfDocument(input);
  const scale = options.scale ?? 1;
  checkSampling(options.fps, scale);
  const warnings: ParseWarning[] = [];
  const scene = sceneNodes(doc);
  const parts = findParts(scene, warnings);
  const playerNames = playerNamesOf(doc);
  const list = PLAYER_LISTS[playerNames];
  const bounds = importBounds(input, options);
  const clips = assignClips(doc, playerNames, options, bounds, warnings);

  // Each part's frames: its clips' samples one after the other, BOTH_* first; a part without a clip gets the rest pose.
  const both = clips.filter((c) => c.slot.startsWith('BOTH_'));
  const own = { lower: clips.filter((c) => c.slot.startsWith('LEGS_')), upper: clips.filter((c) => c.slot.startsWith('TORSO_')) };
  const samples = (cs: Clip[]): SampleFrame[] =>
    cs.flatMap((c) => {
      const play = animationPlayer(c.animation);
      return Array.from({ length: c.count }, (_, k) => ({ play, animation: c.index, time: k / c.fps, name: nameOf(c.animation) }));
    });
  const restFrame: SampleFrame = { animation: -1, time: 0, name: 'frame' };
  const frameLists = {
    lower: [...samples(both), ...(own.lower.length ? samples(own.lower) : [restFrame])],
    upper: [...samples(both), ...(own.upper.length ? samples(own.upper) : [restFrame])],
    head: [restFrame],
  };

  // Coordinates: lower in its parent's, upper in lower's tag_torso's, head in upper's tag_head's, at each instant.
  const chainTag = (p: Part, tag: string) => parts[p].tags.find((n) => nameOf(n).toLowerCase() === tag);
  const playerRef = (): readonly number[] => {
    const parent = parts.lower.node.getParentNode();
    return parent ? invertAffine(parent.getWorldMatrix(), `node "${nameOf(parent)}"`) : MAT4_IDENTITY;
  };
  const tagRef = (parent: Part, tag: string) => (): readonly number[] => {
    const n = chainTag(parent, tag);
    return n ? invertAffine(n.getWorldMatrix(), `${parent}'s ${tag}`) : parent === 'lower' ? playerRef() : tagRef('lower', 'tag_torso')();
  };
  const reference = { lower: playerRef, upper: tagRef('lower', 'tag_torso'), head: tagRef('upper', 'tag_head') };
  const sampled = Object.fromEntries(PARTS.map((p) => [p, sampleMd3(scene, frameLists[p], {
    scale, name: p, nodes: parts[p].nodes, tags: parts[p].tags, reference: reference[p], maxBytes: bounds.maxBytes, maxMorphTargetVertices: bounds.maxMorphTargetVertices,
  })])) as Record<Part, Md3Model>;
  // One MD3_GRID_COARSE for the player: its smallest part's (the parts share the scale).
  const smallest = PARTS.map((p) => ({ p, extent: md3Extent(sampled[p].frameMins, sampled[p].frameMaxs) })).filter((x) => x.extent > 0).sort((a, b) => a.extent - b.extent)[0];
  const coarse = smallest ? md3GridWarning(smallest.extent, scale, smallest.p, false) : null;
  if (coarse) warnings.push(coarse);
  for (const p of PARTS) {
    warnings.push(...sampled[p].warnings.map((w) => ({ ...w, message: `${p}: ${w.message}` })));
    if (sampled[p].surfaces.length === 0) warnings.push(warning('PLAYER_PART_EMPTY', `${p} has no triangle mesh`));
  }

  // Lay the frames out, reusing a run of frames already written when a clip repeats it bit for bit.
  const hashes = { lower: frameHashes(sampled.lower), upper: frameHashes(sampled.upper) };
  const kept = { lower: [] as number[], upper: [] as number[] };
  const firstOf = new Map<Clip, number>();
  const place = (c: Clip, at: Record<'lower' | 'upper', number>, from: number) => {
    const ps = c.parts as ('lower' | 'upper')[];
    const n = c.count;
    const same = (p: 'lower' | 'upper', start: number) => {
      for (let k = 0; k < n; k++) {
        const f = kept[p][start + k], g = at[p] + k;
        if (hashes[p][f] !== hashes[p][g] || !sameFrame(sampled[p], f, g)) return false;
      }
      return true;
    };
    const end = Math.min(...ps.map((p) => kept[p].length));
    for (let start = from; start + n <= end; start++) {
      if (ps.every((p) => same(p, start))) return firstOf.set(c, start);
    }
    const start = kept[ps[0]].length;
    for (const p of ps) for (let k = 0; k < n; k++) kept[p].push(at[p] + k);
    firstOf.set(c, start);
  };
  let next = 0;
  for (const c of both) {
    place(c, { lower: next, upper: next }, 0);
    next += c.count;
  }
  const bothFrames = kept.lower.length; // = kept.upper.length: BOTH_* clips are laid out in both parts alike
  for (const p of ['lower', 'upper'] as const) {
    let at = next;
    if (own[p].length === 0) kept[p].push(at);
    for (const c of own[p]) {
      place(c, { lower: at, upper: at }, bothFrames);
      at += c.count;
    }
  }
  const models = { lower: pickFrames(sampled.lower, kept.lower), upper: pickFrames(sampled.upper, kept.upper), head: sampled.head };

  // animation.cfg: LEGS_ first frames numbered after every torso frame (the engine subtracts that back).
  const torsoFrames = kept.upper.length - bothFrames;
  const bySlot = new Map(clips.map((c) => [c.slot, c]));
  const missing: string[] = [];
  const firstTa = list.indexOf('TORSO_GETFLAG');
  const hasTa = clips.some((c) => list.indexOf(c.slot) >= firstTa);
  const lines: PlayerCfgLine[] = list.slice(0, hasTa ? undefined : firstTa).map((slot) => {
    const c = bySlot.get(slot);
    if (c) return { name: slot, firstFrame: firstOf.get(c)!, numFrames: c.count, loopFrames: loopFramesOf(c), fps: c.fps, from: nameOf(c.animation) };
    missing.push(slot);
    const first = slot.startsWith('BOTH_') ? 0 : bothFrames;
    return { name: slot, firstFrame: first, numFrames: 1, loopFrames: 0, fps: 15, from: '' };
  });
  if (missing.length) warnings.push(warning('PLAYER_ANIMATION_MISSING', `no animation for ${missing.join(', ')}: each plays one frame (the first of its part's section)`));
  const fileFirst = (l: PlayerCfgLine) => (l.name.startsWith('LEGS_') ? l.firstFrame + torsoFrames : l.firstFrame);
  const fpsText = (x: number) => String(Math.round(x * 1000) / 1000);
  const animationCfg = [
    '// animation.cfg written by idtech-models from a glTF (convert --player)',
    ...(playerNames === 'unvanquished' ? ["// Unvanquished's player animation list (its cg_players.cpp reads it)"] : []),
    ...cfgKeywordLines(doc),
    '// first frame, num frames, looping frames, frames per second',
    '',
    ...lines.map((l) => `${fileFirst(l)}\t${l.numFrames}\t${l.loopFrames}\t${fpsText(l.fps)}\t\t// ${l.name}${l.from && l.from !== l.name ? ` (${l.from})` : ''}`),
    '',
  ].join('\n');
  return { ...models, animationCfg, playerNames, lines, warnings };
}
