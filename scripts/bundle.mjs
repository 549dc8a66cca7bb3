// esbuild → dist/. The library's entry points come from package.json `exports` (docs/package.md): every
// condition object { types: './dist/types/X.d.ts', default: './dist/Y.js' } is one entry, ts/src/X.ts → dist/Y.js
// (tsc maps ts/src → dist/types, so the types path names the source). Adding a subpath is one line there.
//
// The entries are built together with code splitting, so `.`, `./advanced`, `./node`, `./three` and `./write` load
// one copy of every module (one ModelParseError class: `instanceof` holds across entries). Shared code lands in
// dist/chunk-*.js, beside worker.js: ModelWorker finds `./worker.js` relative to its own chunk. What browsers fetch
// is minified (the entries, their chunks, the workers: docs/package.md "Sizes" measures why); the CLI is one
// unminified file of its own (a separate process: sharing classes with it means nothing, and as an entry of the
// split build it cut the browser graph into more, smaller chunks); it is split on its own, by command.
//
// Node built-ins stay external, and so does `three` (the optional peer dependency of the `./three` entry: a user's
// bundler provides their copy; bundling ours would give them two three.js instances). A check on esbuild's metafile
// fails the build if a Node built-in is reachable from an entry that a browser can load (every entry but `.`'s `node` condition and `./node`), as platform 'browser' did when
// each entry was its own bundle. The worker is a standalone script (one file for users to serve), and so are the
// model viewer (dist/demo/) and the bench suite (neither ships). No source maps ship: see docs/package.md.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { minify as terser } from 'terser';
import { withDoors } from './doors.mjs';
import { entryImportsDirect } from './entry-imports.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** Every { types, default } target in `exports`, with whether a browser may load it. */
function libraryEntries(exports) {
  const entries = new Map(); // dist file → { source, browser }
  const visit = (target, subpath, conditions) => {
    if (typeof target !== 'object' || target === null) return;
    if (typeof target.types === 'string' && typeof target.default === 'string') {
      const source = target.types.replace(/^\.\/dist\/types\//, 'ts/src/').replace(/\.d\.ts$/, '.ts');
      const out = target.default.replace(/^\.\//, '');
      if (!/^dist\/[\w-]+\.js$/.test(out) || !source.startsWith('ts/src/')) throw new Error(`package.json exports["${subpath}"]: expected ./dist/types/X.d.ts → ./dist/Y.js, got ${JSON.stringify(target)}`);
      const nodeOnly = subpath === './node' || conditions.includes('node');
      const known = entries.get(out);
      if (known && known.source !== source) throw new Error(`${out} is built from both ${known.source} and ${source}`);
      entries.set(out, { source, browser: (known?.browser ?? false) || !nodeOnly });
      return;
    }
    for (const [condition, inner] of Object.entries(target)) visit(inner, subpath, [...conditions, condition]);
  };
  for (const [subpath, target] of Object.entries(exports)) visit(target, subpath, []);
  return entries;
}

const library = libraryEntries(pkg.exports);
const outName = (file) => file.replace(/^dist\//, '').replace(/\.js$/, '');

/**
 * Each format's `ModelEntry` module (`formats/<x>/model-entry.ts`: recognise the data, export it, find its materials)
 * is an entry of the split build too, whose file is not written: esbuild puts modules reached from the same entries
 * into one chunk, and every entry that reaches a format's `ModelEntry` reaches its registration (which includes it),
 * so the two shared a chunk. A registration's module names its capabilities by `import()` (inspect, play, view,
 * write …), and a user's esbuild with splitting makes every `import()` of a file the app loads an entry of the app's
 * build: `toGlb(parseMd3(bytes), { format: md3Model })` carried them all (issue 37, when `DEFAULT_MODELS` went: it
 * was reached where the registrations were not, which kept them apart). Found by name (`model-entry.ts`, and a
 * folder's other `*-model-entries.ts`: MD3's players and Tremulous models apart from `md3Model`), not listed.
 */
const modelEntries = readdirSync('ts/src/formats', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join('ts/src/formats', d.name))
      .filter((f) => /model-entr(y|ies)\.ts$/.test(f))
      .map((f) => ({ in: `ts/src/formats/${d.name}/${f}`, out: `${f.replace(/\.ts$/, '')}-${d.name}` })),
  );
const unwritten = new Set(modelEntries.map((e) => resolve('dist', `${e.out}.js`)));

/**
 * wasm-bindgen's glue falls back to `new URL('idtech_wasm_bg.wasm', import.meta.url)` when given no module; we
 * always pass the embedded bytes (kernels/wasm-backend.ts), so that branch is dead, but bundlers read the
 * expression as an asset to copy: Vite warns that the file does not exist, webpack fails to resolve it. The
 * branch throws instead.
 */
const wasmGlueWithoutUrl = {
  name: 'wasm-glue-without-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]ts[\\/]wasm[\\/]\w+[\\/]idtech_wasm\.js$/ }, async (args) => {
      const code = await readFile(args.path, 'utf8');
      const url = "new URL('idtech_wasm_bg.wasm', import.meta.url)";
      if (!code.includes(url)) throw new Error(`${args.path}: wasm-bindgen's default module URL is not where bundle.mjs expects it`);
      return { contents: code.replace(url, "(() => { throw new Error('idtech-models embeds its wasm: pass the bytes'); })()"), loader: 'js' };
    });
  },
};

