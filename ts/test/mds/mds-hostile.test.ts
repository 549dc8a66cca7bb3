/**
 * Hostile MDS files made by fixtures/generate-mds.mjs: surfaces that all name one block of vertices are counted
 * before each is read (maxMeshRecords names itself and how to raise it), a header claiming 2³¹ − 1 frames is refused
 * at the count, an ofsEnd of 2 GB over 300 bytes is TRUNCATED after keeping what arrived; a plain made-up model reads
 * and poses (the generator's files are MDS files).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/base/errors.js';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { MdsParser, parseMds } from '../../src/formats/mds/parser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { WolfPoser, wolfSkinStream } from '../../src/pose/wolf-poser.js';
import { buildMds, hugeFrames, longEnd, sharedSurfaces } from '../../../fixtures/generate-mds.mjs';
import { refusal } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

describe('hostile MDS files', () => {
  it('a made-up model reads and poses: its bone turns, its vertex follows', () => {
    const m = parseMds(buildMds({ frames: 4, vertices: 3 }));
    expect([m.frames.length, m.surfaces[0].vertexCount, m.warnings]).toEqual([4, 3, []]);
    const p = new WolfPoser(createTsBackend(), m, wolfSkinStream(m.surfaces));
    const a = Float32Array.from(p.pose({ frame: 0 }).positions), b = Float32Array.from(p.pose({ frame: 3 }).positions);
    expect(Math.hypot(a[3] - b[3], a[4] - b[4], a[5] - b[5])).toBeGreaterThan(0.01);
    p.dispose();
  });

  it('surfaces sharing one block are counted before each is read (maxMeshRecords)', () => {
    const bytes = sharedSurfaces(200);
    const e = refusal(() => parseMds(bytes));
    expect(e.code).toBe(ErrorCode.ResourceLimit);
    expect(e.message).toMatch(/over the limit maxMeshRecords = 2097152 \(raise it with --limit maxMeshRecords=N/);
    setResourceLimits({ maxMeshRecords: 200 * (2 * 6000 + 6000 + 6000 + 1) });
    expect(parseMds(bytes).surfaces.length).toBe(200);
    setResourceLimits({ maxMeshRecords: 1000 });
    expect(refusal(() => parseMds(buildMds({ vertices: 600 }))).code).toBe(ErrorCode.ResourceLimit);
  });

  it('a header claiming 2³¹ − 1 frames is refused at the count', () => {
    const e = refusal(() => parseMds(hugeFrames()));
    expect([e.code, e.offset]).toEqual([ErrorCode.BadCount, 80]);
  });

  it('an ofsEnd of 2 GB over 300 bytes is TRUNCATED at what arrived', () => {
    const p = new MdsParser();
    p.write(longEnd());
    const e = refusal(() => p.end());
    expect([e.code, e.offset]).toEqual([ErrorCode.Truncated, 300]);
  });
});
