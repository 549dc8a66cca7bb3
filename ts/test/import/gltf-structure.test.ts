/**
 * A glTF's structure under bounds (import/gltf-structure.ts): deep and long node chains, cycles, too many nodes,
 * broken node references, sparse accessors that declare more than their views hold, and values nested deep enough
 * to overflow a recursive walk — each a typed error naming where, or a model, never a stack overflow or a spin.
 * The walks are counted (calls to glTF Transform's node methods), not timed.
 */
import { Node } from '@gltf-transform/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { importGltf } from '../../src/registry/import-gltf.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { sceneNodes } from '../../src/import/gltf-scene.js';
import { sampleChannel } from '../../src/import/gltf-sample.js';
import { triangleBin, triangleGltf } from '../helpers/gltf-gen.js';
import { failure } from '../helpers/failure.js';


const bin = { 'tri.bin': triangleBin() };
/** The triangle on the last node of a chain of `n` nodes, each the only child of the one before. */
function chain(n: number, extra: Record<string, unknown> = {}): Uint8Array {
  const nodes = Array.from({ length: n }, (_, i) => (i + 1 < n ? { name: `n${i}`, children: [i + 1] } : { name: `n${i}`, mesh: 0 }));
  return triangleGltf({ bufferUri: 'tri.bin', extra: { nodes, scenes: [{ nodes: [0] }], ...extra } });
}

afterEach(() => resetResourceLimits());

