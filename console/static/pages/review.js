// Review queue: proposals with their evidence; accept, reject or defer each. Every decision is
// an event appended to the log (proposal.accepted, proposal.rejected, proposal.deferred), and
// accepting a belief update also appends the fact it proposes; the receipts are shown.
import { api, spacePath, itemPath } from '../api.js';
import { h, mount, cite, fmtTime, kv, num, jsonBlock, errorBox, route } from '../dom.js';

export async function render(root, { space, params, go }) {
  const status = params.status || 'open';
  const filter = h('form', { class: 'inline', onsubmit: (ev) => ev.preventDefault() },
    h('label', {}, 'status', h('select', { name: 'status', onchange: (ev) => go('review', { status: ev.target.value }) },
      ['open', 'pending', 'deferred', 'accepted', 'rejected'].map((s) => h('option', { value: s, text: s, selected: s === status })))),
    h('label', {}, 'decided by', h('input', { type: 'text', id: 'reviewer', value: sessionStorage.getItem('zaxy.console.reviewer') || 'console' })));
  const list = h('div', { id: 'proposals' });
  mount(root, h('h1', { text: 'Review queue' }), filter, list);
  const page = await api('GET', spacePath(space, '/proposals'), undefined, { status, limit: 50 });
  if (!page.proposals.length) { mount(list, h('p', { class: 'muted', text: 'No ' + status + ' proposals.' })); return; }
  const cards = [];
  for (const p of page.proposals) cards.push(await proposalCard(space, p, () => go('review', { status, t: Date.now() })));
  mount(list, cards, page.next_after_seq ? h('p', { class: 'muted', text: 'More proposals follow; decide these first.' }) : null);
}

async function evidenceLines(space, evidence) {
  const out = [];
  for (const ev of evidence.slice(0, 10)) {
    try {
      const it = await api('GET', itemPath(space, 'ev:' + ev.seq));
      out.push(h('li', {}, cite(space, ev.seq, ev.hash), ' ', h('span', { class: 'badge type', text: it.event.type }), ' ', it.event.content || JSON.stringify(it.event.data)));
    } catch (e) {
      out.push(h('li', {}, cite(space, ev.seq, ev.hash), ' ', errorBox(e)));
    }
  }
  return out;
}

/** A fact by its statement, linked to its page (its id when it cannot be read). */
async function factName(space, id) {
  const bare = String(id).replace(/^fact:/, '');
  try {
    const it = await api('GET', itemPath(space, 'fact:' + bare));
    return h('a', { href: route('entity', { space, fact: bare }), title: bare, text: it.fact.statement + ' (v' + it.fact.version + ')' });
  } catch {
    return h('code', { text: id });
  }
}

async function proposalCard(space, p, reload) {
  const result = h('div', { class: 'result' });
  const reason = h('input', { type: 'text', class: 'wide', placeholder: 'reason (optional)', 'aria-label': 'reason' });
  const open = p.status === 'pending' || p.status === 'deferred';
  const decide = (decision) => async () => {
    const actor = document.getElementById('reviewer').value.trim() || 'console';
    sessionStorage.setItem('zaxy.console.reviewer', actor);
    try {
      const d = await api('POST', spacePath(space, `/proposals/${p.seq}/${decision}`), { actor, reason: reason.value.trim() || undefined });
      mount(result, h('div', { class: 'notice', 'data-decided': d.status },
        'Proposal #' + p.seq + ' ' + d.status + '; appended ', d.events.map((r) => [cite(space, r.seq, r.hash), ' ']),
        h('button', { type: 'button', text: 'Refresh queue', onclick: reload })));
      for (const b of card.querySelectorAll('button.decide')) b.disabled = true;
    } catch (e) {
      mount(result, errorBox(e));
    }
  };
  const fact = p.fact ? (typeof p.fact === 'string' ? JSON.parse(p.fact) : p.fact) : null;
  const card = h('section', { class: 'card proposal', 'data-proposal': p.seq },
    h('h2', {}, 'Proposal ', cite(space, p.seq, p.hash), ' ', h('span', { class: 'badge type', text: p.kind }), ' ', h('span', { class: 'badge', text: p.status })),
    kv([['proposed by', p.proposed_by], ['proposed at', fmtTime(p.proposed_at)],
      p.confidence !== undefined ? ['confidence', num(p.confidence, 2)] : null,
      fact ? ['fact', `${fact.subject} ${fact.predicate} ${fact.object !== undefined ? fact.object : JSON.stringify(fact.value)}`] : null,
      p.contradicts ? ['contradicts', await factName(space, p.contradicts)] : null,
      p.rationale ? ['rationale', p.rationale] : null,
      p.decided_seq ? ['decided', h('span', {}, cite(space, p.decided_seq), ' by ' + p.decided_by + ' ' + fmtTime(p.decided_at) + (p.reason ? ': ' + p.reason : ''))] : null,
      p.inference ? ['inference', jsonBlock(p.inference)] : null]),
    h('h3', { text: 'Evidence' }),
    h('ul', {}, await evidenceLines(space, p.evidence)),
    open ? h('div', { class: 'actions' }, reason,
      h('button', { type: 'button', class: 'decide accept', 'data-action': 'accept', text: 'Accept', onclick: decide('accept') }),
      h('button', { type: 'button', class: 'decide reject', 'data-action': 'reject', text: 'Reject', onclick: decide('reject') }),
      h('button', { type: 'button', class: 'decide', 'data-action': 'defer', text: 'Defer', onclick: decide('defer') })) : null,
    result);
  return card;
}
