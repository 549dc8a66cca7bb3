/**
 * The built dist/ as the package maps it: entries that share one copy of the code through chunks, a browser graph
 * with no Node built-ins and both WASM builds inside, and one ModelParseError class whichever entry a user imports.
 * (The installed tarball, as a consumer project sees it, is tested in package/installed.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { distBlocks } from '../../bench/bundle-size.mjs';
import { staleBlocks } from '../../scripts/doc-blocks.mjs';
import { read, REPO, SHARED_MODELS } from './helpers/models.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const load = (file: string) => import(pathToFileURL(join(REPO, file)).href);

// Import statements in the (minified) bundles: `import … from "x"`, `export … from "x"` and bare `import "x"`, each
// at a line start or after `;` / `}`; and `import("x")`.
const STATIC_IMPORT = /(?:^|[;}])\s*(?:import|export)\s*(?:[^;'"()]*?\bfrom\s*)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/**
 * Every import specifier in `file` and in the dist files it imports, transitively (static, and dynamic unless
 * `staticOnly`); `files` are paths relative to dist/ (the CLI's chunks are in dist/cli/).
 */
function importGraph(file: string, staticOnly = false): { files: string[]; specifiers: string[] } {
  const files: string[] = [];
  const specifiers = new Set<string>();
  const visit = (f: string) => {
    if (files.includes(f)) return;
    files.push(f);
    const code = readFileSync(join(REPO, 'dist', f), 'utf8');
    const found = [...code.matchAll(STATIC_IMPORT), ...(staticOnly ? [] : code.matchAll(DYNAMIC_IMPORT))].map((m) => m[1]);
    for (const spec of found) {
      specifiers.add(spec);
      if (spec.startsWith('./') || spec.startsWith('../')) visit(posix.join(posix.dirname(f), spec)); // dist-relative path
    }
  };
  visit(file);
  return { files, specifiers: [...specifiers] };
}

/** The per-format entries (`idtech-models/md5` …): browser entries like the front door. */
const FORMAT_ENTRIES = ['md5.js', 'md2.js', 'md3.js', 'mdl.js', 'iqm.js', 'goldsrc.js', 'mdc.js', 'mds.js', 'mdm.js'];

const gzipBytes = (files: string[]) => files.reduce((n, f) => n + gzipSync(readFileSync(join(REPO, 'dist', f)), { level: 9 }).length, 0);

