/**
 * What the loader gives back, shaped like GLTFLoader's result (`scene`, `scenes`, `animations`, `userData`), plus what
 * a viewer wants next: the warnings of every step (parsing, weights, materials, textures), the resolved materials,
 * an `AnimationMixer` on the scene made on first use, `play` (which plays clips the way their engine does: loop mode
 * from the clip, and clips on separate channels — a Quake 3 player's legs and torso — together), `update(dt)`, and
 * `dispose`.
 *
 * Meshes whose vertices our kernels write (the exact skinning mode, the poser morph mode) update themselves before
 * each draw; `update` (and `sync`) also brings them up to date for code that reads vertices between draws — a
 * raycast, a shadow pass rendered first, a test.
 */
import { AnimationMixer, LoopOnce, LoopRepeat, type AnimationAction, type AnimationClip, type Bone, type Group, type Material, type Mesh, type Object3D, type Skeleton, type Texture } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { ResolvedMaterial } from '../materials/types.js';
import type { MorphClipInfo } from './morph-clips.js';
import { boneIndex } from '../pose/bone-index.js';

/** The id of a model's format in the registry (`md5mesh`, `md2`, `md3`, `player`, or one registered by the app). */
export type IdTechFormat = string;

/** A mesh the adapter skins or decodes on the CPU (`SkinnedPoserMesh`, `MorphPoserMesh`). */
export interface PoserDrivenMesh extends Mesh {
  readonly isPoserMesh: true;
  sync(): boolean;
}

export interface IdTechModelParts {
  format: IdTechFormat;
  name: string;
  /** The Z-up group (the file's axes) that `scene` holds. */
  root: Group;
  scene: Group;
  animations: AnimationClip[];
  warnings: ParseWarning[];
  materials: ResolvedMaterial[];
  skeleton?: Skeleton;
  /** A tagged model's parts by name (a Quake 3 player's `lower`, `upper`, `head`, `weapon`): the objects the next part hangs under. */
  parts?: Record<string, Object3D>;
}

const isPoserMesh = (o: Object3D): o is PoserDrivenMesh => (o as Partial<PoserDrivenMesh>).isPoserMesh === true;

/** The channels a clip says it occupies (a player's LEGS_ clips `legs`, BOTH_ clips `legs` and `torso`), or none. */
const declaredChannels = (clip: AnimationClip) => (clip.userData?.idtech as MorphClipInfo | undefined)?.channels;

export class IdTechModel {
  readonly format: IdTechFormat;
  readonly name: string;
  /** The model, Y-up, ready to add to a scene (its child `root` holds the file's Z-up axes). */
  readonly scene: Group;
  readonly scenes: Group[];
  readonly root: Group;
  readonly animations: AnimationClip[];
  readonly warnings: ParseWarning[];
  /** One per surface / mesh block / skin, as the resolver found them (empty without a file system). */
  readonly materials: ResolvedMaterial[];
  readonly skeleton: Skeleton | undefined;
  readonly parts: Record<string, Object3D> | undefined;
  readonly userData: Record<string, unknown> = {};
  /**
   * The model a source port draws in this one's place (a re-release's MD5 model beside an MD2 or MDL: the model set's
   * `replacement`, docs/md5-replacements.md), built as its own IdTechModel; who loads it so, and what it replaces.
   */
  replacement: { model: IdTechModel; by: string; replaces: string } | undefined = undefined;
  private mixerInstance: AnimationMixer | null = null;
  private readonly playing = new Map<string, AnimationAction>();
  /** Every channel a clip names; a clip naming none occupies them all (a model without channels has one). */
  private readonly allChannels: readonly string[];

  constructor(p: IdTechModelParts) {
    this.format = p.format;
    this.name = p.name;
    this.scene = p.scene;
    this.scenes = [p.scene];
    this.root = p.root;
    this.animations = p.animations;
    this.warnings = p.warnings;
    this.materials = p.materials;
    this.skeleton = p.skeleton;
    this.parts = p.parts;
    const named = new Set(p.animations.flatMap((c) => declaredChannels(c) ?? []));
    this.allChannels = named.size ? [...named] : ['all'];
  }

