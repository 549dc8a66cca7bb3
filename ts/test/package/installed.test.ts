/**
 * The npm-packed tarball installed into a scratch consumer project: what it holds, Node importing and requiring
 * it, and TypeScript consumers in the resolution modes users configure. Expected values come from the library's
 * source in this process (the same files parsed here) and from MANIFEST.tsv.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { read, REPO, SHARED_MODELS } from '../helpers/models.js';
import { installSizeBlocks, measureInstall } from '../../../scripts/install-size.mjs';
import { staleBlocks } from '../../../scripts/doc-blocks.mjs';
import { packAndInstall, typeCheck, type Consumer } from './consumer.js';

const DRONE = join(SHARED_MODELS, 'actors/drone/mesh.md5mesh'); // MANIFEST: verts=1439
const INVALID = join(SHARED_MODELS, 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/** Every file path in package.json `exports`. */
function exportTargets(): string[] {
  const targets: string[] = [];
  const collect = (t: unknown): void => {
    if (typeof t === 'string') targets.push(t);
    else if (t && typeof t === 'object') Object.values(t).forEach(collect);
  };
  collect(pkg.exports);
  return targets;
}

/** The error this repository's parser throws for the malformed file. */
function invalidError(): ModelParseError {
  try {
    parseMd5Mesh(read(INVALID));
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw e;
  }
  throw new Error('InvalidBoneIndex.md5mesh parsed');
}

let consumer: Consumer;
beforeAll(async () => {
  consumer = await packAndInstall();
});
afterAll(() => consumer?.remove());

