/**
 * Names from files, as messages quote them. A file may hold a name of any length (an .mtr token, a glTF node name,
 * a zip member path), and one name is often quoted many times (every warning of a definition, every extension tried
 * for an image), so quoting it whole lets a message grow faster than the input: a 10 MB image name in an .mtr made a
 * 73 MB warning line. The engines keep at most MAX_QPATH (64) bytes of a name (ioquake3 q_shared.h; Q_strncpyz into
 * `char name[MAX_QPATH]`), so a message quotes at most that much, and says how long the name was.
 */

/** Characters of a name a message quotes (the engines' MAX_QPATH). */
export const MESSAGE_NAME_CHARS = 64;

/** `name` as a message quotes it: whole up to 64 characters, else its first 64 and its length. */
export function shortName(name: string): string {
  return name.length > MESSAGE_NAME_CHARS ? `${name.slice(0, MESSAGE_NAME_CHARS)}… (${name.length} characters)` : name;
}
