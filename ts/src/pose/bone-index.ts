/**
 * A joint looked up by name on a skeletal model, as Daemon looks one up (`RE_BoneIndex`, tr_model.cpp): among the
 * *mesh's* joints (an anim's names play no part: anims play by joint index, anim-mesh-match.ts), comparing with
 * `Q_stricmp` (ASCII letters ignoring case), the first match. Unvanquished's naked human names joint 32 `head_tag`
 * and joint 4 `tag_head`; its walk names both `tag_head`, its jump joint 4 `neck`: on the mesh, `HEAD_TAG` is joint 32
 * and `tag_head` joint 4 whichever anim plays. −1 when none matches.
 */
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));

export function boneIndex(names: readonly string[], name: string): number {
  const want = fold(name);
  for (let i = 0; i < names.length; i++) if (fold(names[i]) === want) return i;
  return -1;
}
