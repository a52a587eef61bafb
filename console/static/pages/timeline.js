// Timeline of a space or one session: typed events rendered as readable lines with their
// citations; choosing one shows the event in full (content, data, cues, the facts it recorded,
// the entities it mentions, its invalidations and its chain link).
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, route, fmtTime, labels, cite, kv, jsonBlock, errorBox } from '../dom.js';

export async function render(root, { space, params, go }) {
  const session = params.session || '';
  const form = h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('timeline', { session: form.elements.session.value.trim() }); } },
    h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: session, placeholder: 'all sessions' })),
    h('button', { type: 'submit', text: 'Show' }));
  const detail = h('div', { id: 'event-detail' });
  const list = h('div', { id: 'timeline-list' });
  mount(root, h('h1', { text: 'Timeline of ' + space + (session ? ', session ' + session : '') }), form, h('div', { class: 'split' }, list, detail));
  const t = await api('GET', spacePath(space, '/timeline'), undefined, { session_id: session, max_tokens: 4000, before_seq: params.before });
  const rows = t.entries.map((e) => h('tr', { class: 'clickable' + (String(e.seq) === params.event ? ' selected' : ''), 'data-seq': e.seq, onclick: () => go('timeline', { session, before: params.before, event: e.seq }) },
    h('td', {}, cite(space, e.seq, e.hash)),
    h('td', { class: 'muted', text: fmtTime(e.occurred_at) }),
    h('td', {}, h('span', { class: 'badge type', text: e.type })),
    h('td', {}, e.session_id ? h('a', { href: route('timeline', { space, session: e.session_id }), text: e.session_id, onclick: (ev) => ev.stopPropagation() }) : ''),
    h('td', { text: e.actor || '' }),
    h('td', {}, e.summary, ' ', labels(e.labels), e.invalidated ? h('span', { class: 'muted' }, ' invalidated by ', cite(space, e.invalidated.by.seq, e.invalidated.by.hash), e.invalidated.reason ? ': ' + e.invalidated.reason : '') : null)));
  mount(list,
    t.entries.length ? h('table', { class: 'timeline' }, h('thead', {}, h('tr', {}, ['event', 'occurred', 'type', 'session', 'actor', 'summary'].map((c) => h('th', { text: c })))), h('tbody', {}, rows))
      : h('p', { class: 'muted', text: 'No actions or decisions yet.' }),
    t.more ? h('p', {}, h('a', { href: route('timeline', { space, session, before: t.next_before_seq }), text: 'older entries' })) : null,
    h('p', { class: 'muted', text: 'Shows decisions, tasks, tool calls, fact changes, invalidations, preferences and messages; other types are in the index (docs/disclosure.md).' }));
  if (params.event) await showEvent(detail, space, params.event);
  else mount(detail, h('p', { class: 'muted', text: 'Choose an event to see it in full.' }));
}

async function showEvent(root, space, seq) {
  try {
    const it = await api('GET', itemPath(space, 'ev:' + seq));
    const e = it.event;
    mount(root, h('section', { class: 'card', 'data-event': e.seq },
      h('h2', {}, 'Event ', cite(space, e.seq, e.hash), ' ', h('span', { class: 'badge type', text: e.type }), labels(it.labels)),
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
      h('h3', { text: 'Citations' }), h('p', {}, it.citations.map((c) => [cite(space, c.seq, c.hash), ' ']))));
  } catch (e) {
    mount(root, errorBox(e));
  }
}

/** A fact version as a sentence: subject predicate object (or value). */
export function statement(f) {
  const obj = f.object ? f.object.name : (f.value !== undefined ? (typeof f.value === 'string' ? f.value : JSON.stringify(f.value)) : '');
  return `${f.subject.name} ${f.predicate} ${obj}`.trim();
}
