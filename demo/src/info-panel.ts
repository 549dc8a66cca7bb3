/**
 * The side panel's "Model" section: what `idtech-models inspect FILE --json` says about each file of the model (its
 * registration's `inspect` summary: counts, names, limits; the raw JSON a click away), every warning with where it
 * is (file and byte offset, or line:column; ENGINE_LIMIT ones marked), and each surface's material — the shader in
 * effect, how its name was chosen and defined, the image found or, for a missing one, every path tried.
 */
import type { MaterialWarning, ParseWarning, ResolvedImage, ResolvedMaterial } from 'idtech-models';
import type { Inspected, Opened } from './protocol.js';
import { el } from './text.js';

/** `file:line:column` or `file @ byte N`: where a warning points. */
function position(file: string, w: { offset?: number; line?: number; column?: number }): string {
  if (w.line) return `${file}:${w.line}:${w.column ?? 0}`;
  return w.offset !== undefined && w.offset > 0 ? `${file} @ byte ${w.offset}` : file;
}

function warningItem(at: string, code: string, message: string): HTMLElement {
  const li = el('li');
  li.dataset.code = code;
  if (code === 'ENGINE_LIMIT') li.className = 'engine-limit';
  li.append(el('code', code), ` ${message} `, el('span', at, { class: 'at' }));
  return li;
}

function valueText(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ');
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

function summaryList(i: Inspected): HTMLElement {
  const box = el('div', '', { class: 'inspected' });
  box.append(el('h4', `${i.file} (${i.format})`));
  if (i.error) {
    box.append(el('p', i.error, { class: 'bad' }));
    return box;
  }
  const dl = el('dl');
  for (const [k, v] of Object.entries(i.summary ?? {})) {
    if (k === 'file' || k === 'warnings' || k === 'perMesh' || k === 'perSurface') continue;
    dl.append(el('dt', k), el('dd', valueText(v)));
    dl.lastElementChild!.setAttribute('data-key', k);
  }
  box.append(dl);
  for (const key of ['perMesh', 'perSurface'] as const) {
    const rows = i.summary?.[key] as Record<string, unknown>[] | undefined;
    if (!rows?.length) continue;
    const table = el('table', '', { class: 'small' });
    const cols = Object.keys(rows[0]);
    table.append(el('thead'));
    table.tHead!.append(el('tr'));
    for (const c of cols) table.tHead!.rows[0].append(el('th', c));
    const body = el('tbody');
    for (const r of rows) {
      const tr = el('tr');
      for (const c of cols) tr.append(el('td', valueText(r[c])));
      body.append(tr);
    }
    table.append(body);
    box.append(table);
  }
  const json = el('details');
  json.append(el('summary', 'inspect --json'), el('pre', JSON.stringify(i.summary, null, 1), { class: 'json' }));
  box.append(json);
  return box;
}

const NAME_SOURCE: Record<string, string> = { model: 'the model file', skin: 'a .skin file', 'cube-cfg': 'md5.cfg', 'beside-model': 'an image beside the model', none: 'nothing' };

function imageText(img: ResolvedImage | null): string {
  if (!img) return 'none named';
  if (img.builtin) return `${img.name} (an engine built-in: no file)`;
  if (img.path) return img.path;
  return `missing: "${img.name}" — tried ${img.tried.length ? img.tried.join(', ') : 'nothing'}`;
}

function materialRow(m: ResolvedMaterial, warnings: readonly MaterialWarning[]): HTMLElement {
  const li = el('li');
  const found = !!m.diffuse?.path;
  li.dataset.surface = m.surface;
  li.dataset.image = m.diffuse?.path ?? '';
  li.className = found ? 'found' : 'missing';
  const where = (at: { path: string; line: number; column: number }) => `${at.path}:${at.line}:${at.column}`;
  const named = m.nameSource.kind === 'skin' || m.nameSource.kind === 'cube-cfg' ? `${NAME_SOURCE[m.nameSource.kind]} (${where(m.nameSource.at)})` : NAME_SOURCE[m.nameSource.kind];
  const defined = m.definition.kind === 'shader' || m.definition.kind === 'mtr' ? `${m.definition.kind} ${m.definition.name} (${where(m.definition.at)})` : m.definition.kind === 'implicit' ? 'no definition: the name is the image' : m.definition.kind;
  li.append(el('strong', `${m.part ? `${m.part} ` : ''}"${m.surface}"`), ` ${m.shaderName || '(no shader)'}`);
  const facts = el('div', '', { class: 'small' });
  facts.append(`image: `, el('span', imageText(m.diffuse), { class: found ? 'path' : 'bad' }));
  facts.append(el('br'), `named by ${named}; defined by ${defined}; ${m.blendMode}${m.alphaTest ? `, alpha test ${m.alphaTest.written}` : ''}, ${m.sides === 'both' ? 'two-sided' : `${m.sides} faces`}${m.nodraw ? ', nodraw' : ''}`);
  if (m.normal) facts.append(el('br'), `normal map: ${imageText(m.normal)}`);
  // why a missing image is missing: the resolver's warnings about this surface's names
  const names = [m.shaderName, m.diffuse?.name].filter(Boolean).map((s) => s!.toLowerCase());
  for (const w of warnings.filter((w) => names.some((n) => w.message.toLowerCase().includes(n)))) facts.append(el('br'), el('span', `${w.code}: ${w.message}`, { class: 'bad' }));
  li.append(facts);
  return li;
}

export function showModelInfo(root: HTMLElement, o: Opened, inspected: Inspected[] | null, built: readonly ParseWarning[]): void {
  const parts: HTMLElement[] = [el('p', `${o.title}: ${o.path}`, { class: 'what' })];
  parts.push(el('h3', 'inspect'));
  if (inspected) parts.push(...inspected.map(summaryList));
  else parts.push(el('p', 'reading…', { class: 'small' }));

  const warnings = el('ul', '', { class: 'warnings', 'aria-label': 'Warnings' });
  for (const f of o.warnings) for (const w of f.warnings) warnings.append(warningItem(position(f.file, w), w.code, w.message));
  for (const w of o.materials.warnings) warnings.append(warningItem(w.path ? position(w.path, w) : 'materials', w.code, w.message));
  // what building it added (dropped weights, clips out of range, what three cannot draw): the model's warnings less
  // the parse and material ones listed above
  const parsed = new Set(o.warnings.flatMap((f) => f.warnings));
  const listed = (w: ParseWarning) => parsed.has(w) || o.materials.warnings.some((m) => m.code === w.code && w.message.endsWith(m.message));
  for (const w of built) if (!listed(w)) warnings.append(warningItem('drawing', w.code, w.message));
  parts.push(el('h3', `warnings (${warnings.childElementCount})`), warnings);

  const mats = el('ul', '', { class: 'materials', 'aria-label': 'Surfaces and their images' });
  for (const m of o.materials.materials) mats.append(materialRow(m, o.materials.warnings));
  parts.push(el('h3', `surfaces (${o.materials.materials.length})`), mats);
  root.replaceChildren(...parts);
}
