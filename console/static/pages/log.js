// The log: every event of a space (bookkeeping included), newest first, from GET /events, with
// filters by type, session, actor, date and keyword. Choosing an event shows it in full with
// the actions that can be taken on it; an action's event appears here as it lands (landed=).
import { api, spacePath } from '../api.js';
import { h, mount, route, fmtTime, cite, errorBox, kv, jsonBlock } from '../dom.js';
import { showEvent, eventSummary } from './timeline.js';
import { salienceHistory } from './salience.js';

/** How many seqs back the checkouts and signals naming an item are looked for. */
export const surfacedSpan = 3000;

/** Whether event e (a pin, unpin, feedback or invalidation) names item id ("ev:<seq>", "fact:<id>"). */
export function names(e, id) {
  const d = e.data || {};
  const seq = id.startsWith('ev:') ? Number(id.slice(3)) : null;
  const fact = id.startsWith('fact:') ? id.slice(5) : null;
  switch (e.type) {
    case 'memory.pinned': case 'memory.unpinned': case 'feedback.recorded':
      return (seq !== null && (d.target_seqs || []).includes(seq)) || (d.item_ids || []).includes(id);
    case 'memory.invalidated':
      return (seq !== null && d.target_seq === seq) || (fact !== null && d.target_id === fact);
    default: return false;
  }
}

/**
 * The item's use and signals, as three cards: its salience over time (salience.js); the
 * recorded checkouts (checkout.surfaced) among the last surfacedSpan seqs that surfaced item
 * id, newest first, each with its tier and a link to the checkouts page; and the pins, unpins,
 * feedback and invalidations naming it there, the events its salience is computed from.
 */
export async function surfacedIn(space, id) {
  const head = await headSeq(space);
  const recent = await eventsBetween(space, Math.max(0, head - surfacedSpan), head);
  const records = recent.filter((e) => e.type === 'checkout.surfaced' && (e.data.items || []).some((it) => it.item_id === id));
  const signals = recent.filter((e) => names(e, id));
  const within = head > surfacedSpan ? ' in the last ' + surfacedSpan + ' events.' : '.';
  return [
    await salienceHistory(space, id),
    h('section', { class: 'card', id: 'surfaced-in' },
      h('h3', { text: 'Surfaced by checkouts' }),
      records.length ? h('ul', {}, records.map((e) => h('li', { 'data-checkout-seq': e.seq },
        h('a', { href: route('checkouts', { space, session: e.session_id, seq: e.seq }), text: '#' + e.seq }), ' ',
        fmtTime(e.recorded_at), e.session_id ? ' in session ' + e.session_id : '', ' as ',
        h('span', { class: 'badge', text: e.data.items.find((it) => it.item_id === id).tier }))))
        : h('p', { class: 'muted', text: 'No recorded checkout surfaced it' + within })),
    h('section', { class: 'card', id: 'signals' },
      h('h3', { text: 'Pins, feedback and invalidations' }),
      signals.length ? h('ul', {}, signals.map((e) => h('li', { 'data-signal-seq': e.seq },
        cite(space, e.seq, e.hash), ' ', fmtTime(e.recorded_at), ' ', h('span', { class: 'badge type', text: e.type }), ' by ' + (e.actor || '—') + ': ', eventSummary(e))))
        : h('p', { class: 'muted', text: 'None' + within })),
  ];
}

/** How many seqs a page of the log spans. */
export const pageSpan = 300;

/**
 * The events of space with seq in (after, until] (until 0: the head), in the session when one
 * is given, newest first: GET /events pages followed to the end of the range.
 */
export async function eventsBetween(space, after, until, session) {
  const out = [];
  let cursor = after;
  for (;;) {
    const page = await api('GET', spacePath(space, '/events'), undefined, { after_seq: cursor, until_seq: until || undefined, session_id: session, limit: 1000 });
    out.push(...page.events);
    if (!page.next_after_seq || !page.events.length) break;
    cursor = page.next_after_seq;
  }
  return out.reverse();
}

/** The space's head seq, read afresh (the space list the shell keeps may be older). */
export async function headSeq(space) {
  const list = await api('GET', '/v1/spaces');
  const s = list.spaces.find((x) => x.space_id === space);
  return s ? s.head_seq : 0;
}

/** Whether event e passes the filters f (type, actor, from, to, q). */
export function passes(e, f) {
  if (f.type && e.type !== f.type && !(f.type.endsWith('.*') && e.type.startsWith(f.type.slice(0, -1)))) return false;
  if (f.actor && (e.actor || '') !== f.actor) return false;
  const day = String(e.occurred_at || '').slice(0, 10);
  if (f.from && day < f.from) return false;
  if (f.to && day > f.to) return false;
  if (f.q) {
    const hay = ((e.content || '') + ' ' + JSON.stringify(e.data || {})).toLowerCase();
    if (!f.q.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w))) return false;
  }
  return true;
}

/** Whether events of type typ are Zaxy's own bookkeeping, which GET /items never shows. */
export function bookkeeping(typ) { return ['checkout.', 'zaxy.', 'erasure.'].some((p) => typ.startsWith(p)); }