describe('node chains', () => {
  it('a chain of 8,000 nested nodes (the issue\'s 380 KB file) is RESOURCE_LIMIT naming the depth, not "Maximum call stack size exceeded"', async () => {
    const e = await failure(importGltf({ bytes: chain(8000), resources: bin }, { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', 'node 257 ("n257") is 257 levels below its root: over the limit maxGltfDepth = 256 (raise it with --limit maxGltfDepth=N, or the maxGltfDepth option)']);
  });

  it('with the depth bound lifted, a chain of 16,000 is walked without recursion and imports (the triangle on its last node)', async () => {
    const out = await importGltf({ bytes: chain(16_000), resources: bin, limits: { maxGltfDepth: Infinity } }, { format: 'md3' });
    expect(out.surfaces.map((s) => s.vertexCount)).toEqual([3]);
    // scene order: parents before children, all 16,000
    const doc = await readGltfDocument({ bytes: chain(16_000), resources: bin, limits: { maxGltfDepth: Infinity } });
    expect(sceneNodes(doc).map((n) => n.getName()).slice(0, 3)).toEqual(['n0', 'n1', 'n2']);
    expect(sceneNodes(doc)).toHaveLength(16_000);
  });

  it('the cycle and depth check is linear: a 2,000-node chain costs at most 2 parent lookups per node (climbing from every node made 2 million)', async () => {
    const spy = vi.spyOn(Node.prototype, 'getParentNode');
    await readGltfDocument({ bytes: chain(2000), resources: bin, limits: { maxGltfDepth: Infinity } });
    // glTF Transform's own addChild looks each child's parent up once while it reads; our check once more per node
    expect(spy.mock.calls.length).toBeLessThanOrEqual(2 * 2000 + 16);
    spy.mockRestore();
  });

  it('more than maxGltfNodes nodes is RESOURCE_LIMIT before glTF Transform makes them; the limit is overridable, per call and process-wide', async () => {
    const bytes = triangleGltf({ bufferUri: 'tri.bin', extra: { nodes: [{ mesh: 0 }, ...Array.from({ length: 20_000 }, () => ({}))] } });
    const e = await failure(importGltf({ bytes, resources: bin }, { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', '20001 nodes: over the limit maxGltfNodes = 16384 (raise it with --limit maxGltfNodes=N, or the maxGltfNodes option)']);
    expect((await importGltf({ bytes, resources: bin, limits: { maxGltfNodes: 20_001 } }, { format: 'md3' })).surfaces).toHaveLength(1);
    setResourceLimits({ maxGltfNodes: 20_001 });
    expect((await importGltf({ bytes, resources: bin }, { format: 'md3' })).surfaces).toHaveLength(1);
  });

  it('a cycle is UNSUPPORTED naming a node of it', async () => {
    const bytes = triangleGltf({ bufferUri: 'tri.bin', extra: { nodes: [{ mesh: 0 }, { name: 'a', children: [2] }, { name: 'b', children: [3] }, { name: 'c', children: [1] }], scenes: [{ nodes: [0] }] } });
    const e = await failure(importGltf({ bytes, resources: bin }, { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['UNSUPPORTED', expect.stringMatching(/^node [123] \("[abc]"\) is its own ancestor: its parents' children lists make a cycle$/)]);
  });
});

describe('references and values', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a child past the nodes', { nodes: [{ mesh: 0, children: [7] }] }, "node 0's children names node 7, not one of the file's 1 nodes"],
    ['a node its own child', { nodes: [{ mesh: 0, children: [0] }] }, "node 0's children names the node itself: glTF nodes form trees (glTF 2.0 §3.5.3)"],
    ['a scene root that is not a node', { scenes: [{ nodes: [0, 'x'] }] }, 'scene 0\'s nodes names node "x", not one of the file\'s 1 nodes'],
    ['a skin joint past the nodes', { skins: [{ joints: [0, 3] }] }, "skin 0's joints names node 3, not one of the file's 1 nodes"],
  ];
  for (const [what, extra, detail] of cases) {
    it(`${what}: UNSUPPORTED, said plainly (not a TypeError from inside glTF Transform)`, async () => {
      const e = await failure(importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin', extra }), resources: bin }, { format: 'md3' }));
      expect([e.code, e.detail]).toEqual(['UNSUPPORTED', detail]);
    });
  }

  it('references glTF Transform reads as nothing still read as before: an animation target past the nodes, a missing default scene', async () => {
    const target = { animations: [{ channels: [{ sampler: 0, target: { node: 9, path: 'translation' } }], samplers: [{ input: 0, output: 0 }] }] };
    for (const extra of [target, { scene: 4 }]) {
      expect((await importGltf({ bytes: triangleGltf({ bufferUri: 'tri.bin', extra }), resources: bin }, { format: 'md3' })).surfaces).toHaveLength(1);
    }
  });

  it('a translation nested 100,000 lists deep is UNSUPPORTED, described without walking it', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = new TextDecoder().decode(triangleGltf({ bufferUri: 'tri.bin' })).replace('"name":"tri"}]', `"name":"tri","translation":${deep}}]`);
    const e = await failure(importGltf({ bytes: new TextEncoder().encode(text), resources: bin }, { format: 'md3' }));
    expect([e.code, e.detail]).toEqual(['UNSUPPORTED', 'node 0 ("tri"): translation is a list of 1 (object), not a list of numbers of its size']);
  });
});

describe('sparse accessors', () => {
  /** The triangle, plus accessor 1: `count` VEC3 floats with a sparse block of `sparseCount` over views 1 (indices) and 2 (values). */
  function sparse(sparseCount: unknown, indexType = 5125, viewBytes = 64) {
    return triangleGltf({
      bufferUri: 'tri.bin',
      byteLength: 36,
      extra: {
        bufferViews: [{ buffer: 0, byteLength: 36 }, { buffer: 0, byteLength: Math.min(viewBytes, 36) }, { buffer: 0, byteLength: Math.min(viewBytes, 36) }],
        accessors: [
          { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3' },
          { componentType: 5126, count: 1000, type: 'VEC3', sparse: { count: sparseCount, indices: { bufferView: 1, componentType: indexType }, values: { bufferView: 2 } } },
        ],
      },
    });
  }

  it('sparse count 2³¹ − 1 is BAD_COUNT before glTF Transform loops over it (the issue\'s 70 KB file spun for minutes)', async () => {
    const e = await failure(readGltfDocument({ bytes: sparse(2 ** 31 - 1), resources: bin }));
    expect([e.code, e.detail]).toEqual(['BAD_COUNT', "accessor 1: sparse count 2147483647 is not a whole number from 1 to the accessor's count 1000"]);
  });

  it('indices or values that do not fit their views, a fractional count and signed indices are refused, naming the accessor', async () => {
    expect((await failure(readGltfDocument({ bytes: sparse(10), resources: bin }))).detail).toBe('accessor 1 sparse indices: count 10 needs 40 bytes of buffer view 1, which holds 36');
    expect((await failure(readGltfDocument({ bytes: sparse(2.5), resources: bin }))).code).toBe('BAD_COUNT');
    expect((await failure(readGltfDocument({ bytes: sparse(2, 5122), resources: bin }))).detail).toBe('accessor 1: sparse indices of component type 5122 (5121, 5123 or 5125)');
    expect((await failure(readGltfDocument({ bytes: sparse(4, 5121), resources: bin }))).detail).toBe('accessor 1 sparse values: count 4 needs 48 bytes of buffer view 2, which holds 36');
  });

  it('a sparse block that fits reads (3 values over zeros)', async () => {
    const doc = await readGltfDocument({ bytes: sparse(3), resources: bin });
    expect(doc.getRoot().listAccessors()[1].getCount()).toBe(1000);
  });
});

describe('animation keys', () => {
  it('sampling in time order with a cursor gives what a search from key 0 gives, for any keys (sorted or not)', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(rand() * 12);
      const sorted = trial % 3 !== 0;
      let t = 0;
      const times = Array.from({ length: n }, () => (sorted ? (t += rand()) : rand() * 5));
      const values = Array.from({ length: n * 3 }, () => rand());
      const cursor = { key: 0, time: -Infinity };
      for (let k = 0; k < 30; k++) {
        const time = (k / 29) * 6 - 0.5;
        const interpolation = ['LINEAR', 'STEP'][trial % 2];
        expect(sampleChannel(times, values, 3, interpolation, 'translation', time, cursor)).toEqual(sampleChannel(times, values, 3, interpolation, 'translation', time));
      }
    }
  });
});
