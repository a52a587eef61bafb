// What agents received: the recorded checkouts (checkout.surfaced events) of a space or one
// session, newest first; choosing one shows the packet as it was handed out, re-rendered from
// the log as of that checkout (GET /checkouts/{seq}) and checked against the SHA-256 the
// checkout recorded of its text: item by item, each line handed out, or why it can no longer
// be shown (an erased item's text never is). A record from before renderings were recorded
// lists its items with what each reads now, marked "not recorded as rendered".
import { api, itemPath, spacePath } from '../api.js';
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

/** The badge of a recorded packet's or item's status. */
function statusBadge(status, reason) {
  const text = { matches: 'matches what was handed out', differs: 'differs from what was handed out', erased: 'erased',
    missing: 'no longer in memory', not_recorded_as_rendered: 'not recorded as rendered' }[status] || status;
  return h('span', { class: 'badge ' + (status === 'matches' ? 'ok' : status === 'not_recorded_as_rendered' ? 'label' : 'bad'), 'data-status': status, title: reason || null, text });
}

async function showRecord(root, space, e) {
  const d = e.data;
  const rec = await api('GET', spacePath(space, '/checkouts/' + e.seq));
  const items = rec.items || [];
  const rendered = rec.status !== 'not_recorded_as_rendered';
  const texts = rendered ? [] : await Promise.all(items.slice(0, 60).map((it) => itemText(space, it.item_id)));
  const lanes = new Map((d.items || []).map((it, i) => [i, it]));
  const tiers = [...new Set(items.map((it) => it.tier))];
  mount(root, h('section', { class: 'card', 'data-checkout': e.seq, 'data-status': rec.status },
    h('h2', {}, 'Checkout ', cite(space, e.seq, e.hash), ' ', statusBadge(rec.status)),
    kv([['recorded', fmtTime(e.recorded_at)], ['session', e.session_id || '—'], ['actor', e.actor || '—'], ['purpose', d.purpose || '—'],
      ['budget', num(d.used_tokens, 0) + ' of ' + num(d.max_tokens, 0) + ' tokens' + (rec.tokenizer ? ' (' + rec.tokenizer + ')' : '')], ['policy', d.policy_version || '—'],
      ['query', h('span', {}, 'not recorded; its sha256 is ', h('code', { text: d.query_sha256 || '—' }))],
      rendered ? ['text sha256', h('span', {}, h('code', { text: rec.recorded_sha256 }), rec.status === 'matches' ? ' (recorded; the re-rendered text has the same)' : h('span', {}, ' recorded, ', h('code', { text: rec.rendered_sha256 }), ' re-rendered'))] : null,
      d.weave ? ['weave', h('span', { text: (d.weave.artifact_ids || []).length + ' artifacts' + (rec.weave_not_rendered ? '; its text is not re-rendered (the hash covers the tiers)' : '') })] : null]),
    rendered
      ? h('p', { class: rec.status === 'matches' ? 'muted' : 'notice', text: rec.status === 'matches'
        ? 'The packet below is re-rendered from the log as of this checkout; its SHA-256 is the one the checkout recorded of the text it handed out, so this is that text.'
        : 'The packet re-rendered from the log no longer matches the text handed out: the items marked below changed since or were erased (an erased item\u2019s text is never shown).' })
      : h('p', { class: 'notice', text: 'Not recorded as rendered: this checkout was recorded without what re-renders its text, so the text beside each item is that item as it reads now.' }),
    tiers.map((tier) => [
      h('h3', { text: 'Tier ' + tier }),
      h('table', { class: 'surfaced' },
        h('thead', {}, h('tr', {}, ['ref', 'item', 'cites', 'lanes (rank)', rendered ? 'as handed out' : 'now reads'].map((c) => h('th', { text: c })))),
        h('tbody', {}, items.map((it, i) => [it, i]).filter(([it]) => it.tier === tier).map(([it, i]) => h('tr', { 'data-item-id': it.item_id, 'data-status': it.status },
          h('td', { class: 'num', text: it.ref }),
          h('td', {}, itemLink(space, it.item_id), (lanes.get(i) || {}).attenuated ? h('span', { class: 'badge label', text: 'attenuated' }) : null),
          h('td', {}, (it.seqs || []).map((s) => [cite(space, s), ' '])),
          h('td', { class: 'mono', text: Object.entries((lanes.get(i) || {}).lanes || {}).map(([l, v]) => l + ' ' + v.rank).join(', ') }),
          rendered
            ? h('td', {}, it.status === 'matches' ? null : [statusBadge(it.status, it.reason), ' '],
              it.erased_by_seq ? h('span', {}, 'erased by ', cite(space, it.erased_by_seq), it.reason ? ' (' + it.reason + ')' : '') : it.line ? h('span', { class: 'mono', text: it.line }) : h('span', { class: 'muted', text: it.reason || '' }),
              it.status === 'differs' && it.reason ? h('div', { class: 'muted', text: it.reason }) : null)
            : h('td', {}, statusBadge(it.status), ' ', i < texts.length ? texts[i] : '')))))]),
    !rendered && items.length > 60 ? h('p', { class: 'muted', text: (items.length - 60) + ' more items are not resolved to text.' }) : null,
    items.length ? null : h('p', { class: 'muted', text: 'The packet held no item.' }),
    rendered ? [h('h3', { text: 'The packet as rendered' }), h('pre', { id: 'recorded-text', class: 'mono', text: rec.text })] : null));
}
