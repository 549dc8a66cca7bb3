/** The bench table: one row per backend with its ms per frame and a bar scaled to the slowest. */
import type { BackendName } from 'idtech-models';
import type { BackendBench } from './bench.js';

export function buildBenchRows(tbody: HTMLElement, names: BackendName[], onPick: (name: BackendName) => void): void {
  tbody.replaceChildren(
    ...names.map((name) => {
      const tr = document.createElement('tr');
      tr.dataset.backend = name;
      tr.title = `draw with ${name}`;
      tr.innerHTML = `<td class="name">${name}</td><td class="ms">–</td><td class="bar"><span style="width:0"></span></td>`;
      tr.addEventListener('click', () => onPick(name));
      return tr;
    }),
  );
}

export function updateBenchRows(tbody: HTMLElement, bench: BackendBench, active: BackendName, vertexCount: number): void {
  const rows = [...tbody.querySelectorAll<HTMLTableRowElement>('tr')];
  const values = rows.map((tr) => bench.msPerFrame(tr.dataset.backend as BackendName));
  const slowest = Math.max(...values.map((v) => v ?? 0));
  rows.forEach((tr, i) => {
    const v = values[i];
    tr.classList.toggle('active', tr.dataset.backend === active);
    if (v === undefined) return;
    tr.dataset.ms = String(v);
    tr.querySelector('.ms')!.textContent = v < 0.1 ? v.toFixed(4) : v.toFixed(3);
    tr.querySelector<HTMLElement>('.bar span')!.style.width = `${slowest > 0 ? (100 * v) / slowest : 0}%`;
    tr.title = `${tr.dataset.backend}: ${(vertexCount / v / 1000).toFixed(1)} Mvert/s`;
  });
}
