// Entities and fact history: an entity's fact versions (validity windows, versions, who
// asserted them, supersessions, closing events) and the events that mention it; a fact's every
// version of its (subject, predicate) pair, with the actions that can be taken on it.
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, route, fmtTime, labels, cite, kv, table, num } from '../dom.js';
import { statement } from './timeline.js';
import { actionsPanel } from './actions.js';
import { surfacedIn } from './log.js';

export async function render(root, { space, params, go }) {
  const form = h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('entity', { entity: form.elements.entity.value.trim() }); } },
    h('label', {}, 'entity (name or id)', h('input', { type: 'text', name: 'entity', value: params.entity || '', class: 'wide' })),
    h('button', { type: 'submit', text: 'Show' }));
  const body = h('div', { id: 'entity-body' });
  mount(root, h('h1', { text: 'Entities and fact history' }), form, body);
  if (params.fact) return showFact(body, space, params.fact, go);
  if (params.entity) return showEntity(body, space, params.entity);
  const idx = await api('GET', spacePath(space, '/index'), undefined, { max_tokens: 2000 });
  mount(body,
    h('h2', { text: 'Entities' }),
    idx.entities.length ? table(['entity', 'mentions', 'facts', 'first', 'last', 'labels'], idx.entities.map((e) => [
      h('a', { href: route('entity', { space, entity: e.ref }), text: e.name }), num(e.count, 0), num(e.facts || 0, 0),
      '#' + e.first_seq, '#' + e.last_seq, labels(e.labels)]), { class: 'entities' })
      : h('p', { class: 'muted', text: 'No entities yet (the projector may not have reached this space).' }),
    idx.omitted && idx.omitted.entities ? h('p', { class: 'muted', text: idx.omitted.entities + ' more: type a name above.' }) : null);
}

/** The actors who appended each seq, read one event at a time from the log (at most 50). */
async function actors(space, seqs) {
  const out = new Map();
  for (const seq of [...new Set(seqs)].slice(0, 50)) {
    const page = await api('GET', spacePath(space, '/events'), undefined, { after_seq: seq - 1, limit: 1 });
    if (page.events.length) out.set(seq, page.events[0].actor || '—');
  }
  return out;
}

/** A fact version by name: "v<version>: <statement>" when list holds it, else its short id. */
function versionName(list, id) {
  const f = list.find((x) => x.id === id);
  return f ? 'v' + f.version + ': ' + statement(f) : id.slice(0, 12) + '…';
}

function factRows(space, facts, who) {
  return facts.map((f) => [
    h('a', { href: route('entity', { space, fact: f.id }), text: statement(f) }),
    'v' + f.version,
    fmtTime(f.valid_from) + ' → ' + (f.valid_to ? fmtTime(f.valid_to) : 'now'),
    h('span', { class: 'badge ' + (f.status === 'current' ? 'ok' : 'label'), text: f.status }),
    h('span', {}, cite(space, f.recorded_seq, f.recorded_hash), ' by ' + (who.get(f.recorded_seq) || '…')),
    f.superseded_by ? h('a', { href: route('entity', { space, fact: f.superseded_by }), title: f.superseded_by, text: versionName(facts, f.superseded_by) }) : '',
    f.closed_seq ? h('span', {}, cite(space, f.closed_seq), f.close_reason ? ' ' + f.close_reason : '') : '',
    f.authority + (f.inferred ? ' (inferred)' : '') + ' · ' + f.review_status,
  ]);
}

const factHeaders = ['statement', 'version', 'valid', 'status', 'recorded (asserted by)', 'superseded by', 'closed', 'authority · review'];

async function showEntity(root, space, name) {
  const resolved = await api('GET', spacePath(space, '/entities/' + encodeURIComponent(name)));
  const it = await api('GET', itemPath(space, resolved.entity.id));
  const e = it.entity;
  const who = await actors(space, e.facts.map((f) => f.recorded_seq));
  mount(root, h('section', { class: 'card', 'data-entity': e.id },
    h('h2', {}, e.name, ' ', labels(e.kinds, 'type'), labels(it.labels)),
    kv([['id', h('code', { text: e.id })], ['key', e.key], ['first seen', cite(space, e.first_seq, e.first_hash)], ['mentions', num(e.mentions, 0)],
      ['graph', h('a', { href: route('graph', { space, entity: e.id }), text: 'neighbourhood' })],
      e.invalidated ? ['invalidated', h('span', {}, cite(space, e.invalidated.by.seq, e.invalidated.by.hash), ' ' + e.invalidated.reason)] : null]),
    h('h3', { text: `Fact versions (${e.facts.length} of ${e.facts_total}, newest first, as subject or object)` }),
    e.facts.length ? table(factHeaders, factRows(space, e.facts, who), { class: 'facts' }) : h('p', { class: 'muted', text: 'No facts.' }),
    h('h3', { text: `Mentioned in (${e.mentioned_in.length} of ${e.mentioned_in_total})` }),
    h('ul', {}, e.mentioned_in.map((m) => h('li', {}, cite(space, m.seq, m.hash), ' ', h('span', { class: 'badge type', text: m.type }), ' ', m.summary)))));
}

async function showFact(root, space, id, go) {
  const it = await api('GET', itemPath(space, id.startsWith('fact:') ? id : 'fact:' + id));
  const f = it.fact;
  const who = await actors(space, f.versions.map((v) => v.recorded_seq));
  mount(root, h('section', { class: 'card', 'data-fact': f.id },
    h('h2', {}, f.statement, ' ', labels(it.labels)),
    kv([['fact', h('code', { text: f.id })], ['version', 'v' + f.version], ['status', f.status],
      ['valid', fmtTime(f.valid_from) + ' → ' + (f.valid_to ? fmtTime(f.valid_to) : 'now')],
      ['recorded', h('span', {}, cite(space, f.recorded_seq, f.recorded_hash), ' by ' + (who.get(f.recorded_seq) || '—'))],
      ['evidence', h('span', {}, f.evidence.map((ev) => [cite(space, ev.seq, ev.hash), ' ']))],
      f.superseded_by ? ['superseded by', h('a', { href: route('entity', { space, fact: f.superseded_by }), title: f.superseded_by, text: versionName(f.versions, f.superseded_by) })] : null,
      f.closed_seq ? ['closed', h('span', {}, cite(space, f.closed_seq), ' ' + (f.close_reason || ''))] : null,
      ['authority', f.authority + (f.inferred ? ' (inferred)' : '')], ['review', f.review_status],
      f.confidence !== undefined ? ['confidence', num(f.confidence, 2)] : null,
      ['subject', h('a', { href: route('entity', { space, entity: f.subject.id }), text: f.subject.name })]]),
    h('h3', { text: 'Every version of ' + f.subject.name + ' ' + f.predicate + ' (oldest first)' }),
    table(factHeaders, factRows(space, f.versions, who), { class: 'versions' }),
    h('pre', { class: 'mono', text: it.text }),
    actionsPanel(space, { factId: f.id }, (seq) => go('log', { landed: seq }))));
  root.append(...await surfacedIn(space, 'fact:' + f.id));
}
