/**
 * The built CLI on every real MD2 and MD3: `inspect --json` counts read independently from the headers here,
 * `convert --frame N` OBJ whose `v` lines are frame N decoded here from the raw bytes (GROUND-TRUTH.md:
 * MD2 byte · scale + translate, MD3 int16 / 64) and whose faces and texcoords have the files' counts, on
 * both backends; the malformed MD2 exits 1 with its error code and byte offset.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli.js';
import { manifest, read } from '../helpers/models.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-morph-'));
const rows = (format: string) => manifest().filter((r) => r.format === format && !/malformed/.test(r.path));

const vLines = (obj: string) => obj.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
const count = (obj: string, tag: string) => obj.split('\n').filter((l) => l.startsWith(tag + ' ')).length;

describe('CLI on MD2', () => {
  for (const row of rows('md2')) {
    it(`${row.path}: inspect counts and frame N as OBJ`, async () => {
      const bytes = read(row.absPath);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const h = (i: number) => dv.getInt32(i * 4, true); // 17 int32: ident, version, skinwidth, skinheight, framesize, num_skins, num_xyz, num_st, num_tris, num_glcmds, num_frames, ofs_…
      const [framesize, numXyz, numSt, numTris, numFrames, ofsFrames] = [h(4), h(6), h(7), h(8), h(10), h(14)];
      const r = await run('inspect', row.absPath, '--json');
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      expect([j.format, j.vertices, j.texcoords, j.triangles, j.frames]).toEqual(['md2', numXyz, numSt, numTris, numFrames]);

      const frame = numFrames - 1;
      for (const backend of ['wasm', 'ts']) {
        const out = join(tmp, `${row.path.replace(/\W+/g, '_')}-${backend}.obj`);
        const c = await run('convert', row.absPath, '--frame', String(frame), '--backend', backend, '-o', out);
        expect(c.status, c.stderr).toBe(0);
        const obj = readFileSync(out, 'utf8');
        expect([count(obj, 'v'), count(obj, 'vt'), count(obj, 'f')]).toEqual([numXyz, numSt, numTris]);
        const at = ofsFrames + frame * framesize;
        const v = vLines(obj);
        for (let i = 0; i < numXyz; i += Math.max(1, numXyz >> 4)) {
          for (let k = 0; k < 3; k++) {
            const expected = bytes[at + 24 + 16 + i * 4 + k] * dv.getFloat32(at + k * 4, true) + dv.getFloat32(at + 12 + k * 4, true);
            expect(Math.abs(v[i][k] - expected)).toBeLessThan(1e-5 * (1 + Math.abs(expected)));
          }
        }
      }
    });
  }
  it('the malformed MD2 exits 1 naming its code and byte offset', async () => {
    const bad = manifest().find((r) => /malformed_zero_numvertices/.test(r.path))!;
    const r = await run('inspect', bad.absPath);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/:byte 24: BAD_COUNT: num_xyz/);
  });
  it('--anim is refused for MD2 with a usage error', async () => {
    const r = await run('convert', rows('md2')[0].absPath, '--anim', 'x.md5anim', '-o', join(tmp, 'x.obj'));
    expect(r.status).toBe(2);
  });
});

describe('CLI on MD3', () => {
  for (const row of rows('md3')) {
    it(`${row.path}: inspect counts and frame N as OBJ with one o per surface`, async () => {
      const bytes = read(row.absPath);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // Header (GROUND-TRUTH.md): ident, version, name[64], flags, numFrames, numTags, numSurfaces, numSkins, ofsFrames, ofsTags, ofsSurfaces, ofsEnd.
      const numFrames = dv.getInt32(76, true), numSurfaces = dv.getInt32(84, true), ofsSurfaces = dv.getInt32(100, true);
      const surfaces: { verts: number; tris: number; ofsXyz: number; start: number }[] = [];
      for (let s = 0, at = ofsSurfaces; s < numSurfaces; s++) {
        // Surface: ident, name[64], flags, numFrames, numShaders, numVerts, numTriangles, ofsTriangles, ofsShaders, ofsSt, ofsXyzNormals, ofsEnd.
        surfaces.push({ verts: dv.getInt32(at + 80, true), tris: dv.getInt32(at + 84, true), ofsXyz: dv.getInt32(at + 100, true), start: at });
        at += dv.getInt32(at + 104, true);
      }
      const j = JSON.parse((await run('inspect', row.absPath, '--json')).stdout);
      expect([j.format, j.frames, j.surfaces]).toEqual(['md3', numFrames, numSurfaces]);
      expect(j.vertices).toBe(surfaces.reduce((n, s) => n + s.verts, 0));

      const frame = numFrames - 1;
      const out = join(tmp, `${row.path.replace(/\W+/g, '_')}.obj`);
      const c = await run('convert', row.absPath, '--frame', String(frame), '-o', out);
      expect(c.status, c.stderr).toBe(0);
      const obj = readFileSync(out, 'utf8');
      expect(count(obj, 'o')).toBe(numSurfaces);
      expect(count(obj, 'f')).toBe(surfaces.reduce((n, s) => n + s.tris, 0));
      expect(count(obj, 'vn')).toBe(j.vertices);
      const v = vLines(obj);
      let base = 0;
      for (const s of surfaces) {
        for (let i = 0; i < s.verts; i += Math.max(1, s.verts >> 3)) {
          const rec = s.start + s.ofsXyz + (frame * s.verts + i) * 8;
          for (let k = 0; k < 3; k++) expect(v[base + i][k]).toBeCloseTo(dv.getInt16(rec + k * 2, true) / 64, 5);
        }
        base += s.verts;
      }
    });
  }
});
