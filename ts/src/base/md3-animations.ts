/**
 * The animation names of the Quake 3 family's `animation.cfg` forms, in file order (formats/md3/animation-cfg.ts reads
 * them; `Md3AnimationName` in model.ts is their union). Values, apart from model.ts's shapes, so that what loads the
 * shapes does not carry the lists.
 */
/** The animations of a Quake 3 player, in file order (bg_public.h animNumber_t up to MAX_ANIMATIONS). */
export const MD3_PLAYER_ANIMATIONS = [
  'BOTH_DEATH1', 'BOTH_DEAD1', 'BOTH_DEATH2', 'BOTH_DEAD2', 'BOTH_DEATH3', 'BOTH_DEAD3',
  'TORSO_GESTURE', 'TORSO_ATTACK', 'TORSO_ATTACK2', 'TORSO_DROP', 'TORSO_RAISE', 'TORSO_STAND', 'TORSO_STAND2',
  'LEGS_WALKCR', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_BACK', 'LEGS_SWIM', 'LEGS_JUMP', 'LEGS_LAND', 'LEGS_JUMPB',
  'LEGS_LANDB', 'LEGS_IDLE', 'LEGS_IDLECR', 'LEGS_TURN',
  'TORSO_GETFLAG', 'TORSO_GUARDBASE', 'TORSO_PATROL', 'TORSO_FOLLOWME', 'TORSO_AFFIRMATIVE', 'TORSO_NEGATIVE',
] as const;
/**
 * Unvanquished's MD3 player animations, in file order (its bg_public.h playerAnimNumber_t of the MD3 era, up to
 * MAX_PLAYER_ANIMATIONS; TORSO_STAND_BLASTER is the line its human_bsuit/animation.cfg labels TORSO_STAND2).
 */
export const MD3_UNVANQUISHED_PLAYER_ANIMATIONS = [
  'BOTH_DEATH1', 'BOTH_DEAD1', 'BOTH_DEATH2', 'BOTH_DEAD2', 'BOTH_DEATH3', 'BOTH_DEAD3',
  'TORSO_GESTURE_BLASTER', 'TORSO_GESTURE', 'TORSO_GESTURE_PSAW', 'TORSO_GESTURE_SHOTGUN', 'TORSO_GESTURE_LGUN',
  'TORSO_GESTURE_MDRIVER', 'TORSO_GESTURE_CHAINGUN', 'TORSO_GESTURE_PRIFLE', 'TORSO_GESTURE_FLAMER', 'TORSO_GESTURE_LUCI',
  'TORSO_GESTURE_CKIT', 'TORSO_RALLY', 'TORSO_ATTACK_BLASTER', 'TORSO_ATTACK_PSAW', 'TORSO_ATTACK',
  'TORSO_DROP', 'TORSO_RAISE', 'TORSO_STAND', 'TORSO_STAND_BLASTER',
  'LEGS_WALKCR', 'LEGS_WALK', 'LEGS_RUN', 'LEGS_BACK', 'LEGS_SWIM', 'LEGS_JUMP', 'LEGS_LAND', 'LEGS_JUMPB',
  'LEGS_LANDB', 'LEGS_IDLE', 'LEGS_IDLECR', 'LEGS_TURN',
  'TORSO_GETFLAG', 'TORSO_GUARDBASE', 'TORSO_PATROL', 'TORSO_FOLLOWME', 'TORSO_AFFIRMATIVE', 'TORSO_NEGATIVE',
] as const;
/** Built by the game after reading the file (animNumber_t after MAX_ANIMATIONS). */
export const MD3_DERIVED_ANIMATIONS = ['LEGS_BACKCR', 'LEGS_BACKWALK', 'FLAG_RUN', 'FLAG_STAND', 'FLAG_STAND2RUN'] as const;

/** A Tremulous non-segmented player's animations, in file order (bg_public.h nonSegPlayerAnimNumber_t). */
export const MD3_NONSEGMENTED_ANIMATIONS = [
  'NSPA_STAND', 'NSPA_GESTURE', 'NSPA_WALK', 'NSPA_RUN', 'NSPA_RUNBACK', 'NSPA_CHARGE',
  'NSPA_RUNLEFT', 'NSPA_WALKLEFT', 'NSPA_RUNRIGHT', 'NSPA_WALKRIGHT', 'NSPA_SWIM',
  'NSPA_JUMP', 'NSPA_LAND', 'NSPA_JUMPBACK', 'NSPA_LANDBACK', 'NSPA_TURN',
  'NSPA_ATTACK1', 'NSPA_ATTACK2', 'NSPA_ATTACK3', 'NSPA_PAIN1', 'NSPA_PAIN2',
  'NSPA_DEATH1', 'NSPA_DEAD1', 'NSPA_DEATH2', 'NSPA_DEAD2', 'NSPA_DEATH3', 'NSPA_DEAD3',
] as const;
/** A Tremulous buildable's animations, in file order (bg_public.h buildableAnimNumber_t after BANIM_NONE). */
export const MD3_BUILDABLE_ANIMATIONS = [
  'BANIM_CONSTRUCT1', 'BANIM_CONSTRUCT2', 'BANIM_IDLE1', 'BANIM_IDLE2', 'BANIM_IDLE3', 'BANIM_ATTACK1', 'BANIM_ATTACK2',
  'BANIM_SPAWN1', 'BANIM_SPAWN2', 'BANIM_PAIN1', 'BANIM_PAIN2', 'BANIM_DESTROY1', 'BANIM_DESTROY2', 'BANIM_DESTROYED',
] as const;
