// Timeline of a space or one session: typed events rendered as readable lines with their
// citations, filtered by type; choosing one shows the event in full (content, data, cues, the
// facts it recorded, the entities it mentions, its invalidations and its chain link) with the
// actions that can be taken on it (actions.js).
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, route, fmtTime, labels, cite, kv, jsonBlock, errorBox } from '../dom.js';
import { actionsPanel } from './actions.js';

export async function render(root, { space, params, go }) {
  const session = params.session || '';
  const type = params.type || '';
  const form = h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('timeline', { session: form.elements.session.value.trim(), type: form.elements.type.value }); } },
    h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: session, placeholder: 'all sessions' })),
    h('label', {}, 'type', h('select', { name: 'type', onchange: () => form.requestSubmit() }, h('option', { value: '', text: 'all types' }),
      timelineTypes.map((t) => h('option', { value: t, text: t, selected: t === type })))),
    h('button', { type: 'submit', text: 'Show' }));
  const detail = h('div', { id: 'event-detail' });
  const list = h('div', { id: 'timeline-list' });
  mount(root, h('h1', { text: 'Timeline of ' + space + (session ? ', session ' + session : '') }), form, h('div', { class: 'split' }, list, detail));
  const t = await api('GET', spacePath(space, '/timeline'), undefined, { session_id: session, max_tokens: 4000, before_seq: params.before });
  const entries = type ? t.entries.filter((e) => e.type === type) : t.entries;
  const rows = entries.map((e) => h('tr', { class: 'clickable' + (String(e.seq) === params.event ? ' selected' : ''), 'data-seq': e.seq, 'data-type': e.type, onclick: () => go('timeline', { session, type, before: params.before, event: e.seq }) },
    h('td', {}, cite(space, e.seq, e.hash)),
    h('td', { class: 'muted nowrap', text: fmtTime(e.occurred_at) }),
    h('td', {}, h('span', { class: 'badge type', text: e.type })),
    h('td', {}, e.session_id ? h('a', { href: route('timeline', { space, session: e.session_id }), text: e.session_id, onclick: (ev) => ev.stopPropagation() }) : ''),
    h('td', { text: e.actor || '' }),
    h('td', {}, e.summary, ' ', labels(e.labels), e.invalidated ? h('span', { class: 'muted' }, ' invalidated by ', cite(space, e.invalidated.by.seq, e.invalidated.by.hash), e.invalidated.reason ? ': ' + e.invalidated.reason : '') : null)));
  mount(list,
    entries.length ? h('table', { class: 'timeline' }, h('thead', {}, h('tr', {}, ['event', 'occurred', 'type', 'session', 'actor', 'summary'].map((c) => h('th', { text: c })))), h('tbody', {}, rows))
      : h('p', { class: 'muted', text: type ? 'No ' + type + ' here.' : 'No actions or decisions yet.' }),
    t.more ? h('p', {}, h('a', { href: route('timeline', { space, session, type, before: t.next_before_seq }), text: 'older entries' })) : null,
    h('p', { class: 'muted' }, 'Shows decisions, tasks, tool calls, fact changes, invalidations, preferences and messages; every other event (pins, feedback, checkouts, erasures, proposals) is in ',
      h('a', { href: route('log', { space, session }), text: 'the log' }), '.'));
  if (params.event) await showEvent(detail, space, params.event, (seq) => go('log', { session, event: params.event, landed: seq }));
  else mount(detail, h('p', { class: 'muted', text: 'Choose an event to see it in full.' }));
}

/** The event types the timeline view holds (GET /timeline), for its type filter. */
const timelineTypes = ['decision.recorded', 'task.updated', 'tool_call.completed', 'fact.asserted', 'fact.retracted',
  'memory.invalidated', 'preference.stated', 'message'];

/**
 * Shows event seq of space in full in root, with the actions panel (actions.js) when onLanded
 * is given: onLanded(seq, type) runs when an action's event is in the log. replayed, when
 * given, is the event as GET /events returned it (which says whether it was erased).
 */