/** A bookkeeping event in full, from the log itself: never memory, so nothing to act on. */
function bookkeepingCard(space, e) {
  return h('section', { class: 'card', 'data-event': e.seq },
    h('h2', {}, 'Event ', cite(space, e.seq, e.hash), ' ', h('span', { class: 'badge type', text: e.type }), ' ', h('span', { class: 'badge', text: 'bookkeeping' })),
    kv([['actor', e.actor || '—'], ['session', e.session_id || '—'], ['occurred', fmtTime(e.occurred_at)], ['recorded', fmtTime(e.recorded_at)],
      ['hash', h('code', { text: e.hash })], ['prev hash', h('code', { text: e.prev_hash || '—' })]]),
    e.type === 'checkout.surfaced' ? h('p', {}, h('a', { id: 'to-checkout', href: route('checkouts', { space, session: e.session_id, seq: e.seq }), text: 'What this checkout handed out' })) : null,
    e.type === 'erasure.recorded' && e.data.seq ? h('p', {}, 'Erased ', cite(space, e.data.seq), '.') : null,
    h('h3', { text: 'Data' }), jsonBlock(e.data),
    h('p', { class: 'muted', text: 'Zaxy\u2019s record of its own work: never retrieved as memory, so there is nothing to act on.' }));
}

const filterNames = ['type', 'session', 'actor', 'from', 'to', 'q'];

export async function render(root, { space, params, go }) {
  const f = Object.fromEntries(filterNames.map((k) => [k, params[k] || '']));
  const head = params.until ? Number(params.until) : await headSeq(space);
  const after = Math.max(0, head - pageSpan);
  const events = head > 0 ? await eventsBetween(space, after, head, f.session) : [];
  const shown = events.filter((e) => passes(e, f));
  const types = [...new Set(events.map((e) => e.type).concat(f.type ? [f.type] : []))].sort();
  const actors = [...new Set(events.map((e) => e.actor || '').filter(Boolean).concat(f.actor ? [f.actor] : []))].sort();
  const keep = (extra) => ({ ...f, until: params.until, ...extra });
  const form = h('form', { class: 'inline', id: 'log-filters', onsubmit: (ev) => {
    ev.preventDefault();
    const el = form.elements;
    go('log', Object.fromEntries(filterNames.map((k) => [k, el[k].value.trim()])));
  } },
  h('label', {}, 'type', h('select', { name: 'type' }, h('option', { value: '', text: 'all types' }), types.map((t) => h('option', { value: t, text: t, selected: t === f.type })))),
  h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: f.session, placeholder: 'all sessions', size: 10 })),
  h('label', {}, 'actor', h('select', { name: 'actor' }, h('option', { value: '', text: 'anyone' }), actors.map((a) => h('option', { value: a, text: a, selected: a === f.actor })))),
  h('label', {}, 'from', h('input', { type: 'date', name: 'from', value: f.from })),
  h('label', {}, 'to', h('input', { type: 'date', name: 'to', value: f.to })),
  h('label', {}, 'keyword', h('input', { type: 'text', name: 'q', value: f.q, placeholder: 'words in content or data' })),
  h('button', { type: 'submit', text: 'Filter' }));
  const detail = h('div', { id: 'event-detail' });
  const landed = params.landed ? events.find((e) => String(e.seq) === params.landed) : null;
  const rows = shown.map((e) => h('tr', {
    class: 'clickable' + (String(e.seq) === params.event ? ' selected' : '') + (String(e.seq) === params.landed ? ' landed' : ''),
    'data-seq': e.seq, 'data-type': e.type,
    onclick: () => go('log', keep({ event: e.seq })),
  },
  h('td', {}, cite(space, e.seq, e.hash)),
  h('td', { class: 'muted nowrap', text: fmtTime(e.occurred_at) }),
  h('td', {}, h('span', { class: 'badge type', text: e.type })),
  h('td', {}, e.session_id ? h('a', { href: route('log', { space, session: e.session_id }), text: e.session_id, onclick: (ev) => ev.stopPropagation() }) : ''),
  h('td', { text: e.actor || '' }),
  h('td', { class: 'summary' }, e.erased_by_seq ? h('span', { class: 'badge bad', text: 'erased by #' + e.erased_by_seq }) : eventSummary(e))));
  mount(root,
    h('h1', { text: 'Log of ' + space }),
    h('p', { class: 'muted', text: `Every event, bookkeeping included, newest first: seqs ${after + 1}–${head}` + (f.session ? ' of session ' + f.session : '') + '. Filters apply to these.' }),
    form,
    landed ? h('p', { class: 'notice', id: 'landed' }, 'Appended ', cite(space, landed.seq, landed.hash), ' ', h('span', { class: 'badge type', text: landed.type }), ' by ' + (landed.actor || '—') + '.') : null,
    h('div', { class: 'split' },
      h('div', { id: 'log-list' },
        shown.length ? h('table', { class: 'log' }, h('thead', {}, h('tr', {}, ['event', 'occurred', 'type', 'session', 'actor', 'what'].map((c) => h('th', { text: c })))), h('tbody', {}, rows))
          : h('p', { class: 'muted', text: 'No event here passes the filters.' }),
        after > 0 ? h('p', {}, h('a', { id: 'log-older', href: route('log', { space, ...f, until: after }), text: 'older events' })) : null),
      detail));
  const chosen = events.find((e) => String(e.seq) === params.event);
  if (chosen && bookkeeping(chosen.type)) {
    mount(detail, bookkeepingCard(space, chosen));
  } else if (params.event) {
    try {
      await showEvent(detail, space, params.event, (seq) => go('log', keep({ event: params.event, landed: seq, until: '' })), chosen);
      detail.append(...await surfacedIn(space, 'ev:' + params.event));
    } catch (e) {
      mount(detail, errorBox(e));
    }
  } else {
    mount(detail, h('p', { class: 'muted', text: 'Choose an event to see it in full and act on it.' }));
  }
}
