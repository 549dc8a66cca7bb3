/**
 * What a user's bundler can leave out. A bundler drops a module's unused top-level statements only when it can prove
 * them free of side effects: esbuild (the strictest of the common ones) keeps any call or `new` it does not know to be
 * pure, an object or array spread, a loop at the top level. In dist/ the modules are merged into chunks, where
 * package.json's `sideEffects` no longer separates them: one impure statement keeps what it names in every app that
 * loads its chunk (an MD5 parse carried the format registry, and through it glTF Transform). So every library module's
 * top level must be droppable: computed tables are built by functions marked `/* @__PURE__ *\/` (true: they only
 * compute), or on first use; and dist/ must keep those annotations (scripts/bundle.mjs).
 *
 * Then what users get: small apps bundled from dist/ by the package's exports (bench/bundle-size.mjs builds the same
 * apps from the packed tarball, with Vite too, and docs/package.md has its figures), by esbuild as one file and with
 * code splitting, which follows every import statement of a file an app loads and makes whatever the package loads
 * with import() live (scripts/doors.mjs says how the entries keep an app from reaching what it does not use).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkPackage, measureApp } from '../../bench/bundle-size.mjs';
import { REPO } from './helpers/models.js';

const SRC = join(REPO, 'ts/src');
/** `var A = 64 * 1024, B = A / 4;`: names bound to arithmetic on numbers and on such names. */
const NUMBER_CONSTANTS = /^var (?:[\w$]+ = [\w$ ()*\/+\-<>|&]+(?:, |;$))+$/;
/** Programs, not library modules: their top level is what they run. */
const PROGRAMS = /^(cli|commands|bench)\/|^worker\/worker\.ts$|^bake\/bake-worker\.ts$/;

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? modules(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

/**
 * Every library module imported for its side effects alone (`import "./x.ts"`), each forced to count as having side
 * effects (as modules merged into one chunk do): what esbuild keeps is the top-level code it cannot drop, by module.
 */
async function undroppable(files: string[]): Promise<Map<string, string>> {
  const result = await build({
    stdin: { contents: files.map((f) => `import ${JSON.stringify(f)};`).join('\n'), resolveDir: SRC, loader: 'js' },
    // minifySyntax as dist/ is built (it folds `64 * 1024`, which esbuild otherwise keeps as an expression)
    bundle: true, write: false, format: 'esm', minifySyntax: true, platform: 'neutral', target: 'es2022', logLevel: 'silent', mainFields: ['module', 'main'],
    // a licence's `/*!` comment is kept at the end of the output, not code
    legalComments: 'none',
    external: ['node:*', 'three'],
    plugins: [{
      name: 'library-modules-have-side-effects',
      setup(b) {
        b.onResolve({ filter: /.*/ }, async (a) => {
          // what import() loads is not part of the module (and would come wrapped, kept whole)
          if (a.kind === 'dynamic-import') return { path: a.path, external: true };
          if (a.pluginData) return undefined;
          const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: true });
          return r.errors.length || r.external || !r.path.startsWith(SRC) ? undefined : { path: r.path, sideEffects: true };
        });
      },
    }],
  });
  // esbuild labels each module's code with a `// path` line; its top-level statements start at column 0
  const kept = new Map<string, string>();
  for (const section of result.outputFiles[0].text.split(/^\/\/ (?=\S)/m).slice(1)) {
    const [path, ...code] = section.split('\n');
    // import statements of externals (node:*, three) are not code
    const text = code.join('\n').replace(/^import\b[^;]*?["'][^"']+["'];$/gm, '');
    // nor a number a minifier leaves computed (`var READ_CHUNK = 64 * 1024`: esbuild keeps such a product, rollup
    // drops it; it does nothing either way)
    const statements = text.split(/\n(?=\S)/).map((s) => s.trim()).filter(Boolean);
    const body = statements.filter((s) => !NUMBER_CONSTANTS.test(s)).join('\n');
    const file = path.replace(/^(\.\.\/)*/, '').replace(/^.*?ts\/src\//, '');
    if (body && !file.startsWith('node_modules/')) kept.set(file, body);
  }
  return kept;
}

/** Every library module (not the CLI's or the demo's programs). */
const library = modules(SRC).filter((f) => !PROGRAMS.test(relative(SRC, f)));

