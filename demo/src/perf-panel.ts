/**
 * The side panel's "Performance" section: the model's files and their sizes; where the time from the pick to the
 * first drawn frame went (in the worker: reading and parsing, posing every frame into the view, finding the
 * materials, reading the images; on the page: the three.js build with its textures, then the first frame); how
 * long listing what was opened took; and the WASM-against-TS table — ms per pose of the clip on every backend,
 * measured in the worker, with bars against the slowest.
 */
import type { BenchResult, Opened } from './protocol.js';
import { el, msText, sizeText } from './text.js';

export interface PageTimes {
  /** Building the three.js objects (textures decoded) on the page. */
  build: number;
  /** From the pick to the first frame drawn with the model. */
  firstFrame: number;
}

export function showPerformance(root: HTMLElement, o: Opened, page: PageTimes | null, listMs: number | null): void {
  const files = el('table', '', { class: 'small', 'aria-label': 'Files of the model' });
  files.append(el('tbody'));
  let total = 0;
  for (const f of o.files) {
    const tr = el('tr');
    tr.dataset.path = f.path;
    tr.dataset.size = String(f.size);
    tr.append(el('td', f.path), el('td', sizeText(f.size), { class: 'num' }));
    files.tBodies[0].append(tr);
    total += f.size;
  }
  const times = el('table', '', { class: 'small', 'aria-label': 'Times' });
  times.append(el('tbody'));
  const row = (what: string, ms: number, key: string) => {
    const tr = el('tr');
    tr.dataset.time = key;
    tr.append(el('td', what), el('td', msText(ms), { class: 'num' }));
    times.tBodies[0].append(tr);
  };
  row('read + parse (worker)', o.times.parse, 'parse');
  row('pose frames into the view (worker)', o.times.view, 'view');
  row('materials (worker)', o.times.materials, 'materials');
  row('read images (worker)', o.times.images, 'images');
  if (page) {
    row('build three.js objects + textures (page)', page.build, 'build');
    row('pick → first frame', page.firstFrame, 'first-frame');
  }
  if (listMs !== null) row('list what was opened (worker)', listMs, 'list');
  root.querySelector('#perf-model')!.replaceChildren(el('p', `${o.files.length} files, ${sizeText(total)}`, { class: 'small' }), files, times);
}

export function showBench(table: HTMLTableElement, r: BenchResult | null): void {
  const body = table.tBodies[0];
  if (!r) {
    body.replaceChildren();
    return;
  }
  const slowest = Math.max(...Object.values(r.ms));
  body.replaceChildren(
    ...Object.entries(r.ms).map(([backend, ms]) => {
      const tr = el('tr');
      tr.dataset.backend = backend;
      tr.dataset.ms = String(ms);
      const bar = el('span');
      bar.style.width = `${(ms / slowest) * 100}%`;
      const barCell = el('td', '', { class: 'bar' });
      barCell.append(bar);
      tr.append(el('td', backend), el('td', msText(ms), { class: 'num' }), barCell);
      return tr;
    }),
  );
  table.caption!.textContent = `ms per pose of "${r.clip}" (${r.vertexCount} vertices, positions and normals), in the worker`;
}
