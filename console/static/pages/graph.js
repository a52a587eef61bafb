// Graph view of an entity's neighbourhood: the entities and values its facts link it to (edges
// labelled by predicate, dashed when the fact is no longer current), the events that mention it
// and the current latent artifacts covering it (GET /artifacts?entity=), each linked to the
// artifacts page. Drawn as SVG.
import { api, spacePath, itemPath } from '../api.js';
import { h, svg, mount, route, cite, table, num } from '../dom.js';
import { fetchArtifacts } from './artifacts.js';

export async function render(root, { space, params, go }) {
  const form = h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('graph', { entity: form.elements.entity.value.trim() }); } },
    h('label', {}, 'entity (name or id)', h('input', { type: 'text', name: 'entity', value: params.entity || '', class: 'wide' })),
    h('button', { type: 'submit', text: 'Show' }));
  const body = h('div', { id: 'graph-body' });
  mount(root, h('h1', { text: 'Graph' }), form, body);
  if (!params.entity) {
    const idx = await api('GET', spacePath(space, '/index'), undefined, { max_tokens: 500 });
    mount(body, h('p', { class: 'muted', text: 'Choose an entity:' }),
      h('ul', {}, idx.entities.map((e) => h('li', {}, h('a', { href: route('graph', { space, entity: e.ref }), text: e.name }), ' (' + e.count + ')'))));
    return;
  }
  const resolved = await api('GET', spacePath(space, '/entities/' + encodeURIComponent(params.entity)));
  const it = await api('GET', itemPath(space, resolved.entity.id));
  const arts = await fetchArtifacts(space, { entity: resolved.entity.id });
  draw(body, space, it.entity, arts, go);
}

function draw(root, space, e, arts, go) {
  const nodes = new Map(); // key -> {label, kind, href, click}
  const edges = [];
  const add = (key, node) => { if (!nodes.has(key)) nodes.set(key, node); return key; };
  add('center', { label: e.name, kind: 'center' });
  for (const f of e.facts) {
    const outgoing = f.subject.id === e.id;
    const other = outgoing ? f.object : f.subject;
    let key;
    if (other && other.id !== e.id) key = add('e:' + other.id, { label: other.name, kind: 'entity', click: () => go('graph', { entity: other.id }) });
    else if (!outgoing || !other) key = add('v:' + f.id, { label: valueText(f.value), kind: 'value' });
    else continue;
    edges.push({ from: outgoing ? 'center' : key, to: outgoing ? key : 'center', label: f.predicate, current: f.status === 'current', fact: f.id });
  }
  for (const m of e.mentioned_in) {
    const key = add('ev:' + m.seq, { label: '#' + m.seq + ' ' + m.type, kind: 'event', click: () => go('timeline', { event: m.seq }) });
    edges.push({ from: key, to: 'center', label: 'mentions', current: true });
  }
  const artList = arts.artifacts;
  for (const a of artList) {
    const key = add('a:' + a.artifact_id, { label: a.artifact_type + ': ' + a.summary, kind: 'artifact',
      click: () => go('artifacts', { type: a.artifact_type, entity: e.id }) });
    edges.push({ from: key, to: 'center', label: 'covers', current: !a.stale_at });
  }
  // Radial layout: facts' neighbours on the inner ring, events and artifacts on the outer one.
  const W = 1000, H = 560, cx = W / 2, cy = H / 2;
  const inner = [...nodes.entries()].filter(([, n]) => n.kind === 'entity' || n.kind === 'value');
  const outer = [...nodes.entries()].filter(([, n]) => n.kind === 'event' || n.kind === 'artifact');
  const pos = new Map([['center', [cx, cy]]]);
  inner.forEach(([k], i) => { const a = 2 * Math.PI * i / Math.max(1, inner.length) - Math.PI / 2; pos.set(k, [cx + 200 * Math.cos(a), cy + 150 * Math.sin(a)]); });
  outer.forEach(([k], i) => { const a = 2 * Math.PI * (i + 0.5) / Math.max(1, outer.length) - Math.PI / 2 + 0.35; // off the inner ring's spokes
    pos.set(k, [cx + 420 * Math.cos(a), cy + 240 * Math.sin(a)]); });
  const g = svg('svg', { class: 'graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'neighbourhood of ' + e.name },
    edges.map((ed) => {
      const [x1, y1] = pos.get(ed.from), [x2, y2] = pos.get(ed.to);
      return svg('g', {},
        svg('line', { class: 'edge', x1, y1, x2, y2, 'stroke-dasharray': ed.current ? null : '4 3' }),
        ed.label !== 'mentions' ? svg('text', { class: 'edge-label', x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, 'text-anchor': 'middle' }, ed.label) : null);
    }),
    [...nodes.entries()].map(([k, n]) => {
      const [x, y] = pos.get(k);
      return svg('g', { 'data-node': k, onclick: n.click },
        svg('circle', { class: 'node-' + n.kind, cx: x, cy: y, r: n.kind === 'center' ? 14 : 8 }, svg('title', {}, n.label)),
        svg('text', { x, y: y + (n.kind === 'center' ? 28 : 20), 'text-anchor': 'middle' }, n.label.length > 32 ? n.label.slice(0, 31) + '…' : n.label));
    }));
  mount(root,
    h('p', { class: 'legend' }, h('span', {}, h('i', { class: 'swatch center' }), 'entity'), h('span', {}, h('i', { class: 'swatch entity' }), 'related entity'),
      h('span', {}, h('i', { class: 'swatch value' }), 'value'), h('span', {}, h('i', { class: 'swatch event' }), 'mentioning event'),
      h('span', {}, h('i', { class: 'swatch artifact' }), 'artifact'), h('span', { class: 'muted', text: 'dashed: no longer current' })),
    g,
    h('p', { class: 'muted' }, `${e.facts.length} of ${e.facts_total} fact versions, ${e.mentioned_in.length} of ${e.mentioned_in_total} mentioning events; `,
      `${artList.length} artifacts${arts.next_after ? ' (the first page)' : ''}. `,
      h('a', { href: route('artifacts', { space, entity: e.id }), text: 'artifacts' }), ', ',
      h('a', { href: route('entity', { space, entity: e.id }), text: 'fact history' })),
    table(['predicate', 'other side', 'status', 'recorded'], e.facts.map((f) => [f.predicate,
      f.subject.id === e.id ? (f.object ? f.object.name : valueText(f.value)) : f.subject.name + ' (as subject)', f.status, cite(space, f.recorded_seq, f.recorded_hash)])),
    h('p', { class: 'muted', text: num(nodes.size - 1, 0) + ' neighbours.' }));
}

function valueText(v) { return v === undefined || v === null ? '' : (typeof v === 'string' ? v : JSON.stringify(v)); }
