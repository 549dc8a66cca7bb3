/**
 * Every MD3 of the shared corpus, checked against values read straight from its bytes in this file (a DataView and
 * the GROUND-TRUTH.md formulas, written independently of the parser) and against the MANIFEST's own notes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { md3FramePositions } from '../reference/md3.js';
import type { Md3Model } from '../../src/base/model.js';
import { read } from '../helpers/models.js';
import { HUMAN_BASE, rawHeader, realMd3s, view } from './_helpers.js';

const files = realMd3s();

/** MANIFEST notes list surfaces as `name[v=V t=T fr=F sh=S]`: an independent record of the counts. */
function manifestSurfaces(notes: string): { name: string; v: number; t: number; fr: number; sh: string }[] {
  return [...notes.matchAll(/(\S+)\[v=(\d+) t=(\d+) fr=(\d+) sh=([^\]]*)\]/g)].map((m) => ({
    name: m[1], v: Number(m[2]), t: Number(m[3]), fr: Number(m[4]), sh: m[5],
  }));
}

/** Vertex v of frame f of a surface, decoded by hand: int16 ×1/64; normal bytes lng (low) and lat (high). */
function handVertex(b: Uint8Array, xyzAt: number, V: number, f: number, v: number) {
  const at = xyzAt + (f * V + v) * 8;
  const dv = view(b);
  const lng = (b[at + 6] * 2 * Math.PI) / 256;
  const lat = (b[at + 7] * 2 * Math.PI) / 256;
  return {
    position: [dv.getInt16(at, true) / 64, dv.getInt16(at + 2, true) / 64, dv.getInt16(at + 4, true) / 64],
    normal: [Math.cos(lat) * Math.sin(lng), Math.sin(lat) * Math.sin(lng), Math.cos(lng)],
  };
}

describe('every real MD3 parses with the counts its bytes and the MANIFEST give', () => {
  it.each(files.map((f) => [f.path, f] as const))('%s', (_path, file) => {
    const raw = rawHeader(file.bytes);
    const m = parseMd3(file.bytes);
    expect(m.format).toBe('md3');
    expect(m.version).toBe(15);
    expect(m.frameCount).toBe(raw.numFrames);
    expect(m.tagCount).toBe(raw.numTags);
    expect(m.surfaces.length).toBe(raw.numSurfaces);
    expect(m.frameNames.length).toBe(raw.numFrames);
    expect(m.frameMins.length).toBe(raw.numFrames * 3);
    expect(m.frameRadii.length).toBe(raw.numFrames);
    expect(m.tagOrigins.length).toBe(raw.numFrames * raw.numTags * 3);
    expect(m.tagAxes.length).toBe(raw.numFrames * raw.numTags * 9);
    const noted = manifestSurfaces(file.notes);
    expect(noted.length).toBe(raw.numSurfaces);
    m.surfaces.forEach((s, k) => {
      const r = raw.surfaces[k];
      expect(s.vertexCount).toBe(r.numVerts);
      expect(s.triangleCount).toBe(r.numTriangles);
      expect(s.shaders.length).toBe(r.numShaders);
      expect(s.triangles.length).toBe(r.numTriangles * 3);
      expect(s.st.length).toBe(r.numVerts * 2);
      expect(s.xyzNormals.length).toBe(r.numVerts * raw.numFrames * 4);
      expect([s.name, s.vertexCount, s.triangleCount, raw.numFrames]).toEqual([noted[k].name, noted[k].v, noted[k].t, noted[k].fr]);
      if (noted[k].sh !== '-') expect(s.shaders[0].name).toBe(noted[k].sh);
    });
    const tagNames = /tagnames=(\S+);/.exec(file.notes);
    expect(m.tagNames).toEqual(tagNames ? tagNames[1].split(',') : []);
  });
});

