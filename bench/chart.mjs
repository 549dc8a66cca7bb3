// A small hand-written SVG: skin throughput (Mvert/s) per model, one bar per backend, with the value printed.
const COLORS = { 'wasm-simd': '#2b7bb9', 'wasm-scalar': '#7fb2dc', ts: '#e08a2c', native: '#666666' };

export function chartSvg(results) {
  const backends = ['wasm-simd', 'wasm-scalar', 'ts', 'native'];
  const barH = 14, gap = 4, groupGap = 18, left = 190, width = 760;
  const max = Math.max(1, ...results.flatMap((r) => backends.map((b) => r.backends[b]?.skin_mverts_per_s ?? 0)));
  const scale = (width - left - 90) / max;
  let y = 40;
  const rows = [];
  for (const r of results) {
    rows.push(`<text x="10" y="${y + barH}" font-weight="bold">${esc(r.model)}</text>`);
    rows.push(`<text x="10" y="${y + barH * 2 + 2}" fill="#555">${r.vertices.toLocaleString('en')} vertices</text>`);
    for (const b of backends) {
      const v = r.backends[b]?.skin_mverts_per_s;
      if (v == null) continue;
      const w = Math.max(1, v * scale);
      rows.push(`<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[b]}"/>`);
      rows.push(`<text x="${left + w + 4}" y="${y + barH - 3}">${v.toFixed(1)} ${b}</text>`);
      y += barH + gap;
    }
    y += groupGap;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 10}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="22" font-size="15" font-weight="bold">Skinning throughput, million vertices per second (higher is better)</text>
${rows.join('\n')}
</svg>
`;
}

const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
