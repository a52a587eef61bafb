// What agents received: the recorded checkouts (checkout.surfaced events) of a space or one
// session, newest first; choosing one shows what its packet held, item by item, from what the
// record keeps: each item's id, tier and cited seqs, its fusion lanes, and the checkout's
// purpose, budget and policy version. The record keeps neither the query (only its sha256) nor
// the rendered text, so the text shown beside each item is the item as it reads now.
import { api, itemPath } from '../api.js';
import { h, mount, route, fmtTime, cite, kv, num, errorBox } from '../dom.js';
import { eventsBetween, headSeq, pageSpan } from './log.js';
import { eventSummary } from './timeline.js';

/** The route showing an item: an event in the log, a fact on the entities page. */
function itemLink(space, id) {
  if (id.startsWith('ev:')) return h('a', { class: 'mono', href: route('log', { space, event: id.slice(3) }), text: id });
  if (id.startsWith('fact:')) return h('a', { class: 'mono', href: route('entity', { space, fact: id.slice(5) }), text: id });
  return h('a', { class: 'mono', href: route('entity', { space, entity: id }), text: id });
}

/** The item's text as it reads now (GET /items/{id}), one line. */
export async function itemText(space, id) {
  try {
    const it = await api('GET', itemPath(space, id));
    const t = it.fact ? it.fact.statement : it.entity ? it.entity.name : it.event ? String(eventSummary(it.event)) : (it.text || '');
    return t.length > 240 ? t.slice(0, 240) + '…' : t;
  } catch (e) {
    return e.code === 'item_not_found' || e.status === 404 ? '(no longer in memory)' : e.message;
  }
}

export async function render(root, { space, params, go }) {
  const session = params.session || '';
  const form = h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('checkouts', { session: form.elements.session.value.trim() }); } },
    h('label', {}, 'session', h('input', { type: 'text', name: 'session', value: session, placeholder: 'all sessions' })),
    h('button', { type: 'submit', text: 'Show' }));
  const head = params.until ? Number(params.until) : await headSeq(space);
  const after = Math.max(0, head - pageSpan * 10);
  const events = head > 0 ? (await eventsBetween(space, after, head, session)).filter((e) => e.type === 'checkout.surfaced') : [];
  const detail = h('div', { id: 'checkout-record' });
  const rows = events.map((e) => h('tr', { class: 'clickable' + (String(e.seq) === params.seq ? ' selected' : ''), 'data-seq': e.seq, onclick: () => go('checkouts', { session, until: params.until, seq: e.seq }) },
    h('td', {}, cite(space, e.seq, e.hash)),
    h('td', { class: 'muted nowrap', text: fmtTime(e.recorded_at) }),
    h('td', {}, e.session_id ? h('a', { href: route('checkouts', { space, session: e.session_id }), text: e.session_id, onclick: (ev) => ev.stopPropagation() }) : '—'),
    h('td', { text: e.actor || '' }),
    h('td', { text: e.data.purpose || '' }),
    h('td', { class: 'num', text: num((e.data.items || []).length, 0) }),
    h('td', { class: 'num nowrap', text: num(e.data.used_tokens, 0) + ' / ' + num(e.data.max_tokens, 0) }),
    h('td', { class: 'mono nowrap', text: e.data.policy_version || '' })));
  mount(root,
    h('h1', { text: 'Checkouts of ' + space + (session ? ', session ' + session : '') }),
    h('p', { class: 'muted', text: 'What agents received: every checkout recorded in the log (checkout.surfaced), newest first, in seqs ' + (after + 1) + '–' + head + '. The inspector re-runs a query; this page shows what was handed out.' }),
    form,
    h('div', { class: 'split' },
      h('div', { id: 'checkouts-list' },
        events.length ? h('table', { class: 'checkouts' },
          h('thead', {}, h('tr', {}, ['checkout', 'recorded', 'session', 'actor', 'purpose', 'items', 'tokens', 'policy'].map((c) => h('th', { class: c === 'items' || c === 'tokens' ? 'num' : null, text: c })))),
          h('tbody', {}, rows))
          : h('p', { class: 'muted', text: 'No recorded checkout here (a checkout with no_record, such as the inspector\u2019s, records none).' }),
        after > 0 ? h('p', {}, h('a', { href: route('checkouts', { space, session, until: after }), text: 'older checkouts' })) : null),
      detail));
  const chosen = events.find((e) => String(e.seq) === params.seq);
  if (!chosen) { mount(detail, h('p', { class: 'muted', text: 'Choose a checkout to see what its packet held.' })); return; }
  try {
    await showRecord(detail, space, chosen);
  } catch (e) {
    mount(detail, errorBox(e));
  }
}

async function showRecord(root, space, e) {
  const d = e.data;
  const items = d.items || [];
  const texts = await Promise.all(items.slice(0, 60).map((it) => itemText(space, it.item_id)));
  const tiers = [...new Set(items.map((it) => it.tier))];
  mount(root, h('section', { class: 'card', 'data-checkout': e.seq },
    h('h2', {}, 'Checkout ', cite(space, e.seq, e.hash)),
    kv([['recorded', fmtTime(e.recorded_at)], ['session', e.session_id || '—'], ['actor', e.actor || '—'], ['purpose', d.purpose || '—'],
      ['budget', num(d.used_tokens, 0) + ' of ' + num(d.max_tokens, 0) + ' tokens'], ['policy', d.policy_version || '—'],
      ['query', h('span', {}, 'not recorded; its sha256 is ', h('code', { text: d.query_sha256 || '—' }))],
      d.weave ? ['weave', h('span', { text: (d.weave.artifact_ids || []).length + ' artifacts' })] : null]),
    h('p', { class: 'notice', text: 'The record keeps each item\u2019s id, tier and cited events, not the packet\u2019s rendered text: the text beside each item is that item as it reads now.' }),
    tiers.map((tier) => [
      h('h3', { text: 'Tier ' + tier }),
      h('table', { class: 'surfaced' },
        h('thead', {}, h('tr', {}, ['item', 'cites', 'lanes (rank)', 'now reads'].map((c) => h('th', { text: c })))),
        h('tbody', {}, items.map((it, i) => [it, i]).filter(([it]) => it.tier === tier).map(([it, i]) => h('tr', { 'data-item-id': it.item_id },
          h('td', {}, itemLink(space, it.item_id), it.attenuated ? h('span', { class: 'badge label', text: 'attenuated' }) : null),
          h('td', {}, (it.seqs || []).map((s) => [cite(space, s), ' '])),
          h('td', { class: 'mono', text: Object.entries(it.lanes || {}).map(([l, v]) => l + ' ' + v.rank).join(', ') }),
          h('td', { text: i < texts.length ? texts[i] : '' })))))]),
    items.length > 60 ? h('p', { class: 'muted', text: (items.length - 60) + ' more items are not resolved to text.' }) : null,
    items.length ? null : h('p', { class: 'muted', text: 'The packet held no item.' })));
}