describe('values decoded by hand from the bytes', () => {
  const picks = [HUMAN_BASE.overmind, HUMAN_BASE.upper, HUMAN_BASE.lower, HUMAN_BASE.head];
  it.each(picks)('positions and normals of first/middle/last vertices, first/middle/last frames: %s', (path) => {
    const b = read(path);
    const raw = rawHeader(b);
    const m = parseMd3(b);
    let checked = 0;
    m.surfaces.forEach((s, k) => {
      const r = raw.surfaces[k];
      for (const f of new Set([0, Math.floor(m.frameCount / 2), m.frameCount - 1])) {
        const pose = md3FramePositions(m, k, f);
        for (const v of new Set([0, Math.floor(s.vertexCount / 2), s.vertexCount - 1])) {
          const hand = handVertex(b, r.start + r.ofsXyz, r.numVerts, f, v);
          for (let c = 0; c < 3; c++) {
            expect(pose.positions[v * 3 + c]).toBe(Math.fround(hand.position[c]));
            expect(pose.normals[v * 3 + c]).toBeCloseTo(hand.normal[c], 6);
          }
          checked++;
        }
      }
    });
    expect(checked).toBeGreaterThan(0);
  });

  it.each(picks)('triangles and st equal the stored int32 / float32 values: %s', (path) => {
    const b = read(path);
    const raw = rawHeader(b);
    const dv = view(b);
    const m = parseMd3(b);
    m.surfaces.forEach((s, k) => {
      const r = raw.surfaces[k];
      for (let i = 0; i < s.triangles.length; i++) expect(s.triangles[i]).toBe(dv.getInt32(r.start + r.ofsTriangles + 4 * i, true));
      for (let i = 0; i < s.st.length; i++) expect(s.st[i]).toBe(dv.getFloat32(r.start + r.ofsSt + 4 * i, true));
    });
  });

  it('tags of upper.md3 (3 per frame, 153 frames) equal the stored floats, frame-major', () => {
    const b = read(HUMAN_BASE.upper);
    const raw = rawHeader(b);
    const dv = view(b);
    const m = parseMd3(b);
    for (let i = 0; i < raw.numFrames * raw.numTags; i++) {
      const at = raw.ofsTags + i * 112;
      for (let c = 0; c < 3; c++) expect(m.tagOrigins[i * 3 + c]).toBe(dv.getFloat32(at + 64 + 4 * c, true));
      for (let c = 0; c < 9; c++) expect(m.tagAxes[i * 9 + c]).toBe(dv.getFloat32(at + 76 + 4 * c, true));
    }
    // Spot value read with a hex dump: frame 0's tag_head origin.
    expect(m.tagOrigins[0]).toBeCloseTo(-6.040214, 5);
    expect(m.tagOrigins[2]).toBeCloseTo(12.494226, 5);
  });

  it('every frame of the animated models fits the bounds the exporter stored for it', () => {
    for (const path of [HUMAN_BASE.overmind, HUMAN_BASE.upper, HUMAN_BASE.lower, HUMAN_BASE.grenade]) {
      const m = parseMd3(read(path));
      for (let f = 0; f < m.frameCount; f++) {
        for (let k = 0; k < m.surfaces.length; k++) {
          const p = md3FramePositions(m, k, f).positions;
          const lo = [Infinity, Infinity, Infinity];
          const hi = [-Infinity, -Infinity, -Infinity];
          for (let i = 0; i < p.length; i++) {
            lo[i % 3] = Math.min(lo[i % 3], p[i]);
            hi[i % 3] = Math.max(hi[i % 3], p[i]);
          }
          // 1/64 is the quantisation step of the stored positions.
          for (let c = 0; c < 3; c++) {
            expect(lo[c]).toBeGreaterThanOrEqual(m.frameMins[f * 3 + c] - 1 / 64);
            expect(hi[c]).toBeLessThanOrEqual(m.frameMaxs[f * 3 + c] + 1 / 64);
          }
        }
      }
    }
  });
});

describe('warnings', () => {
  it('TRAILING_BYTES at ofsEnd on the two Tremulous files with one byte after it (MANIFEST: ofs_eof = size − 1)', () => {
    const odd = files.filter((f) => /ODD ofs_eof=(\d+) filesize=(\d+)/.test(f.notes));
    expect(odd.length).toBe(2);
    for (const f of odd) {
      const [, eof] = /ofs_eof=(\d+)/.exec(f.notes)!;
      const m = parseMd3(f.bytes);
      expect(m.warnings).toEqual([expect.objectContaining({ code: 'TRAILING_BYTES', offset: Number(eof) })]);
    }
  });

  it('no warnings on the other real files', () => {
    for (const f of files.filter((x) => !x.notes.includes('ODD'))) expect(parseMd3(f.bytes).warnings).toEqual([]);
  });
});

describe('memory', () => {
  /** Bytes the model holds: every typed array's buffer (so a view into a larger buffer would count it all), strings as UTF-16. */
  function dataBytes(m: Md3Model): number {
    const buffers = new Set<ArrayBufferLike>();
    let strings = 0;
    const visit = (x: unknown): void => {
      if (ArrayBuffer.isView(x)) buffers.add(x.buffer);
      else if (typeof x === 'string') strings += 2 * x.length;
      else if (Array.isArray(x)) x.forEach(visit);
      else if (x && typeof x === 'object') Object.values(x).forEach(visit);
    };
    visit(m);
    let total = strings;
    for (const b of buffers) total += b.byteLength;
    return total;
  }

  it.each(files.map((f) => [f.path, f] as const))('model data ≤ 1.5 × file size, no view into the input: %s', (_p, file) => {
    const m = parseMd3(file.bytes);
    expect(dataBytes(m)).toBeLessThanOrEqual(1.5 * file.bytes.length);
    for (const s of m.surfaces) expect(s.xyzNormals.buffer).not.toBe(file.bytes.buffer);
  });

  it('heap retained by 20 parsed copies of upper.md3 ≤ 1.5 × their file size', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const b = read(HUMAN_BASE.upper);
    const used = () => {
      gc();
      gc();
      const u = process.memoryUsage();
      return u.heapUsed + u.arrayBuffers;
    };
    const before = used();
    const kept = Array.from({ length: 20 }, () => parseMd3(b));
    const grown = used() - before;
    expect(kept.length).toBe(20);
    // The vertices alone are most of the file, so a measure that saw nothing would be wrong too.
    expect(grown).toBeGreaterThan(0.5 * 20 * b.length);
    expect(grown).toBeLessThanOrEqual(1.5 * 20 * b.length);
  });
});
