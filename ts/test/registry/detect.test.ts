/**
 * Detection through the registered formats on real files read without their names: every real file of a registered
 * format sniffs as its MANIFEST format from its first 4 KiB (the Doom 3 camera file as `md5camera`: it was taken for
 * an md5anim); a keyword inside an MD5 commandline does not decide the kind. The rows follow the data: every
 * MANIFEST format that a registration claims is checked.
 */
import { describe, expect, it } from 'vitest';
import { formatForBytes, formatForName, selectFormat } from '../../src/load/format.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { unreadModelFiles } from '../helpers/corpus-kinds.js';
import { manifest, read } from '../helpers/models.js';

const kinds = DEFAULT_FORMATS.filter((f) => f.extensions.length).map((f) => f.id);
const rows = manifest().filter((r) => kinds.includes(r.format) && !/malformed|empty\.md5mesh/.test(r.path));
const kindFromBytes = (head: Uint8Array) => formatForBytes(head, DEFAULT_FORMATS)?.id ?? null;
const kindFromName = (name: string) => formatForName(name, DEFAULT_FORMATS)?.id ?? null;

describe('kind by content', () => {
  it('every real model file sniffs as its MANIFEST format', () => {
    const wrong = rows.filter((r) => kindFromBytes(read(r.absPath).subarray(0, 4096)) !== r.format).map((r) => r.path);
    expect(wrong).toEqual([]);
    expect(rows.filter((r) => r.format === 'md5camera')).toHaveLength(1);
    expect(new Set(rows.map((r) => r.format)).size).toBeGreaterThanOrEqual(5);
  });
  it('by name too, whatever the case of the extension; a name two formats claim (.mdl: Quake\'s and Half-Life\'s) by its first bytes among them', () => {
    const mdl = rows.filter((r) => r.format === 'mdl' || r.format === 'hl1mdl');
    expect(new Set(mdl.map((r) => r.format))).toEqual(new Set(['mdl', 'hl1mdl']));
    for (const r of rows) {
      const upper = r.path.toUpperCase();
      if (r.format === 'mdl' || r.format === 'hl1mdl') {
        // the name alone gives the first that claims it; its bytes decide between the two, and only between them
        expect(kindFromName(upper)).toBe('mdl');
        expect(selectFormat(upper, read(r.absPath).subarray(0, 4096), DEFAULT_FORMATS)?.id, r.path).toBe(r.format);
      } else expect(kindFromName(upper)).toBe(r.format);
    }
  });
  it('a model file of a format this build does not read (of RtCW/ET\'s: MDC, MDS, MDM, MDX, those not registered) sniffs as none, and no name of theirs is claimed', () => {
    const unread = unreadModelFiles();
    expect(new Set(unread.map((r) => r.format))).toEqual(new Set(['mdc', 'mds', 'mdm', 'mdx'].filter((k) => !kinds.includes(k))));
    for (const r of unread) {
      expect(kindFromBytes(read(r.absPath).subarray(0, 4096)), r.path).toBeNull();
      expect(kindFromName(r.path), r.path).toBeNull();
    }
  });
  it('the commandline string cannot decide: an md5anim whose commandline says numMeshes / numCuts stays an md5anim', () => {
    const anim = rows.find((r) => r.format === 'md5anim')!;
    const text = new TextDecoder('latin1').decode(read(anim.absPath).subarray(0, 4096));
    expect(text).toMatch(/commandline "[^"\n]*"/);
    for (const word of ['numMeshes 1', 'numCuts 1']) {
      const forged = new TextEncoder().encode(text.replace(/commandline "[^"\n]*"/, `commandline "${word}"`));
      expect(kindFromBytes(forged)).toBe('md5anim');
    }
  });
});