export async function showEvent(root, space, seq, onLanded, replayed) {
  try {
    const it = await api('GET', itemPath(space, 'ev:' + seq));
    const e = it.event;
    const erased = e.erased_by_seq || (replayed && replayed.erased_by_seq);
    mount(root, h('section', { class: 'card', 'data-event': e.seq },
      h('h2', {}, 'Event ', cite(space, e.seq, e.hash), ' ', h('span', { class: 'badge type', text: e.type }), labels(it.labels),
        erased ? h('span', { class: 'badge bad', 'data-erased-by': erased }, 'erased by ', cite(space, erased)) : null),
      kv([
        ['actor', e.actor || '—'], ['session', e.session_id || '—'], ['occurred', fmtTime(e.occurred_at)], ['recorded', fmtTime(e.recorded_at)],
        ['hash', h('code', { text: e.hash })], ['prev hash', h('code', { text: e.prev_hash || '—' })], ['projected', e.projected ? 'yes' : 'not yet'],
      ]),
      e.content ? [h('h3', { text: 'Content' }), h('pre', { text: e.content })] : null,
      e.data && Object.keys(e.data).length ? [h('h3', { text: 'Data' }), jsonBlock(e.data)] : null,
      e.cues && Object.keys(e.cues).length ? [h('h3', { text: 'Cues' }), kv(Object.entries(e.cues).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))] : null,
      e.facts && e.facts.length ? [h('h3', { text: 'Facts it recorded' }), h('ul', {}, e.facts.map((f) => h('li', {},
        h('a', { href: route('entity', { space, fact: f.id }), text: statement(f) }), ' ', h('span', { class: 'badge', text: f.status }))))] : null,
      e.mentions && e.mentions.length ? [h('h3', { text: 'Mentions' }), h('ul', {}, e.mentions.map((m) => h('li', {},
        h('a', { href: route('entity', { space, entity: m.entity_id }), text: m.name }), ' ', h('span', { class: 'muted', text: m.kind + ' at bytes ' + m.start + '–' + m.end }))))] : null,
      e.invalidations && e.invalidations.length ? [h('h3', { text: 'Invalidated by' }), h('ul', {}, e.invalidations.map((v) => h('li', {}, cite(space, v.by.seq, v.by.hash), ' ', v.reason)))] : null,
      h('h3', { text: 'Citations' }), h('p', {}, it.citations.map((c) => [cite(space, c.seq, c.hash), ' '])),
      onLanded ? actionsPanel(space, { seq: e.seq }, onLanded, { erased: !!erased }) : null));
  } catch (e) {
    mount(root, errorBox(e));
  }
}

/** A fact version as a sentence: subject predicate object (or value). */
export function statement(f) {
  const obj = f.object ? f.object.name : (f.value !== undefined ? (typeof f.value === 'string' ? f.value : JSON.stringify(f.value)) : '');
  return `${f.subject.name} ${f.predicate} ${obj}`.trim();
}

/** A raw event (GET /events) as one readable line: its content, or what its data says. */
export function eventSummary(e) {
  const d = e.data || {};
  const seqs = (list) => (list || []).map((s) => '#' + s).join(', ');
  const items = () => [seqs(d.target_seqs), (d.item_ids || []).join(', ')].filter(Boolean).join(', ');
  switch (e.type) {
    case 'fact.asserted': return `${d.subject} ${d.predicate} ${d.object !== undefined ? d.object : JSON.stringify(d.value)}`;
    case 'memory.invalidated': return 'invalidates ' + (d.target_seq ? '#' + d.target_seq : d.target_id) + ': ' + (d.reason || '');
    case 'memory.pinned': return 'pins ' + items() + (d.reason ? ': ' + d.reason : '');
    case 'memory.unpinned': return 'unpins ' + items() + (d.reason ? ': ' + d.reason : '');
    case 'feedback.recorded': return d.signal + ' for ' + items() + (d.comment ? ': ' + d.comment : '');
    case 'erasure.recorded': return 'erases #' + d.seq + ': ' + (d.reason || '');
    case 'checkout.surfaced': return `checkout (${d.purpose || 'answer'}) surfaced ${(d.items || []).length} items in ${d.used_tokens}/${d.max_tokens} tokens` + (d.policy_version ? ', policy ' + d.policy_version : '');
    case 'proposal.accepted': case 'proposal.rejected': case 'proposal.deferred':
      return e.type.slice(9) + ' proposal #' + d.proposal_seq + (d.reason ? ': ' + d.reason : '');
    case 'proposal.created': return (d.kind || 'proposal') + (d.fact ? ': ' + d.fact.subject + ' ' + d.fact.predicate + ' ' + (d.fact.object !== undefined ? d.fact.object : JSON.stringify(d.fact.value)) : '') + (d.rationale ? ' (' + d.rationale + ')' : '');
    default: {
      if (e.content) return e.content.length > 200 ? e.content.slice(0, 200) + '…' : e.content;
      const j = JSON.stringify(d);
      return j === '{}' ? '' : (j.length > 200 ? j.slice(0, 200) + '…' : j);
    }
  }
}