  private channelsOf(clip: AnimationClip): readonly string[] {
    return declaredChannels(clip) ?? this.allChannels;
  }

  /** An AnimationMixer on `scene`, made on first use (clips address nodes by name under it). */
  get mixer(): AnimationMixer {
    return (this.mixerInstance ??= new AnimationMixer(this.scene));
  }

  /**
   * The bone of the mesh's joint called `name` — compared ignoring ASCII case, the first match, as Daemon's
   * `RE_BoneIndex` finds a tag or named joint (pose/bone-index.ts) — or undefined (no such joint, or no skeleton).
   * Attach an object under it to move with it (Unvanquished's naked human: `head_tag` is joint 32 of its mesh, found
   * as `HEAD_TAG` too, even while a walk that names joint 32 `tag_head` plays).
   */
  joint(name: string): Bone | undefined {
    const bones = this.skeleton?.bones ?? [];
    const i = boneIndex(bones.map((b) => (b.userData.idtech as { joint?: string } | undefined)?.joint ?? b.name), name);
    return i < 0 ? undefined : bones[i];
  }

  /** The clip called `name`, or undefined. */
  clip(name: string): AnimationClip | undefined {
    return this.animations.find((c) => c.name === name);
  }

  /**
   * Plays clips by name, from their start, as their engine plays them: looping clips with LoopRepeat, clips that
   * play once (Quake 3 deaths, gestures, jumps) with LoopOnce holding the last frame. A clip replaces whatever played
   * on its channels (a player has two, legs and torso: `play('LEGS_RUN', 'TORSO_STAND')`; most models one).
   * Without names, the first clip. Returns the actions (for fades, weights, time scale).
   */
  play(...names: string[]): AnimationAction[] {
    const clips = (names.length ? names : this.animations.slice(0, 1).map((c) => c.name)).map((n) => {
      const c = this.clip(n);
      if (!c) throw new RangeError(`no clip "${n}" (clips: ${this.animations.map((a) => a.name).join(', ') || 'none'})`);
      return c;
    });
    return clips.map((clip) => {
      for (const ch of this.channelsOf(clip)) {
        const previous = this.playing.get(ch);
        if (previous && previous.getClip() !== clip) previous.stop();
        this.playing.delete(ch);
      }
      const action = this.mixer.clipAction(clip).reset();
      if ((clip.userData?.idtech as { loop?: string } | undefined)?.loop === 'once') {
        action.setLoop(LoopOnce, 1);
        action.clampWhenFinished = true;
      } else {
        action.setLoop(LoopRepeat, Infinity);
      }
      action.play();
      for (const ch of this.channelsOf(clip)) this.playing.set(ch, action);
      return action;
    });
  }

  /** Advances the mixer by `deltaSeconds` and brings CPU-posed meshes up to date. */
  update(deltaSeconds: number): this {
    this.mixerInstance?.update(deltaSeconds);
    return this.sync();
  }

  /** Writes the vertices of every CPU-posed mesh for the current bones / influences (they also do it before a draw). */
  sync(): this {
    this.scene.traverse((o) => {
      if (isPoserMesh(o)) o.sync();
    });
    return this;
  }

  /** Frees geometries, materials, textures and the kernel buffers of CPU-posed meshes; stops the mixer. */
  dispose(): void {
    this.mixerInstance?.stopAllAction();
    const materials = new Set<Material>();
    this.scene.traverse((o) => {
      const mesh = o as Mesh;
      if (mesh.isMesh) {
        mesh.geometry.dispose();
        for (const m of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) materials.add(m);
      }
      o.dispose?.();
    });
    for (const m of materials) {
      for (const value of Object.values(m)) if ((value as Texture | null)?.isTexture) (value as Texture).dispose();
      m.dispose();
    }
  }
}
