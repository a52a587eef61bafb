// Graph view: with no entity chosen, the whole space bounded (the most connected entities and
// the current facts linking them); for an entity, its neighbourhood: the entities and values its facts link it to (edges
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
    const [idx, facts] = await Promise.all([
      api('GET', spacePath(space, '/index'), undefined, { max_tokens: 500 }),
      api('GET', spacePath(space, '/facts'), undefined, { limit: spaceFactLimit }),
    ]);
    mount(body, drawSpace(space, facts.facts, go),
      h('p', { class: 'muted', text: 'Or choose an entity to see its neighbourhood:' }),
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

/** How many current facts the whole-space view reads, and how many nodes it draws. */
const spaceFactLimit = 500;
const spaceEntityLimit = 40;
const spaceNodeLimit = 70;

/**
 * The whole space as one bounded graph from its first spaceFactLimit current facts: the
 * spaceEntityLimit entities in the most facts on an inner ring, the values of their facts on an
 * outer one (up to spaceNodeLimit nodes in all), edges labelled by predicate; clicking an
 * entity opens its neighbourhood.
 */
function drawSpace(space, facts, go) {
  const degree = new Map();
  const names = new Map();
  for (const f of facts) {
    for (const e of [f.subject, f.object].filter(Boolean)) { degree.set(e.id, (degree.get(e.id) || 0) + 1); names.set(e.id, e.name); }
  }
  const kept = [...degree.entries()].sort((x, y) => y[1] - x[1] || names.get(x[0]).localeCompare(names.get(y[0]))).slice(0, spaceEntityLimit).map(([id]) => id);
  const keep = new Set(kept);
  const edges = [];
  const values = [];
  for (const f of facts) {
    if (!keep.has(f.subject.id)) continue;
    if (f.object) {
      if (keep.has(f.object.id) && f.object.id !== f.subject.id) edges.push({ f, to: f.object.id });
    } else if (kept.length + values.length < spaceNodeLimit) {
      values.push({ key: 'v:' + f.id, label: valueText(f.value), subject: f.subject.id });
      edges.push({ f, to: 'v:' + f.id });
    }
  }
  const W = 1000, H = 560, cx = W / 2, cy = H / 2;
  // Entities on an inner ring; each entity's values fanned out beyond it on an outer one.
  const angle = new Map(kept.map((id, i) => [id, 2 * Math.PI * i / Math.max(1, kept.length) - Math.PI / 2]));
  const at = (a, rx, ry) => [cx + rx * Math.cos(a), cy + ry * Math.sin(a)];
  const pos = new Map(kept.map((id) => [id, at(angle.get(id), values.length ? 260 : 420, values.length ? 140 : 230)]));
  const fan = Math.min(0.35, Math.PI / Math.max(1, kept.length));
  for (const id of kept) {
    const mine = values.filter((v) => v.subject === id);
    mine.forEach((v, j) => pos.set(v.key, at(angle.get(id) + (j - (mine.length - 1) / 2) * fan / Math.max(1, mine.length - 1) * 2, 450, 250)));
  }
  const short = (t) => (t.length > 28 ? t.slice(0, 27) + '…' : t);
  const g = svg('svg', { class: 'graph', id: 'space-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'the entities of ' + space + ' and their current facts' },
    edges.map(({ f, to }) => {
      const [x1, y1] = pos.get(f.subject.id), [x2, y2] = pos.get(to);
      return svg('g', { 'data-fact': f.id },
        svg('line', { class: 'edge', x1, y1, x2, y2 }),
        svg('text', { class: 'edge-label', x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, 'text-anchor': 'middle' }, f.predicate));
    }),
    values.map((v) => {
      const [x, y] = pos.get(v.key);
      return svg('g', { 'data-node': v.key }, svg('circle', { class: 'node-value', cx: x, cy: y, r: 6 }, svg('title', {}, v.label)),
        svg('text', { x, y: y + 18, 'text-anchor': 'middle' }, short(v.label)));
    }),
    kept.map((id) => {
      const [x, y] = pos.get(id);
      const name = names.get(id);
      return svg('g', { 'data-node': 'e:' + id, onclick: () => go('graph', { entity: id }) },
        svg('circle', { class: 'node-entity', cx: x, cy: y, r: 8 }, svg('title', {}, name + ' (' + degree.get(id) + ' current facts)')),
        svg('text', { x, y: y + 20, 'text-anchor': 'middle' }, short(name)));
    }));
  const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
  return h('section', {},
    kept.length ? g : h('p', { class: 'muted', text: 'No current fact yet.' }),
    h('p', { class: 'muted', id: 'space-graph-bounds', text: `${kept.length} of ${plural(degree.size, 'entity', 'entities')} (those in the most facts), ${plural(values.length, 'value', 'values')} and ${plural(edges.length, 'edge', 'edges')}, from ${plural(facts.length, 'current fact', 'current facts')}` +
      (facts.length >= spaceFactLimit ? ' (the first ' + spaceFactLimit + '; the space holds more)' : '') + '.' }));
}

function valueText(v) { return v === undefined || v === null ? '' : (typeof v === 'string' ? v : JSON.stringify(v)); }
