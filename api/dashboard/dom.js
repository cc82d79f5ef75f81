// Building DOM without innerHTML: every text from the API lands in a text
// node, so no answer or brand name can inject markup.

export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const svgNS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(svgNS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Number formats shared by every view.
export const fmt = {
  percent: (v) => (v == null ? '–' : `${v.toFixed(1)}%`),
  position: (v) => (v == null ? '–' : `#${v.toFixed(1)}`),
  points: (v) => (v == null ? 'no trend' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(1)}`),
  interval: (i) => (i == null ? '' : `95% CI ${i.low.toFixed(1)}–${i.high.toFixed(1)}%, n = ${i.n}`),
  count: (v) => (v == null ? '–' : v.toLocaleString('en')),
  time: (v) => (v == null ? 'never' : new Date(v).toLocaleString()),
};

// trend renders an arrow and its words; better tells which sign is an
// improvement (+1: up is better, -1: down is better).
export function trend(value, better = 1, unit = 'pts') {
  if (value == null) return el('span', { class: 'trend none' }, 'no trend');
  const dir = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  const good = value * better > 0 ? 'better' : value * better < 0 ? 'worse' : 'same';
  const arrow = { up: '▲', down: '▼', flat: '▶' }[dir];
  return el('span', { class: `trend ${good}`, dataset: { trend: String(value) } },
    el('span', { 'aria-hidden': 'true' }, arrow, ' '), `${fmt.points(value)} ${unit}`,
    el('span', { class: 'visually-hidden' }, ` (${good === 'same' ? 'unchanged' : good})`));
}
