// Draws the house — ts/src's rooms on their floors and the imports between them — as docs/architecture.svg, from
// the code itself: floors from the ```layers block of docs/architecture.md, rooms from the folders (formats/md5 is a
// room of the formats floor), arrows from every relative import (weighted by how many files import across).
//   node scripts/house.mjs           write docs/architecture.svg
//   node scripts/house.mjs --check   exit 1 when the picture's rooms or arrows differ from the code's (the
//                                    architecture test runs this: the map stays true)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'ts/src');
const OUT = join(ROOT, 'docs/architecture.svg');

export function floors() {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /```layers\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/architecture.md has no ```layers block');
  return block[1].split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean).map((l) => l.split(/\s+/));
}

function files(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(n) && !n.endsWith('.d.ts') ? [p] : [];
  });
}

/** `formats/md5/mesh.ts` → `formats/md5`; `pose/md5-poser.ts` → `pose`; `index.ts` → `entry`. */
export function roomOf(file) {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return 'entry';
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

export function specifiers(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = [];
  for (const m of code.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/(?:^|[;\s])import\s*(['"])([^'"]+)\1/g)) out.push(m[2]);
  for (const m of code.matchAll(/import\(\s*(['"])([^'"]+)\1\s*\)/g)) out.push(m[2]);
  return out;
}

/** Rooms (with files and lines) and room → room arrows (with the number of importing files). */
export function survey() {
  const rooms = new Map();
  const arrows = new Map();
  for (const f of files(SRC)) {
    const room = roomOf(f);
    const text = readFileSync(f, 'utf8');
    const r = rooms.get(room) ?? { files: 0, lines: 0 };
    r.files++;
    r.lines += text.split('\n').length;
    rooms.set(room, r);
    const targets = new Set();
    for (const spec of specifiers(text)) {
      if (!spec.startsWith('.')) continue;
      const t = resolve(dirname(f), spec).replace(/\.js$/, '.ts');
      if (!t.startsWith(SRC + '/')) continue;
      const to = roomOf(t);
      if (to !== room) targets.add(to);
    }
    for (const to of targets) arrows.set(`${room} ${to}`, (arrows.get(`${room} ${to}`) ?? 0) + 1);
  }
  return { rooms, arrows };
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function draw() {
  const { rooms, arrows } = survey();
  const levels = floors();
  const W = 1200, FLOOR_H = 84, BOX_H = 44, TOP = 40, LEFT = 150;
  const pos = new Map();
  const rows = [];
  levels.forEach((names, i) => {
    const here = [...rooms.keys()].filter((r) => names.includes(r.split('/')[0])).sort();
    rows.push({ names, here, y: TOP + i * FLOOR_H });
  });
  // Box width grows with the square root of the room's lines; each floor's rooms are centred, so arrows fan out.
  for (const row of rows) {
    const gap = 24;
    const widths = row.here.map((r) => Math.min(320, Math.max(120, 6 * Math.sqrt(rooms.get(r).lines))));
    const span = widths.reduce((n, w) => n + w, 0) + gap * Math.max(0, widths.length - 1);
    let x = LEFT + (W - LEFT - 20 - span) / 2;
    row.here.forEach((r, k) => {
      pos.set(r, { x, y: row.y, w: widths[k] });
      x += widths[k] + gap;
    });
  }
  const H = TOP + levels.length * FLOOR_H + 20;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`);
  const edgeList = [...arrows.keys()].sort();
  out.push(`<desc>rooms: ${[...rooms.keys()].sort().join(' ')}; arrows: ${edgeList.join(', ')}</desc>`);
  out.push('<defs><marker id="a" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#667"/></marker>' +
    '<marker id="up" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c22"/></marker></defs>');
  out.push(`<rect width="${W}" height="${H}" fill="#fcfcfa"/>`);
  out.push(`<text x="16" y="22" font-size="15" font-weight="bold">idtech-models: ts/src, floors top to bottom; arrows are imports (width: files importing)</text>`);
  rows.forEach((row, i) => {
    out.push(`<rect x="8" y="${row.y - 6}" width="${W - 16}" height="${FLOOR_H - 12}" fill="${i % 2 ? '#f1f3f6' : '#f7f8fa'}" rx="4"/>`);
    out.push(`<text x="16" y="${row.y + BOX_H / 2 + 4}" fill="#555">${esc(row.names.join(' · '))}</text>`);
  });
  const rank = new Map();
  levels.forEach((names, i) => names.forEach((n) => rank.set(n, levels.length - i)));
  // Each arrow leaves its room's bottom and enters its target's top at its own place along the edge (sorted by the
  // other end's position), so parallel imports stay apart.
  const centre = (r) => pos.get(r).x + pos.get(r).w / 2;
  const drawn = edgeList.filter((k) => k.split(' ').every((r) => pos.has(r)));
  const slot = (room, list, other) => {
    const mine = list.filter((k) => k.split(' ')[other === 1 ? 0 : 1] === room).sort((a, b) => centre(a.split(' ')[other]) - centre(b.split(' ')[other]));
    return (key) => {
      const p = pos.get(room);
      return p.x + (p.w * (mine.indexOf(key) + 1)) / (mine.length + 1);
    };
  };
  for (const key of drawn) {
    const [from, to] = key.split(' ');
    const a = pos.get(from), b = pos.get(to);
    const upward = rank.get(to.split('/')[0]) >= rank.get(from.split('/')[0]);
    const x1 = slot(from, drawn, 1)(key), y1 = a.y + BOX_H, x2 = slot(to, drawn, 0)(key), y2 = b.y;
    const width = Math.min(4, 0.8 + Math.log2(arrows.get(key)));
    const mid = (y1 + y2) / 2;
    out.push(`<path d="M${x1.toFixed(1)},${y1} C${x1.toFixed(1)},${mid} ${x2.toFixed(1)},${mid} ${x2.toFixed(1)},${y2}" fill="none" stroke="${upward ? '#c22' : '#667'}" stroke-opacity="0.5" stroke-width="${width.toFixed(1)}" marker-end="url(#${upward ? 'up' : 'a'})"/>`);
  }
  for (const [r, p] of [...pos.entries()].sort()) {
    const info = rooms.get(r);
    out.push(`<rect x="${p.x.toFixed(1)}" y="${p.y}" width="${p.w.toFixed(1)}" height="${BOX_H}" rx="5" fill="#dfe8f3" stroke="#7d93ad"/>`);
    out.push(`<text x="${(p.x + 6).toFixed(1)}" y="${p.y + 18}" font-weight="bold">${esc(r === 'entry' ? 'index · advanced · node' : r)}</text>`);
    out.push(`<text x="${(p.x + 6).toFixed(1)}" y="${p.y + 35}" fill="#445">${info.files} files, ${info.lines} lines</text>`);
  }
  out.push('</svg>');
  return { svg: out.join('\n') + '\n', rooms: [...rooms.keys()].sort(), arrows: edgeList };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { svg, rooms, arrows } = draw();
  if (process.argv.includes('--check')) {
    const desc = /<desc>([^<]*)<\/desc>/.exec(readFileSync(OUT, 'utf8'))?.[1] ?? '';
    const want = `rooms: ${rooms.join(' ')}; arrows: ${arrows.join(', ')}`;
    if (desc !== want) {
      console.error('docs/architecture.svg is out of date: run node scripts/house.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, svg);
    console.error(`wrote docs/architecture.svg: ${rooms.length} rooms, ${arrows.length} arrows`);
  }
}
