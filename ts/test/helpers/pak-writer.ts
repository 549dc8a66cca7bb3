/**
 * A Quake .pak written in the tests, from modelgen's qfiles layout (common.c dpackheader_t / dpackfile_t): "PACK",
 * dirofs, dirlen, the members' bytes one after another, then a 64-byte entry per member (56-byte name, filepos,
 * filelen). Tests build paks from corpus files and forge hostile ones by overriding any field.
 */
export interface PakMember {
  name: string;
  data: Uint8Array;
  /** Forged values (hostile paks): written instead of the true ones. */
  offset?: number;
  size?: number;
}

export function makePak(members: readonly PakMember[], forge: { dirofs?: number; dirlen?: number; magic?: string } = {}): Uint8Array {
  const body = members.reduce((n, m) => n + m.data.length, 0);
  const out = new Uint8Array(12 + body + 64 * members.length);
  const view = new DataView(out.buffer);
  [...(forge.magic ?? 'PACK')].forEach((c, i) => (out[i] = c.charCodeAt(0)));
  let at = 12;
  const offsets: number[] = [];
  for (const m of members) {
    offsets.push(at);
    out.set(m.data, at);
    at += m.data.length;
  }
  view.setInt32(4, forge.dirofs ?? at, true);
  view.setInt32(8, forge.dirlen ?? 64 * members.length, true);
  members.forEach((m, i) => {
    const e = at + 64 * i;
    for (let k = 0; k < Math.min(56, m.name.length); k++) out[e + k] = m.name.charCodeAt(k);
    view.setInt32(e + 56, m.offset ?? offsets[i], true);
    view.setInt32(e + 60, m.size ?? m.data.length, true);
  });
  return out;
}
