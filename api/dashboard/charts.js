// SVG charts. Series are told apart by colour (the Okabe-Ito palette, safe
// for the common colour-vision deficiencies), by dash pattern and by marker
// shape, so no reader depends on colour alone. A missing value breaks the
// line: a gap, never a zero.

import { el, svg } from './dom.js';

export const palette = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
const dashes = ['', '6 4', '2 3', '8 3 2 3', '1 2', '10 4', '4 2 1 2'];
const shapes = ['circle', 'square', 'triangle', 'diamond', 'circle', 'square', 'triangle'];

function marker(i, x, y, attrs) {
  const r = 3.5;
  switch (shapes[i % shapes.length]) {
    case 'square': return svg('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...attrs });
    case 'triangle': return svg('path', { d: `M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z`, ...attrs });
    case 'diamond': return svg('path', { d: `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`, ...attrs });
    default: return svg('circle', { cx: x, cy: y, r, ...attrs });
  }
}

function swatch(i) {
  return svg('svg', { width: 28, height: 12, 'aria-hidden': 'true', class: 'swatch' },
    svg('line', { x1: 1, y1: 6, x2: 27, y2: 6, stroke: palette[i % palette.length], 'stroke-width': 2.5,
      'stroke-dasharray': dashes[i % dashes.length] || null }),
    marker(i, 14, 6, { fill: palette[i % palette.length] }));
}

// lineChart draws series over dates. Each series is {name, values}, values
// aligned with dates, null where nothing was measured. unit: 'percent'
// (0-100) or 'position' (1 at the top).
export function lineChart({ title, dates, series, unit = 'percent' }) {
  const W = 720, H = 260, L = 44, R = 12, T = 12, B = 34;
  const values = series.flatMap((s) => s.values).filter((v) => v != null);
  const lo = unit === 'position' ? 1 : 0;
  const hi = unit === 'position' ? Math.max(2, Math.ceil(Math.max(...values, 2))) : 100;
  const x = (i) => (dates.length === 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (dates.length - 1));
  const y = (v) => (unit === 'position' ? T + ((v - lo) * (H - T - B)) / (hi - lo) : T + ((hi - v) * (H - T - B)) / (hi - lo));
  const step = dates.length > 1 ? (W - L - R) / (dates.length - 1) : W - L - R;

  const grid = [];
  const ticks = unit === 'position' ? [...new Set([1, Math.round((1 + hi) / 2), hi])] : [0, 25, 50, 75, 100];
  for (const t of ticks) {
    grid.push(svg('line', { x1: L, x2: W - R, y1: y(t), y2: y(t), class: 'grid' }),
      svg('text', { x: L - 6, y: y(t) + 4, class: 'axis', 'text-anchor': 'end' }, unit === 'position' ? `#${t}` : `${t}%`));
  }
  const every = Math.max(1, Math.ceil(dates.length / 6));
  dates.forEach((d, i) => {
    if (i % every === 0 || i === dates.length - 1) {
      grid.push(svg('text', { x: x(i), y: H - 12, class: 'axis', 'text-anchor': 'middle' }, d.slice(5)));
    }
  });
  // Buckets where the first series (the own brand) has nothing measured.
  const gaps = dates.map((d, i) => (series[0] && series[0].values[i] == null
    ? svg('rect', { class: 'gap', x: x(i) - step / 2, y: T, width: step, height: H - T - B, dataset: { date: d } },
      svg('title', {}, `${d}: no data`))
    : null));

  const lines = series.map((s, si) => {
    const color = palette[si % palette.length];
    let d = '';
    let open = false;
    s.values.forEach((v, i) => {
      if (v == null) { open = false; return; }
      d += `${open ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
      open = true;
    });
    const points = s.values.map((v, i) => (v == null ? null
      : marker(si, x(i), y(v), { fill: color, class: 'point', dataset: { date: dates[i], value: String(v), series: s.name } },
        svg('title', {}, `${s.name}, ${dates[i]}: ${unit === 'position' ? `#${v.toFixed(1)}` : `${v.toFixed(1)}%`}`))));
    return svg('g', { class: 'series', dataset: { series: s.name } },
      svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': dashes[si % dashes.length] || null, class: 'line' }),
      points);
  });

  const table = el('table', { class: 'data' },
    el('caption', {}, title),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Date'), series.map((s) => el('th', { scope: 'col' }, s.name)))),
    el('tbody', {}, dates.map((d, i) => el('tr', {}, el('th', { scope: 'row' }, d),
      series.map((s) => el('td', {}, s.values[i] == null ? 'no data' : s.values[i].toFixed(1)))))));

  return el('figure', { class: 'chart' },
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: line chart of ${series.map((s) => s.name).join(', ')}` },
      grid, gaps, lines),
    el('figcaption', {}, el('ul', { class: 'legend' },
      series.map((s, i) => el('li', {}, swatch(i), ' ', s.name))),
    el('details', {}, el('summary', {}, 'Show the figures as a table'), el('div', { class: 'scroll' }, table))));
}

// barChart draws horizontal bars of percentages with their 95% intervals.
// rows: [{name, value, interval}].
export function barChart({ title, rows }) {
  const W = 480, rowH = 30, L = 150, R = 64;
  const H = rows.length * rowH + 8;
  const x = (v) => L + (v * (W - L - R)) / 100;
  return el('figure', { class: 'chart bars' },
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title },
      rows.map((r, i) => {
        const yTop = 4 + i * rowH;
        const color = palette[i % palette.length];
        return svg('g', { class: 'bar', dataset: { name: r.name, value: r.value == null ? '' : String(r.value) } },
          svg('text', { x: L - 8, y: yTop + 18, class: 'label', 'text-anchor': 'end' }, r.name.length > 20 ? `${r.name.slice(0, 19)}…` : r.name),
          r.value == null ? null : svg('rect', { x: L, y: yTop + 5, width: Math.max(1, x(r.value) - L), height: rowH - 12, fill: color,
            class: `pattern-${i % 3}` }),
          r.interval ? svg('line', { x1: x(r.interval.low), x2: x(r.interval.high), y1: yTop + 15, y2: yTop + 15, class: 'whisker' }) : null,
          svg('text', { x: W - R + 6, y: yTop + 18, class: 'value' }, r.value == null ? 'no data' : `${r.value.toFixed(1)}%`),
          svg('title', {}, `${r.name}: ${r.value == null ? 'no data' : `${r.value.toFixed(1)}%`}`));
      })),
    el('figcaption', { class: 'visually-hidden' }, title));
}

// stackBar draws one 100% bar split into labelled parts: [{label, count}].
export function stackBar(parts, name) {
  const total = parts.reduce((a, p) => a + p.count, 0);
  const W = 300, H = 18;
  let at = 0;
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'stack', role: 'img',
    'aria-label': `${name}: ${parts.map((p) => `${p.count} ${p.label}`).join(', ')}` },
  total === 0 ? svg('rect', { x: 0, y: 0, width: W, height: H, class: 'empty' })
    : parts.map((p, i) => {
      const w = (p.count * W) / total;
      const r = svg('rect', { x: at, y: 0, width: w, height: H, class: `part ${p.label}`, fill: [palette[2], '#999999', palette[1]][i] },
        svg('title', {}, `${p.count} ${p.label}`));
      at += w;
      return r;
    }));
}
