// Small helpers to build the pages from data without ever parsing data as HTML.

/** Builds an element: attrs may hold class, text, on<event> handlers and plain attributes. */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Builds an SVG element the same way. */
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces root's children. */
export function mount(root, ...children) { root.replaceChildren(); append(root, children); }

/** The citation marker #<seq>@<12 hex of hash>, linking to the event in the timeline page. */
export function cite(space, seq, hash) {
  const marker = '#' + seq + (hash ? '@' + String(hash).slice(0, 12) : '');
  return h('a', { class: 'mono cite', href: route('timeline', { space, event: seq }), title: hash ? 'seq ' + seq + ', hash ' + hash : 'seq ' + seq, text: marker });
}

/** The hash of a console page with parameters. */
export function route(page, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return '#/' + page + (s ? '?' + s : '');
}

/**
 * A time as YYYY-MM-DD HH:MM:SSZ (UTC; '' for none), joined by a no-break space so that it
 * never wraps inside a table cell (nor between its digits and hyphens).
 */
export function fmtTime(t) {
  if (!t) return '';
  const d = new Date(t);
  return isNaN(d) ? String(t) : d.toISOString().replace('T', '\u00a0').replace(/\.\d+Z$/, 'Z');
}

/** A number with up to digits decimals. */
export function num(x, digits = 3) {
  if (x === undefined || x === null) return '';
  return Number(x).toLocaleString('en', { maximumFractionDigits: digits });
}

/** A table of rows (arrays of cells) under headers; opts.rowAttrs(i) gives each row's attributes. */
export function table(headers, rows, opts = {}) {
  const numeric = headers.map((c) => /^(events|lag|score|lane score|fused|rank|tokens|mentions|facts|weight|pending proposals)$/i.test(c));
  return h('table', { class: opts.class },
    h('thead', {}, h('tr', {}, headers.map((c, j) => h('th', { class: numeric[j] ? 'num' : null, text: c })))),
    h('tbody', {}, rows.map((r, i) => h('tr', opts.rowAttrs ? opts.rowAttrs(i) : {}, r.map((c, j) => h('td', { class: numeric[j] ? 'num' : null }, c))))));
}

/** Badges for labels. */
export function labels(list, cls = 'label') { return (list || []).map((l) => h('span', { class: 'badge ' + cls, text: l })); }

/** A definition list of [term, value] pairs (values may be nodes). */
export function kv(pairs) { return h('dl', { class: 'kv' }, pairs.filter(Boolean).flatMap(([k, v]) => [h('dt', { text: k }), h('dd', {}, v)])); }

/** An error box for e (an APIError or any error). */
export function errorBox(e) {
  const code = e && e.code ? ' (' + e.code + ')' : '';
  return h('div', { class: 'error', role: 'alert', text: (e && e.message ? e.message : String(e)) + code });
}

/** A pretty-printed JSON block. */
export function jsonBlock(v) { return h('pre', { class: 'mono', text: JSON.stringify(v, null, 2) }); }
