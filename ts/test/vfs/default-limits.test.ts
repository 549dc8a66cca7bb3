/**
 * The default resource limits (base/resource-limits.ts) against every real file of ../shared/models: each passes,
 * with the room docs/security.md states. Archives are made from the corpus (no real .pk3 is in it): one per folder
 * two levels down (each model's folder with what sits beside it), deflated by our writer (every member then read
 * whole) and by Info-ZIP `zip -9`: each opens under the defaults (the whole corpus in one archive declares 1.5 times its size: archive.test.ts opens it). The measured worst cases are printed.
 */
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESOURCE_LIMITS } from '../../src/base/resource-limits.js';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { gltfFileReader } from '../../src/load/gltf-files.js';
import { openArchiveFrom } from '../../src/vfs/zip-archive.js';
import { execChild } from '../helpers/child.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { manifest, read, realAnimPairs, SHARED_MODELS } from '../helpers/models.js';
import { makeZip, packedEntries } from '../helpers/zip-writer.js';

const D = DEFAULT_RESOURCE_LIMITS;
const rows = manifest().filter((r) => existsSync(r.absPath));

/** Corpus files grouped by their folder two levels down (`aaa-assets/models`, `actors/drone`, …). */
function groups(): Map<string, typeof rows> {
  const out = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = r.path.split('/').slice(0, 2).join('/');
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

describe('archives made of the corpus open and read under the default limits', () => {
  it('per folder, our deflate and zip -9: the members declare at most 8.1 times the archive (maxTotalRatio 64: 7.9× room)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'idtech-default-limits-'));
    let worst = { ratio: 0, name: '' };
    let largest = 0;
    const archives: { name: string; bytes: Uint8Array }[] = [];
    for (const [key, files] of groups()) {
      archives.push({ name: `${key} (ours)`, bytes: makeZip(await packedEntries(files.map((f) => ({ name: f.path, data: read(f.absPath) })))) });
      const zip = join(tmp, `${key.replace(/\//g, '_')}.pk3`);
      await execChild('zip', ['-q', '-X', '-9', zip, '-@'], { cwd: SHARED_MODELS, input: files.map((f) => f.path).join('\n') });
      archives.push({ name: `${key} (zip -9)`, bytes: read(zip) });
    }
    for (const { name, bytes } of archives) {
      await turnIfHeld();
      const a = await openArchiveFrom(bytes, { name }); // the defaults
      let declared = 0;
      for (const f of await a.list('')) {
        declared += f.size;
        largest = Math.max(largest, f.size);
        if (name.endsWith('(ours)')) expect((await f.bytes()).length).toBe(f.size); // read whole once per file
      }
      if (declared / bytes.length > worst.ratio) worst = { ratio: declared / bytes.length, name };
    }
    console.log(`${archives.length} archives; worst declared/archive ratio ${worst.ratio.toFixed(2)} (${worst.name}); largest member ${largest} bytes`);
    expect(worst.ratio * 7.8).toBeLessThanOrEqual(D.maxTotalRatio);
    expect(largest * 98).toBeLessThanOrEqual(D.maxMemberBytes); // 2.7 MB (boss.mdl): ≥ 98× room
  });
});