/**
 * The standalone scripts (the two workers) carry the format registry, whose id-format writers load glTF Transform on
 * first use; a one-file script cannot load it later, and neither worker writes id formats. They get a writers module
 * that says so instead (the library's split build keeps the real one as a lazily loaded chunk).
 */
const noWriters = {
  name: 'no-writers-in-standalone-scripts',
  setup(b) {
    // each format's writer (formats/<format>/writer.ts), which its registration imports on first use
    b.onResolve({ filter: /^\.\/writer\.js$/ }, (args) => (/[\\/]formats[\\/][^\\/]+$/.test(args.resolveDir) ? { path: 'writer', namespace: 'no-writers' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'no-writers' }, () => ({
      contents: "const refuse = async () => { throw new Error('writing id formats is not part of this script: use idtech-models/write'); };\nexport const md2FromGltf = refuse, md3FromGltf = refuse, md5FromGltf = refuse, playerFromGltf = refuse, iqmFromGltf = refuse, mdlFromGltf = refuse, md2ModelFromGltf = refuse, md3ModelFromGltf = refuse, md5ModelFromGltf = refuse;",
      loader: 'js',
    }));
  },
};

rmSync('dist', { recursive: true, force: true }); // hashed chunk names: stale ones must not ship
// minify: the front door's static graph is ≤ 80 KB gzip with it, 119 KB without (bench/bundle-size.mjs).
const common = { bundle: true, minify: true, format: 'esm', target: 'es2022', logLevel: 'warning', plugins: [wasmGlueWithoutUrl] };

// The library's files are what users' bundlers read: the `/* @__PURE__ */` annotations of their top-level tables and
// registrations must reach them (a bundler keeps an unannotated call at the top level, and with it everything the
// call names). esbuild drops annotations when it minifies whitespace, by design (esbuild#1990), so it minifies syntax
// and identifiers here, and terser removes the whitespace keeping the annotations (docs/package.md, "What an app
// carries").
const split = build({
  ...common,
  minify: false,
  minifySyntax: true,
  minifyIdentifiers: true,
  write: false,
  entryPoints: [...[...library].map(([out, e]) => ({ in: e.source, out: outName(out) })), ...modelEntries],
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'neutral',
  external: ['node:*', 'three', 'three/*'],
  metafile: true,
  sourcemap: false,
});

/** Whitespace out, annotations kept: terser prints the module without its whitespace and comments but `@__PURE__`. */
async function compact(code) {
  const out = await terser(code, { module: true, compress: false, mangle: false, format: { comments: false, preserve_annotations: true, max_line_len: 200 } });
  return out.code;
}

const shipped = await Promise.all([
  split.then(async ({ metafile, outputFiles }) => {
    mkdirSync('dist', { recursive: true });
    const files = withDoors(outputFiles.filter((f) => !unwritten.has(f.path)), [...library.keys()].map((out) => resolve(out)));
    await Promise.all([...files].map(async ([path, text]) => writeFile(path, typeof text === 'string' ? await compact(text) : text)));
    if (process.env.IDTECH_METAFILE) writeFileSync(process.env.IDTECH_METAFILE, JSON.stringify(metafile));
    for (const [out, e] of library) if (e.browser) assertNoNodeBuiltins(metafile, out);
    return { metafile };
  }),
  // The CLI: dist/cli.js and, in dist/cli/, a chunk per command that main.ts loads when that command runs (so
  // `inspect` does not read `convert`'s glTF Transform and writers: docs/benchmarks-history.md, "The CLI as fast as the library").
  build({
    ...common,
    entryPoints: [{ in: 'ts/src/cli/run.ts', out: 'cli' }],
    outdir: 'dist',
    splitting: true,
    chunkNames: 'cli/[name]-[hash]',
    platform: 'node',
    external: ['node:*'],
    // the CLI's source imports the library through the package's entries; the build, from the defining modules
    // (scripts/entry-imports.mjs says why)
    plugins: [...common.plugins, entryImportsDirect({ dirs: ['ts/src/cli', 'ts/src/commands'].map((d) => resolve(d)), entries: [...library.values()].map((e) => resolve(e.source)) })],
    minify: false,
    sourcemap: false,
    metafile: true,
  }),
  build({ ...common, entryPoints: ['ts/src/worker/worker.ts'], outfile: 'dist/worker.js', platform: 'browser', sourcemap: false, metafile: true, plugins: [...common.plugins, noWriters] }),
  // The bake worker (BakePool): one standalone file too, for Web Workers and Node worker threads alike (Node's
  // spawner gives the thread a Web Worker's globals first; bake/node.ts).
  build({ ...common, entryPoints: ['ts/src/bake/bake-worker.ts'], outfile: 'dist/bake-worker.js', platform: 'browser', sourcemap: false, metafile: true, plugins: [...common.plugins, noWriters] }),
]);
// Not shipped (package.json `files`): bench/run.mjs's suite.
await build({ ...common, entryPoints: ['ts/src/bench/suite.ts'], outfile: 'dist/bench-suite.js', platform: 'node', sourcemap: true });
writeThirdPartyNotices(shipped.map((r) => r.metafile));
// The model viewer (demo/, docs/demo.md) imports 'idtech-models', 'idtech-models/advanced' and 'idtech-models/three'
// like any user would: esbuild resolves the package's own exports (dist/browser.js …, built above) with no special
// configuration, and bundles three (the page is the user's bundle here: one copy). It is one self-contained folder,
// dist/demo/, to put on any static host: index.html, style.css, main.js, worker.js (a module worker beside it, found
// by `new URL('./worker.js', import.meta.url)`), their shared and lazily loaded chunks (the zip reader; glTF
// Transform, loaded by the worker when an id format is written), and the default model. Not shipped in the package.
// The package's runtime-helper chunk is imported bare by its entries; esbuild notes that it drops such imports of a
// side-effect-free file, which is right (the chunk only defines helpers), so that note is silenced here.
// glTF Transform's Node-only branch (node:fs) stays an import the browser never runs.
await build({
  ...common,
  entryPoints: [{ in: 'demo/src/main.ts', out: 'main' }, { in: 'demo/src/worker.ts', out: 'worker' }],
  outdir: 'dist/demo',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'browser',
  sourcemap: true,
  external: ['node:*'],
  logOverride: { 'ignored-bare-import': 'silent' },
});
for (const f of ['index.html', 'style.css']) copyFileSync(`demo/${f}`, `dist/demo/${f}`);
mkdirSync('dist/demo/models/worm', { recursive: true });
for (const f of ['worm.md5mesh', 'worm.md5anim']) copyFileSync(`fixtures/default/${f}`, `dist/demo/models/worm/${f}`);

/**
 * dist/THIRD-PARTY-NOTICES.md: every npm package whose code the shipped files hold (from esbuild's metafiles: inputs
 * under node_modules with bytes in an output), its version, licence and licence text. The package bundles them
 * instead of depending on them (docs/package.md "Dependencies"), so their notices ship with it.
 */
function writeThirdPartyNotices(metafiles) {
  const packages = new Map(); // folder → name
  for (const m of metafiles) {
    for (const output of Object.values(m.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const at = input.lastIndexOf('node_modules/');
        if (at < 0 || bytesInOutput === 0) continue;
        const rest = input.slice(at + 'node_modules/'.length).split('/');
        const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
        packages.set(input.slice(0, at + 'node_modules/'.length) + name, name);
      }
    }
  }
  const sections = [...packages].sort((a, b) => a[1].localeCompare(b[1])).map(([folder, name]) => {
    const meta = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const file = readdirSync(folder).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    if (!file) throw new Error(`${name} is bundled into dist/ but ${folder} has no LICENSE file to ship`);
    return `## ${name} ${meta.version} (${meta.license})\n\n${meta.homepage ?? meta.repository?.url ?? ''}\n\n\`\`\`\n${readFileSync(join(folder, file), 'utf8').trim()}\n\`\`\`\n`;
  });
  const head = '# Third-party code in this package\n\nThe files in dist/ include code from these npm packages (bundled, not installed as dependencies). Their licences:\n';
  writeFileSync('dist/THIRD-PARTY-NOTICES.md', [head, ...sections].join('\n'));
}

/** Fails when `file` or any chunk it imports (statically or dynamically) imports a Node built-in. */
function assertNoNodeBuiltins(metafile, file) {
  const seen = new Set();
  const walk = (path, chain) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imp of metafile.outputs[path]?.imports ?? []) {
      if (imp.external && imp.path.startsWith('node:')) throw new Error(`${file} can be loaded in a browser but reaches the Node built-in '${imp.path}' (${[...chain, path].join(' → ')})`);
      if (!imp.external) walk(imp.path, [...chain, path]);
    }
  };
  walk(file, []);
}
