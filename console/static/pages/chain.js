// Chain: verifies a space's hash chain in the server (GET /verify) and shows the first broken
// seq, if any, with what is wrong there.
import { api, spacePath } from '../api.js';
import { h, mount, kv, num, cite, route } from '../dom.js';

export async function render(root, { space, params, go }) {
  const method = params.method || 'go';
  const out = h('div', { id: 'chain-result' });
  mount(root, h('h1', { text: 'Chain of ' + space }),
    h('form', { class: 'inline', onsubmit: (ev) => { ev.preventDefault(); go('chain', { method: ev.target.elements.method.value, t: Date.now() }); } },
      h('label', {}, 'method', h('select', { name: 'method' }, ['go', 'sql'].map((m) => h('option', { value: m, text: m === 'go' ? 'go (recompute in the server)' : 'sql (zaxy_verify in Postgres)', selected: m === method })))),
      h('button', { type: 'submit', text: 'Verify again' })),
    out);
  const v = await api('GET', spacePath(space, '/verify'), undefined, { method });
  mount(out, h('section', { class: 'card', 'data-chain': v.ok ? 'ok' : 'broken' },
    h('h2', {}, v.ok ? h('span', { class: 'badge ok', text: 'verified' }) : h('span', { class: 'badge bad', text: 'broken' }), ' ', v.ok ? 'Every link checks out.' : 'The chain is broken.'),
    kv([['events', num(v.events, 0)], ['head', v.head_seq ? cite(space, v.head_seq, v.head_hash) : '—'], ['head hash', h('code', { text: v.head_hash || '—' })],
      v.ok ? null : ['first broken seq', h('a', { id: 'broken-seq', href: route('timeline', { space, event: v.broken_seq }), text: '#' + v.broken_seq })],
      v.ok ? null : ['reason', v.reason], ['method', v.method]]),
    h('p', { class: 'muted', text: 'docs/eventloom.md specifies the hashed bytes, so `zaxy verify` or an independent program can re-check an exported log.' })));
}