describe('tree shaking', () => {
  it("no library module's top level does work a bundler must keep (calls, `new`, spreads, loops at load)", async () => {
    expect(library.length).toBeGreaterThan(150);
    const kept = await undroppable(library);
    const report = [...kept].map(([file, code]) => `${file}:\n${code.split('\n').slice(0, 4).join('\n')}`).join('\n\n');
    expect(report).toBe('');
  });

  it('dist/ keeps the annotations (a minifier that removes whitespace drops them unless told not to)', () => {
    const text = (f: string) => readFileSync(join(REPO, 'dist', f), 'utf8');
    const shipped = readdirSync(join(REPO, 'dist')).filter((f) => /^(chunk-[A-Z0-9]+|browser|node|advanced|advanced-node|three|write)\.js$/.test(f)).map(text).join('\n');
    const annotations = (s: string) => s.match(/@__PURE__/g)?.length ?? 0;
    expect(annotations(shipped)).toBeGreaterThanOrEqual(library.reduce((n, f) => n + annotations(readFileSync(f, 'utf8')), 0));
    // two of them, as minified: zip-directory.ts's decoder and crc32.ts's tables
    expect(shipped).toMatch(/\/\* @__PURE__ \*\/\s*new TextDecoder\("utf-8"\)/);
    expect(shipped).toMatch(/\/\* @__PURE__ \*\/\s*\(\(\)=>\{let [\w$]+=new Uint32Array\(2048\)/);
  });

  it('the check sees a top level that does work (a table filled by a loop at load, a spread)', async () => {
    // the probe is real: a program's top level (it runs what it does) is kept
    const kept = await undroppable([join(SRC, 'bake/bake-worker.ts')]);
    expect([...kept.keys()]).toContain('bake/bake-worker.ts');
  });
});

/** Strings only other rooms hold: a format's magic or keyword, the glTF writer's extension names, glTF Transform's. */
const MARKERS = {
  md5Parser: '"MD5Version"', // the md5 grammar's first keyword
  md2Parser: 'IDP2',
  gltfExport: 'KHR_mesh_quantization',
  registry: 'an MD2 has one mesh and cannot be split', // a registration's writer capability
  gltfTransform: 'KHR_draco_mesh_compression', // glTF Transform's extension list (the id-format writers)
};

interface AppBuild {
  start: number;
  later: number;
  startCode: string;
}

describe('what an app built from dist/ carries', () => {
  let scratch: string;
  let app: string;
  const built = new Map<string, AppBuild>();
  const of = async (appId: string, bundler: string): Promise<AppBuild> => {
    const key = `${appId}/${bundler}`;
    if (!built.has(key)) built.set(key, (await measureApp(app, appId, bundler)) as unknown as AppBuild); // startCode: a non-enumerable property (bundle-size.mjs)
    return built.get(key)!;
  };
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'idtech-tree-shaking-'));
    app = linkPackage(REPO, scratch);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('an app that parses MD3 carries the MD3 parser: no other format, exporter or registration, under 8 KB gzip', async () => {
    // measured 4.5 KB (esbuild, splitting), 3.7 KB (esbuild, one file); 53 KB with splitting before the registry
    for (const bundler of ['esbuild-split', 'esbuild']) {
      const r = await of('md3', bundler);
      expect(r.start, bundler).toBeLessThan(8 * 1024);
      expect(r.later, bundler).toBe(0);
      for (const marker of Object.values(MARKERS)) expect(r.startCode.includes(marker), `${bundler}: ${marker}`).toBe(false);
      expect(r.startCode, bundler).toContain('IDP3'); // the measure sees the parser
    }
  });

  it('an app that streams an md5mesh carries the MD5 parser, without the registry and glTF Transform', async () => {
    for (const bundler of ['esbuild-split', 'esbuild']) {
      const r = await of('md5-stream', bundler);
      expect(r.startCode, bundler).toContain(MARKERS.md5Parser);
      for (const marker of [MARKERS.md2Parser, MARKERS.gltfExport, MARKERS.registry, MARKERS.gltfTransform]) expect(r.startCode.includes(marker), `${bundler}: ${marker}`).toBe(false);
      expect(r.start, bundler).toBeLessThan(20 * 1024); // measured 13.7 KB (splitting), 10.6 KB (one file)
    }
  });

  it("an app that exports glTF carries the exporters, not the registrations' writers (glTF Transform)", async () => {
    // esbuild without splitting puts what import() loads into the one file: through the registrations, every toGlb
    // app carried glTF Transform (170 KB gzip)
    const r = await of('md3-glb', 'esbuild');
    expect(r.startCode).toContain(MARKERS.gltfExport);
    expect(r.startCode.includes(MARKERS.gltfTransform)).toBe(false);
    expect(r.startCode.includes(MARKERS.registry)).toBe(false);
    // measured 38.9 KB (39.7 KB before the registry); 51.2 KB with IQM's and MDL's exporters (toGlb takes every
    // registered format: IQM's TS kernels, the Quake palette and MDL's skin decoding come with them); 57.9 KB since
    // each exporter is loaded by import() on first use (issue 37: a bundler with code splitting leaves them out of the
    // start, one without keeps each such module whole, as it cannot tree-shake a module namespace) and issue 36's bounds;
    // 66.5 KB with GoldSrc's exporter (issue 38: its run-length decoder, rigid skin and palette textures; its parser
    // stays out, formats/goldsrc/materials.ts)
    expect(r.start).toBeLessThan(68 * 1024);
  });
});

