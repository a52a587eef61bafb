// Find memory: a query ranked as checkout ranks it (POST /query with no_record, so looking
// reinforces nothing), or the same words as a keyword filter of the log; the ranked items can
// be narrowed by kind, session and date. Each item links to where it can be read in full and
// acted on: an event in the log, a fact on its page.
import { api, spacePath } from '../api.js';
import { h, mount, route, fmtTime, num, cite, labels } from '../dom.js';

/** The page showing item id of space in full: an event in the log, a fact or an entity. */
export function itemRoute(space, id) {
  if (id.startsWith('ev:')) return route('log', { space, event: id.slice(3) });
  if (id.startsWith('fact:')) return route('entity', { space, fact: id.slice(5) });
  return route('entity', { space, entity: id });
}

export async function render(root, { space, params, go }) {
  const f = { q: params.q || '', kind: params.kind || '', session: params.session || '', from: params.from || '', to: params.to || '' };
  const form = h('form', { class: 'inline', id: 'find-form', onsubmit: (ev) => {
    ev.preventDefault();
    const el = form.elements;
    const next = Object.fromEntries(Object.keys(f).map((k) => [k, el[k].value.trim()]));
    if (ev.submitter && ev.submitter.dataset.mode === 'keyword') go('log', { q: next.q, session: next.session, from: next.from, to: next.to });
    else go('find', next);
  } },
  h('label', {}, 'find', h('input', { type: 'text', name: 'q', class: 'wide', value: f.q, placeholder: 'what are you looking for?' })),
  h('label', {}, 'kind', h('input', { type: 'text', name: 'kind', value: f.kind, placeholder: 'any kind', size: 12 })),
  h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: f.session, placeholder: 'any session', size: 10 })),
  h('label', {}, 'from', h('input', { type: 'date', name: 'from', value: f.from })),
  h('label', {}, 'to', h('input', { type: 'date', name: 'to', value: f.to })),
  h('button', { type: 'submit', 'data-mode': 'ranked', text: 'Rank as checkout does' }),
  h('button', { type: 'submit', 'data-mode': 'keyword', text: 'Keyword in the log' }));
  const out = h('div', { id: 'find-results' });
  mount(root, h('h1', { text: 'Find memory' }), form, out);
  if (!f.q) {
    mount(out, h('p', { class: 'muted', text: 'Type what you are looking for. Ranking asks POST /query with no_record: looking reinforces nothing.' }));
    return;
  }
  const ranked = await api('POST', spacePath(space, '/query'), { query: f.q, limit: 100, no_record: true });
  const items = ranked.items.filter((it) => {
    if (f.kind && it.kind !== f.kind) return false;
    if (f.session && (it.session_id || '') !== f.session) return false;
    const day = String(it.occurred_at || '').slice(0, 10);
    if (f.from && (!day || day < f.from)) return false;
    if (f.to && (!day || day > f.to)) return false;
    return true;
  });
  mount(out,
    h('p', { class: 'muted', text: `${items.length} of the ${ranked.items.length} best ranked items pass the filters (policy ${ranked.policy_version || '—'}).` }),
    items.length ? h('table', { class: 'found' },
      h('thead', {}, h('tr', {}, ['#', 'item', 'kind', 'text', 'score', 'session', 'occurred', 'cites'].map((c) => h('th', { class: c === 'score' || c === '#' ? 'num' : null, text: c })))),
      h('tbody', {}, items.map((it, i) => h('tr', { 'data-item-id': it.item_id },
        h('td', { class: 'num', text: String(i + 1) }),
        h('td', {}, h('a', { class: 'mono', href: itemRoute(space, it.item_id), text: it.item_id.length > 20 ? it.item_id.slice(0, 20) + '…' : it.item_id, title: it.item_id })),
        h('td', {}, h('span', { class: 'badge type', text: it.kind })),
        h('td', {}, it.text, ' ', labels(Object.entries(it.labels || {}).filter(([, v]) => v === true).map(([k]) => k))),
        h('td', { class: 'num', text: num(it.score, 4) }),
        h('td', {}, it.session_id ? h('a', { href: route('log', { space, session: it.session_id }), text: it.session_id }) : ''),
        h('td', { class: 'muted nowrap', text: fmtTime(it.occurred_at) }),
        h('td', {}, (it.citations || []).map((c) => [cite(space, c.seq, c.hash), ' ']))))))
      : h('p', { class: 'muted', text: 'Nothing ranked passes the filters.' }));
}
