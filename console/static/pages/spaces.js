// Spaces: every space the token reaches with its events, projection lag and pending
// proposals; for the chosen space, its chain status, salience histogram and pending proposals.
import { api, spacePath } from '../api.js';
import { h, mount, table, route, fmtTime, num, errorBox, cite, kv } from '../dom.js';

export async function render(root, { space, spaces }) {
  const rows = spaces.spaces.map((s) => [
    h('a', { href: route('spaces', { space: s.space_id }), text: s.space_id }),
    num(s.head_seq, 0), num(s.lag, 0), fmtTime(s.head_at), fmtTime(s.projected_at),
    s.pending_proposals ? h('a', { href: route('review', { space: s.space_id }), text: num(s.pending_proposals, 0) }) : '0',
    h('span', {}, h('a', { href: route('timeline', { space: s.space_id }), text: 'timeline' }), ' · ',
      h('a', { href: route('checkout', { space: s.space_id }), text: 'checkout' }), ' · ',
      h('a', { href: route('chain', { space: s.space_id }), text: 'chain' })),
  ]);
  const detail = h('div', { class: 'grid', id: 'space-detail' });
  mount(root,
    h('h1', { text: 'Spaces' }),
    h('p', { class: 'muted', text: spaces.all_spaces ? 'This token reaches every space.' : 'The spaces this token reaches.' }),
    spaces.spaces.length ? table(['space', 'events', 'lag', 'last event', 'projected at', 'pending proposals', ''], rows,
      { class: 'spaces', rowAttrs: (i) => ({ class: spaces.spaces[i].space_id === space ? 'selected' : null, 'data-space': spaces.spaces[i].space_id }) })
      : h('p', { class: 'notice', text: 'No space yet.' }),
    space ? h('h2', { text: 'Space ' + space }) : null,
    detail);
  if (!space) return;
  const [chain, salience, proposals] = await Promise.allSettled([
    api('GET', spacePath(space, '/verify')),
    api('GET', spacePath(space, '/salience')),
    api('GET', spacePath(space, '/proposals'), undefined, { status: 'pending', limit: 10 }),
  ]);
  detail.append(
    card('Chain', chain, (v) => kv([
      ['status', h('span', { class: 'badge ' + (v.ok ? 'ok' : 'bad'), 'data-chain': v.ok ? 'ok' : 'broken', text: v.ok ? 'verified' : 'broken at #' + v.broken_seq })],
      ['events', num(v.events, 0)],
      ['head', v.head_seq ? cite(space, v.head_seq, v.head_hash) : '—'],
      v.ok ? null : ['reason', v.reason],
    ])),
    card('Salience', salience, histogram),
    card('Pending proposals', proposals, (v) => v.proposals.length
      ? h('ul', {}, v.proposals.map((p) => h('li', { 'data-proposal': p.seq }, cite(space, p.seq, p.hash), ' ', h('span', { class: 'badge', text: p.kind }), ' ',
        proposalFact(p) ? h('span', { class: 'proposal-fact', text: proposalFact(p) + ' ' }) : null,
        'by ' + p.proposed_by + ' ', fmtTime(p.proposed_at))),
        h('a', { href: route('review', { space }), text: 'open the review queue' }))
      : h('p', { class: 'muted', text: 'Nothing waits for review.' })));
}

/** The fact a proposal proposes, as a sentence ('' for a proposal of no fact, e.g. a skill). */
export function proposalFact(p) {
  const f = p.fact ? (typeof p.fact === 'string' ? JSON.parse(p.fact) : p.fact) : null;
  if (!f) return '';
  return `${f.subject} ${f.predicate} ${f.object !== undefined ? f.object : JSON.stringify(f.value)}`;
}

function card(title, settled, body) {
  return h('section', { class: 'card' }, h('h3', { text: title }), settled.status === 'fulfilled' ? body(settled.value) : errorBox(settled.reason));
}

/** The salience histogram: ten bars over [0, 1], heights set through the CSSOM (no inline styles). */
export function histogram(v) {
  if (!v.materialised) return h('p', { class: 'muted', text: 'Salience not materialised yet (the salience_decay job has not run for this space).' });
  const max = Math.max(1, ...v.buckets);
  const bars = v.buckets.map((n, i) => {
    const bar = h('div', { class: 'bar', title: `${(i / v.buckets.length).toFixed(1)}–${((i + 1) / v.buckets.length).toFixed(1)}: ${n} items` });
    bar.style.height = (100 * n / max) + '%';
    return bar;
  });
  return h('div', { class: 'salience' },
    h('div', { class: 'hist' }, bars),
    h('div', { class: 'hist-labels' }, v.buckets.map((_, i) => h('span', { text: (i / v.buckets.length).toFixed(1) }))),
    h('p', { class: 'muted', text: `${v.buckets.reduce((a, b) => a + b, 0)} items; ${v.attenuated} attenuated (out of default ranking).` }));
}
