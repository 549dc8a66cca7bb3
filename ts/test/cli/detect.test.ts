/**
 * formats/detect.ts on real files read without their names: every real md5mesh, md5anim, MD2 and MD3 sniffs as
 * its MANIFEST format from its first 4 KiB, the Doom 3 camera file as `md5camera` (it was taken for an md5anim);
 * a keyword inside the quoted commandline does not decide the kind.
 */
import { describe, expect, it } from 'vitest';
import { kindFromBytes, kindFromName } from '../../src/formats/detect.js';
import { manifest, read } from '../helpers/models.js';

const kinds = ['md5mesh', 'md5anim', 'md2', 'md3', 'md5camera'];
const rows = manifest().filter((r) => kinds.includes(r.format) && !/malformed|empty\.md5mesh/.test(r.path));

describe('kind by content', () => {
  it('every real model file sniffs as its MANIFEST format', () => {
    const wrong = rows.filter((r) => kindFromBytes(read(r.absPath).subarray(0, 4096)) !== r.format).map((r) => r.path);
    expect(wrong).toEqual([]);
    expect(rows.filter((r) => r.format === 'md5camera')).toHaveLength(1);
  });
  it('by name too, whatever the case of the extension', () => {
    for (const r of rows) expect(kindFromName(r.path.toUpperCase())).toBe(r.format);
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