describe('dist bundles', () => {
  it('the browser entries load only their own chunks: no Node built-in, no bare import, no require', () => {
    for (const entry of ['browser.js', 'advanced.js', 'worker.js', 'bake-worker.js', ...FORMAT_ENTRIES, 'files.js', 'textures.js']) {
      const { files, specifiers } = importGraph(entry);
      for (const spec of specifiers) expect(spec, entry).toMatch(/^\.\/chunk-[A-Z0-9]+\.js$/);
      for (const f of files) expect(readFileSync(join(REPO, 'dist', f), 'utf8'), f).not.toMatch(/\brequire\(/);
    }
    expect(importGraph('worker.js').files).toEqual(['worker.js']); // one file for users to serve
    expect(importGraph('bake-worker.js').files).toEqual(['bake-worker.js']); // and one for BakePool's workers
  });

  it('both WASM builds ride inside the browser graph once, and the node entry adds the file loaders', () => {
    const text = (file: string) => importGraph(file).files.map((f) => readFileSync(join(REPO, 'dist', f), 'utf8')).join('\n');
    // "AGFzbQEAAAA" is base64 of "\0asm" + version 1: the SIMD and the scalar module, embedded (nothing to fetch).
    expect(text('browser.js').match(/"AGFzbQEAAAA/g)?.length).toBe(2);
    expect(text('worker.js').match(/"AGFzbQEAAAA/g)?.length).toBe(2);
    // the file loaders (node:fs) and the folder / archive readers (vfs/node.ts: paths, file URLs, node:zlib inflation)
    expect(importGraph('node.js').specifiers.filter((s) => s.startsWith('node:')).sort()).toEqual(['node:fs', 'node:fs/promises', 'node:os', 'node:path', 'node:url', 'node:worker_threads', 'node:zlib']);
  });

  it('no WASM build is fetched by importing an entry: each is a chunk of its own, imported on first use, under 44 KB gzip', () => {
    const staticGraph = (file: string) => importGraph(file, true).files;
    const wasmChunksOf = (entry: string) => importGraph(entry).files.filter((f) => /"AGFzbQEAAAA/.test(readFileSync(join(REPO, 'dist', f), 'utf8')));
    expect(wasmChunksOf('browser.js')).toHaveLength(2);
    // advanced.js adds the shared-memory bake build (BakePool's workers sharing one memory), made on a pool's creation
    const wasmChunks = wasmChunksOf('advanced.js');
    expect(wasmChunks).toHaveLength(3);
    expect(wasmChunksOf('node.js').sort()).toEqual([...wasmChunks].sort());
    for (const entry of ['browser.js', 'node.js', 'advanced.js']) for (const f of wasmChunks) expect(staticGraph(entry), entry).not.toContain(f);
    // bytes are deterministic for one build: base64 of the .wasm, gzip -9. The SIMD build is the largest (31.7 KB since
    // skin_frames walks the stream in blocks for 16 poses at once: +2.9 KB of wasm; docs/benchmarks-history.md, bakes), and
    // 36.9 KB since the IQM kernels (iqm_bind, iqm_pose with libm's acosf / sinf, lbs_skin's SIMD form: +5.2 KB), 37.5 KB
    // before and 39.1 KB since lbs_skin's three loops, one per case (1.3-1.5× faster under V8; benchmarks-history "IQM skinning"),
    // 40.8 KB since crowd_palettes (a crowd's joint palettes in one job, issue 42: its SIMD products and polynomial slerp).
    for (const f of wasmChunks) expect(gzipSync(readFileSync(join(REPO, 'dist', f)), { level: 9 }).length, f).toBeLessThan(44 * 1024);
  });

  it('the files the shipped code points bundlers at are the two worker scripts (the wasm is embedded, not referenced)', () => {
    const files = new Set(['browser.js', 'node.js', 'advanced.js', 'worker.js', 'cli.js'].flatMap((f) => importGraph(f).files));
    const references = [...files].flatMap((f) => [...readFileSync(join(REPO, 'dist', f), 'utf8').matchAll(/new URL\(\s*(["'][^"']*["'])\s*,\s*import\.meta\.url/g)].map((m) => m[1]));
    // Vite and webpack copy what `new URL('…', import.meta.url)` names; wasm-bindgen's default .wasm URL is gone.
    // ModelWorker's script, and BakePool's (named by the browser default spawn and by the Node worker-thread spawner).
    expect([...new Set(references)].sort()).toEqual(['"./bake-worker.js"', '"./worker.js"']);
  });

  it("the CLI loads a command's code when it runs: `inspect` reads neither glTF Transform, the writers nor the bench suite", () => {
    const shared = importGraph('cli.js', true).files; // what every command loads: the shell only
    const chunkOf = (name: string) => {
      const found = importGraph('cli.js').specifiers.filter((s) => new RegExp(`^\\./cli/${name}-[A-Z0-9]+\\.js$`).test(s));
      expect(found, name).toHaveLength(1);
      return found[0].slice(2);
    };
    const inspectFiles = [...new Set([...shared, ...importGraph(chunkOf('inspect'), true).files])];
    const convertFiles = importGraph(chunkOf('convert')).files; // with what it loads on demand (the writers)
    const code = (files: string[]) => files.map((f) => readFileSync(join(REPO, 'dist', f), 'utf8')).join('\n');
    // the markers are real: convert's graph has glTF Transform and the glTF → id import
    expect(code(convertFiles)).toMatch(/gltf-transform/);
    expect(code(convertFiles)).toMatch(/function gltfToMd5/);
    expect(code(inspectFiles)).not.toMatch(/gltf-transform|function gltfToMd5|runSuite/);
    const bytes = (files: string[]) => files.reduce((n, f) => n + readFileSync(join(REPO, 'dist', f)).length, 0);
    expect(bytes(shared)).toBeLessThan(32 * 1024); // the shell: argv, help, failures
    expect(bytes(inspectFiles)).toBeLessThan(bytes(convertFiles) / 2);
  });

  it('importing the front door in a browser fetches at most 48 KB gzip (entry and static chunks; a WASM build comes on first use)', () => {
    // docs/package.md "Sizes": minified; the stable door is format-neutral (issue 37): the registrations (each
    // capability imported on first use), the model-set loader, the catalog, the worker client. The glTF builder, the
    // TS and WASM backends, the zip reader, the playables and the material lookups are imported on first use; parsers
    // and posers are on the per-format entries. Measured 128,374 B on main at 477a400 (23 files), 84,549 B before the
    // per-format entries (64 files), 28,556 B with them (47 files).
    const { files } = importGraph('browser.js', true);
    expect(gzipBytes(files)).toBeLessThanOrEqual(48 * 1024);
    expect(gzipBytes(files)).toBeGreaterThan(16 * 1024); // the measure sees the code (the registrations, openModelSet)
  });

  it("a format's entry fetches that format: its parser and poser, no other format's", () => {
    const code = (entry: string) => importGraph(entry, true).files.map((f) => readFileSync(join(REPO, 'dist', f), 'utf8')).join('\n');
    // each format's magic or first keyword, as its parser compares it
    const marks: Record<string, RegExp> = { 'md5.js': /"MD5Version"/, 'md2.js': /"IDP2"/, 'md3.js': /"IDP3"/, 'mdl.js': /"IDPO"/, 'iqm.js': /"INTERQUAKEMODEL/, 'goldsrc.js': /\b1414743113\b/ /* IDST, an int32 */, 'mdc.js': /"IDPC"/, 'mds.js': /\b(1465074765|0x5753444d)\b/i /* MDSW */, 'mdm.js': /\b(1464681549|0x574d444d)\b/i /* MDMW */ };
    for (const entry of FORMAT_ENTRIES) {
      const text = code(entry);
      expect(text, entry).toMatch(marks[entry]);
      for (const [other, mark] of Object.entries(marks)) if (other !== entry) expect(mark.test(text), `${entry} carries ${other}'s parser`).toBe(false);
    }
  });

  it("docs/package.md's figures of dist/ are this build's (the front door, the entries, the CLI: bench/bundle-size.mjs --docs)", () => {
    const blocks = distBlocks(REPO);
    // the measure is the one above: the front door's static graph, gzip -9 per file
    expect(blocks['bundle-size:front-door']).toContain(`| ${gzipBytes(importGraph('browser.js', true).files).toLocaleString('en-US')} (`);
    const stale = staleBlocks(readFileSync(join(REPO, 'docs/package.md'), 'utf8'), blocks);
    expect(stale, 'run node bench/bundle-size.mjs --docs after a build').toEqual([]);
  });

  it('the browser entries parse, pose and skin with WASM and TS alike', async () => {
    const lib = { ...(await load('dist/browser.js')), ...(await load('dist/md5.js')) };
    const mesh = await lib.parseMd5MeshStream(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
    const anim = lib.parseMd5Anim(read(`${SHARED_MODELS}/actors/drone/forward.md5anim`));
    const out: Float32Array[] = [];
    for (const name of ['wasm', 'ts']) {
      const p = new lib.Md5Poser(await lib.createBackend(name), mesh);
      p.setAnim(anim);
      p.poseTime(0.2);
      out.push(p.positions.slice());
    }
    expect(out[0].length).toBe(1439 * 3);
    let d = 0;
    for (let i = 0; i < out[0].length; i++) d = Math.max(d, Math.abs(out[0][i] - out[1][i]));
    expect(d).toBeLessThan(1e-4);
  });

  it('index, node and advanced share one copy: an error thrown through one entry is an instance of every entry\'s class', async () => {
    const [browser, node, advanced] = await Promise.all(['dist/browser.js', 'dist/node.js', 'dist/advanced.js'].map(load));
    expect(node.ModelParseError).toBe(browser.ModelParseError);
    // InvalidBoneIndex.md5mesh (MANIFEST: numJoints=1, an out-of-range weight bone index): the push parser rejects it.
    const bytes = read(`${SHARED_MODELS}/assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh`);
    let thrown: unknown;
    try {
      const parser = new advanced.Md5MeshParser();
      parser.write(bytes);
      parser.end();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(browser.ModelParseError);
    expect(thrown).toBeInstanceOf(node.ModelParseError);
    await expect(node.openModelFile(join(SHARED_MODELS, 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh'))).rejects.toBeInstanceOf(browser.ModelParseError);
    // A backend made through advanced drives a poser from the format's entry.
    const md5 = await load('dist/md5.js');
    const mesh = md5.parseMd5Mesh(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
    const poser = new md5.Md5Poser(advanced.createTsBackend(), mesh);
    expect(poser.positions.length).toBe(1439 * 3);
  });

  it('idtech-models/three imports three by name (a peer, never bundled) and shares the front door\'s chunks', async () => {
    expect(pkg.exports['./three']).toEqual({ types: './dist/types/three.d.ts', default: './dist/three.js' });
    expect(pkg.peerDependencies.three).toBeDefined();
    expect(pkg.peerDependenciesMeta.three.optional).toBe(true);
    const { files, specifiers } = importGraph('three.js');
    const bare = specifiers.filter((s) => !s.startsWith('./'));
    expect(bare.sort()).toEqual(['three']); // TGA and the other decoded formats come from our image floor, not TGALoader
    for (const spec of specifiers.filter((s) => s.startsWith('./'))) expect(spec).toMatch(/^\.\/chunk-[A-Z0-9]+\.js$/);
    // none of three's own code came along (its renderer, its revision constant)
    const code = files.map((f) => readFileSync(join(REPO, 'dist', f), 'utf8')).join('\n');
    expect(code).not.toMatch(/WebGLRenderer: |as a child of itself/); // strings of three's renderer and core (names are minified)
    expect(readFileSync(join(REPO, 'dist/types/three.d.ts'), 'utf8')).toMatch(/IdTechLoader/);
    // and it works from dist: a model from bytes, errors of the front door's class
    const [browser, adapter] = await Promise.all(['dist/browser.js', 'dist/three.js'].map(load));
    const model = await new adapter.IdTechLoader().parseAsync(read(`${SHARED_MODELS}/assimp/test/models/MD2/faerie.md2`));
    expect(model.animations.map((c: { name: string }) => c.name)).toContain('run'); // MANIFEST: faerie's clips
    const bad = read(`${SHARED_MODELS}/assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh`);
    await expect(new adapter.IdTechLoader().parseAsync([{ name: 'bad.md5mesh', source: bad }])).rejects.toBeInstanceOf(browser.ModelParseError);
  });

  it('the stable door stays small and format-neutral: at most 13 values, none named after a format; Node adds paths', async () => {
    // docs/architecture.md "The public surface", docs/package.md "Entry points": the format list, detect, open a model
    // set, the catalog and archives, export by registration, the playable, a backend, the worker, the errors
    const [browser, node] = await Promise.all(['dist/browser.js', 'dist/node.js'].map(load));
    const values = (m: object) => Object.keys(m).sort();
    expect(values(browser)).toEqual(['DEFAULT_FORMATS', 'ErrorCode', 'ModelParseError', 'ModelWorker', 'catalogModels', 'createBackend', 'openArchive', 'openModelSet', 'openPlayable', 'selectFormat', 'toGlb', 'toObj', 'wasmSimdSupported']);
    for (const name of values(browser)) expect(name).not.toMatch(/md[235]|mdl|iqm/i);
    for (const name of values(browser)) expect(node).toHaveProperty(name); // Node's door is the browser's plus paths
    expect(values(node).length).toBeLessThanOrEqual(30);
    expect(node.openModelFile).toBeTypeOf('function');
  });

  it("the Node door opens any registered format from a path, and the stable toGlb exports the set by its registration", async () => {
    const node = await load('dist/node.js');
    // MANIFEST: dog.mdl (LibreQuake), janitor.iqm (Tesseract) with its iqm.cfg beside it, drone.md5mesh, a Quake 2 md2
    const paths = ['LibreQuake/lq1/progs/dog.mdl', 'actors-iqm/janitor/janitor.iqm', 'actors/drone/mesh.md5mesh', 'assimp/test/models/MD2/faerie.md2'];
    const formats: string[] = [];
    for (const p of paths) {
      const set = await node.openModelFile(join(SHARED_MODELS, p));
      formats.push(set.format);
      const glb: Uint8Array = await node.toGlb(set, { formats: node.DEFAULT_FORMATS });
      expect(new TextDecoder().decode(glb.subarray(0, 4)), p).toBe('glTF');
    }
    expect(formats).toEqual(['mdl', 'iqm', 'md5mesh', 'md2']);
    // a set exports through the registration that read it, with no list; a bare model without a registration or a
    // list: the stable toGlb says what to pass (it names no format's exporter itself)
    const set = await node.openModelFile(join(SHARED_MODELS, paths[0]));
    expect(Buffer.compare(await node.toGlb(set), await node.toGlb(set, { formats: node.DEFAULT_FORMATS }))).toBe(0);
    await expect(node.toGlb(set.data)).rejects.toThrow(/pass \{ format \}/);
  });

  it('package.json routes node and browser to their bundles, with types', () => {
    expect(pkg.exports['.'].node.default).toBe('./dist/node.js');
    expect(pkg.exports['.'].browser.default).toBe('./dist/browser.js');
    for (const cond of ['node', 'browser']) expect(readFileSync(join(REPO, pkg.exports['.'][cond].types), 'utf8')).toMatch(/export/);
  });
});
