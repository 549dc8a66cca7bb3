// What a browser fetches for one import of the package: each entry's files (itself and the chunks it imports
// statically; chunks it imports with import() are listed apart, fetched only when that code runs), raw and the sum
// of each file's gzip -9 bytes; and the two embedded WASM builds. Bytes are deterministic for one build.
//   node bench/bundle-size.mjs [--json]
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatRows, isMain, ROOT } from './lib.mjs';

const DIST = join(ROOT, 'dist');
const gz = (b) => gzipSync(b, { level: 9 }).length;

/** `file`'s static import graph (in dist/) and the chunks reachable only through import(). */
export function importGraph(file) {
  const statics = [];
  const lazy = new Set();
  const visit = (f, dynamic) => {
    if (statics.includes(f) || (dynamic && lazy.has(f))) return;
    if (dynamic) lazy.add(f);
    else statics.push(f);
    const code = readFileSync(join(DIST, f), 'utf8');
    // import/export … from "./x.js" and bare import "./x.js", minified or not (statements start a line or follow ; or })
    for (const m of code.matchAll(/(?:^|[;}])\s*(?:import|export)\s*(?:[^;'"()]*?\bfrom\s*)?["']\.\/([^"']+)["']/gm)) visit(m[1], dynamic);
    for (const m of code.matchAll(/\bimport\(\s*["']\.\/([^"']+)["']\s*\)/g)) visit(m[1], true);
  };
  visit(file, false);
  return { statics, lazy: [...lazy].filter((f) => !statics.includes(f)) };
}

const sizes = (files) => files.reduce((s, f) => {
  const b = readFileSync(join(DIST, f));
  return { raw: s.raw + b.length, gzip: s.gzip + gz(b) };
}, { raw: 0, gzip: 0 });

export function benchBundleSize() {
  const rows = [];
  for (const entry of ['browser.js', 'node.js', 'advanced.js', 'worker.js']) {
    const g = importGraph(entry);
    rows.push({ what: `${entry} + static chunks (${g.statics.length} files)`, ...sizes(g.statics) });
    if (g.lazy.length) rows.push({ what: `  loaded on demand (${g.lazy.length} files)`, ...sizes(g.lazy) });
  }
  for (const v of ['simd', 'scalar']) {
    const wasm = join(ROOT, 'ts/wasm', v, 'idtech_wasm_bg.wasm');
    if (existsSync(wasm)) {
      const b = readFileSync(wasm);
      rows.push({ what: `${v} .wasm (as built)`, raw: b.length, gzip: gz(b) });
    }
  }
  return { date: new Date().toISOString(), rows };
}

export function formatBundleSizeTable(r) {
  return formatRows(['what', 'raw bytes', 'gzip bytes'], r.rows.map((x) => [x.what, String(x.raw), String(x.gzip)]));
}

if (isMain(import.meta.url)) {
  const r = benchBundleSize();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : formatBundleSizeTable(r));
}