describe('the packed tarball', () => {
  it("docs/package.md's install figures are this tarball's (scripts/install-size.mjs --write generated them)", () => {
    // measured before any test writes into the project; sizes of built files are deterministic for one build
    const blocks = installSizeBlocks(measureInstall(consumer.packed, consumer.dir, 'this build'));
    expect(blocks['install-size']).toContain(`| this build | ${Math.round(consumer.packed.size / 1000).toLocaleString('en-US')} kB |`); // the measure is this tarball (in kB: install-size.mjs says why)
    const stale = staleBlocks(readFileSync(join(REPO, 'docs/package.md'), 'utf8'), blocks);
    expect(stale, 'run node scripts/install-size.mjs --write after a build').toEqual([]);
  });

  it('holds the entries with their chunks, the worker script, the CLI, the public declarations, LICENSE, README and the docs it points to; no maps, demo or bench suite', () => {
    const files = consumer.packedFiles;
    // the docs' pages (README.md and --help point to them: docs.test.ts) and the README's one picture
    const docs = readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(files.filter((f) => !f.startsWith('dist/'))).toEqual(['LICENSE', 'README.md', 'bin/idtech-models.js', ...docs, 'docs/viewer.png', 'package.json'].sort());
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // The scripts: what `exports` maps to, the CLI, and the chunks they share.
    const exported = exportTargets().filter((t) => t.endsWith('.js')).map((t) => t.replace(/^\.\//, ''));
    expect(files.filter((f) => /^dist\/[^/]+\.js$/.test(f) && !/^dist\/chunk-[A-Z0-9]+\.js$/.test(f))).toEqual([...new Set([...exported, 'dist/cli.js'])].sort());
    // Declarations: only the public entries and what they import; the CLI's, the bench suite's and the worker
    // script's are reachable from none of them.
    const types = files.filter((f) => f.startsWith('dist/types/'));
    expect(types).toEqual(expect.arrayContaining(['dist/types/index.d.ts', 'dist/types/advanced.d.ts', 'dist/types/node.d.ts', 'dist/types/worker/client.d.ts']));
    expect(types.filter((f) => /^dist\/types\/(cli|bench)\/|worker\/worker\.d\.ts$/.test(f))).toEqual([]);
    expect(readFileSync(join(consumer.installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(JSON.parse(readFileSync(join(consumer.installed, 'package.json'), 'utf8')).license).toBe('MIT');
  });

  it('no runtime dependencies: the bundled packages\' licences ship in dist/THIRD-PARTY-NOTICES.md, one section each', () => {
    const installed = JSON.parse(readFileSync(join(consumer.installed, 'package.json'), 'utf8'));
    expect(installed.dependencies).toBeUndefined();
    const notices = readFileSync(join(consumer.installed, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
    const named = [...notices.matchAll(/^## (\S+) (\S+) \((\S+)\)$/gm)].map((m) => m[1]);
    // what the shipped files hold: glTF Transform (with its own two), fflate, meshoptimizer; fast-png (with iobuffer),
    // which decodes a glTF's PNG skin for glTF → MDL to quantise; potpack, which packs a glTF's materials into one
    // MD2 / MDL skin; tinybench in the CLI's bench
    expect(named).toEqual(['@gltf-transform/core', '@gltf-transform/extensions', 'fast-png', 'fflate', 'iobuffer', 'ktx-parse', 'meshoptimizer', 'potpack', 'property-graph', 'tinybench']);
    for (const name of named) {
      const version = JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
      expect(notices).toContain(`## ${name} ${version} (`);
    }
    // MIT's grant, or ISC's (potpack)
    expect(notices.match(/Permission is hereby granted|Permission to use, copy, modify, and\/or distribute this software/g)?.length).toBe(named.length);
  });

  it('every file that package.json exports names is in it', () => {
    const targets = exportTargets();
    expect(targets.length).toBeGreaterThan(8);
    for (const t of targets) expect(existsSync(join(consumer.installed, t)), t).toBe(true);
  });
});

describe('Node, importing the installed package', () => {
  it('the front door, ./node and ./advanced share one copy: one ModelParseError class, loaders that stream real files', async () => {
    consumer.write({
      'esm.mjs': `
        import { readFileSync } from 'node:fs';
        import * as front from 'idtech-models';
        import * as nodeEntry from 'idtech-models/node';
        import * as advanced from 'idtech-models/advanced';
        const [meshPath, invalidPath] = process.argv.slice(2);
        const mesh = (await front.openModelFile(meshPath)).data;
        const viaNode = await nodeEntry.openModelFile(invalidPath).catch((e) => e);
        let viaAdvanced;
        try { const p = new advanced.Md5MeshParser(); p.write(readFileSync(invalidPath)); p.end(); } catch (e) { viaAdvanced = e; }
        console.log(JSON.stringify({
          vertexCount: mesh.meshes.reduce((n, m) => n + m.vertexCount, 0),
          sameClass: front.ModelParseError === nodeEntry.ModelParseError,
          nodeErrorIsFront: viaNode instanceof front.ModelParseError, nodeCode: viaNode.code,
          advancedErrorIsFront: viaAdvanced instanceof front.ModelParseError, advancedCode: viaAdvanced.code,
          worker: import.meta.resolve('idtech-models/worker'),
        }));`,
    });
    const r = await consumer.node(['esm.mjs', DRONE, INVALID]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    const expected = invalidError();
    expect(out).toEqual({
      vertexCount: parseMd5Mesh(read(DRONE)).meshes.reduce((n, m) => n + m.vertexCount, 0),
      sameClass: true,
      nodeErrorIsFront: true,
      nodeCode: expected.code,
      advancedErrorIsFront: true,
      advancedCode: expected.code,
      worker: `file://${join(consumer.installed, 'dist/worker.js')}`,
    });
    expect(out.vertexCount).toBe(1439);
  });

  it("every format's entry, ./files and ./textures load beside the front door, sharing its copy", async () => {
    consumer.write({
      'formats.mjs': `
        import { readFileSync } from 'node:fs';
        import * as front from 'idtech-models';
        import * as md5 from 'idtech-models/md5';
        import * as md2 from 'idtech-models/md2';
        import * as md3 from 'idtech-models/md3';
        import * as mdl from 'idtech-models/mdl';
        import * as iqm from 'idtech-models/iqm';
        import * as goldsrc from 'idtech-models/goldsrc';
        import * as mdc from 'idtech-models/mdc';
        import * as mds from 'idtech-models/mds';
        import * as mdm from 'idtech-models/mdm';
        import * as files from 'idtech-models/files';
        import * as textures from 'idtech-models/textures';
        const [meshPath, invalidPath] = process.argv.slice(2);
        const mesh = md5.parseMd5Mesh(readFileSync(meshPath));
        const poser = new md5.Md5Poser(await front.createBackend('ts'), mesh);
        let thrown;
        try { md5.parseMd5Mesh(readFileSync(invalidPath)); } catch (e) { thrown = e; }
        // a format's registration, handed to the stable door: the set opened from a file system, exported by it
        const fs = files.memoryFileSystem([{ path: 'drone.md5mesh', bytes: readFileSync(meshPath) }]);
        const set = await front.openModelSet(fs, 'drone.md5mesh', { formats: [md5.md5MeshEntry, md5.md5AnimEntry] });
        const glb = await front.toGlb(set, { format: md5.md5MeshModel });
        console.log(JSON.stringify({
          vertices: poser.positions.length / 3,
          errorIsFront: thrown instanceof front.ModelParseError,
          registrations: [md5.md5MeshEntry, md2.md2Entry, md3.md3Entry, md3.playerEntry, mdl.mdlEntry, iqm.iqmEntry, goldsrc.goldsrcEntry, mdc.mdcEntry, mds.mdsEntry, mdm.mdmEntry, mdm.mdxEntry].map((e) => front.DEFAULT_FORMATS.includes(e)),
          parsers: [md2.parseMd2, md3.parseMd3, mdl.parseMdl, iqm.parseIqm, goldsrc.parseGoldsrc, mdc.parseMdc, mds.parseMds, mdm.parseMdm, mdm.parseMdx, md3.Md3Player, textures.decodeImage].map((f) => typeof f),
          glb: new TextDecoder().decode(glb.subarray(0, 4)),
        }));`,
    });
    const r = await consumer.node(['formats.mjs', DRONE, INVALID]);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ vertices: 1439, errorIsFront: true, registrations: Array(11).fill(true), parsers: Array(11).fill('function'), glb: 'glTF' });
  });

  it('require() from CommonJS gets the same copy as import(), on every Node that engines admits', async () => {
    consumer.write({
      'cjs.cjs': `
        const lib = require('idtech-models');
        const md5 = require('idtech-models/md5');
        const advanced = require('idtech-models/advanced');
        Promise.all([import('idtech-models'), import('idtech-models/md5')]).then(async ([esm, esmMd5]) => {
          const mesh = (await lib.openModelFile(process.argv[2])).data;
          console.log(JSON.stringify({ sameCopy: esm.ModelParseError === lib.ModelParseError && esmMd5.Md5Poser === md5.Md5Poser && typeof advanced.Md5MeshParser === 'function', meshes: mesh.meshes.length }));
        });`,
    });
    const r = await consumer.node(['cjs.cjs', DRONE]);
    expect(r.stderr).toBe(''); // no ExperimentalWarning either
    expect(JSON.parse(r.stdout)).toEqual({ sameCopy: true, meshes: parseMd5Mesh(read(DRONE)).meshes.length });
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('engines leaves out the Node releases whose require() cannot load ES modules (Node 18\'s behaviour, which --no-experimental-require-module reproduces)', async () => {
    const r = await consumer.node(['--no-experimental-require-module', '-e', "require('idtech-models')"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('ERR_REQUIRE_ESM');
    // require(esm) is on by default from Node 20.19.0 and 22.12.0 (and in 23+); off in 18, 20.0–20.18, 21, 22.0–22.11.
    for (const v of ['18.20.8', '20.18.3', '21.7.3', '22.11.0']) expect(semver.satisfies(v, pkg.engines.node), v).toBe(false);
    for (const v of ['20.19.0', '22.12.0', '23.0.0', '24.11.1']) expect(semver.satisfies(v, pkg.engines.node), v).toBe(true);
  });

  it('the installed bin runs the CLI (its shared chunks were packed)', async () => {
    const r = await consumer.node([join(consumer.dir, 'node_modules/.bin/idtech-models'), 'inspect', DRONE, '--json']);
    expect(r.stderr).toBe('');
    const mesh = parseMd5Mesh(read(DRONE));
    expect(JSON.parse(r.stdout)).toMatchObject({ format: 'md5mesh', joints: mesh.joints.count, meshes: mesh.meshes.length, vertices: 1439 });
  });
});

describe('TypeScript consumers of the installed types (tsc, strict, no skipLibCheck)', () => {
  /** Consumer code that uses the loaders and the front door with real types (a wrong type fails the check). */
  const nodeCode = (loaders: string) => `
    import { ${loaders === 'idtech-models' ? 'openModelFile, fileChunks, ' : ''}ErrorCode, ModelParseError, ModelWorker, createBackend, DEFAULT_FORMATS, toGlb, type Md5Mesh, type ModelSet } from 'idtech-models';
    ${loaders === 'idtech-models' ? '' : `import { openModelFile, fileChunks } from '${loaders}';`}
    import { Md5Poser, md5MeshEntry } from 'idtech-models/md5';
    import { md3Model, parseMd3, type Md3Model } from 'idtech-models/md3';
    import { Md5Tokenizer, createTsBackend } from 'idtech-models/advanced';
    const set: ModelSet = await openModelFile('drone.md5mesh', { formats: [md5MeshEntry], companions: 'beside' });
    const mesh = set.data as Md5Mesh;
    const md3: Md3Model = parseMd3(new Uint8Array(0));
    const glb: Uint8Array = await toGlb(md3, { format: md3Model });
    const any: Uint8Array = await toGlb(set, { formats: DEFAULT_FORMATS });
    for await (const chunk of fileChunks('x')) { const n: number = chunk.byteLength; }
    const poser = new Md5Poser(await createBackend('auto'), mesh);
    const positions: Float32Array = poser.positions;
    const worker: ModelWorker | null = null;
    const e: unknown = new ModelParseError(ErrorCode.UnexpectedToken, 'x', { offset: 0 });
    if (e instanceof ModelParseError) { const offset: number = e.offset; }
    export { md3, glb, any, positions, worker, Md5Tokenizer, createTsBackend };
  `;
  const cases: { name: string; compilerOptions: object; files: Record<string, string> }[] = [
    {
      name: 'Node, moduleResolution node16, lib es2022 without DOM: the front door carries the file loaders',
      compilerOptions: { module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'] },
      files: { 'main.ts': nodeCode('idtech-models') },
    },
    {
      name: 'Node, moduleResolution bundler, lib es2022: the loaders from idtech-models/node',
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022'], types: ['node'] },
      files: { 'main.ts': nodeCode('idtech-models/node') },
    },
    {
      name: 'Node, moduleResolution bundler with customConditions ["node"]: the front door carries the loaders',
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', customConditions: ['node'], lib: ['es2022'], types: ['node'] },
      files: { 'main.ts': nodeCode('idtech-models') },
    },
    {
      name: 'Node, CommonJS (.cts) under module nodenext: require of the ES module package',
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'] },
      files: {
        'main.cts': `
          import { openModelFile, ModelParseError, type Md5Mesh } from 'idtech-models';
          import advanced = require('idtech-models/advanced');
          export async function vertices(path: string): Promise<number> {
            const mesh = (await openModelFile(path)).data as Md5Mesh;
            return mesh.meshes.reduce((n, m) => n + m.vertexCount, 0) + (advanced.MD5_LIMITS ? 0 : 1);
          }
          export const isParseError = (e: unknown): e is ModelParseError => e instanceof ModelParseError;`,
      },
    },
    {
      // glTF Transform is bundled, not a dependency: the declarations of `write` must not need its types
      name: 'Node, moduleResolution node16: idtech-models/write, with glTF Transform not installed',
      compilerOptions: { module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'] },
      files: {
        'main.ts': `
          import { readFile } from 'node:fs/promises';
          import { gltfToMd3, gltfToPlayer, importGltf, writeMd3, type GltfInput } from 'idtech-models/write';
          const input: GltfInput = { bytes: new Uint8Array(await readFile('x.glb')) };
          const md3 = writeMd3(await gltfToMd3(input, { fps: 15, scale: 32 }));
          const player = await gltfToPlayer(input);
          const md5 = await importGltf(input, { format: 'md5' });
          export { md3, player, md5 };`,
      },
    },
    {
      name: 'a browser app, moduleResolution bundler, DOM lib and no @types/node',
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [] },
      files: {
        'main.ts': `
          import { ModelWorker, type PosedFrame } from 'idtech-models';
          import { parseMd5MeshStream } from 'idtech-models/md5';
          import { memoryFileSystem } from 'idtech-models/files';
          import { decodeImage } from 'idtech-models/textures';
          const w = ModelWorker.create(new URL('./worker.js', location.href));
          const wrapped = new ModelWorker(new Worker('/worker.js', { type: 'module' }));
          await w.ready;
          const info = await w.open([{ name: 'drone.md5mesh', source: (await fetch('/drone.md5mesh')).body! }]);
          const frame: PosedFrame = await wrapped.pose(0, 1, 0.5);
          const mesh = await parseMd5MeshStream(await fetch('/drone.md5mesh'));
          export { info, frame, mesh, memoryFileSystem, decodeImage };`,
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const dir = `ts-${cases.indexOf(c)}`;
      consumer.write({
        ...Object.fromEntries(Object.entries(c.files).map(([f, text]) => [`${dir}/${f}`, text])),
        [`${dir}/tsconfig.json`]: JSON.stringify({ compilerOptions: { target: 'es2022', strict: true, noEmit: true, ...c.compilerOptions }, files: Object.keys(c.files) }),
      });
      expect(typeCheck(join(consumer.dir, dir, 'tsconfig.json'))).toEqual([]);
    });
  }

  it('the check is live: a Node project without the DOM lib cannot name Worker (the name client.d.ts used to need)', () => {
    consumer.write({
      'ts-fails/main.ts': "import { ModelWorker } from 'idtech-models';\nconst w: Worker = ModelWorker.create().worker;\nexport { w };\n",
      'ts-fails/tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'], strict: true, noEmit: true }, files: ['main.ts'] }),
    });
    expect(typeCheck(join(consumer.dir, 'ts-fails', 'tsconfig.json'))).toEqual(["main.ts(2,10): error TS2304: Cannot find name 'Worker'."]);
  });
});