describe('real images, scripts and glTFs pass with room', () => {
  it('every TGA, PCX and BMP decodes under maxImagePixels; the largest image of any kind is 2048 × 2048 (16× room)', () => {
    let decodedMax = 0;
    let anyMax = 0;
    for (const r of rows.filter((x) => /\.(tga|pcx|bmp|png|jpe?g)$/i.test(x.path))) {
      const bytes = read(r.absPath);
      let info;
      try {
        info = readImageInfo(bytes, r.path);
      } catch {
        continue; // the corpus' one image our readers refuse for its format (roller_mask.png), not for its size
      }
      anyMax = Math.max(anyMax, info.width * info.height);
      if (/\.(tga|pcx|bmp)$/i.test(r.path)) {
        const img = decodeImage(bytes, r.path);
        decodedMax = Math.max(decodedMax, img.width * img.height);
      }
    }
    console.log(`largest decoded image ${decodedMax} pixels; largest of any kind ${anyMax} pixels; maxImagePixels ${D.maxImagePixels}`);
    expect(anyMax).toBe(2048 * 2048);
    expect(anyMax * 16).toBeLessThanOrEqual(D.maxImagePixels);
  });

  it('every script (.shader, .mtr, .skin, .cfg) is at most 24 KB: maxScriptBytes (8 MiB) leaves ≥ 340× room', () => {
    const scripts = rows.filter((r) => ['.shader', '.mtr', '.skin', '.cfg'].includes(extname(r.path).toLowerCase()));
    const largest = Math.max(...scripts.map((r) => statSync(r.absPath).size));
    console.log(`${scripts.length} scripts, largest ${largest} bytes; maxScriptBytes ${D.maxScriptBytes}`);
    expect(scripts.length).toBeGreaterThan(20);
    expect(largest * 340).toBeLessThanOrEqual(D.maxScriptBytes);
  });

  it('every MD2 and MD3 exports its morph weights (frames², at most 198² = 39,204: faerie.md2) with ≥ 1,700× room under maxMorphWeights', () => {
    let worst = 0;
    for (const r of rows.filter((x) => /\.(md2|md3)$/i.test(x.path) && !x.path.includes('/invalid/'))) {
      const b = read(r.absPath);
      const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
      if (b.length < 108) continue;
      const frames = r.path.toLowerCase().endsWith('.md2') ? v.getInt32(40, true) : v.getInt32(76, true);
      worst = Math.max(worst, frames * frames);
    }
    console.log(`most morph weights of a corpus MD2/MD3: ${worst}; maxMorphWeights ${D.maxMorphWeights}`);
    expect(worst).toBe(198 * 198);
    expect(worst * 1700).toBeLessThanOrEqual(D.maxMorphWeights);
  });

  it('every corpus md5anim exports on its mesh with ≥ 300× room under maxAnimationKeys (frames × joints)', () => {
    let worst = { keys: 0, path: '' };
    for (const { anim } of realAnimPairs()) {
      const text = new TextDecoder().decode(read(anim.absPath).subarray(0, 4096));
      const frames = Number(/numFrames\s+(\d+)/.exec(text)?.[1]);
      const joints = Number(/numJoints\s+(\d+)/.exec(text)?.[1]);
      if (frames * joints > worst.keys) worst = { keys: frames * joints, path: anim.path };
    }
    console.log(`most joint poses of a corpus md5anim: ${worst.keys} (${worst.path}); maxAnimationKeys ${D.maxAnimationKeys}`);
    expect(worst.keys).toBeGreaterThan(0);
    expect(worst.keys * 300).toBeLessThanOrEqual(D.maxAnimationKeys);
  });

  it('every glTF sample reads under the defaults; the most nodes is far under maxGltfNodes, the deepest far under maxGltfDepth', async () => {
    const samples = rows.filter((r) => /\.(glb|gltf)$/i.test(r.path));
    let nodes = 0;
    let depth = 0;
    for (const r of samples) {
      const doc = await readGltfDocument({ bytes: read(r.absPath), readResource: gltfFileReader(r.absPath) });
      const list = doc.getRoot().listNodes();
      nodes = Math.max(nodes, list.length);
      for (const n of list) {
        let d = 0;
        for (let p = n.getParentNode(); p; p = p.getParentNode()) d++;
        depth = Math.max(depth, d);
      }
    }
    console.log(`${samples.length} glTF samples: at most ${nodes} nodes, depth ${depth}; maxGltfNodes ${D.maxGltfNodes}, maxGltfDepth ${D.maxGltfDepth}`);
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(nodes * 100).toBeLessThanOrEqual(D.maxGltfNodes);
    expect(depth * 10).toBeLessThanOrEqual(D.maxGltfDepth);
  });
});

it('the corpus folder is what the test reads', () => {
  expect(readdirSync(SHARED_MODELS)).toContain('MANIFEST.tsv');
});
